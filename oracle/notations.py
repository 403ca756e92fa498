"""Printing a program in another implementation's notation (oracle mode, docs/ORACLE.md).

- `paper`: the paper's notation (semantics.pretty), with or without type annotations.
- `visualiser`: the authors' on-line visualiser's, as its parser reads it (_Visualiser): no
  types, `let (f, p) = abs t in u` and `A(f, p). t` for decoupling, the vector operations
  written `⊞ ⊠ ⊡` (resolved by type: the paper's overloaded `+` and `*` on vectors become `⊞`
  and `⊠`), atoms as operands and arguments, no negative numbers (`(0 - n)`), identifiers
  `[a-z'][A-Za-z'_]*` (every other name is renamed, injectively); `g +^L v` is its fold
  `fold (λe. λa. (g e) ⊞ a) v` (and `×^L` with `⊠`), which our parser reads back. Negative
  provisional constants have no visualiser notation: printing one raises Inexpressible (the
  oracle counts such programs and does not send them).

Our own parser reads both notations, so what is printed can be run on our machine as it
is: the oracle's expected value is always that of the very text the other implementation
receives.
"""

from __future__ import annotations

import re
import string
from typing import Optional

from goi.semantics import syntax as S
from goi.semantics.pretty import ATOM, BINDER, show_binder_form, decimal, pretty
from goi.semantics.typecheck import Judgement

NOTATIONS = ("paper", "visualiser")


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


def render(judgement: Judgement, notation: str = "paper", annotations: bool = True, parenthesize: str = "minimal") -> str:
    """The judgement's program as text in `notation`."""
    term = judgement.surface
    if term is None:
        raise ValueError("the judgement keeps no surface term")
    return render_term(term, notation, annotations, judgement.operators, parenthesize)


PARENTHESIZE = ("minimal", "all")


def render_term(term: S.Term, notation: str = "paper", annotations: bool = True, operators: Optional[dict] = None,
                parenthesize: str = "minimal") -> str:
    """A term as text in `notation`. The visualiser's vector operators are chosen by type
    (`operators`: a judgement's); without them (an ill-typed program, which has no types)
    each operator is written as it was in the term, `•` as `⊡`. `parenthesize="all"` puts
    every non-atomic operand, argument, body and bound term in parentheses."""
    if parenthesize not in PARENTHESIZE:
        raise ValueError(f"unknown parenthesization {parenthesize!r} ({', '.join(PARENTHESIZE)})")
    if notation == "paper":
        term = term if annotations else strip_annotations(term)
        return _Parenthesised().show(term) if parenthesize == "all" else pretty(term)
    if notation == "visualiser":
        return _Visualiser(operators, everything=parenthesize == "all").show(term, BINDER)
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


IDENTIFIER = re.compile(r"[a-z'][A-Za-z'_]*")
VISUALISER_RESERVED = {"let", "in", "abs", "fold", "rec", "if", "then", "else", "true", "false", "dot", "A"}


class _Visualiser:
    """The visualiser's notation as its parser reads it (docs/ORACLE.md, Notations): the
    operands of an operator, an application's function and argument and abs's model are
    atoms (a name, an unsigned number, {n}, or a parenthesised term); numbers are unsigned
    decimals, a negative definitive constant is written (0 - n) and a negative provisional
    constant cannot be written; names are [a-z'][A-Za-z'_]* and no reserved word.
    `everything`: also parenthesise every non-atomic body and bound term."""

    def __init__(self, operators: Optional[dict], everything: bool = False):
        self.operators = operators
        self.everything = everything
        self.names: dict[str, str] = {}
        self.used: set[str] = set()
        self.counter = 0

    def name(self, x: str) -> str:
        if x not in self.names:
            if IDENTIFIER.fullmatch(x) and x not in VISUALISER_RESERVED and x not in self.used:
                new = x
            else:
                stem = "".join(c for c in x if c.isascii() and c.isalpha()).lower() or "v"
                new = stem + _letters(self.counter)
                while new in self.used or new in VISUALISER_RESERVED:
                    self.counter += 1
                    new = stem + _letters(self.counter)
                self.counter += 1
            self.names[x] = new
            self.used.add(new)
        return self.names[x]

    def fresh(self, stem: str) -> str:
        """A name of the printer's own (fold's binders), used by nothing printed so far."""
        new, i = stem, 0
        while new in self.used or new in VISUALISER_RESERVED:
            new, i = stem + _letters(i), i + 1
        self.used.add(new)
        return new

    def body(self, t: S.Term) -> str:
        return self.show(t, ATOM if self.everything else BINDER)

    def show(self, t: S.Term, level: int) -> str:
        if isinstance(t, S.Var):
            return self.name(t.name)
        if isinstance(t, S.Const):
            return f"(0 - {decimal(t.value)})" if t.value < 0 else decimal(t.value)
        if isinstance(t, S.Prov):
            if t.value < 0:
                raise Inexpressible("the visualiser has no negative numbers, and a provisional constant "
                                    "{-c} has no equivalent there (0 - {c} has the parameter c, not -c)")
            return "{" + decimal(t.value) + "}"
        if isinstance(t, S.App):
            text = f"{self.show(t.fun, ATOM)} {self.show(t.arg, ATOM)}"
        elif isinstance(t, S.BinOp) and t.op in S.ITERATED:  # its fold, in the shape our parser reads back
            e, a = self.fresh("e"), self.fresh("a")
            combine = "⊞" if t.op == "+^L" else "⊠"
            text = f"fold (λ{e}. λ{a}. ({self.show(t.left, ATOM)} {e}) {combine} {a}) {self.show(t.right, ATOM)}"
        elif isinstance(t, S.BinOp):
            op = self.operators.get(id(t)) if self.operators is not None else SURFACE_OPERATORS.get(t.op)
            if op is None or op == "?":
                raise Inexpressible(f"the operator {t.op} could not be resolved by type")
            text = f"{self.show(t.left, ATOM)} {VISUALISER_OPERATORS[op]} {self.show(t.right, ATOM)}"
        elif isinstance(t, S.Lam):
            text = f"λ{self.name(t.var)}. {self.body(t.body)}"
        elif isinstance(t, S.Let):
            text = f"let {self.name(t.var)} = {self.body(t.bound)} in {self.body(t.body)}"
        elif isinstance(t, S.LetDecouple):
            f, x = self.name(t.f), self.name(t.x)
            text = f"let ({f}, {x}) = abs {self.show(t.bound, ATOM)} in {self.body(t.body)}"
        elif isinstance(t, S.Decouple):
            f, x = self.name(t.f), self.name(t.x)
            text = f"A({f}, {x}). {self.body(t.body)}"
        else:
            raise TypeError(f"not a term: {t!r}")
        return f"({text})" if level >= ATOM else text


class _Parenthesised:
    """The paper's notation with every operand, argument, body and bound term that is not an
    atom in parentheses (`--parenthesize all`): no reader's precedence is relied on."""

    def show(self, t: S.Term) -> str:
        if isinstance(t, (S.Var, S.Const, S.Prov)):
            return pretty(t)
        if isinstance(t, S.App):
            return f"{self.atom(t.fun)} {self.atom(t.arg)}"
        if isinstance(t, S.BinOp):
            return f"{self.atom(t.left)} {S.OPERATORS[t.op][0]} {self.atom(t.right)}"
        if isinstance(t, (S.Lam, S.Decouple, S.Let, S.LetDecouple)):
            return show_binder_form(t, self.atom)
        raise TypeError(f"not a term: {t!r}")

    def atom(self, t: S.Term) -> str:
        text = self.show(t)
        return text if isinstance(t, (S.Var, S.Const, S.Prov)) else f"({text})"
