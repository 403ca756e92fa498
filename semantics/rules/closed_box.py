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
    """Y is an @ or a $1 (not D, not C_k): lower the flag; the token enters the box.

    Y is an `@` or a `$1` (not D, not C_k): the flag becomes □ and the token enters the box.
    Source: [Fig] ("The two top-left rewrites, where Y ∉ {D, C_k}, change rewrite mode to pass
    mode"); [Fact] part 2, case Z = !.
    """
    m.token.flag = NONE_FLAG


@rewrite("copy.c1", flag="!", site="below", on=[G.CON], match=_c1_redex)
def remove_c1(m, box, con):
    """Y = C_1: remove it, popping the box stack.

    Y = `C_1`, the token came through its input ℓ (top of the box stack). Result: `C_1` removed,
    ℓ enters G's principal door; ℓ popped. Flag stays `!`. Source: [Fig] ("eliminates the
    trivial contraction C_1, discarding the top element ℓ of the box stack"). When Y = C_1 sits
    over another contraction, this rule (not `copy.merge`) applies: **our decision**; both give
    the same graph.
    """
    g = m.graph
    came = m.token.box_stack.pop()
    g.splice(came, con.outs[0])
    g.delete_node(con)


@rewrite("copy.merge", flag="!", site="below", on=[G.CON], match=_merge_redex)
def merge(m, box, con):
    """Y = C_n and the token came from a lower C_m: merge them into C_{n+m-1}, popping the box stack.

    Y = `C_n` (n ≥ 2) and the popped link ℓ comes from a lower `C_m`. Result: one `C_{n+m−1}`
    whose inputs are Y's with ℓ replaced by the lower node's inputs, in order (their links kept,
    so box-stack entries stay valid). Flag stays `!`. Source: [Fig] ("combines contraction
    nodes. It consumes the top element ℓ of the box stack").

    *Reachability.* With our translation this rule never fires in a run from a translated
    program (4000 generated programs up to depth 7: never): it needs the token to climb a
    `C_m → C_n` chain, and no such chain is climbable. The translation makes one contraction
    per variable and level, so no `C → C` edge; the only rules that create one are the joins of
    `deep.contract`/`deep.project` and the copied structure of `deep.decouple`, whose inputs are
    `?`-door outputs, which the token never passes, and those doors stay until deep rules have
    removed the join (a `?`-door is only removed by absorption, when its output is a box).
    The rule is kept, exactly as in the paper, because the paper's own translation (whose figure
    is missing) may contract shared contexts at every binary node and so produce such chains;
    it is exercised on a hand-built graph (`tests/test_rules.py::test_copy_merge`) and on
    generated graphs whose contractions are split into chains (`generators/graphs.py`, property
    `split_contractions`), which must behave exactly as the unsplit translation; its picture is
    drawn from one of those.
    """
    g = m.graph
    came = m.token.box_stack.pop()
    lower = came.src
    j = came.dst_port
    g.set_inputs(con, con.ins[:j] + lower.ins + con.ins[j + 1 :])
    g.delete_link(came)
    g.delete_node(lower)


@rewrite("copy.dup", flag="!", site="below", on=[G.CON], match=_dup_redex, feature="copying")
def duplicate(m, box, con):
    """Y = C_{n+1}, n ≥ 1, token from a non-C node Z: copy G for Z; the copies' ¿-doors meet at rotC_2.

    Y = `C_{n+1}` (n ≥ 1) and the popped link ℓ comes from a node Z that is not a contraction.
    Result: G is copied (names refreshed) for Z: ℓ enters the copy's principal door, Y becomes
    `C_n`; each `¿`-door of G and its twin in the copy are joined by a new `rotC_2` (original
    first). Token: at the copy's root, flag stays `!`. Source: [Fig] ("actually copies a
    !-box. It consumes the top element ℓ of the box stack to detect the Z-node").
    """
    g = m.graph
    contents = g.contents(box)
    m.reserve(G.weight(contents[0]) + 2 + len(box.doors), "copy.dup (a copy of a box)")
    came = m.token.box_stack.pop()
    j = came.dst_port
    copy, _ = copy_box(g, box, box.parent, contents=contents)
    g.set_inputs(con, con.ins[:j] + con.ins[j + 1 :])
    g.set_dst(came, copy.principal, 0)
    join_doors(g, [box, copy])  # G is closed: only ¿-doors, each pair meeting at a rotC_2
    m.token.position = copy.root


@rewrite("copy.der", flag="!", site="below", on=[G.DER], match=_der_redex)
def dereliction(m, box, der):
    """Y = D: remove D and G's principal and ¿-doors; G's content joins the level below; the token enters it.

    Y = `D`. Result: D, G's principal door and G's `¿`-doors are removed (each door's links
    joined); G's content joins the level below; the token is at the joined link (D's input,
    continuing into G's old root), flag □. Source: [Rec §7] (the first-row closed-box rules are the
    !-phase pass rule and dereliction,
    both ending with flag □); [Stab] case !
    ("ℓ0 is the only input of the redex and it covers the whole redex").
    """
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
