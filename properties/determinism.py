"""Props. A.1 ("alpha-equivalence") and A.2 / Cor. A.3 (Determinism): other orders of the
?-rewrites, a seeded random strategy, and a name permutation all reach the same final state."""

from __future__ import annotations

from goi.semantics.compare import isomorphic
from goi.semantics.machine import RandomStrategy

from .runner import Finding, run, show


def determinism(term, config, seed: int = 0):
    _j, first, outcome = run(term, "determinism", config, checks=["determinism", "alpha"])
    _j, other, again = run(term, "determinism", config, strategy=RandomStrategy(seed))
    if (again.status, again.value, again.transitions) != (outcome.status, outcome.value, outcome.transitions):
        raise Finding("determinism", f"the random strategy (seed {seed}) ends {again.status} {again.value} in {again.transitions} steps, "
                      f"the fixed order {outcome.status} {outcome.value} in {outcome.transitions}", show(term))
    if not isomorphic(first.graph, other.graph, first.token, other.token, ordered_doors=False):
        raise Finding("determinism", f"the final states of the two strategies differ (seed {seed})", show(term))
    return outcome
