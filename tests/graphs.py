"""A small builder for hand-made graphs in tests (only through the Graph primitives)."""

from __future__ import annotations

from fractions import Fraction

from goi.semantics import graph as G
from goi.semantics.machine import Machine
from goi.semantics.token import Token
from goi.semantics.types import Arrow, F, Vec

VA = Vec("a")
FF = Arrow(F, F)


class B:
    def __init__(self):
        self.g = G.Graph()
        self.g.reserve_names(["a"])

    def node(self, kind, level=None, n_in=1, n_out=0, data=None):
        return self.g.new_node(kind, level, n_in, n_out, data)

    def link(self, etype, src=None, dst=None):
        return self.g.new_link(etype, src, dst)

    def root(self, t, dst):
        self.g.root = self.g.new_link(G.plain(t), dst=dst)
        return self.g.root

    def const(self, value, level=None):
        return self.node(G.CONST, level, 1, 0, Fraction(value))

    def box(self, level=None):
        """A new box at `level` with its principal door; returns (box, bang)."""
        return self.g.new_boxed(level)

    def door(self, box, kind):
        door = self.node(kind, box.parent, 1, 1)
        self.g.add_door(box, door)
        return door

    def param(self, value, src):
        """A ¡ over a constant, fed by `src` (node, port); registered as the next parameter."""
        pbang = self.node(G.PBANG, None, 1, 1)
        self.link(G.PROV, src=src, dst=(pbang, 0))
        const = self.const(value)
        self.link(G.plain(F), src=(pbang, 0), dst=(const, 0))
        self.g.params.append(pbang)
        return pbang

    def machine(self, position, direction="↑", flag="□", stack=None, box_stack=None):
        m = Machine(self.g)
        m.token = Token(position, direction, flag, list(stack) if stack is not None else [], list(box_stack or []))
        return m


# ---- a compact notation for graph states ---------------------------------------------
#
# One link per line, as the rules' figures draw them, from the node below to the node above:
#
#     SOURCE -TYPE-> TARGET        [: label]
#
#   - an end is `root` (only as a source: the graph's root link), `_` (the link hangs free
#     there), or a node with an optional port: `λ.0`, `@.1`, `λ.var`, `C.2` (port 0 if none);
#   - a node is its kind with an optional tag and box: `D`, `D#2`, `D[k]`, `?#1[g]`;
#     kinds: λ @ D rotD C rotC ! ? ¿ ¡ A_a P_a, `$0(sub)`, `$1(iadd,a)`, `$0(dot,a)`,
#     constants `2`, `-1/2`, vectors `(3,4)_a`; the first mention of a node makes it, and the
#     inputs of C, rotC and P are the ports that name it;
#   - `[k]` puts a node inside box k; a door's `[k]` makes it a door of k (`![k]` is k's
#     principal door); a `box k in g` line nests box k in box g (boxes are at the top level
#     otherwise); the doors of a box are ordered as first mentioned;
#   - types: `F`, `V_a`, `F→F`, `!T`, `!(F→F)`, `¡` (a provisional link); every ¡ is a
#     parameter, in the order of first mention;
#   - `: name` names the link (a token's position, say); ` # ` starts a comment.
#
# `state(text)` builds the graph (only through the Graph primitives, as `B` does) and
# returns the builder with `.links` and `.nodes` by name.

import re as _re

_LINE = _re.compile(r"^(?P<src>\S+)\s+-(?P<type>\S+)->\s+(?P<dst>\S+)(?:\s*:\s*(?P<label>\w+))?$")
_END = _re.compile(r"^(?P<node>(?P<kind>\$[01]\([\w,]+\)|\([^)]*\)_\w+|[^#\[\].]+?)(?:#(?P<tag>\w+))?"
                   r"(?:\[(?P<box>\w+)\])?)(?:\.(?P<port>\w+))?$")
_FIXED = {G.LAM: (1, 2), G.APP: (1, 2), G.OP0: (1, 2), G.OP1: (1, 2), G.ABD: (2, 1), G.CONST: (1, 0),
          G.VCONST: (1, 0), G.DER: (1, 1), G.PDER: (1, 1), G.BANG: (1, 1), G.WHY: (1, 1), G.PWHY: (1, 1),
          G.PBANG: (1, 1)}
_DOORS = {"?": G.WHY, "¿": G.PWHY}


def _type(text: str):
    """`F`, `V_a`, `T→T` (to the right), `(T)`."""
    depth, split = 0, None
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "→" and depth == 0:
            split = i
            break
    if split is not None:
        return Arrow(_type(text[:split]), _type(text[split + 1:]))
    if text.startswith("(") and text.endswith(")"):
        return _type(text[1:-1])
    if text == "F":
        return F
    if text.startswith("V_"):
        return Vec(text[2:])
    raise ValueError(f"not a type: {text!r}")


def _etype(text: str):
    if text == "¡":
        return G.PROV
    return G.bang(_type(text[1:])) if text.startswith("!") else G.plain(_type(text))


def _kind(text: str):
    """(node kind, data) of a node's kind as written."""
    if m := _re.fullmatch(r"\$([01])\((\w+)(?:,(\w+))?\)", text):
        return (G.OP0 if m.group(1) == "0" else G.OP1), (m.group(2), m.group(3))
    if m := _re.fullmatch(r"\(([^)]*)\)_(\w+)", text):
        return G.VCONST, (tuple(Fraction(x) for x in m.group(1).split(",") if x), m.group(2))
    if m := _re.fullmatch(r"([AP])_(\w+)", text):
        return (G.ABD if m.group(1) == "A" else G.PROJ), m.group(2)
    if text in (G.LAM, G.APP, G.DER, G.PDER, G.CON, G.PCON, G.BANG, G.WHY, G.PWHY, G.PBANG):
        return text, None
    try:
        return G.CONST, Fraction(text)
    except ValueError:
        raise ValueError(f"not a node kind: {text!r}") from None


def state(text: str) -> B:
    """The graph the lines of `text` draw (see above); the builder, with `.links` by label,
    `.nodes` by node as written and `.boxes` by name."""
    b = B()
    b.links, b.nodes = {}, {}
    lines = [line.split(" # ", 1)[0].strip() for line in text.strip().splitlines()]
    parents = {}
    for line in lines:
        if m := _re.fullmatch(r"box (\w+) in (\w+)", line):
            parents[m.group(1)] = m.group(2)
    boxes: dict = {}

    def box(name):
        if name is None:
            return None
        if name not in boxes:
            boxes[name] = b.box(box(parents.get(name)))
        return boxes[name][0]

    ends = []
    for line in lines:
        if not line or line.startswith("box "):
            continue
        m = _LINE.match(line)
        if m is None:
            raise ValueError(f"not a link: {line!r}")
        parsed = []
        for side in ("src", "dst"):
            end = m.group(side)
            if end in ("root", "_"):
                parsed.append(end)
                continue
            e = _END.match(end)
            if e is None:
                raise ValueError(f"not an end: {end!r}")
            port = e.group("port") or "0"
            parsed.append((e.group("node"), e.group("kind"), e.group("box"), G.VAR if port == "var" else int(port)))
        ends.append((m, *parsed))
    inputs: dict = {}
    for _m, _src, dst in ends:
        if isinstance(dst, tuple):
            inputs[dst[0]] = max(inputs.get(dst[0], 0), dst[3] + 1)

    def node(end):
        name, kind_text, box_name, _port = end
        if name not in b.nodes:
            kind, data = _kind(kind_text)
            if kind == G.BANG:
                box(box_name)
                b.nodes[name] = boxes[box_name][1]
            elif kind in _DOORS.values():
                b.nodes[name] = b.door(box(box_name), kind)
            else:
                n_in, n_out = _FIXED.get(kind, (inputs.get(name, 0), 1))
                b.nodes[name] = b.node(kind, box(box_name), n_in, n_out, data)
                if kind == G.PBANG:
                    b.g.params.append(b.nodes[name])
        return b.nodes[name]

    for m, src, dst in ends:
        etype = _etype(m.group("type"))
        source = None if src in ("root", "_") else (node(src), src[3])
        target = None if dst == "_" else (node(dst), dst[3])
        link = b.link(etype, src=source, dst=target)
        if src == "root":
            b.g.root = link
        if m.group("label"):
            b.links[m.group("label")] = link
    b.boxes = {name: made for name, (made, _bang) in boxes.items()}
    return b
