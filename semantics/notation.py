"""Printing a program in another implementation's notation (oracle mode, docs/ORACLE.md).

- `paper`: the paper's notation (semantics.pretty), with or without type annotations.
- `visualiser`: the authors' on-line visualiser's: no types, `let (f, p) = abs t in u` for
  decoupling, the vector operations written `⊞ ⊠ ⊡` (resolved by type: the paper's
  overloaded `+` and `*` on vectors become `⊞` and `⊠`), identifiers of letters only
  (every other name is renamed, injectively). A decoupling value `A(f,x). t` and the
  iterated operations have no visualiser notation: printing one raises Inexpressible
  (generate without them: goi.generators.typed's `decoupling_values`, `iterated`).

Our own parser reads both notations, so what is printed can be run on our machine as it
is: the oracle's expected value is always that of the very text the other implementation
receives.
"""

from __future__ import annotations

import string
from typing import Optional

from . import syntax as S
from .pretty import APPLICATION, ATOM, BINDER, MULTIPLICATIVE, ADDITIVE, decimal, pretty
from .typecheck import Judgement

NOTATIONS = ("paper", "visualiser")
KEYWORDS = {"let", "in", "abs", "dot"}


class Inexpressible(ValueError):
    """The program uses a construct the notation has no way to write."""


def strip_annotations(t: S.Term) -> S.Term:
    """The term without type annotations and decoupling names."""
    if isinstance(t, (S.Var, S.Const, S.Prov)):
        return t
    if isinstance(t, S.Lam):
        return S.Lam(t.var, None, strip_annotations(t.body))
    if isinstance(t, S.App):
        return S.App(strip_annotations(t.fun), strip_annotations(t.arg))
    if isinstance(t, S.BinOp):
        return S.BinOp(t.op, strip_annotations(t.left), strip_annotations(t.right))
    if isinstance(t, S.Decouple):
        return S.Decouple(t.f, t.x, None, None, strip_annotations(t.body))
    if isinstance(t, S.Let):
        return S.Let(t.var, None, strip_annotations(t.bound), strip_annotations(t.body))
    if isinstance(t, S.LetDecouple):
        return S.LetDecouple(t.f, t.x, None, None, strip_annotations(t.bound), strip_annotations(t.body))
    raise TypeError(f"not a term: {t!r}")


def render(judgement: Judgement, notation: str = "paper", annotations: bool = True) -> str:
    """The judgement's program as text in `notation`."""
    term = judgement.surface
    if term is None:
        raise ValueError("the judgement keeps no surface term")
    return render_term(term, notation, annotations, judgement.operators)


def render_term(term: S.Term, notation: str = "paper", annotations: bool = True, operators: Optional[dict] = None) -> str:
    """A term as text in `notation`. The visualiser's vector operators are chosen by type
    (`operators`: a judgement's); without them (an ill-typed program, which has no types)
    each operator is written as it was in the term, `•` as `⊡`."""
    if notation == "paper":
        return pretty(term if annotations else strip_annotations(term))
    if notation == "visualiser":
        return _Visualiser(operators).show(term, BINDER)
    raise ValueError(f"unknown notation {notation!r} ({', '.join(NOTATIONS)})")


def _letters(n: int) -> str:
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        out = string.ascii_lowercase[r] + out
    return out


VISUALISER_OPERATORS = {"add": "+", "sub": "-", "mul": "*", "div": "/", "vadd": "⊞", "smul": "⊠", "dot": "⊡"}


SURFACE_OPERATORS = {"+": "add", "-": "sub", "*": "mul", "/": "div", "⊞": "vadd", "⊠": "smul", "•": "dot"}


class _Visualiser:
    def __init__(self, operators: Optional[dict]):
        self.operators = operators
        self.names: dict[str, str] = {}
        self.used: set[str] = set()
        self.counter = 0

    def name(self, x: str) -> str:
        if x not in self.names:
            if x.isascii() and x.isalpha() and x not in KEYWORDS and x not in self.used:
                new = x
            else:
                stem = "".join(c for c in x if c.isascii() and c.isalpha()) or "v"
                new = stem + _letters(self.counter)
                while new in self.used or new in KEYWORDS:
                    self.counter += 1
                    new = stem + _letters(self.counter)
                self.counter += 1
            self.names[x] = new
            self.used.add(new)
        return self.names[x]

    def show(self, t: S.Term, level: int) -> str:
        if isinstance(t, S.Var):
            return self.name(t.name)
        if isinstance(t, S.Const):
            return f"(-{decimal(t.value)})" if t.value < 0 else decimal(t.value)
        if isinstance(t, S.Prov):
            return "{" + ("-" if t.value < 0 else "") + decimal(t.value) + "}"
        if isinstance(t, S.App):
            text = f"{self.show(t.fun, APPLICATION)} {self.show(t.arg, ATOM)}"
            return f"({text})" if level > APPLICATION else text
        if isinstance(t, S.BinOp):
            if t.op in S.ITERATED:
                raise Inexpressible(f"the visualiser has no iterated operation ({t.op})")
            op = self.operators.get(id(t)) if self.operators is not None else SURFACE_OPERATORS.get(t.op)
            if op is None or op == "?":
                raise Inexpressible(f"the operator {t.op} could not be resolved by type")
            symbol = VISUALISER_OPERATORS[op]
            op_level = ADDITIVE if S.OPERATORS[t.op][1] == S.ADDITIVE else MULTIPLICATIVE
            text = f"{self.show(t.left, op_level)} {symbol} {self.show(t.right, op_level + 1)}"
            return f"({text})" if level > op_level else text
        if isinstance(t, S.Lam):
            text = f"λ{self.name(t.var)}. {self.show(t.body, BINDER)}"
        elif isinstance(t, S.Let):
            text = f"let {self.name(t.var)} = {self.show(t.bound, BINDER)} in {self.show(t.body, BINDER)}"
        elif isinstance(t, S.LetDecouple):
            f, x = self.name(t.f), self.name(t.x)
            text = f"let ({f}, {x}) = abs {self.show(t.bound, ATOM)} in {self.show(t.body, BINDER)}"
        elif isinstance(t, S.Decouple):
            raise Inexpressible("the visualiser has no decoupling value A(f,x). t (only let (f, p) = abs t in u)")
        else:
            raise TypeError(f"not a term: {t!r}")
        return f"({text})" if level > BINDER else text
