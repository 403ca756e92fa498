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

Graph surgery is done only through the primitives below (new_node, new_link,
connect, splice, delete_*, move_to_box, copy_box, refresh_names), never by
editing ports by hand in the rules.
"""

from __future__ import annotations

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

DOORS = frozenset({BANG, WHY, PWHY})
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


def plain(t: Type) -> EType:
    return EType("", t)


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
    __slots__ = ("id", "kind", "ins", "outs", "box", "door_of", "data")

    def __init__(self, id: int, kind: str, box: Optional["Box"], data=None):
        self.id = id
        self.kind = kind
        self.ins: list[Optional[Link]] = []
        self.outs: list[Optional[Link]] = []
        self.box = box
        self.door_of: Optional[Box] = None
        self.data = data

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
    return sum(1 + (len(n.data[0]) if n.kind == VCONST else 0) for n in nodes)


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
        self.version = 0  # moved on by every surgery primitive (the methods below that change the graph)
        self.journals: list = []  # semantics.journal.Journal: what the primitives touched, for incremental checks
        self.undo: Optional[list] = None  # during a trial: how to undo what the primitives did (see `trial`)

    def allocated(self) -> int:
        """How many nodes, links and boxes were ever created (a measure of rewriting work)."""
        n = next(self._ids)
        self._ids = itertools.count(n)  # peeking must not consume an id
        return n - 1

    # ---- creation ------------------------------------------------------------
    def new_node(self, kind: str, box: Optional[Box], n_in: int, n_out: int, data=None) -> Node:
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        node = Node(next(self._ids), kind, box, data)
        node.ins = [None] * n_in
        node.outs = [None] * n_out
        if self.undo is None:  # the bare machine's path: a new node is in no set yet
            self.nodes.add(node)
            if not n_in:
                self.inputless.add(node)
            (self.top if box is None else box.nodes).add(node)
        else:
            self._add(self.nodes, node)
            if not n_in:
                self._add(self.inputless, node)
            self._add(self._members(box), node)
        if self.journals:
            self._note(nodes=(node,))
        return node

    def new_box(self, parent: Optional[Box]) -> Box:
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        box = Box(next(self._ids), parent)
        self._add(self.boxes, box)
        self._add(self._children(parent), box)
        if self.journals:
            self._note(boxes=(box,))
        return box

    def new_boxed(self, level: Optional[Box]) -> tuple[Box, Node]:
        """A new box at `level` with its principal door (at `level`, outside it)."""
        box = self.new_box(level)
        bang = self.new_node(BANG, level, 1, 1)
        bang.door_of = box
        box.principal = bang
        return box, bang

    def new_link(self, type: EType, src: Optional[tuple[Node, int]] = None, dst: Optional[tuple[Node, int]] = None) -> Link:
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        link = Link(next(self._ids), type)
        if self.undo is None and not self.journals:  # the bare machine's path: wire it here
            self.links.add(link)
            if src is not None:
                self._wire_src(link, *src)
            if dst is not None:
                self._wire_dst(link, *dst)
            return link
        self._add(self.links, link)
        if self.journals:
            self._note(links=(link,))
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
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        if self.journals:
            self._note(nodes=(node, link.src), links=(link, node.outs[port]))
        if self.undo is not None:
            self._keep(link, node)
        self._wire_src(link, node, port)

    @staticmethod
    def _wire_src(link: Link, node: Node, port: int) -> None:
        link.src, link.src_port = node, port
        node.outs[port] = link

    def set_dst(self, link: Link, node: Node, port: int) -> None:
        """Make `link` enter `node` at input `port` (or as a λ's bound variable, port VAR)."""
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        if self.journals:
            self._note(nodes=(node, link.dst), links=(link, node.outs[1] if port == VAR else node.ins[port]))
        if self.undo is not None:
            self._keep(link, node)
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
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        node, port = upper.dst, upper.dst_port
        if self.journals:
            self._note(nodes=(upper.src, node), links=(lower, upper))
        if self.undo is not None:
            self._keep(upper, lower)
        self._discard(self.links, upper)
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
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        if self.journals:
            self._note(nodes=(node,), links=node.ins)
        if self.undo is not None:
            self._keep(node)
        node.ins = [None] * len(links)
        if links:
            self._discard(self.inputless, node)
        else:
            self._add(self.inputless, node)
        for i, link in enumerate(links):
            self.set_dst(link, node, i)

    def drop_input(self, node: Node, link: Link) -> None:
        """Remove one input of a contraction-like node (the link is deleted)."""
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        self.set_inputs(node, [l for l in node.ins if l is not link])
        self.delete_link(link)

    def retype(self, link: Link, etype: EType) -> None:
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        if self.undo is not None:
            self._keep(link)
        link.type = etype
        if self.journals:
            self._note(links=(link,))

    def rekind(self, node: Node, kind: str) -> None:
        """Change a node's kind keeping its ports (turning provisional nodes definitive)."""
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        if self.undo is not None:
            self._keep(node)
        node.kind = kind
        if self.journals:
            self._note(nodes=(node,))

    def add_door(self, box: Box, door: Node) -> None:
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        if self.undo is not None:
            self._keep(door, box)
        door.door_of = box
        box.doors.append(door)
        if self.journals:
            self._note(nodes=(door,), boxes=(box,))

    def join_doors(self, boxes: list[Box]) -> None:
        """Join the i-th auxiliary doors of a box and its copies: ?-doors by a new C_n,
        ¿-doors by a new rotC_n (so provisional constants are shared, never copied).

        The first box's door outputs keep their targets through the join; the copies'
        outputs (dangling, as copy_box leaves them) enter it. For one box it is the identity.
        """
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        n = len(boxes)
        if n == 1:
            return
        level = boxes[0].parent
        for i, door in enumerate(boxes[0].doors):
            up = door.outs[0]
            join = self.new_node(CON if door.kind == WHY else PCON, level, n, 1)
            self.set_src(up, join, 0)
            self.new_link(up.type, src=(door, 0), dst=(join, 0))
            for j, copy in enumerate(boxes[1:], start=1):
                self.set_dst(copy.doors[i].outs[0], join, j)

    def remove_door(self, box: Box, door: Node) -> None:
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        if self.undo is not None:
            self._keep(box)
        box.doors.remove(door)
        if self.journals:
            self._note(boxes=(box,))
        self.delete_node(door)

    def delete_node(self, node: Node) -> None:
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        if self.journals:
            self._note(nodes=(node,), links=(*node.ins, *node.outs))
        if self.undo is None:
            self.nodes.discard(node)
            (self.top if node.box is None else node.box.nodes).discard(node)
            self.inputless.discard(node)
        else:
            self._keep(node)
            self._discard(self.nodes, node)
            self._discard(self._members(node.box), node)
            self._discard(self.inputless, node)
        node.ins = []
        node.outs = []

    def delete_link(self, link: Link) -> None:
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        self._discard(self.links, link)
        if self.journals:
            self._note(nodes=(link.src, link.dst), links=(link,))

    def delete_box(self, box: Box) -> None:
        """Forget the box as a box (its doors and content must already be gone or moved)."""
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        self._discard(self.boxes, box)
        self._discard(self._children(box.parent), box)
        if self.journals:
            self._note(boxes=(box,))
        if self.undo is None and not box.nodes and not box.children:
            # A Python set keeps the table of its largest size: a box that once held much
            # (a dissolved box's content passes through its parent) would keep that memory
            # for as long as the box lives, and deleted boxes live in reference cycles
            # (doors, parents) until a full collection. Give it back now.
            box.nodes, box.children = set(), set()

    # ---- trials: changes that are undone ------------------------------------------------
    def _add(self, s: set, x) -> None:
        if x not in s:
            s.add(x)
            if self.undo is not None:
                self.undo.append((s, x, True))

    def _discard(self, s: set, x) -> None:
        if x in s:
            s.discard(x)
            if self.undo is not None:
                self.undo.append((s, x, False))

    def _keep(self, *objects) -> None:
        """Save the fields of nodes, links and boxes a primitive is about to change (once per trial)."""
        saved, first_new = self._saved, self._trial[1]
        for x in objects:
            if x is None or x in saved or x.id >= first_new:
                continue  # an element the trial created is simply dropped by end_trial
            saved[x] = self._fields(x)

    @staticmethod
    def _fields(x):
        """What `_keep` saves of x, as it is now."""
        if isinstance(x, Node):
            return (list(x.ins), list(x.outs), x.box, x.door_of, x.kind, x.data)
        if isinstance(x, Link):
            return (x.type, x.src, x.src_port, x.dst, x.dst_port)
        return (x.principal, list(x.doors), x.parent)

    def begin_trial(self) -> None:
        """From now on, every primitive records how to undo it; `end_trial` undoes them all.
        The determinism check runs other orders of a ?-phase this way, on the graph itself,
        instead of on clones (semantics/checks/determinism.py). Journals do not record
        during a trial: the graph comes back to where they left it."""
        assert self.undo is None, "trials do not nest"
        self.undo = []
        self._saved: dict = {}
        self._trial = (self.root, self.allocated() + 1, dict(self._name_next), self.journals)
        self.journals = []

    def touched_in_trial(self) -> tuple[set, set]:
        """The nodes, links and boxes the trial changed or created so far: (those that
        existed when it began, those it created)."""
        first_new = self._trial[1]
        found = set()
        was_in: dict = {}  # (set, element) -> whether it was in the set when the trial began
        for s, x, added in self.undo:
            if s is self.nodes or s is self.links or s is self.boxes:
                if x.id >= first_new:
                    found.add(x)
                else:
                    was_in.setdefault((id(s), x), (s, not added))
        old = {x for (_k, x), (s, before) in was_in.items() if (x in s) != before}
        for x, state in self._saved.items():
            if x.id >= first_new:
                found.add(x)
            elif x not in old and state != self._fields(x):
                old.add(x)  # changed (a field saved but put back as it was is no change)
        return old, found

    def names_created_in_trial(self) -> set:
        return {x for s, x, added in self.undo if s is self.names_in_use and added}

    def end_trial(self) -> None:
        """Undo every primitive since `begin_trial`: the graph is as it was (same objects)."""
        for s, x, added in reversed(self.undo):
            if added:
                s.discard(x)
            else:
                s.add(x)
        for x, state in self._saved.items():
            if isinstance(x, Node):
                x.ins, x.outs, x.box, x.door_of, x.kind, x.data = state
            elif isinstance(x, Link):
                x.type, x.src, x.src_port, x.dst, x.dst_port = state
            else:
                x.principal, x.doors, x.parent = state
        self.root, next_id, self._name_next, self.journals = self._trial
        self._ids = itertools.count(next_id)
        self.undo = None
        self._saved = {}
        self.version += 1

    # ---- the journal of incremental checks -------------------------------------------
    def _note(self, nodes=(), links=(), boxes=()) -> None:
        """Record what a primitive touches (before and after: a displaced link, a deleted
        node's links) in every attached journal; None entries are skipped."""
        for journal in self.journals:
            journal.nodes.update(nodes)
            journal.links.update(links)
            journal.boxes.update(boxes)

    def _moved(self, box: Box) -> None:
        """A box is about to change parent: record it with the boxes it was inside."""
        chain = []
        b = box.parent
        while b is not None:
            chain.append(b)
            b = b.parent
        for journal in self.journals:
            journal.boxes.add(box)
            journal.moved.append((box, chain))

    # ---- boxes ---------------------------------------------------------------
    def move_node(self, node: Node, box: Optional[Box]) -> None:
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        if self.undo is not None:
            self._keep(node)
        self._discard(self._members(node.box), node)
        node.box = box
        self._add(self._members(box), node)
        if self.journals:
            self._note(nodes=(node,))

    def move_box(self, box: Box, parent: Optional[Box]) -> None:
        """Put `box` (with its doors) directly inside `parent`."""
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        if self.journals:
            self._moved(box)
        if self.undo is not None:
            self._keep(box)
        self._discard(self._children(box.parent), box)
        box.parent = parent
        self._add(self._children(parent), box)
        for door in [box.principal, *box.doors]:
            self.move_node(door, parent)

    def unbox(self, box: Box) -> None:
        """Dissolve a box whose doors were already removed: its content joins the parent level."""
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        parent = box.parent
        for node in list(box.nodes):
            self.move_node(node, parent)
        for child in list(box.children):
            if self.journals:
                self._moved(child)
            if self.undo is not None:
                self._keep(child)
            self._discard(self._children(box), child)
            child.parent = parent
            self._add(self._children(parent), child)
        self.delete_box(box)

    def contents(self, box: Box) -> tuple[list[Node], list[Box]]:
        """All nodes strictly inside `box` (at any depth) and all boxes nested in it."""
        nodes, boxes = [], []
        stack = [box]
        while stack:
            b = stack.pop()
            nodes.extend(b.nodes)
            for child in b.children:
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
        for n in self.nodes:
            c = Node(n.id, n.kind, box_map.get(n.box) if n.box is not None else None, n.data)
            c.ins = [None] * len(n.ins)
            c.outs = [None] * len(n.outs)
            if n.door_of is not None:
                c.door_of = box_map[n.door_of]
            node_map[n] = c
            g.nodes.add(c)
            if not n.ins:
                g.inputless.add(c)
            g._members(c.box).add(c)
        for b, c in box_map.items():
            c.principal = node_map[b.principal]
            c.doors = [node_map[d] for d in b.doors]
        link_map: dict[Link, Link] = {}
        for link in self.links:  # wired directly: the copy is new (no journal, no trial)
            c = Link(link.id, link.type)
            g.links.add(c)
            if link.src is not None:
                self._wire_src(c, node_map[link.src], link.src_port)
            if link.dst is not None:
                self._wire_dst(c, node_map[link.dst], link.dst_port)
            link_map[link] = c
        g.root = link_map.get(self.root)
        g.params = [node_map[p] for p in self.params]
        g.names_in_use = set(self.names_in_use)
        g._name_next = dict(self._name_next)
        return g, node_map, link_map

    # ---- names -----------------------------------------------------------------
    def reserve_names(self, names: Iterable[str]) -> None:
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        for name in names:
            self._add(self.names_in_use, name)

    def fresh_name(self, base: str) -> str:
        """A name never used in this graph: the stem of `base` with a new suffix (a → a.1)."""
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        stem = base.split(".")[0]
        k = self._name_next.get(stem, 1)
        while f"{stem}.{k}" in self.names_in_use:
            k += 1
        name = f"{stem}.{k}"
        self._name_next[stem] = k + 1
        self._add(self.names_in_use, name)
        return name

    # ---- copying -----------------------------------------------------------------
    def copy_box(self, box: Box, parent: Optional[Box], refresh: bool = True) -> tuple[Box, dict[Node, Node]]:
        """Copy `box` (doors, content, nested boxes) into `parent`.

        The copy's auxiliary doors get new, dangling output links, and its
        principal door no input link: the caller connects them. With
        `refresh`, every name that occurs strictly inside the box but not on its
        interface (root and doors) is replaced by a globally fresh one (the
        paper's π_N, N the interface names); the validation map extends to them
        because a fresh name is only ever used for the copy of one name.
        Returns the copy and the map from original to copied nodes.
        """
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        nodes, boxes = self.contents(box)
        box_map: dict[Box, Box] = {}
        new = self.new_box(parent)
        box_map[box] = new
        for b in sorted(boxes, key=Box.depth):
            box_map[b] = self.new_box(box_map[b.parent])
        doors = [box.principal, *box.doors]
        node_map: dict[Node, Node] = {}
        for n in doors:
            c = self.new_node(n.kind, parent, len(n.ins), len(n.outs), n.data)
            c.door_of = new
            node_map[n] = c
        for n in nodes:
            c = self.new_node(n.kind, box_map[n.box], len(n.ins), len(n.outs), n.data)
            if n.door_of is not None:
                c.door_of = box_map[n.door_of]
            node_map[n] = c
        for b, c in box_map.items():
            c.principal = node_map[b.principal]
            c.doors = [node_map[d] for d in b.doors]
        # Links: every link whose src is copied (internal links, and the doors'
        # outputs, left dangling), plus the principal door's input (dangling).
        # A λ's bound-variable link is copied from its source's side.
        for n in [*doors, *nodes]:
            for port, link in enumerate(n.outs):
                if link is None or (port == 1 and n.kind == LAM):
                    continue
                src = node_map[link.src]
                dst = node_map.get(link.dst) if link.dst is not None else None
                if dst is None:
                    self.new_link(link.type, src=(src, link.src_port))
                else:
                    self.new_link(link.type, src=(src, link.src_port), dst=(dst, link.dst_port))
        p_in = box.principal.ins[0]
        if refresh:
            keep = set(names_of(box.root.type.type)) | set(names_of(p_in.type.type))
            for d in box.doors:
                keep |= names_of(d.outs[0].type.type)
            self.refresh_names([node_map[n] for n in nodes] + [node_map[n] for n in doors], keep)
        return new, node_map

    def rename_everywhere(self, mapping: dict[str, str]) -> None:
        """Apply a renaming of names to the whole graph (types of all links, data of all nodes)."""
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        for journal in self.journals:
            journal.everything = True
        if self.undo is not None:
            self._keep(*self.links, *self.nodes)
        for link in self.links:
            link.type = link.type.renamed(mapping)
        for n in self.nodes:
            n.data = rename_node_data(n, mapping)
        for name in mapping.values():
            self._add(self.names_in_use, name)

    def names(self) -> set[str]:
        """Every name occurring in the graph."""
        found: set[str] = set()
        for link in self.links:
            found |= names_of(link.type.type)
        for n in self.nodes:
            found |= node_names(n)
        return found

    def refresh_names(self, nodes: list[Node], keep: set[str]) -> dict[str, str]:
        """Rename, in these nodes and their links, every name not in `keep` to a fresh one."""
        self.version += 1  # a surgery primitive (checks see that the graph changed)
        found: set[str] = set()
        links: set[Link] = set()
        for n in nodes:
            for link in (*n.ins, *n.outs):
                if link is not None:
                    links.add(link)
            found |= node_names(n)
        for link in links:
            found |= names_of(link.type.type)
        mapping = {a: self.fresh_name(a) for a in sorted(found - keep)}
        if not mapping:
            return mapping
        if self.journals:
            self._note(nodes=nodes, links=links)
        if self.undo is not None:
            self._keep(*links, *nodes)
        for link in links:
            link.type = link.type.renamed(mapping)
        for n in nodes:
            n.data = rename_node_data(n, mapping)
        return mapping


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

