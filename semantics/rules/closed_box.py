"""The !-phase: rewrites of a closed box (paper Fig. RewriteTransitionsClosedBox; docs/RULES.md "Closed box").

With the flag !, the token is at the root of a box G without ?-doors. Y is the
node below G's principal door; the top of the box stack says which input of a
contraction Y the token came through.
"""

from __future__ import annotations

from .. import graph as G
from ..token import NONE_FLAG
from .registry import rewrite, sites
from .surgery import copy_box, join_doors

ORDER = 50  # its place in the order of declaration (semantics.rules)


@sites("!")
def _closed_box(m):
    """!: the box G the token is at, if it has no ?-door, and the node Y below its principal door."""
    pos = m.token.position
    bang = pos.src
    if bang is None or bang.kind != G.BANG:
        return None
    box = bang.door_of  # the box the token is at (open_box.current_box, inlined: a site is asked once per rewrite)
    for door in box.doors:
        if door.kind == G.WHY:
            return None
    below = box.principal.ins[0]
    y = below.src if below is not None else None
    return ("below", y.kind, (box, y)) if y is not None else None


def _came_from(m, y):
    """The input of the contraction Y the token came through (the top of the box stack), or None."""
    stack = m.token.box_stack
    if not stack or stack[-1].dst is not y or stack[-1].dst_port == G.VAR:
        return None
    return stack[-1]


def _pass_redex(m, box, y):
    return (box,)


def _der_redex(m, box, y):
    return (box, y)


def _c1_redex(m, box, y):
    return (box, y) if len(y.ins) == 1 and _came_from(m, y) is not None else None


def _merge_redex(m, box, y):
    if len(y.ins) < 2:
        return None
    came = _came_from(m, y)
    return (box, y) if came is not None and came.src is not None and came.src.kind == G.CON else None


def _dup_redex(m, box, y):
    if len(y.ins) < 2:
        return None
    came = _came_from(m, y)
    return (box, y) if came is not None and (came.src is None or came.src.kind != G.CON) else None


@rewrite("copy.pass", flag="!", site="below", on=[G.APP, G.OP1], match=_pass_redex, changes_graph=False)
def pass_into(m, box):
    """Y is an @ or a $1 (not D, not C_k): lower the flag; the token enters the box."""
    m.token.flag = NONE_FLAG


@rewrite("copy.c1", flag="!", site="below", on=[G.CON], match=_c1_redex)
def remove_c1(m, box, con):
    """Y = C_1: remove it, popping the box stack."""
    g = m.graph
    came = m.token.box_stack.pop()
    g.splice(came, con.outs[0])
    g.delete_node(con)


@rewrite("copy.merge", flag="!", site="below", on=[G.CON], match=_merge_redex)
def merge(m, box, con):
    """Y = C_n and the token came from a lower C_m: merge them into C_{n+m-1}, popping the box stack."""
    g = m.graph
    came = m.token.box_stack.pop()
    lower = came.src
    j = came.dst_port
    g.set_inputs(con, con.ins[:j] + lower.ins + con.ins[j + 1 :])
    g.delete_link(came)
    g.delete_node(lower)


@rewrite("copy.dup", flag="!", site="below", on=[G.CON], match=_dup_redex, feature="copying")
def duplicate(m, box, con):
    """Y = C_{n+1}, n ≥ 1, token from a non-C node Z: copy G for Z; the copies' ¿-doors meet at rotC_2."""
    g = m.graph
    nodes, _boxes = g.contents(box)
    m.reserve(G.weight(nodes) + 2 + len(box.doors), "copy.dup (a copy of a box)")
    came = m.token.box_stack.pop()
    j = came.dst_port
    copy, _ = copy_box(g, box, box.parent)
    g.set_inputs(con, con.ins[:j] + con.ins[j + 1 :])
    g.set_dst(came, copy.principal, 0)
    join_doors(g, [box, copy])  # G is closed: only ¿-doors, each pair meeting at a rotC_2
    m.token.position = copy.root


@rewrite("copy.der", flag="!", site="below", on=[G.DER], match=_der_redex)
def dereliction(m, box, der):
    """Y = D: remove D and G's principal and ¿-doors; G's content joins the level below; the token enters it."""
    g = m.graph
    root = box.principal.outs[0]
    below = der.ins[0]
    g.delete_link(der.outs[0])
    g.delete_node(der)
    g.splice(below, root)
    g.delete_node(box.principal)
    for door in list(box.doors):
        g.splice(door.ins[0], door.outs[0])
        g.remove_door(box, door)
    g.unbox(box)
    m.token.position = below
    m.token.flag = NONE_FLAG
