"""Lowering a program to what a notation writes (docs/ORACLE.md, Notation files): the same
program with every construct the notation lacks written with what it has — `let` as an
application of a λ, a negative constant as `0 - n`, a fraction as `num / den` (where the
declaration says so), each operator as the one the notation has for what it means, names
that are no identifier of the notation renamed (injectively), annotations and decoupling
names dropped where it writes none. What cannot be written at all raises Inexpressible.

Printing writes the lowered term as it is, and reading a printed text gives back exactly the
lowered term: that is the round trip every printed program is checked by."""

from __future__ import annotations

import re
import string
from fractions import Fraction
from typing import Callable, Optional

from goi.semantics import syntax as S

from .declaration import BY_RESOLUTION, BY_SURFACE, Notation

SENTINELS = (Fraction(918273645), Fraction(546372819))  # stand for {n}/{num} and {den} in *_as templates


class Inexpressible(ValueError):
    """The program uses a construct the notation has no way to write."""


def letters(n: int) -> str:
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        out = string.ascii_lowercase[r] + out
    return out


def digits(notation: Notation, value: Fraction) -> Optional[str]:
    """A non-negative number as the notation's numbers write it; None if they cannot."""
    from goi.semantics.pretty import decimal

    if notation.numbers == "integer":
        return str(value.numerator) if value.denominator == 1 else None
    try:
        return decimal(value)
    except ValueError:
        return None


class Lowering:
    """One program's lowering (its renaming is the program's own)."""

    def __init__(self, notation: Notation, operators: Optional[dict], annotations: bool,
                 templates: dict):
        self.notation = notation
        self.operators = operators  # a judgement's (operators_by = "type"); None: by the surface symbol
        self.annotations = annotations and notation.typed
        self.templates = templates  # each `*_as` constant's term, read once per notation (as_terms)
        self.pattern = re.compile(notation.name_pattern)
        self.names: dict[str, str] = {}
        self.used: set[str] = set()
        self.counter = 0

    # ---- names (the visualiser's renaming, for every notation) ------------------------------
    def name(self, x: str) -> str:
        if x not in self.names:
            reserved = self.notation.reserved
            if self.pattern.fullmatch(x) and x not in reserved and x not in self.used:
                new = x
            else:
                stem = "".join(c for c in x if c.isascii() and c.isalpha()).lower() or "v"
                new = stem + letters(self.counter)
                while new in self.used or new in reserved or not self.pattern.fullmatch(new):
                    self.counter += 1
                    new = stem + letters(self.counter)
                    if self.counter > 10_000:
                        raise Inexpressible(f"no name of the notation's pattern {self.notation.name_pattern!r} "
                                            f"can stand for {x!r}")
                self.counter += 1
            self.names[x] = new
            self.used.add(new)
        return self.names[x]

    # ---- terms -----------------------------------------------------------------------------
    def lower(self, t: S.Term) -> S.Term:
        n = self.notation
        if isinstance(t, S.Var):
            return S.Var(self.name(t.name))
        if isinstance(t, S.Const):
            return self.constant(t.value)
        if isinstance(t, S.Prov):
            if "provisional" not in n.constants:
                raise Inexpressible("the notation has no provisional constants")
            if t.value < 0 and "negative_provisional" not in n.constants:
                raise Inexpressible(f"the notation has no negative provisional constant (such as {{{t.value}}})")
            if digits(n, abs(t.value)) is None:
                raise Inexpressible(f"the notation's numbers cannot write the provisional constant {t.value}")
            return S.Prov(t.value)
        if isinstance(t, S.App):
            return S.App(self.lower(t.fun), self.lower(t.arg))
        if isinstance(t, S.BinOp):
            meaning = self.meaning(t)
            if meaning not in n.operators:
                raise Inexpressible(f"the notation has no operator for {meaning} ({S.OPERATORS[t.op][2]})")
            return S.BinOp(n.surface[meaning], self.lower(t.left), self.lower(t.right))
        if isinstance(t, S.Lam):
            return S.Lam(self.name(t.var), self.annot(t.annot), self.lower(t.body))
        if isinstance(t, S.Let):
            if "let" not in n.forms:
                return self.lower(S.App(S.Lam(t.var, t.annot, t.body), t.bound))
            return S.Let(self.name(t.var), self.annot(t.annot), self.lower(t.bound), self.lower(t.body))
        if isinstance(t, S.Decouple):
            if "decouple" not in n.forms:
                raise Inexpressible("the notation has no decoupling value A(f,p). t")
            return S.Decouple(self.name(t.f), self.name(t.x), self.decoupling_name(t.name), self.annot(t.annot),
                              self.lower(t.body))
        if isinstance(t, S.LetDecouple):
            if "let_decouple" not in n.forms:
                if "decouple" not in n.forms:
                    raise Inexpressible("the notation has no decoupling")
                return self.lower(S.App(S.Decouple(t.f, t.x, t.name, t.annot, t.body), t.bound))
            return S.LetDecouple(self.name(t.f), self.name(t.x), self.decoupling_name(t.name), self.annot(t.annot),
                                 self.lower(t.bound), self.lower(t.body))
        raise TypeError(f"not a term: {t!r}")

    def meaning(self, t: S.BinOp) -> str:
        if self.notation.operators_by == "type" and self.operators is not None and t.op not in S.ITERATED:
            resolved = self.operators.get(id(t))
            if resolved is None or resolved == "?":
                raise Inexpressible(f"the operator {t.op} could not be resolved by type")
            return BY_RESOLUTION[resolved]
        return BY_SURFACE[t.op]

    def annot(self, annot):
        return annot if self.annotations else None

    def decoupling_name(self, name: Optional[str]) -> Optional[str]:
        return name if self.annotations else None

    def constant(self, value: Fraction) -> S.Term:
        n = self.notation
        if value < 0:
            magnitude = -value
            if "negative" in n.constants and digits(n, magnitude) is not None:
                return S.Const(value)
            if "negative_as" in n.constants:
                return self.instantiate("negative_as", {SENTINELS[0]: self.constant(magnitude)})
            raise Inexpressible(f"the notation cannot write the negative constant {value}")
        if digits(n, value) is not None:
            return S.Const(value)
        if "fraction_as" in n.constants:
            return self.instantiate("fraction_as", {SENTINELS[0]: S.Const(Fraction(value.numerator)),
                                                    SENTINELS[1]: S.Const(Fraction(value.denominator))})
        raise Inexpressible(f"the notation's numbers cannot write the constant {value}")

    def instantiate(self, key: str, replace: dict) -> S.Term:
        """A `*_as` template's term, its numbers put in place of the sentinels."""
        term = self.templates[key]

        def go(t: S.Term) -> S.Term:
            if isinstance(t, S.Const) and t.value in replace:
                return replace[t.value]
            kids = S.subterms(t)
            for i, kid in enumerate(kids):
                t = S.with_child(t, i, go(kid))
            return t

        return go(term)


def as_terms(notation: Notation, reader: Callable[[str, str], S.Term]) -> dict:
    """The terms the `*_as` constant templates write, with sentinels for their numbers."""
    from .template import fill

    numbers = {"n": str(SENTINELS[0]), "num": str(SENTINELS[0]), "den": str(SENTINELS[1])}
    return {key: reader(key, fill(notation.constants[key], numbers)) for key in ("negative_as", "fraction_as")
            if key in notation.constants}


def value_of(term: S.Term) -> Optional[Fraction]:
    """The value of a term of constants and scalar operators (a `*_as` template's check)."""
    if isinstance(term, S.Const):
        return term.value
    if isinstance(term, S.BinOp) and term.op in ("+", "-", "*", "/"):
        a, b = value_of(term.left), value_of(term.right)
        if a is None or b is None or (term.op == "/" and b == 0):
            return None
        return {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else None}[term.op]
    return None
