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


class NameIndex:
    """The name criteria kept up to date from the graph's journal (the incremental form of
    `name_problems`, with its verdicts): per name, the sizes of its vector constants and
    projections, its binders, and where it occurs. After a transition only these are
    re-examined:
    - the sizes and binders of the names whose constants, projections or A-nodes were touched;
    - the scope of every name on a touched link or node (its ends may have moved);
    - every occurrence of a name whose A-node was touched, or whose A-node's box is one a
      moved box entered or left (what is inside that box changed);
    - the root's type."""

    def __init__(self, graph: G.Graph):
        self.contrib: dict = {}  # node -> ("free", a, size) | ("bound", a)
        self.sizes: dict[str, dict[int, int]] = {}
        self.binders: dict[str, set] = {}
        self.node_names: dict = {}
        self.link_names: dict = {}
        self.occ_nodes: dict[str, set] = {}
        self.occ_links: dict[str, set] = {}
        for n in graph.nodes:
            self._add_node(n)
        for link in graph.links:
            self._add_link(link)

    # ---- upkeep ---------------------------------------------------------------------
    def _add_node(self, n: G.Node) -> None:
        if n.kind == G.VCONST:
            c = ("free", n.data[1], len(n.data[0]))
        elif n.kind == G.PROJ:
            c = ("free", n.data, len(n.ins))
        elif n.kind == G.ABD:
            c = ("bound", n.data)
        else:
            c = None
        if c is not None:
            self.contrib[n] = c
            if c[0] == "free":
                counts = self.sizes.setdefault(c[1], {})
                counts[c[2]] = counts.get(c[2], 0) + 1
            else:
                self.binders.setdefault(c[1], set()).add(n)
        names = G.node_names(n)
        if names:
            self.node_names[n] = names
            for a in names:
                self.occ_nodes.setdefault(a, set()).add(n)

    def _remove_node(self, n: G.Node) -> None:
        c = self.contrib.pop(n, None)
        if c is not None:
            if c[0] == "free":
                counts = self.sizes[c[1]]
                counts[c[2]] -= 1
                if not counts[c[2]]:
                    del counts[c[2]]
                if not counts:
                    del self.sizes[c[1]]
            else:
                self.binders[c[1]].discard(n)
                if not self.binders[c[1]]:
                    del self.binders[c[1]]
        for a in self.node_names.pop(n, ()):
            self.occ_nodes[a].discard(n)

    def _add_link(self, link: G.Link) -> None:
        names = names_of(link.type.type)
        if names:
            self.link_names[link] = names
            for a in names:
                self.occ_links.setdefault(a, set()).add(link)

    def _remove_link(self, link: G.Link) -> None:
        for a in self.link_names.pop(link, ()):
            self.occ_links[a].discard(link)

    # ---- checking ---------------------------------------------------------------------
    def _boxed(self, a: str):
        nodes = self.binders.get(a)
        if not nodes:
            return None
        return next(iter(nodes)).box if len(nodes) == 1 else min(nodes, key=lambda n: n.id).box

    def _link_scope(self, graph, link, a, box) -> list:
        ends = [e for e in (link.src, link.dst) if e is not None]
        if not all(graph.is_inside(e, box) and e.door_of is not box for e in ends):
            return [(f"the bound name {a} occurs on {link!r}, outside the box of its A-node", ends)]
        return []

    def _node_scope(self, graph, n, a, box) -> list:
        if n.kind != G.ABD and not graph.is_inside(n, box):
            return [(f"the bound name {a} occurs on {n!r}, outside the box of its A-node", [n])]
        return []

    def update(self, graph: G.Graph, journal) -> list[tuple[str, list]]:
        from ..journal import touched

        changed: set[str] = set()  # names whose sizes or binders changed
        rescope: set[str] = set()  # names whose every occurrence is re-examined
        for n in journal.nodes:
            if n is None:
                continue
            old = self.contrib.get(n)
            if old is not None:
                changed.add(old[1])
                if old[0] == "bound":
                    rescope.add(old[1])
            self._remove_node(n)
            if n in graph.nodes:
                self._add_node(n)
                new = self.contrib.get(n)
                if new is not None:
                    changed.add(new[1])
                    if new[0] == "bound":
                        rescope.add(new[1])
        for link in journal.links:
            if link is None:
                continue
            self._remove_link(link)
            if link in graph.links:
                self._add_link(link)
        if journal.moved:
            shifted: set = set()
            for box, old_chain in journal.moved:
                shifted.update(old_chain)
                b = box.parent
                while b is not None:
                    shifted.add(b)
                    b = b.parent
            for a, nodes in self.binders.items():
                if any(n.box in shifted for n in nodes):
                    rescope.add(a)
        problems: list[tuple[str, list]] = []
        for a in sorted(changed):
            counts = self.sizes.get(a, {})
            if len(counts) > 1:
                witnesses = [n for n in self.occ_nodes.get(a, ()) if n.kind in (G.VCONST, G.PROJ)]
                problems.append((f"no validation map: the free name {a} has vectors/projections of sizes {sorted(counts)}", witnesses))
            binders = self.binders.get(a, set())
            if len(binders) > 1:
                problems.append((f"the name {a} is bound by {len(binders)} A-nodes", list(binders)))
            if binders and counts:
                problems.append((f"the name {a} is both bound and free", list(binders)))
        if self.binders and graph.root is not None:
            leaked = names_of(graph.root.type.type) & self.binders.keys()
            if leaked:
                problems.append((f"bound name(s) {sorted(leaked)} in the root's type {graph.root.type}", []))
        for a in sorted(rescope):
            box = self._boxed(a)
            if box is None:
                continue
            for link in self.occ_links.get(a, ()):
                problems += self._link_scope(graph, link, a, box)
            for n in self.occ_nodes.get(a, ()):
                problems += self._node_scope(graph, n, a, box)
        nodes, links, _boxes = touched(graph, journal)
        for link in links:
            for a in self.link_names.get(link, ()):
                if a not in rescope:
                    box = self._boxed(a)
                    if box is not None:
                        problems += self._link_scope(graph, link, a, box)
        for n in nodes:
            for a in self.node_names.get(n, ()):
                if a not in rescope:
                    box = self._boxed(a)
                    if box is not None:
                        problems += self._node_scope(graph, n, a, box)
        return problems


def name_problems_incremental(machine) -> list[tuple[str, list]]:
    """name_problems of the current graph, from the machine's shared NameIndex."""
    from . import incremental

    return incremental.update(machine, "names", NameIndex, lambda m: name_problems(m.graph))


class SizesView:
    """The validation map read off a NameIndex (a name's one size), without copying it."""

    def __init__(self, index: NameIndex):
        self.sizes = index.sizes

    def __contains__(self, a) -> bool:
        return a in self.sizes

    def __getitem__(self, a) -> int:
        return next(iter(self.sizes[a]))


class NameCriteria(GraphCheck):
    name = "names"

    def problems(self, machine):
        return name_problems(machine.graph)

    def start_incremental(self, machine) -> None:
        from . import incremental

        incremental.start(machine, "names", NameIndex)

    def problems_touched(self, machine, journal):
        return name_problems_incremental(machine)
