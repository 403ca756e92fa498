"""The field F of values, pluggable; vectors; the primitives of Σ on values.

The machine never computes on values except through a Field, so the same
machine runs on exact rationals (RationalField, the default) and, later, on
symbolic values for z3.

Division by zero (the paper's F is a field; x/0 is undefined there) follows a
documented policy, chosen per run:
- "total" (default): x / 0 = 0, the convention of Lean and Isabelle/HOL;
- "strict": division by zero stops the run with the distinct outcome
  `undefined` (see semantics.machine), never a crash.
"""

from __future__ import annotations

from fractions import Fraction


class DivisionByZero(Exception):
    """Raised by a strict field; the machine reports it as the outcome `undefined`."""


class RationalField:
    """Exact rationals (fractions.Fraction)."""

    name = "rationals"

    def __init__(self, division: str = "total"):
        if division not in ("total", "strict"):
            raise ValueError(f"unknown division policy {division!r} (total or strict)")
        self.division = division

    def const(self, value: Fraction):
        return Fraction(value)

    def zero(self):
        return Fraction(0)

    def one(self):
        return Fraction(1)

    def add(self, x, y):
        return x + y

    def sub(self, x, y):
        return x - y

    def mul(self, x, y):
        return x * y

    def div(self, x, y):
        if y == 0:
            if self.division == "strict":
                raise DivisionByZero(f"{x} / 0")
            return Fraction(0)
        return x / y

    def show(self, x) -> str:
        return str(x)


def basis(field, n: int, i: int) -> tuple:
    """The i-th standard basis vector e_i of F^n."""
    return tuple(field.one() if j == i else field.zero() for j in range(n))


def apply_sigma(field, op: str, x, y):
    """x $ y for $ in Σ (core.SIGMA): field operations and vector operations."""
    if op == "add":
        return field.add(x, y)
    if op == "sub":
        return field.sub(x, y)
    if op == "mul":
        return field.mul(x, y)
    if op == "div":
        return field.div(x, y)
    if op == "vadd":
        _same_size(x, y, op)
        return tuple(field.add(a, b) for a, b in zip(x, y))
    if op == "smul":
        return tuple(field.mul(x, b) for b in y)
    if op == "dot":
        _same_size(x, y, op)
        total = field.zero()
        for a, b in zip(x, y):
            total = field.add(total, field.mul(a, b))
        return total
    raise ValueError(f"unknown primitive {op!r}")


class SizeMismatch(Exception):
    """Two vectors of different sizes met in a vector operation (an invalid state)."""


def _same_size(x, y, op):
    if len(x) != len(y):
        raise SizeMismatch(f"{op} on vectors of sizes {len(x)} and {len(y)}")
