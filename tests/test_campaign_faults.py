"""A campaign's faults each have an outcome (docs/CAMPAIGNS.md, "Faults"): an address goi cannot
use, a scheduler nobody answers at, one with no worker, a scheduler lost mid-campaign, a
Ctrl-C on a LocalCluster and in a serial campaign, and set-up beyond reach. Each is one line
on standard error, its documented exit code, no traceback, and the checkpoint intact: a
`--resume` afterwards counts every program exactly once. Real `goi` processes, a real Dask
scheduler and worker on 127.0.0.1, stopped by the tests."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from goi.cli import exitcodes

distributed = pytest.importorskip("distributed", reason="the cluster extra: pip install 'goi-abductive[cluster]'")

GOI = [sys.executable, "-m", "goi"]
SIX = "soundness      held    on all 33,766 programs of size ≤ 6"


def goi(*args, **kwargs):
    return subprocess.run([*GOI, *args], capture_output=True, text=True, timeout=600, **kwargs)


def clean(result, code):
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, result.stderr


def start(*args):
    """A goi process in a session of its own, Ctrl-C not ignored (as at a terminal)."""
    return subprocess.Popen([*GOI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def wait_for_records(path: Path, count: int, proc) -> None:
    """Until the checkpoint holds `count` finished shards (counted, not timed)."""
    while True:
        if path.exists() and len(path.read_text(encoding="utf-8").splitlines()) > count:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.2)


def resumed_counts_once(path: Path):
    """A --resume after the fault: here, serially, every program once."""
    again = goi("props", "soundness", "--concrete", "--exhaustive", "6", "--profile", "ci", "--checkpoint", str(path), "--resume")
    clean(again, exitcodes.OK)
    assert SIX in again.stdout
    keys = [json.loads(line)["shard"] for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    assert len(keys) == len(set(keys)) == 87  # each shard of size ≤ 6 recorded once


@pytest.mark.parametrize("address, says", [
    ("ucx://127.0.0.1:1", "not ucx://"),
    ("tls://127.0.0.1:1", "cannot connect to the scheduler"),
    ("tcp://127.0.0.1:1", "cannot connect to the scheduler"),
    ("127.0.0.1:1", "cannot connect to the scheduler"),
])
def test_an_address_goi_cannot_use_is_a_cluster_error(address, says, tmp_path):
    path = tmp_path / "c.jsonl"
    result = goi("props", "soundness", "--concrete", "--exhaustive", "4", "--profile", "ci", "--cluster", address,
                 "--cluster-wait", "2", "--checkpoint", str(path))
    clean(result, exitcodes.UNAVAILABLE)
    assert says in result.stderr and address in result.stderr


@pytest.fixture
def scheduler(tmp_path):
    """A real Dask scheduler on 127.0.0.1 (and, on request, workers), stopped at the end."""
    dask = str(Path(sys.executable).parent / "dask")
    scheduler_file = tmp_path / "scheduler.json"
    procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                               "--scheduler-file", str(scheduler_file)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)]

    def worker():
        procs.append(subprocess.Popen([dask, "worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                                       "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      start_new_session=True))
    try:
        while not (scheduler_file.exists() and scheduler_file.stat().st_size):  # it writes the file once it listens
            assert procs[0].poll() is None
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        yield address, procs, worker
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=60)


def test_a_scheduler_without_workers_is_a_cluster_error(scheduler, tmp_path):
    address, _, _ = scheduler
    result = goi("props", "soundness", "--concrete", "--exhaustive", "4", "--profile", "ci", "--cluster", address,
                 "--cluster-wait", "2")
    clean(result, exitcodes.UNAVAILABLE)
    assert "no worker" in result.stderr


def test_a_scheduler_lost_mid_campaign_keeps_the_checkpoint_for_resume(scheduler, tmp_path):
    address, procs, worker = scheduler
    worker()
    path = tmp_path / "c.jsonl"
    proc = start("props", "soundness", "--concrete", "--exhaustive", "6", "--profile", "ci", "--cluster", address,
                 "--checkpoint", str(path))
    wait_for_records(path, 3, proc)
    os.killpg(procs[0].pid, signal.SIGKILL)  # the scheduler dies
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == exitcodes.UNAVAILABLE, err
    assert "lost the cluster" in err and "--resume" in err and "Traceback" not in err
    resumed_counts_once(path)


def test_ctrl_c_on_a_local_cluster_campaign_is_one_message_and_resumes(tmp_path):
    path = tmp_path / "c.jsonl"
    proc = start("props", "soundness", "--concrete", "--exhaustive", "6", "--profile", "ci", "--cluster", "local",
                 "--checkpoint", str(path))
    wait_for_records(path, 3, proc)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the whole group, workers included
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == exitcodes.INTERRUPTED, err
    assert "Traceback" not in err and "goi: interrupted" in err
    resumed_counts_once(path)


def test_ctrl_c_in_a_serial_campaign_exits_130_without_a_traceback(tmp_path):
    path = tmp_path / "c.jsonl"
    proc = start("props", "soundness", "--concrete", "--exhaustive", "6", "--profile", "ci", "--checkpoint", str(path))
    wait_for_records(path, 3, proc)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == exitcodes.INTERRUPTED and "Traceback" not in err, err


@pytest.mark.parametrize("args, says", [
    (["props", "--exhaustive", "40"], "more than 100,000,000 programs"),
    (["props", "--exhaustive", "10" + "0" * 30], "more than 100,000,000 programs"),
    (["props", "--exhaustive", "16", "--max-campaign", "10" + "0" * 30], "beyond reach"),
    (["props", "--index", "300:0"], "beyond reach"),
    (["props", "--index", "99999999999999999999:0"], "beyond reach"),
    (["props", "--shards", "1000000000"], "at most 100,000"),
    (["props", "--shards", "5000", "--examples", "10"], "more than the 10 examples"),
    (["conjectures", "--exhaustive", "2", "--parts", "1000000"], "at most 100,000"),
    (["conjectures", "--exhaustive", "2", "--context-size", "12"], "instance-in-context checks"),
    (["oracle", "--impl", "true", "--exhaustive", "40", "--no-corpus"], "more than 100,000,000 programs"),
    (["oracle", "--impl", "true", "--shards", "1000000000", "--no-corpus"], "at most 100,000"),
])
def test_set_up_beyond_reach_is_refused_before_any_work(args, says):
    result = goi(*args)
    clean(result, exitcodes.BUDGET)
    assert says in result.stderr and result.stderr.count("\n") <= 3


def test_an_index_past_the_programs_of_its_size_says_how_many_there_are():
    result = goi("props", "soundness", "--index", "5:99999")
    clean(result, exitcodes.USAGE)
    assert "no shape 99,999 of size 5: there are 740" in result.stderr  # shapes, by default
    result = goi("props", "soundness", "--concrete", "--index", "5:99999")
    clean(result, exitcodes.USAGE)
    assert "no program 99,999 of size 5: there are 9,935" in result.stderr


def test_the_campaign_limit_counts_up_to_where_the_count_passes_it():
    """Size ≤ 9 (83,711,363 programs) fits the default 100,000,000; size ≤ 10 does not, and the refusal
    says the count where it stopped (counted, not run)."""
    from goi.generators.enumerate import Enumeration
    from goi.campaigns.runner import MAX_PROGRAMS, exhaustive_counts
    from goi.campaigns.faults import CampaignTooLarge

    counts = exhaustive_counts(Enumeration(), 9)
    assert sum(counts.values()) == 83_711_363 <= MAX_PROGRAMS
    with pytest.raises(CampaignTooLarge, match="479,785,697 of size ≤ 10 alone"):
        exhaustive_counts(Enumeration(), 10)
    with pytest.raises(CampaignTooLarge, match="more than 1,000 programs"):
        exhaustive_counts(Enumeration(), 5, limit=1_000)
    assert sum(exhaustive_counts(Enumeration(), 10, limit=479_785_697).values()) == 479_785_697
