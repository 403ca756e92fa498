"""A campaign's CPU time: what every process that worked for it spent, so that runs on a loaded
or shared machine or cluster compare by work, not by wall time (docs/CAMPAIGNS.md).

Counted: this process (user and system time, and its finished child processes': the
implementations oracle mode starts), which with a `LocalCluster` also runs the scheduler —
the LocalCluster's workers are its children too, counted once, as workers, not again when
they finish;
each worker's the same way, read from the worker itself (`Client.run`) — from its start for a
LocalCluster started for the campaign, from the campaign's start on a cluster given to it; an
external scheduler's, read from it likewise. A worker that leaves during the campaign takes its
time with it: it is not counted, and the count says how many left."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional


def process_cpu() -> float:
    """Seconds of CPU of this process and of its children that have finished."""
    own, children = own_and_children()
    return own + children


def own_and_children() -> tuple[float, float]:
    """Seconds of CPU of this process, and of its children that have finished."""
    t = os.times()
    return t.user + t.system, t.children_user + t.children_system


@dataclass
class CpuSeconds:
    here: float = 0.0  # this process (a LocalCluster's scheduler runs in it)
    workers: float = 0.0  # the cluster's worker processes (0: none)
    scheduler: Optional[float] = None  # an external scheduler's (None: none, or it could not be read)
    left: int = 0  # workers that left before the end: their time is not counted

    @property
    def total(self) -> float:
        return self.here + self.workers + (self.scheduler or 0.0)

    def to_json(self) -> dict:
        return {"total": round(self.total, 3), "this_process": round(self.here, 3), "workers": round(self.workers, 3),
                "scheduler": None if self.scheduler is None else round(self.scheduler, 3), "workers_left": self.left}

    def describe(self) -> str:
        parts = [f"this process {self.here:.1f} s"]
        if self.workers:
            parts.append(f"workers {self.workers:.1f} s")
        if self.scheduler is not None:
            parts.append(f"scheduler {self.scheduler:.1f} s")
        gone = f"; {self.left} worker(s) left during the run, not counted" if self.left else ""
        return f"CPU time {self.total:.1f} s ({', '.join(parts)}{gone})"


@dataclass
class CpuClock:
    """Started with the campaign; told of the cluster's client once it has one (`attach`) and
    read again before the client closes (`read_cluster`); `stop` gives the CpuSeconds."""

    started: tuple = field(default_factory=own_and_children)
    children_at_cluster_end: Optional[float] = None  # this process's finished children, read with the workers
    workers_at_start: dict = field(default_factory=dict)
    workers_at_end: dict = field(default_factory=dict)
    scheduler_at_start: Optional[float] = None
    scheduler_at_end: Optional[float] = None
    own: bool = False  # a LocalCluster started for this campaign (attach)

    def attach(self, client, own: bool) -> None:
        """`own`: a LocalCluster started for this campaign (its workers' whole time counts, and
        its scheduler is this process)."""
        self.own = own
        if not own:
            self.workers_at_start = _on_workers(client)
            self.scheduler_at_start = _on_scheduler(client)

    def read_cluster(self, client) -> None:
        self.workers_at_end = _on_workers(client)
        # A LocalCluster's workers are this process's children: once it closes, their time
        # is in this process's children's too. Read before, so that it is counted once.
        self.children_at_cluster_end = own_and_children()[1]
        if not self.own:
            self.scheduler_at_end = _on_scheduler(client)

    def stop(self) -> CpuSeconds:
        workers = sum(end - self.workers_at_start.get(w, 0.0) for w, end in self.workers_at_end.items())
        scheduler = None
        if self.scheduler_at_start is not None and self.scheduler_at_end is not None:
            scheduler = max(0.0, self.scheduler_at_end - self.scheduler_at_start)
        left = sum(1 for w in self.workers_at_start if w not in self.workers_at_end)
        own, children = own_and_children()
        if self.own and self.children_at_cluster_end is not None:
            children = self.children_at_cluster_end  # the workers reaped since are counted as workers
        here = own - self.started[0] + children - self.started[1]
        return CpuSeconds(here=here, workers=max(0.0, workers), scheduler=scheduler, left=left)


def _on_workers(client) -> dict:
    try:
        return {w: float(v) for w, v in client.run(process_cpu).items()}
    except Exception:  # a worker gone mid-call, a closed connection: what could not be read is not counted
        return {}


def _on_scheduler(client) -> Optional[float]:
    try:
        return float(client.run_on_scheduler(process_cpu))
    except Exception:
        return None
