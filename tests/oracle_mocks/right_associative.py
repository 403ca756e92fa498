"""A subtraction's right operand extends over the `+` or `-` after it: `a - b + c` is read as
`a - (b + c)` and `a - b - c` as `a - (b - c)` (the bug of the zoo's intml, a parser that
makes `-` right-associative). Correct otherwise (goi's own machine on the changed term)."""

from common import correctly, serve
from goi.semantics import syntax as S


def right_associative(t):
    for i, child in enumerate(S.subterms(t)):
        t = S.with_child(t, i, right_associative(child))
    if isinstance(t, S.BinOp) and t.op in ("+", "-") and isinstance(t.left, S.BinOp) and t.left.op == "-":
        return S.BinOp("-", t.left.left, right_associative(S.BinOp(t.op, t.left.right, t.right)))
    return t


serve(lambda text: correctly(text, transform=right_associative))
