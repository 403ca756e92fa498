"""Graph states up to isomorphism and name permutation (the paper's ∼α).

`canonical(state)` describes a state independently of node/link identities and of the
spelling of names: a traversal starts from the distinguished elements — the root, the
¡-constants in parameter order, the token's position and box-stack links — and follows
ports in their fixed order, numbering every node, link, box and name at first sight.
Because ports are ordered, the traversal from a distinguished element is determined by
the isomorphism class, so two states are isomorphic iff their descriptions are equal
(O(size), no search). Components no distinguished element reaches (closed garbage boxes)
are described from each of their nodes in turn, keeping the least description, and
compared as a multiset. Names are numbered by first occurrence, so a consistent renaming
is invisible; `name_labels` pins names (to check a *given* permutation).

`to_networkx` gives the same state as a labelled networkx graph, used by the tests as an
independent oracle (VF2 isomorphism) on small graphs; VF2 backtracks exponentially on
graphs with many alike parts, which is why the checks use `canonical`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from . import graph as G
from .types import Arrow, Type, Vec

if TYPE_CHECKING:
    import networkx as nx


def _abstract_type(t: Type, order: list[str]) -> str:
    """The type with its names replaced by #k, k the index of first occurrence in `order`."""
    if isinstance(t, Vec):
        if t.name not in order:
            order.append(t.name)
        return f"V#{order.index(t.name)}"
    if isinstance(t, Arrow):
        return f"({_abstract_type(t.dom, order)}->{_abstract_type(t.cod, order)})"
    return str(t)


def _value_key(v) -> str:
    if isinstance(v, tuple):
        return "(" + ",".join(str(x) for x in v) + ")"
    return str(v)


def _node_key(n: G.Node, names: list[str]) -> str:
    k = n.kind
    if k == G.CONST:
        return f"const:{_value_key(n.data)}"
    if k == G.VCONST:
        values, name = n.data
        names.append(name)
        return f"vconst:{_value_key(values)}:#0"
    if k in (G.OP0, G.OP1):
        op, name = n.data
        if name is not None:
            names.append(name)
            return f"{k}:{op}:#0"
        return f"{k}:{op}"
    if k in (G.ABD, G.PROJ):
        names.append(n.data)
        return f"{k}{len(n.ins)}:#0"
    if k in (G.CON, G.PCON):
        return f"{k}{len(n.ins)}"
    return k


def to_networkx(graph: G.Graph, token=None, name_labels: Optional[dict] = None, ordered_doors: bool = True) -> "nx.DiGraph":
    """The labelled directed graph of a state; `name_labels` pins names (name -> label) to match
    only alike-labelled ones; with ordered_doors=False a box's doors are a set (as in the paper)."""
    import networkx as nx  # only the tests' oracle needs it: a checked run does not pay its import

    d = nx.DiGraph()
    name_edges: list[tuple[tuple, str, int]] = []
    params = {n: i for i, n in enumerate(graph.params)}
    for n in graph.nodes:
        names: list[str] = []
        key = _node_key(n, names)
        if n in params:
            key += f"|param{params[n]}"
        d.add_node(("n", n.id), key=key)
        for i, a in enumerate(names):
            name_edges.append((("n", n.id), a, i))
    stack_index = {}
    if token is not None:
        for i, link in enumerate(token.box_stack):
            stack_index.setdefault(link.id, []).append(i)
    for link in graph.links:
        order: list[str] = []
        key = f"{link.type.kind}{_abstract_type(link.type.type, order)}"
        if link is graph.root:
            key += "|root"
        if token is not None and link is token.position:
            key += "|token"
        if link.id in stack_index:
            key += f"|stack{stack_index[link.id]}"
        d.add_node(("l", link.id), key=key)
        for i, a in enumerate(order):
            name_edges.append((("l", link.id), a, i))
        if link.src is not None:
            d.add_edge(("n", link.src.id), ("l", link.id), label=f"out{link.src_port}")
        if link.dst is not None:
            port = "var" if link.dst_port == G.VAR else f"in{link.dst_port}"
            d.add_edge(("l", link.id), ("n", link.dst.id), label=port)
    for box in graph.boxes:
        d.add_node(("b", box.id), key="box")
        for n in box.nodes:
            d.add_edge(("b", box.id), ("n", n.id), label="member")
        d.add_edge(("b", box.id), ("n", box.principal.id), label="principal")
        for i, door in enumerate(box.doors):
            d.add_edge(("b", box.id), ("n", door.id), label=f"door{i}" if ordered_doors else "door")
        if box.parent is not None:
            d.add_edge(("b", box.parent.id), ("b", box.id), label="child")
    for entity, name, i in name_edges:
        label = (name_labels or {}).get(name)
        d.add_node(("a", name), key="name" if label is None else f"name:{label}")
        d.add_edge(entity, ("a", name), label=f"name{i}")
    return d


def _invariant_summary(d: "nx.DiGraph"):
    return sorted(data["key"] for _, data in d.nodes(data=True)), sorted(data["label"] for *_, data in d.edges(data=True))


class _Canon:
    """One traversal; numbers elements and names at first sight."""

    def __init__(self, labels, ordered_doors, token):
        self.labels = labels or {}
        self.ordered_doors = ordered_doors
        self.token = token
        self.num: dict = {}
        self.names: dict[str, object] = {}
        self.out: list = []
        self.types: dict = {}  # id of a type (alive in the graph) -> its description

    def name(self, a):
        if a in self.labels:
            return ("pinned", self.labels[a])
        if a not in self.names:
            self.names[a] = len(self.names)
        return self.names[a]

    def type_(self, t):
        key = id(t)
        described = self.types.get(key)
        if described is None:  # names are numbered at their first occurrence: cached after it
            described = self.types[key] = self._type(t)
        return described

    def _type(self, t):
        if isinstance(t, Vec):
            return ("V", self.name(t.name))
        if isinstance(t, Arrow):
            return ("->", self._type(t.dom), self._type(t.cod))
        return str(t)

    def data(self, n):
        k = n.kind
        if k == G.VCONST:
            return (_value_key(n.data[0]), self.name(n.data[1]))
        if k in (G.OP0, G.OP1):
            return (n.data[0], None if n.data[1] is None else self.name(n.data[1]))
        if k in (G.ABD, G.PROJ):
            return self.name(n.data)
        if k == G.CONST:
            return _value_key(n.data)
        return None

    def box_of(self, b):
        return None if b is None else ("box", self.visit(b.principal))

    def visit(self, x):
        """Number x (a node or link), describing it and everything reachable from it."""
        if x in self.num:
            return self.num[x]
        stack = [x]
        self.num[x] = len(self.num)
        order = [x]
        while stack:
            y = stack.pop()
            for z in self._neighbours(y):
                if z is not None and z not in self.num:
                    self.num[z] = len(self.num)
                    order.append(z)
                    stack.append(z)
        for y in order:
            self.out.append(self._describe(y))
        return self.num[x]

    @staticmethod
    def _neighbours(y):
        if isinstance(y, G.Link):
            return [y.dst, y.src]
        return [*reversed(y.outs), *reversed(y.ins)]

    def ref(self, x):
        """How a description refers to an element: its number (-1 if it has none)."""
        return self.num.get(x, -1)

    def _describe(self, y):
        ref = self.ref
        if isinstance(y, G.Link):
            token = self.token
            return (
                ref(y), "link", y.type.kind, self.type_(y.type.type),
                None if y.src is None else (ref(y.src), y.src_port),
                None if y.dst is None else (ref(y.dst), y.dst_port),
                ("token",) if token is not None and y is token.position else (),
            )
        doors = None
        door_of = y.door_of
        if door_of is not None and y.kind == G.BANG:
            door_nums = tuple(map(ref, door_of.doors))
            doors = door_nums if self.ordered_doors else tuple(sorted(door_nums, key=repr))
        return (
            ref(y), y.kind, self.data(y), len(y.ins), len(y.outs),
            tuple(map(ref, y.ins)), tuple(map(ref, y.outs)),
            ("in", ref(y.box.principal)) if y.box is not None else None,
            ("door of", ref(door_of.principal)) if door_of is not None else None,
            doors,
        )


def canonical(graph: G.Graph, token=None, name_labels: Optional[dict] = None, ordered_doors: bool = True):
    """A description of the state that is equal for isomorphic states, and only for them."""
    c = _Canon(name_labels, ordered_doors, token)
    anchors = [graph.root, *graph.params]
    if token is not None:
        anchors += [token.position, *token.box_stack]
    for a in anchors:
        if a is not None:
            c.visit(a)
    main = sorted(c.out)
    head = [("anchors", tuple(c.num.get(a, -1) for a in anchors if a is not None))]
    if token is not None:
        head.append(("token", token.direction, str(token.flag), tuple(map(_stack_key, token.stack)),
                     tuple(c.num[l] for l in token.box_stack)))
    components = _components(
        {x for x in graph.nodes if x not in c.num},
        lambda: _Canon(name_labels, ordered_doors, None),
        lambda d: repr(tuple(sorted(d.out)) + (("names", len(d.names)),)),  # repr: a total order
    )
    # a box must be compared by its parent too: encoded by its principal's level ("in" above)
    return (tuple(head), tuple(main), components, ("names", len(c.names)))


def _components(rest: set, new_canon, describe) -> tuple:
    """The components of `rest` (nodes no anchor reached), each described from its best
    start — the least description over the starts of least colour (_least_starts) — as a
    sorted tuple: compared as a multiset."""
    components = []
    left = set(rest)
    while left:
        first = next(iter(left))
        probe = new_canon()
        probe.visit(first)
        members = [x for x in probe.num if isinstance(x, G.Node)]
        best = None
        for start in _least_starts(members):
            if start is first:  # the probe is this start's traversal
                d = probe
            else:
                d = new_canon()
                d.visit(start)
            desc = describe(d)
            if best is None or desc < best:
                best = desc
        components.append(best)
        left -= set(members)
    return tuple(sorted(components))


def _least_starts(members: list) -> list:
    """The nodes a component's least description can start from: those of the least colour
    after a few rounds of colour refinement (each element's colour: its kind, data without
    names, arity and link types, then with its neighbours' colours port by port — invariant
    under isomorphism and renaming, so the least class is the same in isomorphic
    components). Every node of that class is traversed and the least description kept, so
    the result is canonical whatever the refinement leaves tied; refinement only makes the
    class small (a one-hop prefix leaves hundreds of starts tied in the garbage of long
    runs: quadratic). A refinement round only splits classes, and the least class of a round
    is within the least of the round before (a key starts with the colour it refines): once
    that class has one node it is the answer, and the rounds left are not made."""
    if len(members) == 1:
        return members
    links = {l for n in members for l in (*n.ins, *n.outs) if l is not None}

    def numbered(keys: dict) -> dict:
        """Colours as the ranks of their keys in sorted order: the same in isomorphic
        components, and in every process (no salted hashes)."""
        ranks = {k: i for i, k in enumerate(sorted(set(keys.values())))}
        return {x: ranks[k] for x, k in keys.items()}

    keys: dict = {}
    for n in members:
        data = _value_key(n.data[0]) if n.kind == G.VCONST else (n.data[0] if n.kind in (G.OP0, G.OP1) else (_value_key(n.data) if n.kind == G.CONST else None))
        keys[n] = repr((n.kind, data, len(n.ins), len(n.outs), n.door_of is not None, n.box is not None))
    for l in links:
        keys[l] = repr(("link", l.type.kind, _abstract_type(l.type.type, [])))
    colour = numbered(keys)
    for _ in range(4):
        least = min(colour[n] for n in members)
        starts = [n for n in members if colour[n] == least]
        if len(starts) == 1:
            return starts
        keys = {}
        for n in members:
            keys[n] = (colour[n], tuple(colour.get(l, -1) for l in n.ins), tuple(colour.get(l, -1) for l in n.outs))
        for l in links:
            keys[l] = (colour[l], colour.get(l.src, -1), l.src_port, colour.get(l.dst, -1), l.dst_port)
        colour = numbered(keys)
    least = min(colour[n] for n in members)
    return [n for n in members if colour[n] == least]


class _RegionCanon(_Canon):
    """A traversal of a region of the graph only: elements outside it are fixed — referred
    to by their identity, never entered. A reference is the element's number (an int) if it
    has one, ("f", id) if it is fixed, "x" otherwise: three types, never equal."""

    def __init__(self, region: set, pinned, token):
        super().__init__(pinned, False, token)
        self.region = region

    def ref(self, x):
        k = self.num.get(x)
        if k is not None:
            return k
        if x is None:
            return None
        if x not in self.region:
            return ("f", x.id)
        return "x"

    def _neighbours(self, y):
        region = self.region
        if isinstance(y, G.Link):
            return [z for z in (y.dst, y.src) if z is not None and z in region]
        return [z for z in (*reversed(y.outs), *reversed(y.ins)) if z is not None and z in region]


class _Pinned:
    """Names labels for the region description: a name is pinned to itself unless it is new."""

    def __init__(self, new_names: set):
        self.new = new_names

    def __contains__(self, a) -> bool:
        return a not in self.new

    def __getitem__(self, a):
        return a

    def get(self, a, default=None):
        return default if a in self.new else a


def canonical_region(graph: G.Graph, token, region: set, new_names: set):
    """A description of the state that differs from another state's — whose elements outside
    `region` are the same objects, unchanged — iff the two are not isomorphic by a map that is
    the identity outside the region and on the names not in `new_names`, and renames those
    (doors as a set). O(size of the region): how the determinism check compares the orders
    of a ?-phase, all run from one state (semantics/checks/determinism.py)."""
    live = {x for x in region if x in graph.nodes or x in graph.links}
    for b in region:
        if isinstance(b, G.Box) and b in graph.boxes and b.principal is not None and b.principal in graph.nodes:
            live.add(b.principal)
    c = _RegionCanon(live, _Pinned(new_names), token)
    anchors = []
    if token is not None:
        anchors += [token.position, *token.box_stack]
    anchors += [graph.root, *graph.params]
    for a in anchors:
        if a is not None and a in live:
            c.visit(a)
    fixed_neighbours = set()
    for x in live:
        for z in _Canon._neighbours(x):
            if z is not None and z not in live:
                fixed_neighbours.add(z)
    for z in sorted(fixed_neighbours, key=lambda z: (isinstance(z, G.Link), z.id)):
        for w in _Canon._neighbours(z):
            if w is not None and w in live:
                c.visit(w)
    # the traversal's order is canonical (anchors in a fixed order, then the fixed neighbours
    # by identity, each entered port by port), so the descriptions need no sorting
    main = tuple(c.out)
    components = _components(
        {x for x in live if x not in c.num and isinstance(x, G.Node)},
        lambda: _RegionCanon(live, _Pinned(new_names), None),
        lambda d: repr(sorted(map(repr, d.out))),
    )
    head = None
    if token is not None:
        head = (token.direction, str(token.flag), tuple(map(_stack_key, token.stack)), tuple(map(repr, map(c.ref, token.box_stack))), repr(c.ref(token.position)))
    return (head, tuple(main), components, len(c.names))


def _stack_key(x):
    if isinstance(x, tuple):
        return ("vec", _value_key(x))
    return repr(x)


def isomorphic(g1: G.Graph, g2: G.Graph, token1=None, token2=None, labels1=None, labels2=None, ordered_doors: bool = True) -> bool:
    """Are the two graph states equal up to node/link identity and name permutation?

    With labels (name -> label), a name of the first state may only correspond to a name
    of the second with the same label (to check a *given* permutation).
    """
    return canonical(g1, token1, labels1, ordered_doors) == canonical(g2, token2, labels2, ordered_doors)


# the kinds whose data `canonical` does not describe, and that have no doors of their own to compare
_PLAIN = frozenset({G.LAM, G.APP, G.WHY, G.PWHY, G.PBANG, G.DER, G.PDER, G.CON, G.PCON})


def same_by_ids(g1: G.Graph, g2: G.Graph, token1=None, token2=None, labels1=None, labels2=None,
                ordered_doors: bool = True) -> bool:
    """Is matching each node and link of the first state with the one of the same id in the
    second an isomorphism, in the sense of `canonical` (the same kinds, data, ports, boxes,
    doors, link types, anchors and token; names in one consistent bijection, pinned ones by
    label)? True implies `isomorphic(...)` with the same arguments; False says nothing, and
    `isomorphic` decides. O(size), no traversal and no sorting: a copy (Graph.clone) that ran
    as its original did made the same elements under the same ids, so this witness answers
    for the checks that compare a run with its copy's (`alpha`). It is stricter than
    `canonical` wherever that is simpler: every element referred to must be in its graph's
    sets, the names one bijection for the whole state (canonical numbers a garbage
    component's names on their own)."""
    if len(g1.nodes) != len(g2.nodes) or len(g1.links) != len(g2.links) or len(g1.boxes) != len(g2.boxes):
        return False
    nodes1 = {n.id: n for n in g1.nodes}
    nodes2 = {n.id: n for n in g2.nodes}
    links1 = {l.id: l for l in g1.links}
    links2 = {l.id: l for l in g2.links}
    if not (len(nodes1) == len(nodes2) == len(g1.nodes) and len(links1) == len(links2) == len(g1.links)):
        return False  # an id used twice: no correspondence by ids
    pinned1, pinned2 = labels1 or {}, labels2 or {}
    forward: dict = {}
    backward: dict = {}

    def name(a, b) -> bool:
        if a in pinned1 or b in pinned2:
            return a in pinned1 and b in pinned2 and pinned1[a] == pinned2[b]
        other = forward.get(a)
        if other is None:
            if b in backward:
                return False
            forward[a], backward[b] = b, a
            return True
        return other == b

    types_done: set = set()

    def type_(t1, t2) -> bool:
        key = (id(t1), id(t2))  # both alive in their graphs while this runs
        if key in types_done:
            return True
        if isinstance(t1, Vec):
            same = isinstance(t2, Vec) and name(t1.name, t2.name)
        elif isinstance(t1, Arrow):
            same = isinstance(t2, Arrow) and type_(t1.dom, t2.dom) and type_(t1.cod, t2.cod)
        else:
            same = not isinstance(t2, (Vec, Arrow)) and str(t1) == str(t2)
        if same:
            types_done.add(key)
        return same

    def node(n1, n2) -> bool:  # n1 a live node of g1 (or None), n2 its match, alive in g2
        if n1 is None or n2 is None:
            return n1 is None and n2 is None
        return nodes1.get(n1.id) is n1 and nodes2.get(n1.id) is n2

    def link(l1, l2) -> bool:
        if l1 is None or l2 is None:
            return l1 is None and l2 is None
        return links1.get(l1.id) is l1 and links2.get(l1.id) is l2

    def links(ls1, ls2) -> bool:  # ports: the same length (checked), the same links
        for l1, l2 in zip(ls1, ls2):
            if l1 is None or l2 is None:
                if l1 is not l2:
                    return False
            elif links1.get(l1.id) is not l1 or links2.get(l1.id) is not l2:
                return False
        return True

    def principal(b1, b2) -> bool:  # a box, described by its principal door
        if b1 is None or b2 is None:
            return b1 is None and b2 is None
        p1 = b1.principal
        return p1 is not None and nodes1.get(p1.id) is p1 and nodes2.get(p1.id) is b2.principal

    for i, l1 in links1.items():
        l2 = links2[i] if i in links2 else None
        if (l2 is None or l1.type.kind != l2.type.kind or l1.src_port != l2.src_port or l1.dst_port != l2.dst_port
                or not node(l1.src, l2.src) or not node(l1.dst, l2.dst)):
            return False
        t1, t2 = l1.type.type, l2.type.type
        if (id(t1), id(t2)) not in types_done and not type_(t1, t2):
            return False
    for i, n1 in nodes1.items():
        n2 = nodes2[i] if i in nodes2 else None
        if n2 is None or n1.kind != n2.kind or len(n1.ins) != len(n2.ins) or len(n1.outs) != len(n2.outs):
            return False
        if not links(n1.ins, n2.ins) or not links(n1.outs, n2.outs):
            return False
        if (n1.box is not None or n2.box is not None) and not principal(n1.box, n2.box):
            return False
        door_of = n1.door_of
        if door_of is None:
            if n2.door_of is not None:
                return False
        elif not principal(door_of, n2.door_of):
            return False
        k = n1.kind
        if k in _PLAIN:
            continue
        if k == G.CONST:
            if _value_key(n1.data) != _value_key(n2.data):
                return False
        elif k == G.VCONST:
            if _value_key(n1.data[0]) != _value_key(n2.data[0]) or not name(n1.data[1], n2.data[1]):
                return False
        elif k in (G.OP0, G.OP1):
            (op1, a1), (op2, a2) = n1.data, n2.data
            if op1 != op2 or (a1 is None) != (a2 is None) or (a1 is not None and not name(a1, a2)):
                return False
        elif k in (G.ABD, G.PROJ):
            if not name(n1.data, n2.data):
                return False
        elif k == G.BANG and door_of is not None:
            d1, d2 = door_of.doors, n2.door_of.doors
            if len(d1) != len(d2) or not all(nodes1.get(d.id) is d for d in d1) or not all(nodes2.get(d.id) is d for d in d2):
                return False
            if ([d.id for d in d1] != [d.id for d in d2]) if ordered_doors else (sorted(d.id for d in d1) != sorted(d.id for d in d2)):
                return False
    if not link(g1.root, g2.root) or len(g1.params) != len(g2.params):
        return False
    if not all(node(a, b) for a, b in zip(g1.params, g2.params)):
        return False
    if (token1 is None) != (token2 is None):
        return False
    if token1 is not None:
        if (not link(token1.position, token2.position) or token1.direction != token2.direction
                or str(token1.flag) != str(token2.flag) or len(token1.box_stack) != len(token2.box_stack)
                or not all(link(a, b) for a, b in zip(token1.box_stack, token2.box_stack))
                or tuple(map(_stack_key, token1.stack)) != tuple(map(_stack_key, token2.stack))):
            return False
    return True


def vf2_isomorphic(g1: G.Graph, g2: G.Graph, token1=None, token2=None, labels1=None, labels2=None, ordered_doors: bool = True) -> bool:
    """The same question answered by networkx's VF2 (an independent oracle for small graphs)."""
    d1 = to_networkx(g1, token1, labels1, ordered_doors)
    d2 = to_networkx(g2, token2, labels2, ordered_doors)
    if _invariant_summary(d1) != _invariant_summary(d2):
        return False
    from networkx.algorithms import isomorphism

    matcher = isomorphism.DiGraphMatcher(
        d1, d2, node_match=lambda a, b: a["key"] == b["key"], edge_match=lambda a, b: a["label"] == b["label"]
    )
    return matcher.is_isomorphic()


def difference(g1: G.Graph, g2: G.Graph, token1=None, token2=None) -> Optional[str]:
    """None if isomorphic, else a short description of what differs (for test messages).

    Both methods must agree (canonical descriptions, and VF2 on these small test graphs)."""
    same = isomorphic(g1, g2, token1, token2)
    assert same == vf2_isomorphic(g1, g2, token1, token2), "canonical form and VF2 disagree"
    if same:
        return None
    k1, e1 = _invariant_summary(to_networkx(g1, token1))
    k2, e2 = _invariant_summary(to_networkx(g2, token2))
    from collections import Counter

    c1, c2 = Counter(k1), Counter(k2)
    only1, only2 = c1 - c2, c2 - c1
    if only1 or only2:
        return f"vertices only in the first: {dict(only1)}; only in the second: {dict(only2)}"
    return "same vertices and edge labels, but connected differently"
