"""Props. A.1 ("alpha-equivalence") and A.2 / Cor. A.3 (Determinism): other orders of the
?-rewrites, a seeded random strategy, and a name permutation all reach the same final state."""

from __future__ import annotations

from goi.semantics.compare import isomorphic
from goi.semantics.machine import RandomStrategy

from .examples import programs_of
from .registry import declare
from .runner import Finding, run, show


def _programs_and_seeds(config):
    """A generated program as `term` and a seed for the random strategy."""
    from hypothesis import strategies as st

    return programs_of(config, seed=st.integers(min_value=0, max_value=2**16))


@declare("determinism", order=30, statement="Props. A.1, A.2, Cor. A.3", examples=_programs_and_seeds)
def determinism(term, config, seed: int = 0):
    """Orders of ?-rewrites, strategies and name permutations give the same result."""
    _j, first, outcome = run(term, "determinism", config, checks=["determinism", "alpha"])
    if _one_order(first):
        return outcome  # the random strategy would never be asked: it would make this very run again
    _j, other, again = run(term, "determinism", config, strategy=RandomStrategy(seed))
    if (again.status, again.value, again.transitions) != (outcome.status, outcome.value, outcome.transitions):
        raise Finding("determinism", f"the random strategy (seed {seed}) ends {again.status} {again.value} in {again.transitions} steps, "
                      f"the fixed order {outcome.status} {outcome.value} in {outcome.transitions}", show(term))
    if not isomorphic(first.graph, other.graph, first.token, other.token, ordered_doors=False):
        raise Finding("determinism", f"the final states of the two strategies differ (seed {seed})", show(term))
    return outcome


def _one_order(machine) -> bool:
    """Did the run never offer a choice of ?-rewrite, every ?-state looked at by the check
    `determinism`? Then a random strategy, asked only between two rewrites or more, makes
    the same run rewrite for rewrite, and the second run could only find a machine whose runs
    differ for no reason of order. The check `alpha` of the first run is already such a
    second run (same strategy, another copy of the graph in memory), compared on its outcome,
    steps, rules and final state. Small programs almost never offer a choice."""
    checks = machine.monitor.checks if machine.monitor is not None else ()
    return any(c.name == "determinism" and c.offered_no_choice() for c in checks) and any(c.name == "alpha" for c in checks)
