"""The arithmetic an implementation computes with (`goi oracle --arithmetic`, docs/ORACLE.md
"Arithmetic"): what goi computes for the same program, and when the implementation's answer
agrees. An implementation that is right by its own arithmetic raises no alarm.

Each arithmetic is one declared value of ARITHMETICS (a new one is one more `Arithmetic`):

- `exact` (the default): exact rationals, the paper's field; `--division total|strict`; an
  answer agrees when it is the same rational (or within `--tolerance`, relatively).
- `ieee754`: binary64 doubles, as JavaScript, C or OCaml compute: goi runs the same machine
  over doubles (semantics.values.IEEEField: rounding, NaN, ±Infinity, signed zero), and an
  answer agrees when it is the same double — NaN for NaN, Infinity for Infinity — or within
  `--ulps N` units in the last place (default 0: exactly).
- `integer`: integers without bounds, division rounding as declared (`--integer-division
  trunc|floor`), by zero as `--division` says; programs are drawn with integer constants
  (the `integers` fragment comes with it); an answer agrees when it is the same integer.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

NON_FINITE = {"NaN", "Infinity", "-Infinity"}


@dataclass(frozen=True)
class Arithmetic:
    name: str
    description: str
    field: Callable  # config -> a field for Execution (None: exact rationals with config.division)
    same: Callable  # (expected, got, config) -> bool
    fragments: frozenset = frozenset()  # fragments it implies (integer: integer constants)


def _exact_same(expected, got, config) -> bool:
    tolerance = config.tolerance
    if isinstance(expected, tuple) or isinstance(got, tuple):
        return (isinstance(expected, tuple) and isinstance(got, tuple) and len(expected) == len(got)
                and all(_exact_same(e, g, config) for e, g in zip(expected, got)))
    if not isinstance(expected, Fraction) or not isinstance(got, Fraction):
        return expected == got  # "λ" against "λ"; a non-finite number never equals a value
    if tolerance is None:
        return expected == got
    return abs(got - expected) <= tolerance * max(Fraction(1), abs(expected))


def ordered(x: float) -> int:
    """A double's place in the order of all doubles (adjacent doubles are adjacent integers;
    +0 and -0 are the same place)."""
    bits = struct.unpack("<q", struct.pack("<d", x))[0]
    return bits if bits >= 0 else -(bits & 0x7FFFFFFFFFFFFFFF)


def ulps(a: float, b: float) -> int:
    """How many doubles apart a and b are."""
    return abs(ordered(a) - ordered(b))


def _double_same(expected, got, config) -> bool:
    if isinstance(expected, tuple) or isinstance(got, tuple):
        return (isinstance(expected, tuple) and isinstance(got, tuple) and len(expected) == len(got)
                and all(_double_same(e, g, config) for e, g in zip(expected, got)))
    if not isinstance(expected, float):
        return expected == got  # "λ"
    if math.isnan(expected):
        return got == "NaN"
    if math.isinf(expected):
        return got == ("Infinity" if expected > 0 else "-Infinity")
    if not isinstance(got, Fraction):
        return False
    try:
        value = float(got)  # the double nearest what it printed (a shortest repr reads back exactly)
    except OverflowError:
        return False
    return not math.isinf(value) and ulps(expected, value) <= config.ulps


def _ieee_field(config):
    from goi.semantics.values import IEEEField

    return IEEEField()


def _integer_field(config):
    from goi.semantics.values import IntegerField

    return IntegerField(config.division, config.integer_division)


ARITHMETICS = {a.name: a for a in (
    Arithmetic("exact", "exact rationals, the paper's field (--division total|strict; --tolerance)",
               lambda config: None, _exact_same),
    Arithmetic("ieee754", "binary64 doubles: IEEE rounding, NaN, ±Infinity (--ulps N)", _ieee_field, _double_same),
    Arithmetic("integer", "integers, division rounding as --integer-division says (integer constants only)",
               _integer_field, _exact_same, frozenset({"integers"})),
)}

