"""Every per-transition invariant of docs/INVARIANTS.md on the program's run (the profile
decides exhaustive or sampled whole-graph checks). `validity` includes the name criteria
and the graph criterion, so `names` and `graph` are not run a second time."""

from __future__ import annotations

from .runner import run

PER_TRANSITION = ["form", "validity", "stability", "productivity", "dataflow"]


def invariants(term, config):
    return run(term, "invariants", config, checks=PER_TRANSITION)[2]
