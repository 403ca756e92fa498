"""Loaded by each worker process of goi's own LocalCluster (Dask's `preload`): a Ctrl-C at the
terminal reaches every process of its group, but stopping a campaign is goi's main process's
job — it stops, says so once, and closes the cluster, which ends the workers. A worker that
took the Ctrl-C itself would print its own traceback (docs/CAMPAIGNS.md, "Faults")."""

from __future__ import annotations

import signal


def dask_setup(worker) -> None:
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the process's main thread: nothing to set here
        pass
