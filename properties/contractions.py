"""Graphs with split contractions (generators.graphs) behave as the translated program:
every per-transition invariant holds and the value is the second opinion's. This is where
copy.merge is exercised (it cannot fire from our translation: docs/RULES.md)."""

from __future__ import annotations


from .invariants import PER_TRANSITION
from .reference import reference_value
from .runner import Finding, run, show


def split_contractions(term, graph, config):
    judgement, _m, outcome = run(term, "contractions", config, checks=PER_TRANSITION, graph=graph)
    expected = reference_value(judgement)
    got = outcome.value
    if outcome.status != "final" or got != expected:
        raise Finding("contractions", f"with split contractions: {outcome.status} {got}; reference {expected}", show(term))
    return outcome
