"""A subtraction computes b - a for a - b (the zoo's goi_mutant sub-swapped). Correct otherwise
(goi's own machine on the changed term)."""

from common import correctly, serve
from goi.semantics import syntax as S


def swapped(t):
    for i, child in enumerate(S.subterms(t)):
        t = S.with_child(t, i, swapped(child))
    if isinstance(t, S.BinOp) and t.op == "-":
        return S.BinOp("-", t.right, t.left)
    return t


serve(lambda text: correctly(text, transform=swapped))
