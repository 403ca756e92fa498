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
from .base import GraphCheck, declare
from ..journal import touched
from . import incremental


# ---- the conditions, one name or one element at a time (the whole-graph check and the
# ---- incremental one, NameIndex, both state them through these) ----------------------------

def free_size(n: G.Node):
    """(a, size) if the node makes the name a free with that size (a vector constant of type
    V_a, a P_n with output !V_a), else None."""
    if n.kind == G.VCONST:
        return n.data[1], len(n.data[0])
    if n.kind == G.PROJ:
        return n.data, len(n.ins)
    return None


def size_problems(a: str, sizes, witnesses) -> list[tuple[str, list]]:
    if len(sizes) > 1:
        return [(f"no validation map: the free name {a} has vectors/projections of sizes {sorted(sizes)}", list(witnesses))]
    return []


def binding_problems(a: str, binders: list, free: bool) -> list[tuple[str, list]]:
    problems = []
    if len(binders) > 1:
        problems.append((f"the name {a} is bound by {len(binders)} A-nodes", binders))
    if binders and free:
        problems.append((f"the name {a} is both bound and free", binders))
    return problems


def leak_problems(graph: G.Graph, bound) -> list[tuple[str, list]]:
    """Bound names in the root's type."""
    if graph.root is None or not bound:
        return []
    leaked = names_of(graph.root.type.type) & bound
    return [(f"bound name(s) {sorted(leaked)} in the root's type {graph.root.type}", [])] if leaked else []


def binder_box(binders) -> "G.Box | None":
    """The box a bound name must stay strictly inside (one binder; with several, which is a
    problem already, the first by id)."""
    return min(binders, key=lambda n: n.id).box


def link_scope_problems(graph: G.Graph, link: G.Link, a: str, box: G.Box) -> list[tuple[str, list]]:
    ends = [e for e in (link.src, link.dst) if e is not None]
    if not all(graph.is_inside(e, box) and e.door_of is not box for e in ends):
        return [(f"the bound name {a} occurs on {link!r}, outside the box of its A-node", ends)]
    return []


def node_scope_problems(graph: G.Graph, n: G.Node, a: str, box: G.Box) -> list[tuple[str, list]]:
    if n.kind != G.ABD and not graph.is_inside(n, box):
        return [(f"the bound name {a} occurs on {n!r}, outside the box of its A-node", [n])]
    return []


def validation_map(graph: G.Graph) -> tuple[dict[str, int], list[tuple[str, list]]]:
    """The validation map v on free names, and the problems found (empty if there is one)."""
    sizes: dict[str, set[int]] = {}
    witnesses: dict[str, list] = {}
    for n in graph.nodes:
        found = free_size(n)
        if found is not None:
            sizes.setdefault(found[0], set()).add(found[1])
            witnesses.setdefault(found[0], []).append(n)
    v, problems = {}, []
    for a, s in sizes.items():
        problems += size_problems(a, s, witnesses[a])
        if len(s) == 1:
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
        problems += binding_problems(a, nodes, a in free)
    if not binders:
        return problems
    problems += leak_problems(graph, binders.keys())
    boxed = {a: binder_box(ns) for a, ns in binders.items()}
    boxed = {a: box for a, box in boxed.items() if box is not None}
    if boxed:
        for link in graph.links:
            for a in names_of(link.type.type) & boxed.keys():
                problems += link_scope_problems(graph, link, a, boxed[a])
        for n in graph.nodes:
            for a in G.node_names(n) & boxed.keys():
                problems += node_scope_problems(graph, n, a, boxed[a])
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
        found = free_size(n)
        c = ("free", *found) if found is not None else ("bound", n.data) if n.kind == G.ABD else None
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
        return binder_box(nodes) if nodes else None

    def update(self, graph: G.Graph, journal) -> list[tuple[str, list]]:
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
            witnesses = [n for n in self.occ_nodes.get(a, ()) if free_size(n) is not None]
            problems += size_problems(a, counts, witnesses)
            problems += binding_problems(a, list(self.binders.get(a, ())), bool(counts))
        problems += leak_problems(graph, self.binders.keys())
        nodes, links, _boxes = touched(graph, journal)
        # every occurrence of a rescoped name; the names on what was touched
        link_names = [(link, a) for a in sorted(rescope) for link in self.occ_links.get(a, ())]
        link_names += [(link, a) for link in links for a in self.link_names.get(link, ()) if a not in rescope]
        node_names = [(n, a) for a in sorted(rescope) for n in self.occ_nodes.get(a, ())]
        node_names += [(n, a) for n in nodes for a in self.node_names.get(n, ()) if a not in rescope]
        for link, a in link_names:
            box = self._boxed(a)
            if box is not None:
                problems += link_scope_problems(graph, link, a, box)
        for n, a in node_names:
            box = self._boxed(a)
            if box is not None:
                problems += node_scope_problems(graph, n, a, box)
        return problems


def name_problems_incremental(machine) -> list[tuple[str, list]]:
    """name_problems of the current graph, from the machine's shared NameIndex."""
    return incremental.update(machine, "names", NameIndex, lambda m: name_problems(m.graph))


class SizesView:
    """The validation map read off a NameIndex (a name's one size), without copying it."""

    def __init__(self, index: NameIndex):
        self.sizes = index.sizes

    def __contains__(self, a) -> bool:
        return a in self.sizes

    def __getitem__(self, a) -> int:
        return next(iter(self.sizes[a]))


@declare
class NameCriteria(GraphCheck):
    """Bound names are bound once and not free, and a validation map exists (the name criteria)."""

    name = "names"
    order = 20
    implements = "Defs. B.1 \"Bound/free names\", B.2 \"Bound-name criterion\", B.4 \"Free-name criterion\"; Prop. B.5"
    values = "independent: names, their binders and vector sizes (a vector's size is its shape)"
    reads_journal = False  # its index (checks.incremental) keeps its own

    def problems(self, machine):
        return name_problems(machine.graph)

    def start_incremental(self, machine) -> None:
        incremental.start(machine, "names", NameIndex)

    def problems_touched(self, machine, journal):
        return name_problems_incremental(machine)
