"""Computational rewrites (paper Fig. RewriteTransitionsComput; docs/RULES.md "Computation").

Triggered by the flags λ, $0 and $1(n); each ends with the flag □ and leaves the
direction and the computation stack unchanged.
"""

from __future__ import annotations

from .. import graph as G
from ..token import NONE_FLAG
from ..types import Arrow, F, Vec
from ..values import basis
from .registry import rewrite, sites

ORDER = 20  # its place in the order of declaration (semantics.rules)


@sites("λ")
def _token_link(m):
    """λ: the redex is at the token's link (a λ's output, the λ just reached)."""
    pos = m.token.position
    return ("token", pos.src.kind, (pos,)) if pos.src is not None else None


@sites("$0")
@sites("$1")
def _operation(m):
    """$0, $1(n): the redex is the operation node the token has just come down to."""
    op = m.token.position.dst
    return ("operation", op.kind, (op,)) if op is not None else None


def _beta_redex(m, pos):
    lam = pos.src
    if lam.outs[0] is pos:
        below = lam.ins[0]
        if below is not None and below.src is not None and below.src.kind == G.APP and below.src_port == 0:
            return lam, below.src
    return None


def _constant_operands(op) -> bool:
    left, right = op.outs[0].dst, op.outs[1].dst
    return left is not None and right is not None and left.kind in G.CONSTANTS and right.kind in G.CONSTANTS


def _fold_redex(m, op):
    return (op,) if _constant_operands(op) else None


def _keep_redex(m, op):
    return None if _constant_operands(op) else (op,)


def _unfold_redex(m, op):
    if op.outs[0].dst is not None and op.outs[0].dst.kind == G.BANG:
        return op, m.token.flag[1]
    return None


@rewrite("rw.beta", flag="λ", site="token", on=[G.LAM], match=_beta_redex)
def beta(m, lam, app):
    """λ–@ elimination: the @'s input joins the λ's body, the argument box joins the bound variable.

    Flag λ, token at the body link of a λ whose input is the left output of an @. Redex: the
    λ–@ pair. Result: both removed; @'s input link continues into the body (and keeps its
    identity); the argument box's link continues from the bound variable's source. Token:
    (Out(λ), ↑, λ, S, B) → (In(@), ↑, □, S, B). Source: [Fig] ("elimination of a λ-@ pair");
    [Stab] case λ ("the rewrite yields the state ((G′,ℓ0),δ0)", ℓ0 = In(@)).
    """
    g = m.graph
    below_app = app.ins[0]
    between = lam.ins[0]
    g.splice(below_app, lam.outs[0])
    g.splice(lam.outs[1], app.outs[1])
    g.delete_link(between)
    g.delete_node(lam)
    g.delete_node(app)
    m.token.position = below_app
    m.token.flag = NONE_FLAG


@rewrite("rw.op.fold", flag="$0", site="operation", on=[G.OP0], match=_fold_redex)
def op_fold(m, op):
    """$0 over two constant nodes: the three nodes become one constant, the value on the stack.

    Flag $0, token at the input of a `$0` both of whose outputs are constant nodes (scalar or
    vector). Redex: the `$0` and the two constants. Result: one constant node holding the value
    on top of the stack. Token: (In, ↓, $0, X:S, B) → (In, ↓, □, X:S, B). Source: [Fig];
    [Stab] case $0.
    """
    g = m.graph
    value = m.token.stack[-1]
    for out in op.outs:
        g.delete_node(out.dst)
        g.delete_link(out)
    in_link = op.ins[0]
    if isinstance(value, tuple):
        const = g.new_node(G.VCONST, op.box, 1, 0, (value, in_link.type.type.name))
    else:
        const = g.new_node(G.CONST, op.box, 1, 0, value)
    g.delete_node(op)
    g.set_dst(in_link, const, 0)
    m.token.flag = NONE_FLAG


@rewrite("rw.op.keep", flag="$0", site="operation", on=[G.OP0], match=_keep_redex, changes_graph=False)
def op_keep(m, op):
    """$0 whose operands are not both constant nodes (e.g. provisional): only lower the flag.

    Flag $0, an operand is not a constant node (for example provisional: `rotD` is never a
    constant node, so provisional constants are never folded away). Only the flag is lowered.
    Source: [Fig] ("If the arguments are not constant-nodes then they are not rewritten out");
    [Stab] ("rewrite transitions that do not change the underlying graph but discard the
    rewriting flag $0").
    """
    m.token.flag = NONE_FLAG


@rewrite("rw.iter.unfold", flag="$1", site="operation", on=[G.OP1], match=_unfold_redex, feature="iterated operation")
def iter_unfold(m, op, n):
    """f $^L_a v unfolds at once to f(e_0) $ (f(e_1) $ (… $ (f(e_{n-1}) $ v))), f shared by one C_n.

    Flag $1(n), token at the input of a `$1` (`+^L_a` or `×^L_a`) whose left output is the
    function box F. Result, all at once: `f(e_0) $ (f(e_1) $ (… $ (f(e_{n−1}) $ v)))` where `$`
    is `+_a` (for `+^L`) or `×_a` (for `×^L`), each `f(e_i)` an `@` whose left is a `D` reaching
    F through one shared `C_n` (a `C_0` when n = 0, where the result is just `v`), whose right is
    a new box holding the basis vector `e_i` of size n, and `v` the old right operand. Token:
    (In, ↑, $1(n), ★:S, B) → (In, ↑, □, ★:S, B). Source: [Fig] ("recursively (on the size of
    the index n in the token data) unfolded"); **our decision** [Rec §4]: one rewrite unfolds the
    whole fold, because [Stab] case $1 requires the rewrite to end with the position and data of
    the pass before it, which a layer-by-layer unfolding (flag $1(k) states) would violate.
    """
    g = m.graph
    level = op.box
    kind, name = op.data
    va = Vec(name)
    elem = va if kind == "iadd" else F
    fn_type = Arrow(va, elem)
    step_op = "vadd" if kind == "iadd" else "smul"
    in_link, fun_link, vec_link = op.ins[0], op.outs[0], op.outs[1]
    m.reserve(n * (6 + n), f"rw.iter.unfold (over a vector of {n})")
    g.delete_node(op)
    con = g.new_node(G.CON, level, n, 1)
    g.set_src(fun_link, con, 0)
    current = in_link  # the link the next $0 hangs from
    for i in range(n):
        step = g.new_node(G.OP0, level, 1, 2, (step_op, name))
        g.set_dst(current, step, 0)
        app = g.new_node(G.APP, level, 1, 2)
        g.new_link(G.plain(elem), src=(step, 0), dst=(app, 0))
        der = g.new_node(G.DER, level, 1, 1)
        g.new_link(G.plain(fn_type), src=(app, 0), dst=(der, 0))
        g.new_link(G.bang(fn_type), src=(der, 0), dst=(con, i))
        box, bang = g.new_boxed(level)
        e = g.new_node(G.VCONST, box, 1, 0, (basis(m.field, n, i), name))
        g.new_link(G.plain(va), src=(bang, 0), dst=(e, 0))
        g.new_link(G.bang(va), src=(app, 1), dst=(bang, 0))
        current = g.new_link(G.plain(va), src=(step, 1))
    # the last link hangs the original vector operand
    if current is in_link:
        g.splice(in_link, vec_link)
    else:
        g.splice(current, vec_link)
    m.token.flag = NONE_FLAG
