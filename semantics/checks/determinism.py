"""Check `determinism`: Props. "Determinism" and "Determinism of execution" — the order of
the ?-rewrites does not matter: every order of one ?-phase ends in the same state, up to
name permutation.

Every order of a ?-phase shares its prefix up to the first state that offers a choice of
?-rewrite: there (and only in phases that have one) the state is cloned; when the phase ends
(box.close), the other orders are run on clones from that snapshot and each end state is
compared with the machine's (networkx isomorphism respecting node kinds and data,
port order, link types up to renaming of names, box structure, token position, stacks).
A box's auxiliary doors are compared as a set, as in the paper: absorption appends the
absorbed box's doors to the list, so the order of doors records the order of absorptions,
a representation detail (docs/INVARIANTS.md).

Policy: a phase whose orders number at most `determinism_paths` (default 24) is explored
exhaustively; a larger one by `determinism_paths` random orders (seeded, reproducible).
Phases with a single order are skipped (nothing is cloned for them). With
`check_mode="sampled"`, ?-phases numbered 1..16 and then powers of two are due, and a due
phase with no choice passes its turn to the next phase that has one; other phases cost
nothing. Cost: up to determinism_paths ×
(phase length + clone of the graph + isomorphism test) per explored phase.
"""

from __future__ import annotations

import random

from . import Check


class Determinism(Check):
    name = "determinism"
    options = ("determinism_paths", "determinism_seed", "check_mode")

    def __init__(self, determinism_paths: int = 24, determinism_seed: int = 0, check_mode: str = "exhaustive"):
        self.limit = determinism_paths
        self.mode = check_mode
        self.rng = random.Random(determinism_seed)
        self.snapshot = None
        self.phase_count = 0  # ?-phases seen
        self.due = False  # the sampling schedule wants the next phase with a choice explored
        self.watching = False  # looking for this phase's first choice
        self.phases = 0  # phases explored
        self.explored = 0
        self.sampled_phases = 0

    def after(self, machine, rule_id, redex) -> None:
        from ..gc import mirror

        if rule_id == "pass.bang.up":  # a ?-phase starts
            self.phase_count += 1
            k = self.phase_count
            self.due = self.due or self.mode != "sampled" or k <= 16 or (k & (k - 1)) == 0
            self.watching = self.due
            self.snapshot = None
        elif rule_id == "box.close":  # it ends
            snapshot, self.snapshot, self.watching = self.snapshot, None, False
            if snapshot is not None:
                self.due = False
                self._compare(machine, snapshot)
            return
        if self.watching and machine.token.flag == "?":
            # Every order of the phase shares its prefix up to the first state offering a
            # choice: the other orders are explored from there (one clone per phase).
            from ..rules.open_box import candidates

            if len(candidates(machine, limit=2)) > 1:
                self.snapshot = mirror(machine)
                self.watching = False

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
                    if rule_id == "box.close":
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
                if options[0][0] == "box.close":
                    yield m, "closed"
                    break

    def _compare(self, machine, snapshot) -> None:
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
            ends = [next(self._ends(clone_machine(snapshot), sample=True)) for _ in range(self.limit)]
        expected = None  # the machine's own end state, described once for all the orders
        for other, how in ends:
            self.explored += 1
            if how != "closed":
                raise self.fail(f"another order of this ?-phase gets stuck: {other.describe()}")
            if expected is None:
                expected = canonical(machine.graph, machine.token, None, False)
            if canonical(other.graph, other.token, None, False) != expected:
                raise self.fail("another order of this ?-phase reaches a different state (not isomorphic up to names)")
