"""The garbage collector: applies the GC rules (semantics.rules.gc) between transitions.

After each transition that changes the graph, the collector looks at every node with no
input (C_0, rotC_0, P_0) — the only places garbage starts — and applies the GC rules until
none applies, skipping any box the token is in or the box stack points into. Counts are
kept in `counts` (by rule ID), apart from the machine's transitions.
"""

from __future__ import annotations

from collections import Counter

from . import graph as G


def _by_id(node: G.Node) -> int:
    return node.id


def mirror(machine, strategy=None):
    """A clone of the machine's state that runs as it does: with a collector iff it has one."""
    from .machine import clone_machine

    copy = clone_machine(machine, strategy)
    if has_collector(machine):
        Collector(copy)
    return copy


def has_collector(machine) -> bool:
    """Does this machine run with a garbage collector attached?"""
    return machine.collector is not None


class Collector:
    def __init__(self, machine):
        if machine.collector is not None:
            raise ValueError("this machine has a garbage collector already")
        self.machine = machine
        self.counts: Counter = Counter()
        machine.collector = self
        machine.after.append(self.after_transition)

    def after_transition(self, machine, rule_id, redex) -> None:
        """What the collector does after each transition: collect if the graph may have changed."""
        if machine.rules[rule_id].changes_graph:
            self.collect()

    def _protected(self, box: G.Box) -> bool:
        t = self.machine.token
        g = self.machine.graph
        for link in (t.position, *t.box_stack):
            for end in (link.src, link.dst):
                if end is not None and (g.is_inside(end, box) or end.door_of is box):
                    return True
        return False

    def _weakenings(self) -> list:
        """Every node with no input (C_0, rotC_0, P_0): the only places garbage starts. The
        graph keeps its nodes without input (Graph.inputless), so this costs their number,
        not the graph's size; they are taken in the order of creation."""
        return sorted((n for n in self.machine.graph.inputless if n.kind in (G.CON, G.PCON, G.PROJ)), key=_by_id)

    def collect(self) -> None:
        g = self.machine.graph
        work = self._weakenings()
        while work:
            node = work.pop()
            if node not in g.nodes:
                continue
            found = self.machine.rules.gc_candidate(node)
            if found is None:
                continue
            rule_id, redex = found
            rule = self.machine.rules[rule_id]
            if rule.removes_box and self._protected(redex[1]):
                continue
            above = node.outs[0].dst
            rule.apply(self.machine, *redex)
            self.counts[rule_id] += 1
            if rule.removes_box:
                work.extend(self._weakenings())  # new C_0 / rotC_0 on the box's doors (repeats are re-checked)
            elif not above.ins:
                work.append(above)  # the contraction above lost its last input
