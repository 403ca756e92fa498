"""Graphs of the dynamic GoI machine (paper Sec. 4.1): nodes, links, !-boxes.

Conventions (docs/RULES.md, "Graphs"):
- Links are the paper's link nodes. Each link carries an enriched type
  (`T`, `!T` or `¡F`) and connects two ports: `src`, the node of which the
  link is an *output* (None for the graph's root), and `dst`, the node into
  which its edge points (None for a graph output). Edges point upward, so a
  token going ↑ on a link moves towards `dst`, going ↓ towards `src`.
- Ports are ordered: `node.ins` and `node.outs` are lists of links. A λ-node's
  bound-variable link (the paper's "incoming output") is `outs[1]`: its edge
  points *into* the λ, so for that link `dst` is the λ and `dst_port` is VAR.
- A !-box has a principal door (`!`) below it and auxiliary doors above it,
  definitive (`?`) and provisional (`¿`). Doors sit at the level *outside* the
  box they belong to (`node.box` is the enclosing box, `node.door_of` the box
  they are doors of); content nodes have `node.box` = the box. `None` is the
  top level.
- A composite graph `H ∘ (p⃗)‡` is one Graph whose `params` lists its `¡`-nodes
  in parameter order; each `¡` sits over a scalar constant node.

Graph surgery is done only through the primitives below (new_node, new_link, set_src,
set_dst, splice, delete_*, move_box, …), never by editing ports by hand in the rules;
the box surgery the rules share (copy_box, refresh_names, join_doors) is built on them
in semantics.rules.surgery. Every primitive tells the graph's listeners (undo of a trial,
journals of incremental checks) through one hook, `_changing`.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Iterable, Optional

from .types import Arrow, Field, Type, names_of, rename

# ---- node kinds ---------------------------------------------------------------
LAM = "λ"
APP = "@"
CONST = "const"  # scalar constant p
VCONST = "vconst"  # vector constant p⃗
OP0 = "$0"  # operation of Σ
OP1 = "$1"  # iterated operation of Σ^iter
BANG = "!"  # principal door
WHY = "?"  # definitive auxiliary door
PWHY = "¿"  # provisional auxiliary door
PBANG = "¡"  # provisional constant's door in (p⃗)‡
DER = "D"  # dereliction
PDER = "rotD"  # provisional dereliction
CON = "C"  # contraction C_n (n = len(ins))
PCON = "rotC"  # provisional contraction rotC_n
PROJ = "P"  # projection P_n
ABD = "A"  # decoupling

CONSTANTS = frozenset({CONST, VCONST})

VAR = -1  # dst_port of a λ's bound-variable link


@dataclass(frozen=True)
class EType:
    """Enriched type: `T` (kind ''), `!T` (kind '!'), `¡F` (kind '¡')."""

    kind: str
    type: Type

    def __str__(self) -> str:
        inner = str(self.type)
        if isinstance(self.type, Arrow) and self.kind:
            inner = f"({inner})"
        return f"{self.kind}{inner}"

    def renamed(self, mapping: dict[str, str]) -> "EType":
        return EType(self.kind, rename(self.type, mapping))


# An enriched type is a value (frozen), so links of one type share one: the translation asks
# for one a link, and making a frozen dataclass costs about a microsecond (types hash in
# constant time: arrows are hash-consed). Bounded, so that a long campaign's types can go.
@functools.lru_cache(maxsize=4096)
def plain(t: Type) -> EType:
    return EType("", t)


@functools.lru_cache(maxsize=4096)
def bang(t: Type) -> EType:
    return EType("!", t)


PROV = EType("¡", Field())


class Link:
    __slots__ = ("id", "type", "src", "src_port", "dst", "dst_port")

    def __init__(self, id: int, type: EType):
        self.id = id
        self.type = type
        self.src: Optional[Node] = None
        self.src_port = 0
        self.dst: Optional[Node] = None
        self.dst_port = 0

    def __repr__(self) -> str:
        return f"ℓ{self.id}:{self.type}"


class Node:
    __slots__ = ("id", "kind", "ins", "outs", "box", "door_of", "data", "span")

    def __init__(self, id: int, kind: str, box: Optional["Box"], data=None, span=None, n_in: int = 0, n_out: int = 0):
        self.id = id
        self.kind = kind
        self.ins: list[Optional[Link]] = [None] * n_in
        self.outs: list[Optional[Link]] = [None] * n_out
        self.box = box
        self.door_of: Optional[Box] = None
        self.data = data
        self.span = span  # the source span (syntax.Pos) of the term it comes from, or None

    def __repr__(self) -> str:
        return f"{label(self)}#{self.id}"


class Box:
    __slots__ = ("id", "principal", "doors", "parent", "nodes", "children")

    def __init__(self, id: int, parent: Optional["Box"]):
        self.id = id
        self.principal: Optional[Node] = None
        self.doors: list[Node] = []  # auxiliary doors, ? and ¿, in order
        self.parent = parent
        self.nodes: set[Node] = set()  # direct content (including doors of child boxes)
        self.children: set[Box] = set()

    def __repr__(self) -> str:
        return f"box{self.id}"

    @property
    def root(self) -> Link:
        """The box's root: the output link of its principal door."""
        return self.principal.outs[0]

    def why_doors(self) -> list[Node]:
        return [d for d in self.doors if d.kind == WHY]

    def depth(self) -> int:
        d, b = 0, self.parent
        while b is not None:
            d, b = d + 1, b.parent
        return d


def label(node: Node) -> str:
    k = node.kind
    if k in (CON, PCON, PROJ):
        return f"{k}{len(node.ins)}"
    if k == CONST:
        return str(node.data)
    if k == VCONST:
        values, name = node.data
        return "(" + ",".join(str(v) for v in values) + f")_{name}"
    if k in (OP0, OP1):
        op, name = node.data
        return op if name is None else f"{op}_{name}"
    if k == ABD:
        return f"A_{node.data}"
    return k


def weight(nodes) -> int:
    """What nodes count against a run's graph budget (--max-nodes): one each, and an
    n-vector constant n more (its entries are held in the graph too)."""
    total = len(nodes)
    for n in nodes:
        if n.kind == VCONST:
            total += len(n.data[0])
    return total


def _id(x) -> int:
    return x.id


class Graph:
    """A composite graph under rewriting; owns ids, fresh names and the top level."""

    def __init__(self):
        self._ids = itertools.count(1)
        self.nodes: set[Node] = set()
        self.links: set[Link] = set()
        self.boxes: set[Box] = set()
        self.top: set[Node] = set()  # top-level nodes
        self.top_boxes: set[Box] = set()
        self.root: Optional[Link] = None
        self.params: list[Node] = []  # the ¡-nodes, in parameter order
        self._name_next: dict[str, int] = {}  # next suffix to try, per stem
        self.names_in_use: set[str] = set()
        self.inputless: set[Node] = set()  # live nodes with no input port (C_0, rotC_0, P_0, …): where garbage starts (semantics.gc)
        self.version = 0  # moved on by every change (the hook `_changing`): checks see whether the graph changed
        self.span = None  # the source span new nodes take (set while the translation or a rule builds)
        # Told of every change, through the one hook below: a trial's undo log (semantics.trial),
        # the journal of incremental checks (semantics.journal).
        self.listeners: list = []

    def allocated(self) -> int:
        """How many nodes, links and boxes were ever created (a measure of rewriting work)."""
        n = next(self._ids)
        self._ids = itertools.count(n)  # peeking must not consume an id
        return n - 1

    # ---- the one hook ---------------------------------------------------------------------
    # Every primitive below calls `_changing` with the nodes, links and boxes it is about to
    # change, has just created, or detaches (a displaced link, a deleted node's links), and
    # changes set membership through `_add` / `_discard`. A listener has four methods:
    #   changing(objects)         before fields of these objects change (or after their creation)
    #   membership(s, x, added)   x was added to / removed from one of the graph's sets s
    #   moving(box, chain)        box is about to change parent; chain: the boxes it is inside
    #   renaming_all()            every name of the graph is about to be renamed
    # With no listener (the bare machine), a primitive costs its own work and one increment.

    def _changing(self, *objects) -> None:
        self.version += 1
        for listener in self.listeners:
            listener.changing(objects)
    # The hottest primitives call it only when someone listens (`if self.listeners:`) and
    # otherwise just move the version on: a call per primitive is a measurable share of a run.

    def _add(self, s: set, x) -> None:
        if x not in s:
            s.add(x)
            for listener in self.listeners:
                listener.membership(s, x, True)

    def _discard(self, s: set, x) -> None:
        if x in s:
            s.discard(x)
            for listener in self.listeners:
                listener.membership(s, x, False)

    # ---- creation ------------------------------------------------------------
    def new_node(self, kind: str, box: Optional[Box], n_in: int, n_out: int, data=None) -> Node:
        node = Node(next(self._ids), kind, box, data, self.span, n_in, n_out)
        if self.listeners:
            self._changing(node)
            self._add(self.nodes, node)
            if not n_in:
                self._add(self.inputless, node)
            self._add(self._members(box), node)
        else:  # the bare machine's path: a new node is in no set yet
            self.version += 1
            self.nodes.add(node)
            if not n_in:
                self.inputless.add(node)
            (self.top if box is None else box.nodes).add(node)
        return node

    def new_box(self, parent: Optional[Box]) -> Box:
        box = Box(next(self._ids), parent)
        if self.listeners:
            self._changing(box)
            self._add(self.boxes, box)
            self._add(self._children(parent), box)
        else:
            self.version += 1
            self.boxes.add(box)
            (self.top_boxes if parent is None else parent.children).add(box)
        return box

    def new_boxed(self, level: Optional[Box]) -> tuple[Box, Node]:
        """A new box at `level` with its principal door (at `level`, outside it)."""
        box = self.new_box(level)
        bang = self.new_node(BANG, level, 1, 1)
        bang.door_of = box
        box.principal = bang
        return box, bang

    def new_link(self, type: EType, src: Optional[tuple[Node, int]] = None, dst: Optional[tuple[Node, int]] = None) -> Link:
        link = Link(next(self._ids), type)
        if not self.listeners:  # the bare machine's path: wire it here (_wire_src, _wire_dst inlined)
            self.version += 1
            self.links.add(link)
            if src is not None:
                node, link.src_port = src
                link.src = node
                node.outs[link.src_port] = link
            if dst is not None:
                node, port = dst
                link.dst, link.dst_port = node, port
                if port == VAR:
                    node.outs[1] = link
                else:
                    node.ins[port] = link
            return link
        self._changing(link)
        self._add(self.links, link)
        if src is not None:
            self.set_src(link, *src)
        if dst is not None:
            self.set_dst(link, *dst)
        return link

    def _members(self, box: Optional[Box]) -> set[Node]:
        return self.top if box is None else box.nodes

    def _children(self, box: Optional[Box]) -> set[Box]:
        return self.top_boxes if box is None else box.children

    # ---- connecting ----------------------------------------------------------
    def set_src(self, link: Link, node: Node, port: int) -> None:
        """Make `link` the output `port` of `node`."""
        if self.listeners:
            self._changing(link, node, link.src, node.outs[port])
        else:
            self.version += 1
        self._wire_src(link, node, port)

    @staticmethod
    def _wire_src(link: Link, node: Node, port: int) -> None:
        link.src, link.src_port = node, port
        node.outs[port] = link

    def set_dst(self, link: Link, node: Node, port: int) -> None:
        """Make `link` enter `node` at input `port` (or as a λ's bound variable, port VAR)."""
        if self.listeners:
            self._changing(link, node, link.dst, node.outs[1] if port == VAR else node.ins[port])
        else:
            self.version += 1
        self._wire_dst(link, node, port)

    @staticmethod
    def _wire_dst(link: Link, node: Node, port: int) -> None:
        link.dst, link.dst_port = node, port
        if port == VAR:
            node.outs[1] = link
        else:
            node.ins[port] = link

    def splice(self, lower: Link, upper: Link) -> Link:
        """Join two links into one: `lower` takes over `upper`'s upper end; `upper` is deleted.

        Used when the node(s) between them are removed. Returns `lower`.
        """
        node, port = upper.dst, upper.dst_port
        if self.listeners:
            self._changing(upper, lower, upper.src, node)
            self._discard(self.links, upper)
        else:
            self.version += 1
            self.links.discard(upper)
        upper.src = upper.dst = None
        if node is not None:
            self.set_dst(lower, node, port)
        else:
            lower.dst, lower.dst_port = None, 0
            if self.root is upper:
                self.root = lower
        return lower

    def set_inputs(self, node: Node, links: list[Link]) -> None:
        """Give a contraction-like node exactly these input links, in this order."""
        if self.listeners:
            self._changing(node, *node.ins)
        else:
            self.version += 1
        node.ins = [None] * len(links)
        if links:
            self._discard(self.inputless, node)
        else:
            self._add(self.inputless, node)
        for i, link in enumerate(links):
            self.set_dst(link, node, i)

    def drop_input(self, node: Node, link: Link) -> None:
        """Remove one input of a contraction-like node (the link is deleted)."""
        self.set_inputs(node, [l for l in node.ins if l is not link])
        self.delete_link(link)

    def retype(self, link: Link, etype: EType) -> None:
        self._changing(link)
        link.type = etype

    def rekind(self, node: Node, kind: str) -> None:
        """Change a node's kind keeping its ports (turning provisional nodes definitive)."""
        self._changing(node)
        node.kind = kind

    def add_door(self, box: Box, door: Node) -> None:
        self._changing(door, box)
        door.door_of = box
        box.doors.append(door)

    def remove_door(self, box: Box, door: Node) -> None:
        if self.listeners:
            self._changing(box)
        box.doors.remove(door)
        self.delete_node(door)

    def delete_node(self, node: Node) -> None:
        if self.listeners:
            self._changing(node, *node.ins, *node.outs)
            self._discard(self.nodes, node)
            self._discard(self._members(node.box), node)
            self._discard(self.inputless, node)
        else:  # the bare machine's path
            self.version += 1
            self.nodes.discard(node)
            (self.top if node.box is None else node.box.nodes).discard(node)
            if not node.ins:  # a node is in `inputless` exactly when it has no input port
                self.inputless.discard(node)
        node.ins = []
        node.outs = []

    def delete_link(self, link: Link) -> None:
        if self.listeners:
            self._changing(link, link.src, link.dst)
            self._discard(self.links, link)
        else:
            self.version += 1
            self.links.discard(link)

    def delete_box(self, box: Box) -> None:
        """Forget the box as a box (its doors and content must already be gone or moved)."""
        if self.listeners:
            self._changing(box)
            self._discard(self.boxes, box)
            self._discard(self._children(box.parent), box)
        else:
            self.version += 1
            self.boxes.discard(box)
            (self.top_boxes if box.parent is None else box.parent.children).discard(box)
        if not box.nodes and not box.children and not (self.listeners and any(l.undoes for l in self.listeners)):
            # A Python set keeps the table of its largest size: a box that once held much
            # (a dissolved box's content passes through its parent) would keep that memory
            # for as long as the box lives, and deleted boxes live in reference cycles
            # (doors, parents) until a full collection. Give it back now.
            box.nodes, box.children = set(), set()

    # ---- boxes ---------------------------------------------------------------
    def move_node(self, node: Node, box: Optional[Box]) -> None:
        if self.listeners:
            self._changing(node)
            self._discard(self._members(node.box), node)
            node.box = box
            self._add(self._members(box), node)
        else:
            self.version += 1
            (self.top if node.box is None else node.box.nodes).discard(node)
            node.box = box
            (self.top if box is None else box.nodes).add(node)

    def _moving(self, box: Box) -> None:
        """`box` is about to change parent: listeners are told, with the boxes it was inside."""
        if not self.listeners:
            self.version += 1
            return
        chain = []
        b = box.parent
        while b is not None:
            chain.append(b)
            b = b.parent
        for listener in self.listeners:
            listener.moving(box, chain)
        self._changing(box)

    def move_box(self, box: Box, parent: Optional[Box]) -> None:
        """Put `box` (with its doors) directly inside `parent`."""
        self._moving(box)
        self._discard(self._children(box.parent), box)
        box.parent = parent
        self._add(self._children(parent), box)
        for door in [box.principal, *box.doors]:
            self.move_node(door, parent)

    def unbox(self, box: Box) -> None:
        """Dissolve a box whose doors were already removed: its content joins the parent level."""
        parent = box.parent
        for node in list(box.nodes):
            self.move_node(node, parent)
        for child in list(box.children):
            self._moving(child)
            self._discard(self._children(box), child)
            child.parent = parent
            self._add(self._children(parent), child)
        self.delete_box(box)

    def contents(self, box: Box) -> tuple[list[Node], list[Box]]:
        """All nodes strictly inside `box` (at any depth) and all boxes nested in it, in id
        order within each box: a copy allocates its ids in this order, so that the same run
        gives the same ids in every process (sets iterate in the order of memory addresses)."""
        nodes, boxes = [], []
        stack = [box]
        while stack:
            b = stack.pop()
            nodes.extend(sorted(b.nodes, key=_id))
            for child in sorted(b.children, key=_id):
                boxes.append(child)
                stack.append(child)
        return nodes, boxes

    def is_inside(self, node: Node, box: Box) -> bool:
        b = node.box
        while b is not None:
            if b is box:
                return True
            b = b.parent
        return False

    def clone(self) -> tuple["Graph", dict, dict]:
        """A deep copy of the whole graph, same ids; returns (copy, node map, link map)."""
        g = Graph()
        g._ids = itertools.count(self.allocated() + 1)
        box_map: dict[Box, Box] = {}
        for b in sorted(self.boxes, key=Box.depth):
            c = Box(b.id, box_map[b.parent] if b.parent is not None else None)
            box_map[b] = c
            g.boxes.add(c)
            g._children(c.parent).add(c)
        node_map: dict[Node, Node] = {}
        top, inputless = g.top, g.inputless
        for n in self.nodes:
            box = n.box if n.box is None else box_map.get(n.box)  # (a box not in the graph: none, as before)
            c = Node(n.id, n.kind, box, n.data, n.span, len(n.ins), len(n.outs))
            if n.door_of is not None:
                c.door_of = box_map[n.door_of]
            node_map[n] = c
            if not n.ins:
                inputless.add(c)
            (top if box is None else box.nodes).add(c)
        g.nodes = set(node_map.values())
        for b, c in box_map.items():
            c.principal = node_map[b.principal]
            c.doors = [node_map[d] for d in b.doors]
        link_map: dict[Link, Link] = {}
        for link in self.links:  # wired directly: the copy is new (no journal, no trial)
            c = Link(link.id, link.type)
            if link.src is not None:
                self._wire_src(c, node_map[link.src], link.src_port)
            if link.dst is not None:
                self._wire_dst(c, node_map[link.dst], link.dst_port)
            link_map[link] = c
        g.links = set(link_map.values())
        g.root = link_map.get(self.root)
        g.params = [node_map[p] for p in self.params]
        g.names_in_use = set(self.names_in_use)
        g._name_next = dict(self._name_next)
        return g, node_map, link_map

    # ---- names -----------------------------------------------------------------
    def reserve_names(self, names: Iterable[str]) -> None:
        self._changing()
        for name in names:
            self._add(self.names_in_use, name)

    def fresh_name(self, base: str) -> str:
        """A name never used in this graph: the stem of `base` with a new suffix (a → a.1)."""
        self._changing()
        stem = base.split(".")[0]
        k = self._name_next.get(stem, 1)
        while f"{stem}.{k}" in self.names_in_use:
            k += 1
        name = f"{stem}.{k}"
        self._name_next[stem] = k + 1
        self._add(self.names_in_use, name)
        return name

    def rename_everywhere(self, mapping: dict[str, str]) -> None:
        """Apply a renaming of names to the whole graph (types of all links, data of all nodes)."""
        for listener in self.listeners:
            listener.renaming_all()
        self.rename_in(self.nodes, self.links, mapping)
        for name in mapping.values():
            self._add(self.names_in_use, name)

    def rename_in(self, nodes: Iterable[Node], links: Iterable[Link], mapping: dict[str, str]) -> None:
        """Apply a renaming of names to these nodes' data and these links' types."""
        if self.listeners:
            nodes, links = list(nodes), list(links)
            self._changing(*links, *nodes)
        else:
            self.version += 1
        for link in links:
            link.type = link.type.renamed(mapping)
        for n in nodes:
            n.data = rename_node_data(n, mapping)

    def names(self) -> set[str]:
        """Every name occurring in the graph."""
        found: set[str] = set()
        for link in self.links:
            found |= names_of(link.type.type)
        for n in self.nodes:
            found |= node_names(n)
        return found

def node_names(n: Node) -> set[str]:
    if n.kind in (VCONST, OP0, OP1):
        name = n.data[1]
        return {name} if name is not None else set()
    if n.kind in (ABD, PROJ):
        return {n.data}
    return set()


def rename_node_data(n: Node, mapping: dict[str, str]):
    if n.kind in (VCONST, OP0, OP1):
        first, name = n.data
        return (first, mapping.get(name, name) if name is not None else None)
    if n.kind in (ABD, PROJ):
        return mapping.get(n.data, n.data)
    return n.data

