"""Two bugs that give the same kind of wrong value ("another value"), so they share the
catch-all bucket: a subtraction computes a - b + 7, and a product a * b + 7. Correct
otherwise (goi's own machine on the changed term)."""

from common import correctly, serve
from goi.semantics import syntax as S


def plus_seven(t):
    for i, child in enumerate(S.subterms(t)):
        t = S.with_child(t, i, plus_seven(child))
    if isinstance(t, S.BinOp) and t.op in ("-", "*"):
        return S.BinOp("+", t, S.Const(7))
    return t


serve(lambda text: correctly(text, transform=plus_seven))
