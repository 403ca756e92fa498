"""Garbage collection (Sec. "Garbage collection", Prop. "Garbage collection"; the relations'
figure is missing — our reading, docs/RULES.md "Garbage collection").

X0 is a C_0 or a P_0 (a node with no input, so the token never reaches what hangs above it).
- gc.con0   (≻1): a C_0 whose output enters a contraction C_{n+1}: the input goes, C_n remains.
- gc.pcon0  (≻2): a rotC_0 whose output enters a rotC_{n+1}: the input goes, rotC_n remains.
- gc.box    (≻3): a box whose principal door hangs from an X0: the X0 and the box (content,
                  nested boxes, doors) go; each ?-door's output now starts at a new C_0,
                  each ¿-door's output at a new rotC_0.
Never removed: a ¡-constant, a ¿-door's output chain, or a rotC_0 entering a ¿-door or a
¡ (a later decoupling still counts those constants).

These are not machine transitions: the Collector applies them between transitions and
counts them apart (Outcome.gc).
"""

from __future__ import annotations

from .. import graph as G
from .registry import gc_rule

ORDER = 60  # its place in the order of declaration (semantics.rules)

X0_KINDS = (G.CON, G.PROJ)


def _x0(node: G.Node) -> bool:
    return node.kind in X0_KINDS and not node.ins


def _above(node: G.Node):
    """The node a node with no input feeds, or None (the collector's place: `node`)."""
    if node.ins or not node.outs or node.outs[0] is None:
        return None
    return node.outs[0].dst


def _con0_redex(node):
    up = _above(node)
    return (node,) if up is not None and node.kind == G.CON and up.kind == G.CON else None


def _pcon0_redex(node):
    up = _above(node)
    return (node,) if up is not None and node.kind == G.PCON and up.kind == G.PCON else None


def _box_redex(node):
    up = _above(node)
    return (node, up.door_of) if up is not None and _x0(node) and up.kind == G.BANG else None


def _drop_weakening(g: G.Graph, weak: G.Node) -> None:
    """Remove a weakening and the input it occupies on the contraction above it."""
    link = weak.outs[0]
    g.drop_input(link.dst, link)
    g.delete_node(weak)


@gc_rule("gc.con0", match=_con0_redex)
def con0(m, weak):
    """A C_0 entering a contraction C_{n+1}: drop that input (≻1).

    ≻1: a `C_0` whose output enters a `C_{n+1}`: the `C_0` and that input go, `C_n` remains.
    Source: [Rec §8]; Prop. "Garbage collection" (sketch).

    *Reachability.* We have not seen this rule fire in a run from a translated program (the
    example programs and 5,800 generated ones, with `--gc`): the translation's weakenings enter
    λ-nodes, not contractions, and the boxes `gc.box` removed there were closed, with no
    `?`-door to leave a `C_0` behind. Its picture is drawn from an example program whose
    contractions were each given an extra weakening input (`generators/graphs.py`, `weaken`: the
    inverse of this rule, a graph that behaves as before), where the collector removes them
    (`tests/test_rules.py::test_weakened_contractions_are_collected`).
    """
    _drop_weakening(m.graph, weak)


@gc_rule("gc.pcon0", match=_pcon0_redex)
def pcon0(m, weak):
    """A rotC_0 entering a rotC_{n+1}: drop that input (≻2).

    ≻2: a `rotC_0` whose output enters a `rotC_{n+1}`: the `rotC_0` and that input go,
    `rotC_n` remains. A `rotC_0` entering a `¿`-door or a `¡` is never removed: a later
    decoupling still counts that constant. Source: [Rec §8].
    """
    _drop_weakening(m.graph, weak)


@gc_rule("gc.box", match=_box_redex, removes_box=True)
def remove_box(m, x0, box):
    """A box under a C_0/P_0: remove both; its ?-outputs start at C_0s, its ¿-outputs at rotC_0s (≻3).

    ≻3: a box whose principal door hangs from an X0: the X0 and the box (content, nested boxes,
    doors) go; each `?`-door's output now starts at a new `C_0`, each `¿`-door's output at a new
    `rotC_0` (so the constants stay counted). No `¡`-constant is ever removed. Source: [Rec §8];
    Prop. "Garbage collection".
    """
    g = m.graph
    level = box.parent
    for door in box.doors:
        up = door.outs[0]
        weak = g.new_node(G.CON if door.kind == G.WHY else G.PCON, level, 0, 1)
        g.set_src(up, weak, 0)
    nodes, boxes = g.contents(box)
    doomed = set(nodes) | {box.principal, *box.doors, x0}
    for n in doomed:
        for link in (*n.ins, *n.outs):
            if link is not None and (link.src in doomed or link.src is None) and (link.dst in doomed or link.dst is None):
                g.delete_link(link)
    g.delete_link(x0.outs[0])
    for n in doomed:
        g.delete_node(n)
    for b in boxes:
        g.delete_box(b)
    g.delete_box(box)

