"""Check `gc`: Prop. "Garbage collection" — the GC relations together are a bisimulation,
so collecting garbage changes nothing observable.

The run is compared with a second run of the same initial graph with the collector
switched the other way (on if the run has none, off if it has one): both must reach the
same outcome and value (Prop. "Garbage collection" concludes graph-contextual
equivalence: the same final value), and their observable token behaviour must match — the
same sequence of (rule, direction, computation stack) at pass transitions, except the
passes across contractions (`C`, `rotC`: the passes declared `administrative`), which move
the token without touching a stack and which collecting changes: ≻1/≻2 turn C_{n+1} into
C_n, so where the run without GC copies a box for a garbage user (`copy.dup`, joining the
copies' ¿-doors by a new rotC_2 the token then crosses), the collected run finds a C_1
(`copy.c1`) and no rotC. Strict equality of those passes was our first reading; the deep
run refuted it on a correct collector (tests/test_findings.py), and the paper's sketch
("the lifting … gives a bisimulation") relates states only up to the collected part.
A mismatch is a violation. When the other run stops at a budget and this one does not (the
run without GC keeps its garbage, so it may need more nodes than --max-nodes allows), nothing
is decided: the run ends as a budget, naming the other run, never as a violation. When this
run stops at a budget, the other goes as many steps, and only the observable passes both
made are compared (the two make different numbers of steps for the same passes).
Cost: one more run (with GC: a look at the nodes without input — Graph.inputless, not a
scan of the graph — after each rewrite).
"""

from __future__ import annotations

from .base import Check, declare


def _observe(trace: list):
    def observer(m, rule_id, redex):
        rule = m.rules[rule_id]
        if rule.is_pass and not rule.administrative:
            trace.append((rule_id, m.token.direction, tuple(m.token.stack)))

    return observer


@declare
class GCBisimulation(Check):
    """Collecting garbage changes nothing observable: the run with the collector switched matches this one."""

    name = "gc"
    order = 100
    implements = "Prop. 7.6 \"Garbage collection\" (a bisimulation)"
    values = "compares: the two runs' outcomes and values, and the computation stacks at their passes"

    def initial(self, machine) -> None:
        from ..gc import Collector, has_collector
        from ..machine import clone_machine

        self.trace: list = []
        machine.after.append(_observe(self.trace))
        self.other = clone_machine(machine)
        self.other_trace: list = []
        self.other.after.append(_observe(self.other_trace))
        # the other run has the collector exactly when this one has none
        self.collecting = has_collector(machine)
        if not self.collecting:
            Collector(self.other)

    def at_end(self, machine, outcome) -> None:
        if outcome.status == "budget":  # this run did not end: the other goes as far, and the passes both made are compared
            self.other.run(machine.steps)
            self._same_passes()
            return
        other = self.other.run(max(machine.steps * 2, 1000))
        if other.status == "budget":  # not decided: a budget, never a violation
            from ..values import BudgetExceeded

            which = "without" if self.collecting else "with"
            raise BudgetExceeded(other.limit, f"the run {which} GC that check gc compares with stopped: {other.reason}")
        w, wo = self._collecting_first(outcome, other)
        if (w.status, w.value) != (wo.status, wo.value):
            raise self.fail(f"with and without GC the outcomes differ: {w.status} {w.value} / {wo.status} {wo.value}")
        tw, two = self._same_passes()
        if len(tw) != len(two):
            raise self.fail(f"with and without GC the runs make {len(tw)} and {len(two)} observable pass transitions")

    def _same_passes(self) -> tuple:
        """The observable passes with and without GC (in that order), the same as far as both go."""
        tw, two = self._collecting_first(self.trace, self.other_trace)
        for i, (a, b) in enumerate(zip(tw, two)):
            if a != b:
                raise self.fail(f"with and without GC the token behaves differently at observable pass transition {i + 1}: {a} / {b}")
        return tw, two

    def _collecting_first(self, mine, others) -> tuple:
        """(the collecting run's, the other's) of a pair given as (this run's, the other run's)."""
        return (mine, others) if self.collecting else (others, mine)
