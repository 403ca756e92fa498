"""Every invariant check of docs/INVARIANTS.md after every transition (the profile decides
exhaustive or sampled whole-graph checks), on the program's run."""

from __future__ import annotations

from .runner import run

PER_TRANSITION = ["form", "names", "graph", "validity", "stability", "productivity", "dataflow"]


def invariants(term, config):
    return run(term, "invariants", config, checks=PER_TRANSITION)[2]
