"""The programs a declaration is tried on when it is loaded: each construct it has, inside
each other one, on either side of each operator, with negative and fractional constants where
an operand or argument goes. Every probe must print and read back as itself; one that does not
(two forms that start alike and cannot be told apart, a literal a reader splits differently)
makes the declaration an error before anything is sent — the same round trip that every
printed program is checked by (oracle/notations/__init__.py)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Iterator

from goi.semantics import syntax as S
from goi.semantics.types import Arrow, Field, Vec

from .declaration import MEANINGS, Notation


def probes(notation: Notation) -> Iterator[S.Term]:
    one, two = S.Const(Fraction(1)), S.Const(Fraction(2))
    leaves = [one, S.Const(Fraction(-2)), S.Const(Fraction(1, 2)), S.Const(Fraction(1, 3)), S.Prov(Fraction(1)),
              S.Prov(Fraction(-1, 2)), S.Var("x")]
    ops = [MEANINGS[m] for m in notation.operators]
    f, x = S.Var("f"), S.Var("x")
    field = Field()
    compound = [
        S.App(f, one), S.App(S.App(f, one), two), S.Lam("y", field, S.Var("y")),
        S.Let("y", field, one, S.Var("y")), S.Let("g", None, S.Lam("y", None, S.Lam("z", field, S.Var("y"))), S.App(S.Var("g"), one)),
        S.Decouple("h", "p", "a", Arrow(Vec("a"), field), S.App(S.Var("h"), S.Var("p"))),
        S.LetDecouple("h", "p", "a", Arrow(field, field), S.Lam("y", field, S.Prov(Fraction(3))), S.App(S.Var("h"), S.Var("p"))),
    ]
    compound += [S.BinOp(op, one, two) for op in ops]
    for leaf in leaves + compound:
        yield leaf
        yield S.App(f, leaf)
        yield S.App(leaf, one)
        yield S.Lam("y", None, leaf)
        yield S.Let("y", None, leaf, leaf)
        yield S.Let("y", None, one, S.App(leaf, one))
        for op in ops:
            yield S.BinOp(op, leaf, x)
            yield S.BinOp(op, x, leaf)
    for a, b in itertools.product(ops, repeat=2):
        yield S.BinOp(a, S.BinOp(b, one, two), x)
        yield S.BinOp(a, x, S.BinOp(b, one, two))
        yield S.BinOp(a, S.App(f, one), S.App(f, two))
