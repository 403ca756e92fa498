"""Check `alpha`: Prop. ""alpha-equivalence" of graph states" — permuting names does not
change an execution: running π·G gives the final state of G up to π.

At the start, the graph is cloned (with the run's strategy, and its collector if it has
one) and a permutation π of its names applied (a cyclic shift
when there are two names or more, a renaming to unused names otherwise). When the run
ends, the copy is run with the same strategy and compared: same outcome, value, number of
steps and rule counts, and final states isomorphic by an isomorphism that maps each
original name x to π(x) (names created during the runs may correspond freely). When the run
stops at a budget, the copy is stopped after as many steps and compared there (given more,
it finished, and the two were told to differ).
Cost: one more run, plus one isomorphism test (O(size) when the ids of the copy's final state
match the original's, as they do when the copy ran as the original did).
"""

from __future__ import annotations

from .base import Check, declare


@declare
class AlphaEquivalence(Check):
    """Permuting names does not change an execution: π·G runs to the final state of G up to π."""

    name = "alpha"
    order = 70
    implements = "Prop. A.1 \"alpha-equivalence of graph states\""
    values = "compares: the two runs' outcomes and values, and the final states' constants"

    def initial(self, machine) -> None:
        from ..gc import mirror

        strategy = type(machine.strategy)(machine.strategy.seed) if hasattr(machine.strategy, "seed") else type(machine.strategy)()
        self.copy = mirror(machine, strategy)
        names = sorted(machine.graph.names())
        if len(names) >= 2:
            self.pi = {a: names[(i + 1) % len(names)] for i, a in enumerate(names)}
        else:
            self.pi = {a: f"π{a}" for a in names}
        self.copy.graph.rename_everywhere(self.pi)

    def at_end(self, machine, outcome) -> None:
        from ..compare import isomorphic, same_by_ids

        # the copy goes in lockstep: after a budget, it is stopped after as many steps and compared there
        other = self.copy.run(machine.steps if outcome.status == "budget" else max(machine.steps * 2, 1000))
        if (other.status, other.value, other.steps) != (outcome.status, outcome.value, outcome.steps):
            raise self.fail(
                f"the name-permuted graph runs differently: {other.status} {other.value} in {other.steps} steps, "
                f"against {outcome.status} {outcome.value} in {outcome.steps}"
            )
        if other.counts != outcome.counts:
            raise self.fail("the name-permuted graph fires different rules")
        labels_original = {a: a for a in self.pi}
        labels_permuted = {b: a for a, b in self.pi.items()}
        # the copy has the original's ids: matching them is usually the isomorphism, checked in
        # O(size); when it is not, the canonical forms decide (same verdict, compare.same_by_ids)
        args = (machine.graph, self.copy.graph, machine.token, self.copy.token, labels_original, labels_permuted)
        if not (same_by_ids(*args) or isomorphic(*args)):
            raise self.fail("the final state of the name-permuted graph is not the final state up to the permutation")
