"""Graphs with split contractions (generators.graphs) behave as the translated program:
every per-transition invariant holds and the value is the second opinion's. This is where
copy.merge is exercised (it cannot fire from our translation: docs/RULES.md)."""

from __future__ import annotations

from .invariants import PER_TRANSITION
from .registry import declare
from .reference import reference_value
from .runner import Finding, run, show


def _graphs(config):
    """A generated program as `term` and one of its graphs with split contractions as `graph`."""
    from goi.generators.graphs import split_graphs

    return split_graphs(max_depth=config.max_depth).map(lambda case: {"term": case[0], "graph": case[2]})


@declare("contractions", order=70, statement="graphs with split contractions", examples=_graphs)
def split_contractions(term, graph, config):
    """Graphs with split contractions behave as the program's translation."""
    judgement, _m, outcome = run(term, "contractions", config, checks=PER_TRANSITION, graph=graph)
    expected = reference_value(judgement)
    got = outcome.value
    if outcome.status != "final" or got != expected:
        raise Finding("contractions", f"with split contractions: {outcome.status} {got}; reference {expected}", show(term))
    return outcome
