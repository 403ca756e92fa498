"""Prop. 7.6 (Garbage collection): runs with and without the collector agree on the outcome
and on the observable token behaviour (check `gc`)."""

from __future__ import annotations

from .runner import run


def gc_bisimulation(term, config):
    return run(term, "gc", config, checks=["gc"], gc=True)[2]
