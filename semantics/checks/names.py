"""Check `names`: the bound-name and free-name criteria (Defs. "Bound/free names",
"Bound-name criterion", "Free-name criterion"; Prop. "Preservation of name criteria").

- a name is *bound* by an A-node (inputs !(V_a → T), !V_a), *free* if a vector constant has
  type V_a or a P-node output type !V_a;
- uniqueness: a bound name is not free and is bound by exactly one A-node;
- scope: bound names do not occur in the root's type; if the A-node binding a is in a box,
  a occurs only strictly inside that box (never on its root, doors or outside);
- free-name criterion: a validation map v exists: every vector constant of type V_a has
  size v(a), every P_n with output !V_a has n = v(a).

Cost: O(size of the graph), after each transition that changes the graph (or on the
sampling schedule of checks.Policy).
"""

from __future__ import annotations

from .. import graph as G
from ..types import names_of
from . import GraphCheck


def validation_map(graph: G.Graph) -> tuple[dict[str, int], list[tuple[str, list]]]:
    """The validation map v on free names, and the problems found (empty if there is one)."""
    sizes: dict[str, set[int]] = {}
    witnesses: dict[str, list] = {}
    for n in graph.nodes:
        if n.kind == G.VCONST:
            values, a = n.data
            sizes.setdefault(a, set()).add(len(values))
            witnesses.setdefault(a, []).append(n)
        elif n.kind == G.PROJ:
            sizes.setdefault(n.data, set()).add(len(n.ins))
            witnesses.setdefault(n.data, []).append(n)
    v, problems = {}, []
    for a, s in sizes.items():
        if len(s) != 1:
            problems.append((f"no validation map: the free name {a} has vectors/projections of sizes {sorted(s)}", witnesses[a]))
        else:
            v[a] = next(iter(s))
    return v, problems


def name_problems(graph: G.Graph) -> list[tuple[str, list]]:
    v, problems = validation_map(graph)
    free = set(v)
    binders: dict[str, list[G.Node]] = {}
    for n in graph.nodes:
        if n.kind == G.ABD:
            binders.setdefault(n.data, []).append(n)
    for a, nodes in binders.items():
        if len(nodes) > 1:
            problems.append((f"the name {a} is bound by {len(nodes)} A-nodes", nodes))
        if a in free:
            problems.append((f"the name {a} is both bound and free", nodes))
    if not binders:
        return problems
    if graph.root is not None:
        leaked = names_of(graph.root.type.type) & set(binders)
        if leaked:
            problems.append((f"bound name(s) {sorted(leaked)} in the root's type {graph.root.type}", []))
    boxed = {a: ns[0].box for a, ns in binders.items() if ns[0].box is not None}
    if boxed:
        for link in graph.links:
            for a in names_of(link.type.type) & boxed.keys():
                box = boxed[a]
                ends = [e for e in (link.src, link.dst) if e is not None]
                if not all(graph.is_inside(e, box) and e.door_of is not box for e in ends):
                    problems.append((f"the bound name {a} occurs on {link!r}, outside the box of its A-node", ends))
        for n in graph.nodes:
            for a in G.node_names(n) & boxed.keys():
                if n.kind != G.ABD and not graph.is_inside(n, boxed[a]):
                    problems.append((f"the bound name {a} occurs on {n!r}, outside the box of its A-node", [n]))
    return problems


class NameCriteria(GraphCheck):
    name = "names"

    def problems(self, machine):
        return name_problems(machine.graph)
