"""Prop. 7.6 (Garbage collection): runs with and without the collector agree on the outcome
and on the observable token behaviour (check `gc`)."""

from __future__ import annotations

from .examples import programs_of
from .registry import declare
from .runner import run


@declare("gc", order=40, statement="Prop. 7.6 (garbage collection)", examples=programs_of)
def gc_bisimulation(term, config):
    """Collecting garbage changes neither the outcome nor the observable token behaviour."""
    return run(term, "gc", config, checks=["gc"], gc=True)[2]
