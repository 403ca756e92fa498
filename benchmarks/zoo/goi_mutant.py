"""goi's own machine with seeded mistakes in two of its rules (a variant RuleSet, as
tests/test_mutants.py makes its mutants), served as an implementation:
  sub-swapped  the rule computing an operation (passes.op0_left_down) computes a subtraction
               with its operands swapped;
  fold-left    the rule folding an operation into a constant (compute.op_fold) leaves the left
               operand's constant in place of the result, so an operation evaluated again (in a
               box used twice) gives the wrong value."""

from _zoo import bugs, correctly, serve
from goi.semantics import graph as G
from goi.semantics.rules import DEFAULT, compute, passes, using

ON = bugs("sub-swapped", "fold-left")


def _move(m, link):
    from goi.semantics.rules.passes import _move as move
    from goi.semantics.token import DOWN

    move(m, link, DOWN)


def rule_of(function) -> str:
    """The ID of the rule a function of the rules package implements (found, not named)."""
    return function.rule.id


FOLD, LEFT_DOWN = rule_of(compute.op_fold), rule_of(passes.op0_left_down)
ORIGINAL_FOLD = compute.op_fold


def op_fold(m, op):
    """The rule as it is, then the new constant given the left operand's value (scalars)."""
    left, in_link = op.outs[0].dst, op.ins[0]
    kept = left.data if left.kind == G.CONST and not isinstance(m.token.stack[-1], tuple) else None
    ORIGINAL_FOLD(m, op)
    if kept is not None:
        in_link.dst.data = kept


def _sub_swapped(m, node):
    from goi.semantics.values import apply_sigma

    s = m.token.stack
    x1, x2 = s.pop(), s.pop()
    op, _name = node.data
    s[-1] = apply_sigma(m.field, op, x2, x1) if op == "sub" else apply_sigma(m.field, op, x1, x2)
    _move(m, node.ins[0])
    m.token.flag = "$0"


# the variant semantics this implementation runs: goi's rules with the bugs switched on
RULES = DEFAULT
if "sub-swapped" in ON:
    RULES = RULES.replace(LEFT_DOWN, apply=lambda m, node, port: _sub_swapped(m, node))
if "fold-left" in ON:
    RULES = RULES.replace(FOLD, apply=op_fold)

with using(RULES):
    serve(lambda text: correctly(text))
