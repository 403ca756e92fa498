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

import math
from fractions import Fraction
from typing import Optional


class Undefined(Exception):
    """Raised by a field where an operation has no value in it; the machine reports it as the
    outcome `undefined`, its reason `what: message`."""

    what = "undefined"


class DivisionByZero(Undefined):
    """Raised by a strict field on a division by zero."""

    what = "division by zero"


class Overflow(Undefined):
    """Raised by a field of integers of a stated width that stops on overflow."""

    what = "integer overflow"


class BudgetExceeded(Exception):
    """A run reached one of its budgets (docs/CLI.md): `limit` names which ("steps",
    "nodes", "digits"). The machine reports it as the outcome `budget`."""

    def __init__(self, limit: str, message: str):
        super().__init__(message)
        self.limit = limit


DEFAULT_MAX_DIGITS = 100_000
BITS_PER_DIGIT = 3.3219280948873626  # log2(10)


class RationalField:
    """Exact rationals (fractions.Fraction)."""

    name = "rationals"

    def __init__(self, division: str = "total", max_digits: int = DEFAULT_MAX_DIGITS):
        if division not in ("total", "strict"):
            raise ValueError(f"unknown division policy {division!r} (total or strict)")
        self.division = division
        self.max_digits = max_digits
        self.max_bits = int(max_digits * BITS_PER_DIGIT) + 1
        self.zero_divisions = 0  # divisions by zero answered 0 (total): where strict division would differ

    def _fits(self, result, op: str):
        """The result of an operation on numbers within the digit budget, unless its numerator
        or denominator is past it: then the run stops (a squaring doubles a number's size, so
        a run within its step budget could otherwise take hours). Checked on the result, where
        the budget can be crossed, not on the operands, which were checked when they were
        made: an operation on numbers within the budget makes one at most twice its size, so
        the check costs two bit lengths an operation and at most one operation past it."""
        # a Fraction's own fields, not its `numerator` and `denominator` properties (two
        # Python calls an operation: a fifth of an arithmetic run's time)
        try:
            numerator, denominator = result._numerator, result._denominator
        except AttributeError:  # not a Fraction: an integer a caller gave
            numerator, denominator = result.numerator, result.denominator
        max_bits = self.max_bits
        if numerator.bit_length() > max_bits or denominator.bit_length() > max_bits:
            bits = max(numerator.bit_length(), denominator.bit_length())
            raise BudgetExceeded(
                "digits", f"a {op} would make a number of about {int(bits / BITS_PER_DIGIT)} digits (--max-digits {self.max_digits})"
            )
        return result

    def const(self, value: Fraction):
        return value if type(value) is Fraction else Fraction(value)  # a Fraction is a value: not copied

    def zero(self):
        return Fraction(0)

    def one(self):
        return Fraction(1)

    def add(self, x, y):
        return self._fits(x + y, "sum")

    def sub(self, x, y):
        return self._fits(x - y, "difference")

    def mul(self, x, y):
        return self._fits(x * y, "product")

    def div(self, x, y):
        if y == 0:
            if self.division == "strict":
                raise DivisionByZero(f"{x} / 0")
            self.zero_divisions += 1
            return Fraction(0)
        return self._fits(x / y, "quotient")

    def show(self, x) -> str:
        return str(x)


def basis(field, n: int, i: int) -> tuple:
    """The i-th standard basis vector e_i of F^n (its zeros one shared object)."""
    zero = field.zero()
    vector = [zero] * n
    vector[i] = field.one()
    return tuple(vector)


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


class IEEEField:
    """IEEE-754 binary64 (the doubles of JavaScript, C, OCaml…) as the machine's field: a
    constant is its nearest double, every operation rounds, and division is IEEE's — x/0 is
    ±Infinity, 0/0 NaN — never undefined. For `goi oracle --arithmetic ieee754`: what an
    implementation that computes with doubles should answer, exactly (the literal machine,
    another arithmetic)."""

    name = "binary64"
    division = "ieee754"
    BY_ZERO = ("ieee", "error", "zero")

    def __init__(self, signed_zero: bool = True, by_zero: str = "ieee"):
        """`signed_zero` False: every value passes through decimal text, where -0 is written 0
        (an implementation that reads its operands from text); `by_zero`: x/0 is IEEE's
        (±Infinity, NaN for 0/0), an error (`undefined`), or 0."""
        if by_zero not in self.BY_ZERO:
            raise ValueError(f"unknown division by zero {by_zero!r} ({', '.join(self.BY_ZERO)})")
        self.signed_zero, self.by_zero = signed_zero, by_zero
        if not signed_zero:
            self.name = "binary64 without signed zero"

    def _v(self, x: float) -> float:
        return x if self.signed_zero or x != 0 else 0.0

    def const(self, value) -> float:
        return self._v(float(value))

    def zero(self) -> float:
        return 0.0

    def one(self) -> float:
        return 1.0

    def add(self, x, y):
        return self._v(x + y)

    def sub(self, x, y):
        return self._v(x - y)

    def mul(self, x, y):
        return self._v(x * y)

    def div(self, x, y):
        if y == 0:
            if self.by_zero == "error":
                raise DivisionByZero(f"{show_double(x)} / 0")
            if self.by_zero == "zero":
                return 0.0
            if x == 0 or math.isnan(x):
                return math.nan
            return math.copysign(math.inf, x) * math.copysign(1.0, y)
        return self._v(x / y)

    def show(self, x) -> str:
        return show_double(x)


def show_double(x: float) -> str:
    """A double as JavaScript prints it: NaN, Infinity, -Infinity, else the shortest repr."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return repr(x).removesuffix(".0") if x == int(x) and abs(x) < 1e16 else repr(x)


class IntegerField:
    """Machine integers without bounds as the field, for an implementation that computes with
    integers: constants must be integers; division rounds toward zero (`trunc`: C, Java,
    OCaml, JavaScript's `|0`) or down (`floor`: Python's //); by zero it is 0 (total) or
    undefined (strict), as for the rationals."""

    name = "integers"

    def __init__(self, division: str = "total", rounding: str = "trunc", max_digits: int = DEFAULT_MAX_DIGITS,
                 bits: Optional[int] = None, overflow: str = "wrap"):
        """`bits`: integers of that width, two's complement (None: without bounds); past it a
        result wraps around (`overflow` "wrap": C's unsigned arithmetic, OCaml's 63-bit int,
        Java's int) or the program is undefined ("error": Rust's debug build, Ada)."""
        if division not in ("total", "strict"):
            raise ValueError(f"unknown division policy {division!r} (total or strict)")
        if rounding not in ("trunc", "floor"):
            raise ValueError(f"unknown integer division {rounding!r} (trunc or floor)")
        if bits is not None and not 2 <= bits <= 4096:
            raise ValueError(f"an integer width is 2 to 4096 bits, not {bits}")
        if overflow not in ("wrap", "error"):
            raise ValueError(f"unknown overflow {overflow!r} (wrap or error)")
        self.division, self.rounding, self.max_digits = division, rounding, max_digits
        self.max_bits = int(max_digits * BITS_PER_DIGIT) + 1
        self.bits, self.overflow = bits, overflow
        if bits is not None:
            self.name = f"{bits}-bit integers ({'wrapping' if overflow == 'wrap' else 'an error on overflow'})"

    def _fit(self, x: int, op: str) -> int:
        """x in the width (wrapped, or Overflow)."""
        if self.bits is None:
            return x
        half = 1 << (self.bits - 1)
        if -half <= x < half:
            return x
        if self.overflow == "error":
            raise Overflow(f"a {op} of {self.bits}-bit integers overflows")
        return ((x + half) % (1 << self.bits)) - half

    def const(self, value) -> int:
        value = Fraction(value)
        if value.denominator != 1:
            raise ValueError(f"{value} is not an integer: the integer arithmetic takes integer constants only")
        if self.bits is not None and not -(1 << (self.bits - 1)) <= value < (1 << (self.bits - 1)):
            raise ValueError(f"{value} is not a {self.bits}-bit integer")
        return int(value)

    def zero(self) -> int:
        return 0

    def one(self) -> int:
        return 1

    def _fits(self, bits: int, op: str) -> None:
        if bits > self.max_bits:
            raise BudgetExceeded("digits", f"a {op} would make a number of about {int(bits / BITS_PER_DIGIT)} digits "
                                           f"(--max-digits {self.max_digits})")

    def add(self, x, y):
        self._fits(max(x.bit_length(), y.bit_length()) + 1, "sum")
        return self._fit(x + y, "sum")

    def sub(self, x, y):
        self._fits(max(x.bit_length(), y.bit_length()) + 1, "difference")
        return self._fit(x - y, "difference")

    def mul(self, x, y):
        self._fits(x.bit_length() + y.bit_length(), "product")
        return self._fit(x * y, "product")

    def div(self, x, y):
        if y == 0:
            if self.division == "strict":
                raise DivisionByZero(f"{x} / 0")
            return 0
        if self.rounding == "floor":
            return self._fit(x // y, "quotient")
        quotient = abs(x) // abs(y)
        return self._fit(quotient if (x >= 0) == (y >= 0) else -quotient, "quotient")

    def show(self, x) -> str:
        return str(x)
