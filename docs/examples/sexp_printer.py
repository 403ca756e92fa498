"""A printer of one's own for `goi oracle --printer sexp_printer:show` (docs/ORACLE.md, "A
notation of your own"): goi's surface terms (goi.semantics.syntax) as S-expressions, for an
implementation written in a Lisp. Raise Inexpressible for what your notation cannot write:
the oracle counts such programs and never sends them."""

from goi.semantics import syntax as S
from goi.oracle.notations import Inexpressible
from goi.semantics.pretty import decimal


def show(t: S.Term) -> str:
    if isinstance(t, S.Var):
        return t.name
    if isinstance(t, S.Const):
        return ("-" if t.value < 0 else "") + decimal(t.value)
    if isinstance(t, S.Prov):
        return f"(prov {'-' if t.value < 0 else ''}{decimal(t.value)})"
    if isinstance(t, S.Lam):
        return f"(lambda ({t.var}) {show(t.body)})"
    if isinstance(t, S.App):
        return f"({show(t.fun)} {show(t.arg)})"
    if isinstance(t, S.Let):
        return f"(let (({t.var} {show(t.bound)})) {show(t.body)})"
    if isinstance(t, S.LetDecouple):
        return f"(decouple ({t.f} {t.x}) {show(t.bound)} {show(t.body)})"
    if isinstance(t, S.BinOp):
        if t.op in S.ITERATED:
            raise Inexpressible(f"no iterated operation ({t.op}) in this notation")
        return f"({S.OPERATORS[t.op][0]} {show(t.left)} {show(t.right)})"
    raise Inexpressible(f"no {type(t).__name__} in this notation")
