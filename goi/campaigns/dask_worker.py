"""Loaded by each worker process of goi's own LocalCluster (Dask's `preload`): a Ctrl-C at the
terminal reaches every process of its group, but stopping a campaign is goi's main process's
job — it stops, says so once, and closes the cluster, which ends the workers. A worker that
took the Ctrl-C itself would print its own traceback (docs/CAMPAIGNS.md, "Faults").

Its log lines are silenced as goi's own process silences them (runner._quiet_dask): a worker
whose scheduler closes first logs a failed heartbeat with a traceback on the terminal goi
shares with it; an error in a shard's work is not lost, it reaches goi as the shard's
exception."""

from __future__ import annotations

import logging
import signal


def dask_setup(worker) -> None:
    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the process's main thread: nothing to set here
        pass
