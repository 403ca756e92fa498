"""Pass transitions (paper Fig. PassTransitions, reconstructed; docs/RULES.md "Pass").

A pass transition applies when the flag is □. The token at link ℓ going ↑
arrives at ℓ.dst through one of its inputs; going ↓ it arrives at ℓ.src
through one of its outputs. Each rule below handles one (node kind, direction,
port) with a guard on the top of the computation stack; the graph never changes.
`administrative`: a pass the garbage-collected run need not mirror step for step
(it only pushes or pops the box stack at a contraction); `sets_flag`: the flag it raises.
"""

from __future__ import annotations

from .. import graph as G
from ..token import AT, DOWN, LAMBDA, STAR, UP, Marker
from ..values import apply_sigma
from .registry import pass_rule

ORDER = 10  # its place in the order of declaration (semantics.rules)


def top_is(marker):
    return lambda m: bool(m.token.stack) and m.token.stack[-1] is marker


def _is_value(x) -> bool:
    return not isinstance(x, Marker) or x is LAMBDA


def _move(m, link: G.Link, direction: str) -> None:
    m.token.position = link
    m.token.direction = direction


# ---- λ and @ -----------------------------------------------------------------

@pass_rule("pass.lam.value", [G.LAM], UP, "in", top_is(STAR))
def lam_value(m, node, port):
    """λ reached with ★: the function is a value; the token bounces with λ.

    λ reached through its input going ↑ with ★. (In(λ), ↑, □, ★:S, B) → (In(λ), ↓, □, λ:S, B):
    a function is a value. Source: [Fact] proof of part 2, base cases; [Pass].
    """
    m.token.stack[-1] = LAMBDA
    _move(m, node.ins[0], DOWN)


@pass_rule("pass.lam.apply", [G.LAM], UP, "in", top_is(AT), sets_flag="λ")
def lam_apply(m, node, port):
    """λ reached with @: pop @, enter the body, raise the flag λ.

    λ reached through its input going ↑ with @. (In(λ), ↑, □, @:S, B) → (Out(λ), ↑, λ, S, B):
    the token enters the body and raises the flag λ. Source: [Stab] case λ, last line.
    """
    m.token.stack.pop()
    _move(m, node.outs[0], UP)
    m.token.flag = "λ"


@pass_rule("pass.app.up", [G.APP], UP, "in")
def app_up(m, node, port):
    """@ entered from below: evaluate the argument first (right output), pushing ★.

    @ reached through its input going ↑. (In(@), ↑, □, S, B) → (Out_right(@), ↑, □, ★:S, B).
    Arguments are evaluated first (right to left). Source: [Stab] case λ, first two lines; [Pass].
    """
    m.token.stack.append(STAR)
    _move(m, node.outs[1], UP)


@pass_rule("pass.app.arg.down", [G.APP], DOWN, 1, lambda m: bool(m.token.stack) and _is_value(m.token.stack[-1]))
def app_arg_down(m, node, port):
    """The argument's value returns to @: replace it by @ and go up the function (left output).

    @ reached through its argument output going ↓ with a value X on top.
    (Out_right(@), ↓, □, X:S, B) → (Out_left(@), ↑, □, @:S, B). Source: [Stab] case λ.
    """
    m.token.stack[-1] = AT
    _move(m, node.outs[0], UP)


# ---- constants ---------------------------------------------------------------

@pass_rule("pass.const.up", [G.CONST], UP, "in", top_is(STAR))
def const_up(m, node, port):
    """A scalar constant p answers ★ with p.

    Scalar constant p reached going ↑ with ★. (In, ↑, □, ★:S, B) → (In, ↓, □, p:S, B).
    Source: [Fact] part 2, base cases; [Stab] case $0.
    """
    m.token.stack[-1] = node.data
    _move(m, node.ins[0], DOWN)


@pass_rule("pass.vconst.up", [G.VCONST], UP, "in", top_is(STAR))
def vconst_up(m, node, port):
    """A vector constant p⃗ answers ★ with p⃗.

    Vector constant p⃗ reached going ↑ with ★. (In, ↑, □, ★:S, B) → (In, ↓, □, p⃗:S, B).
    Source: [Fact] part 2, base cases.
    """
    m.token.stack[-1] = node.data[0]
    _move(m, node.ins[0], DOWN)


# ---- operations ($0 of Σ, $1 of Σ^iter) ----------------------------------------

@pass_rule("pass.op.up", [G.OP0, G.OP1], UP, "in", top_is(STAR))
def op_up(m, node, port):
    """An operation entered from below: evaluate the right operand first, pushing ★.

    `$0` or `$1` reached through its input going ↑ with ★. (In, ↑, □, ★:S, B) →
    (Out_right, ↑, □, ★:★:S, B). Source: [Stab] cases $0 and $1.
    """
    m.token.stack.append(STAR)
    _move(m, node.outs[1], UP)


def _right_value_over_star(m) -> bool:
    s = m.token.stack
    return len(s) >= 2 and _is_value(s[-1]) and s[-2] is STAR


@pass_rule("pass.op.right.down", [G.OP0, G.OP1], DOWN, 1, _right_value_over_star)
def op_right_down(m, node, port):
    """The right operand's value X2 returns: keep it, go up the left operand with ★.

    `$0`/`$1` reached through its right output going ↓. (Out_right, ↓, □, X2:★:S, B) →
    (Out_left, ↑, □, ★:X2:★:S, B). Source: [Stab] cases $0 and $1; [Prod] situation (i).
    """
    m.token.stack.append(STAR)
    _move(m, node.outs[0], UP)


def _two_values_over_star(m) -> bool:
    s = m.token.stack
    return len(s) >= 3 and _is_value(s[-1]) and _is_value(s[-2]) and s[-3] is STAR


@pass_rule("pass.op0.left.down", [G.OP0], DOWN, 0, _two_values_over_star, sets_flag="$0", reads_values=True)
def op0_left_down(m, node, port):
    """Both operands' values X1, X2 are in: compute X1 $ X2, go down, raise the flag $0.

    `$0` reached through its left output going ↓. (Out_left, ↓, □, X1:X2:★:S, B) →
    (In, ↓, $0, (X1 $ X2):S, B). The value is computed by the field (`semantics/values.py`;
    division by zero: see "Division"). Source: [Stab] case $0; [Fact] part 2.
    """
    s = m.token.stack
    x1, x2 = s.pop(), s.pop()
    op, _name = node.data
    s[-1] = apply_sigma(m.field, op, x1, x2)
    _move(m, node.ins[0], DOWN)
    m.token.flag = "$0"


def _lambda_over_vector(m) -> bool:
    s = m.token.stack
    return len(s) >= 3 and s[-1] is LAMBDA and isinstance(s[-2], tuple) and s[-3] is STAR


@pass_rule("pass.op1.left.down", [G.OP1], DOWN, 0, _lambda_over_vector, sets_flag="$1")
def op1_left_down(m, node, port):
    """The function (λ) and the vector X2 of size n are in: go back up with ★, raise $1(n).

    `$1` reached through its left output going ↓ with the function's λ over the vector X2 of
    size n. (Out_left, ↓, □, λ:X2:★:S, B) → (In, ↑, $1(n), ★:S, B). Source: [Stab] case $1
    (the rewrite ends where the pass before it started).
    """
    s = m.token.stack
    s.pop()
    n = len(s.pop())
    _move(m, node.ins[0], UP)
    m.token.flag = ("$1", n)


# ---- exponential structure -----------------------------------------------------

@pass_rule("pass.der.up", [G.DER], UP, "in")
def der_up(m, node, port):
    """D passed upwards, unchanged data.

    D passed going ↑: (In, ↑, □, S, B) → (Out, ↑, □, S, B). Source: [Pass] (X ∈ {¡, ¿, rotD, D}).
    """
    _move(m, node.outs[0], UP)


@pass_rule("pass.bang.up", [G.BANG], UP, "in", sets_flag="?")
def bang_up(m, node, port):
    """Principal door passed upwards: the token is at the box's root; raise the flag ?.

    Principal door passed going ↑: (In(!), ↑, □, S, B) → (Out(!), ↑, ?, S, B): the token is at
    the box's root and raises the flag ?. Source: [Fact] part 2, case Z = !.
    """
    _move(m, node.outs[0], UP)
    m.token.flag = "?"


@pass_rule("pass.bang.down", [G.BANG], DOWN, 0)
def bang_down(m, node, port):
    """Principal door passed downwards, unchanged data.

    Principal door passed going ↓: (Out(!), ↓, □, S, B) → (In(!), ↓, □, S, B). Source: [Fact]
    part 2 (Z = !); [Pass] (Y ∈ {¡, ¿, rotD}, and ! by the factorisation).
    """
    _move(m, node.ins[0], DOWN)


@pass_rule("pass.con.up", [G.CON], UP, "in", administrative=True)
def con_up(m, node, port):
    """C_n passed upwards: push the link the token came from on the box stack.

    `C_n` passed going ↑ through its input ℓ: (ℓ, ↑, □, S, B) → (Out, ↑, □, S, ℓ:B).
    Source: [Pass] ("the previous position is pushed to the box stack").
    """
    m.token.box_stack.append(m.token.position)
    _move(m, node.outs[0], UP)


# ---- provisional structure -------------------------------------------------------

@pass_rule("pass.pcon.up", [G.PCON], UP, "in", administrative=True)
def pcon_up(m, node, port):
    """rotC_n passed upwards: push the link the token came from on the box stack.

    `rotC_n` passed going ↑ through its input ℓ: (ℓ, ↑, □, S, B) → (Out, ↑, □, S, ℓ:B).
    Source: [Pass].
    """
    m.token.box_stack.append(m.token.position)
    _move(m, node.outs[0], UP)


def _top_is_input(m, node) -> bool:
    b = m.token.box_stack
    return bool(b) and b[-1].dst is node and b[-1].dst_port != G.VAR


@pass_rule("pass.pcon.down", [G.PCON], DOWN, 0, lambda m: _top_is_input(m, m.token.position.src), administrative=True)
def pcon_down(m, node, port):
    """rotC_n passed downwards: pop the box stack (one of its inputs) and go back down it.

    `rotC_n` passed going ↓ with one of its inputs ℓ on top of the box stack:
    (Out, ↓, □, S, ℓ:B) → (ℓ, ↓, □, S, B). Source: [Pass] ("the element ℓ' is popped and set
    to be a new position").
    """
    _move(m, m.token.box_stack.pop(), DOWN)


@pass_rule("pass.pder.up", [G.PDER], UP, "in")
def pder_up(m, node, port):
    """rotD passed upwards, unchanged data.

    `rotD` passed going ↑, data unchanged. Source: [Pass].
    """
    _move(m, node.outs[0], UP)


@pass_rule("pass.pder.down", [G.PDER], DOWN, 0)
def pder_down(m, node, port):
    """rotD passed downwards, unchanged data.

    `rotD` passed going ↓, data unchanged. Source: [Pass].
    """
    _move(m, node.ins[0], DOWN)


@pass_rule("pass.pwhy.up", [G.PWHY], UP, "in")
def pwhy_up(m, node, port):
    """Provisional door ¿ passed upwards, unchanged data.

    `¿` door passed going ↑, data unchanged. Source: [Pass].
    """
    _move(m, node.outs[0], UP)


@pass_rule("pass.pwhy.down", [G.PWHY], DOWN, 0)
def pwhy_down(m, node, port):
    """Provisional door ¿ passed downwards, unchanged data.

    `¿` door passed going ↓, data unchanged. Source: [Pass].
    """
    _move(m, node.ins[0], DOWN)


@pass_rule("pass.pbang.up", [G.PBANG], UP, "in")
def pbang_up(m, node, port):
    """¡ passed upwards towards its constant, unchanged data.

    `¡` passed going ↑ towards its constant, data unchanged. Source: [Pass].
    """
    _move(m, node.outs[0], UP)


@pass_rule("pass.pbang.down", [G.PBANG], DOWN, 0)
def pbang_down(m, node, port):
    """¡ passed downwards with the constant's value, unchanged data.

    `¡` passed going ↓ with the constant's value, data unchanged. Source: [Pass].
    """
    _move(m, node.ins[0], DOWN)

