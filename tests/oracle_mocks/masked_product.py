"""Two bugs, one hiding the other: a `let` that binds a λ is refused with an error before
anything runs (`{"error": "closure NAME copied"}`), and a product computes a * b + 1. A program
with both answers with the error only; the product's bug shows on programs without such a
`let`. Correct otherwise (goi's own machine on the changed term)."""

from common import correctly, serve
from goi.semantics import syntax as S
from goi.semantics.parser import parse


def let_bound_function(t):
    if isinstance(t, S.Let) and isinstance(t.bound, S.Lam):
        return t.var
    return next((name for c in S.subterms(t) if (name := let_bound_function(c))), None)


def plus_one(t):
    for i, child in enumerate(S.subterms(t)):
        t = S.with_child(t, i, plus_one(child))
    if isinstance(t, S.BinOp) and t.op == "*":
        return S.BinOp("+", t, S.Const(1))
    return t


def respond(text: str) -> dict:
    try:
        name = let_bound_function(parse(text))
    except Exception:
        name = None
    if name:
        return {"error": f"closure {name} copied"}
    return correctly(text, transform=plus_one)


serve(respond)
