"""Check `dataflow`: the shape of results (Def. "Data-flow graphs"; Prop. "Final graphs
intensionally"). In a final state, if the program's type is ground, every node reachable
(by directed paths) from the root is a constant, a vector constant, a $0-operation, or
provisional structure (rotD, rotC, ¡) — a pure data-flow graph, no !, ?, ¿, D or C left;
if it is a function type, the root enters a λ-node. Checked once, on the final state.
Cost: O(size of the graph).
"""

from __future__ import annotations

from .. import graph as G
from ..types import Arrow
from .base import Check, declare

PURE = frozenset({G.CONST, G.VCONST, G.OP0, G.PDER, G.PCON, G.PBANG})


@declare
class DataFlowShape(Check):
    """A final state of ground type is a data-flow graph: constants and operations reachable from the root."""

    name = "dataflow"
    order = 90
    implements = "Def. F.1 \"Data-flow graphs\"; Prop. F.2 \"Final graphs intensionally\""
    values = "independent: the kinds of the nodes the final graph's root reaches"

    def at_end(self, machine, outcome) -> None:
        if outcome.status != "final":
            return
        g = machine.graph
        root = g.root
        if isinstance(root.type.type, Arrow):
            if root.dst is None or root.dst.kind != G.LAM:
                raise self.fail(f"a final graph of function type whose root enters {root.dst!r}, not a λ", [root.dst])
            return
        seen, stack = set(), [root.dst]
        while stack:
            n = stack.pop()
            if n is None or n in seen:
                continue
            seen.add(n)
            if n.kind not in PURE:
                raise self.fail(f"the final graph of ground type is not a pure data-flow graph: {n!r} is reachable", [n])
            stack.extend(l.dst for l in n.outs if l is not None and l.dst is not n)
