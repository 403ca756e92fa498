"""Check `determinism`: Props. "Determinism" and "Determinism of execution" — the order of
the ?-rewrites does not matter: every order of one ?-phase ends in the same state, up to
name permutation.

Every order of a ?-phase shares its prefix up to the first state S that offers a choice of
?-rewrite: there (and only in phases that have one) the orders are run — on the machine's
own graph, each inside a *trial* whose surgery is undone afterwards (semantics.trial),
not on clones. Every order starts from S, so the elements no order touched are
the same objects in every end state; the end states are compared on the region the orders
touched (compare.canonical_region: the rest fixed, the names the phase created renamed, a
box's doors a set), which costs O(that region), not O(graph). Each end state is described
on what its own order touched; if the orders touched different elements of S, all are
described again on the union. An order that gets stuck, or whose end state differs, is a
violation, reported at S. The machine then goes on from S, which the trials left as it was.

A box's auxiliary doors are compared as a set, as in the paper: absorption appends the
absorbed box's doors to the list, so the order of doors records the order of absorptions,
a representation detail (docs/INVARIANTS.md).

With check mode `full` the reference runs instead: the state at the first choice is cloned,
the other orders run on clones, and their end states are compared with the machine's own
(at box.close) by canonical forms of the whole graph — O(graph) per order.

Policy: a phase whose orders number at most `determinism_paths` (default 24) is explored
exhaustively; a larger one by its first `determinism_paths` orders (depth-first: the search
that found it larger) and `determinism_paths` random orders (seeded, reproducible); the
depth-first ones are kept as evidence, at no cost.
Phases with a single order are skipped. With `check_mode="sampled"`, ?-phases numbered
1..16 and then powers of two are due, and a due phase with no choice passes its
turn to the next phase that has one; other phases cost nothing. A due phase is then explored
by at most SAMPLED_ORDERS orders, not depth-first (whose first orders differ only in their
last choices): the first order (option 0 at every choice), the last (the last option at
every choice — so two rewrites that stay enabled until one of them is taken are taken in
both relative orders by these two), and seeded random ones; a phase with two orders is so
covered whole, and counts as explored exhaustively. Cost: up to
2 × determinism_paths × (phase length + size of the region) per explored phase (sampled:
SAMPLED_ORDERS × …), twice when the orders touch different elements.
"""

from __future__ import annotations

import random

from ..trial import Trial
from .base import Check, declare


SAMPLED_ORDERS = 4  # orders of a due phase in check mode sampled: the first, the last, two random


def _ends_phase(machine, rule_id: str) -> bool:
    """Does this rewrite end a ?-phase (it raises the flag !: box.close)?"""
    return machine.rules[rule_id].sets_flag == "!"


@declare
class Determinism(Check):
    """Every order of a ?-phase's rewrites ends in the same state, up to name permutation."""

    name = "determinism"
    order = 60
    implements = "Props. A.2 \"Determinism\", 4.5 / Cor. A.3 \"Determinism of execution\""
    values = "compares: the orders' end states, constants' values included"
    options = ("determinism_paths", "determinism_seed", "check_mode")

    def __init__(self, determinism_paths: int = 24, determinism_seed: int = 0, check_mode: str = "exhaustive"):
        self.limit = determinism_paths
        self.mode = check_mode
        self.seed = determinism_seed
        self._rng = None  # made when an order is first drawn (seeding costs more than most runs' checking)
        self.phase_count = 0  # ?-phases seen
        self.due = False  # the sampling schedule wants the next phase with a choice explored
        self.watching = False  # looking for this phase's first choice
        self.phases = 0  # phases explored
        self.explored = 0
        self.sampled_phases = 0
        self.snapshot = None
        self.choices = 0  # ?-states seen to offer more than one rewrite
        self.unlooked = 0  # ?-phases not looked at (check mode sampled, past its schedule)

    @property
    def rng(self) -> random.Random:
        """The seeded generator of the random orders, the same draws whenever it is made."""
        if self._rng is None:
            self._rng = random.Random(self.seed)
        return self._rng

    def after(self, machine, rule_id, redex) -> None:
        raises = machine.rules[rule_id].sets_flag
        if raises == "?":  # a ?-phase starts
            self.phase_count += 1
            k = self.phase_count
            self.due = self.due or self.mode != "sampled" or k <= 16 or (k & (k - 1)) == 0
            self.watching = self.due
            self.unlooked += not self.due
            self.snapshot = None
        elif raises == "!":  # it ends
            self.watching = False
            snapshot, self.snapshot = self.snapshot, None
            if snapshot is not None:  # check mode full: compare the clones' ends with this one
                self._compare_clones(machine, snapshot)
            return
        if self.watching and machine.token.flag == "?":
            if len(machine.rules.redexes(machine, limit=2)) > 1:
                self.choices += 1
                self.watching = False
                self.due = False
                if self.mode == "full":  # the reference: the orders run on clones, compared at box.close
                    from ..gc import mirror

                    self.snapshot = mirror(machine)
                else:
                    self._explore(machine)

    def offered_no_choice(self) -> bool:
        """Whether every ?-state of the run so far was looked at and none offered more than one
        rewrite. Then no strategy is ever asked to choose (the machine asks only between two or
        more), so every strategy makes this very run: the same rewrites of the same redexes."""
        return self.choices == 0 and self.unlooked == 0

    # ---- orders of the phase, inside trials ------------------------------------------------
    def _begin(self, machine) -> None:
        t = machine.token
        self._saved_token = (t.position, t.direction, t.flag, list(t.stack), list(t.box_stack))
        self._collector = machine.collector
        self._saved_counts = self._collector.counts.copy() if self._collector is not None else None
        self._trial = Trial(machine.graph)

    def _apply(self, machine, option) -> None:
        rule_id, redex = option
        machine.rules[rule_id].apply(machine, *redex)
        if self._collector is not None:  # the trial collects garbage as the run does
            self._collector.after_transition(machine, rule_id, redex)

    def _undo(self, machine) -> None:
        self._trial.end()
        t = machine.token
        t.position, t.direction, t.flag, stack, box_stack = self._saved_token
        t.stack[:] = stack
        t.box_stack[:] = box_stack
        if self._collector is not None:  # the trial's collections are undone with it
            self._collector.counts = self._saved_counts

    def _order(self, machine, choices: list, sample, region=None):
        """In a trial from the current state (S): take choices[k] at the k-th state with a
        choice (past the given ones: 0, or when `sample` is True a random one, when it is
        "last" the last option) until box.close, and
        describe the end state on what the order touched (or on `region` and the order's new
        elements). Returns (options per choice, old elements touched, description)."""
        from ..compare import canonical_region

        self._begin(machine)
        g = machine.graph
        counts, k = [], 0
        try:
            while True:
                options = machine.enabled()
                if not options:
                    raise self.fail(f"an order of this ?-phase gets stuck (choices {choices}): {machine.describe()}")
                i = 0
                if len(options) > 1:
                    if k < len(choices):
                        i = choices[k]
                    else:
                        i = len(options) - 1 if sample == "last" else self.rng.randrange(len(options)) if sample else 0
                        choices.append(i)
                    counts.append(len(options))
                    k += 1
                self._apply(machine, options[i])
                if _ends_phase(machine, options[i][0]):
                    break
            old, new = self._trial.touched()
            described = canonical_region(g, machine.token, (old if region is None else region) | new, self._trial.names_created())
        finally:
            self._undo(machine)
        return counts, old, described

    def _explore(self, machine) -> None:
        """Every order of the phase from here (at most `determinism_paths`; else the first
        that many and as many random ones), each in a trial; all must end in one state.
        Each end state is described on what its order touched; if the orders touched
        different elements of S, all are described again on the union."""
        self.phases += 1
        runs: list = []  # (choices, old touched, description)
        (self._sample if self.mode == "sampled" else self._depth_first)(machine, runs)
        self._compare(machine, runs)

    def _depth_first(self, machine, runs: list) -> None:
        """Every order, depth-first, while they number at most `determinism_paths`; past
        that, those and as many random ones."""
        choices: list = []
        while True:
            counts, old, described = self._order(machine, choices, sample=False)
            runs.append((list(choices), old, described))
            k = len(choices) - 1
            while k >= 0 and choices[k] + 1 >= counts[k]:
                k -= 1
            if k < 0:
                return
            if len(runs) >= self.limit:  # more orders than that: these, and random ones
                self.sampled_phases += 1
                for _ in range(self.limit):
                    sampled: list = []
                    _counts, old, described = self._order(machine, sampled, sample=True)
                    runs.append((sampled, old, described))
                return
            choices = choices[:k] + [choices[k] + 1]

    def _sample(self, machine, runs: list) -> None:
        """Check mode sampled: the first order, the last, and random ones (SAMPLED_ORDERS in
        all); a phase whose first order has a single choice of two options is two orders,
        both taken: explored whole."""
        counts, old, described = self._order(machine, first := [], sample=False)
        runs.append((first, old, described))
        last: list = []
        _counts, old, described = self._order(machine, last, sample="last")
        runs.append((last, old, described))
        if counts == [2] and last == [1]:
            return
        self.sampled_phases += 1
        for _ in range(SAMPLED_ORDERS - 2):
            sampled: list = []
            _counts, old, described = self._order(machine, sampled, sample=True)
            runs.append((sampled, old, described))

    def _compare(self, machine, runs: list) -> None:
        """All the orders' end states are one state (each described on what it touched; all
        described again on the union when they touched different elements of S)."""
        self.explored += len(runs)
        if any(old != runs[0][1] for _c, old, _d in runs):
            region = set().union(*(old for _c, old, _d in runs))
            runs = [(c, old, self._order(machine, list(c), sample=False, region=region)[2]) for c, old, _d in runs]
        first = runs[0]
        for c, _old, described in runs[1:]:
            if described != first[2]:
                raise self.fail(
                    f"another order of this ?-phase reaches a different state (not isomorphic up to names): choices {c} against {first[0]}"
                )

    # ---- the reference (check mode full): whole-state clones, canonical forms of the whole graph ----
    def _ends(self, start, sample: bool):
        """End states (flag !) of the phase from `start`: all orders, or one random order."""
        from ..gc import mirror as clone_machine

        stack = [start]
        while stack:
            m = stack.pop()
            while True:
                options = m.enabled()
                if not options:
                    yield m, "stuck"
                    break
                if len(options) == 1 or sample:
                    rule_id, redex = options[0] if len(options) == 1 else options[self.rng.randrange(len(options))]
                    m.apply(rule_id, redex)
                    if _ends_phase(m, rule_id):
                        yield m, "closed"
                        break
                    continue
                # branch: one clone per further option, this machine takes the first
                for i in range(len(options) - 1, 0, -1):
                    c = clone_machine(m)
                    rule_id, redex = c.enabled()[i]
                    c.apply(rule_id, redex)
                    stack.append(c)
                m.apply(*options[0])
                if _ends_phase(m, options[0][0]):
                    yield m, "closed"
                    break

    def _compare_clones(self, machine, snapshot) -> None:
        from ..compare import canonical
        from ..gc import mirror as clone_machine

        self.phases += 1
        ends = []
        exhaustive = True
        for end in self._ends(clone_machine(snapshot), sample=False):
            ends.append(end)
            if len(ends) > self.limit:
                exhaustive = False
                break
        if not exhaustive:
            self.sampled_phases += 1
            ends = ends[: self.limit] + [next(self._ends(clone_machine(snapshot), sample=True)) for _ in range(self.limit)]
        expected = None  # the machine's own end state, described once for all the orders
        for other, how in ends:
            self.explored += 1
            if how != "closed":
                raise self.fail(f"another order of this ?-phase gets stuck: {other.describe()}")
            if expected is None:
                expected = canonical(machine.graph, machine.token, None, False)
            if canonical(other.graph, other.token, None, False) != expected:
                raise self.fail("another order of this ?-phase reaches a different state (not isomorphic up to names)")
