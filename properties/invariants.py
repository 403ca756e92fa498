"""Every per-transition invariant of docs/INVARIANTS.md on the program's run (the profile
decides exhaustive or sampled whole-graph checks). `validity` includes the name criteria
and the graph criterion, so `names` and `graph` are not run a second time."""

from __future__ import annotations

from .examples import programs_of
from .registry import declare
from .runner import run

PER_TRANSITION = ["form", "validity", "stability", "productivity", "dataflow"]


@declare("invariants", order=20, statement="the appendix's invariants (docs/INVARIANTS.md)", examples=programs_of,
         checks=PER_TRANSITION)
def invariants(term, config):
    """Every check of docs/INVARIANTS.md holds after every transition."""
    return run(term, "invariants", config, checks=PER_TRANSITION)[2]
