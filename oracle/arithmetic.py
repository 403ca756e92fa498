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

An arithmetic is declared with settings (`SETTINGS`), written `NAME,KEY=VALUE,…` on the command
line (`--arithmetic ieee754,signed-zero=no`) or as a table in a target file:

- `ieee754`: `signed-zero` yes|no (no: every value passes through decimal text, where -0 is
  written 0, as an implementation that reads its operands from text computes), `by-zero`
  ieee|error|zero (x/0 is ±Infinity and 0/0 NaN; an error; 0);
- `integer`: `bits` N (two's complement of that width; default: no bound), `overflow`
  wrap|error, `rounding` trunc|floor, `by-zero` zero|error;
- `exact`: `by-zero` zero|error (as `--division total|strict`).

`declared(spec)` reads a spec into a `Declared` arithmetic, with every setting checked.
"""

from __future__ import annotations

import functools
import math
import struct
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Callable, Optional

NON_FINITE = {"NaN", "Infinity", "-Infinity"}


@dataclass(frozen=True)
class Arithmetic:
    name: str
    description: str
    field: Callable  # (declared) -> a field for Execution (None: exact rationals)
    same: Callable  # (expected, got, declared) -> bool
    fragments: frozenset = frozenset()  # fragments it implies (integer: integer constants)


def _exact_same(expected, got, declared) -> bool:
    tolerance = declared.tolerance
    if isinstance(expected, tuple) or isinstance(got, tuple):
        return (isinstance(expected, tuple) and isinstance(got, tuple) and len(expected) == len(got)
                and all(_exact_same(e, g, declared) for e, g in zip(expected, got)))
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


def _double_same(expected, got, declared) -> bool:
    if isinstance(expected, tuple) or isinstance(got, tuple):
        return (isinstance(expected, tuple) and isinstance(got, tuple) and len(expected) == len(got)
                and all(_double_same(e, g, declared) for e, g in zip(expected, got)))
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
    return not math.isinf(value) and ulps(expected, value) <= declared.ulps


def _ieee_field(declared):
    from goi.semantics.values import IEEEField

    return IEEEField(declared.setting("signed-zero", "yes") == "yes", declared.setting("by-zero", "ieee"))


def _by_zero(declared) -> str:
    """The division policy: the arithmetic's `by-zero` where it is declared, else --division."""
    by_zero = declared.setting("by-zero")
    return declared.by_zero if by_zero is None else {"zero": "total", "error": "strict"}[by_zero]


def _integer_field(declared):
    from goi.semantics.values import IntegerField

    bits = declared.setting("bits")
    return IntegerField(_by_zero(declared), declared.setting("rounding", declared.rounding),
                        bits=None if bits is None else int(bits), overflow=declared.setting("overflow", "wrap"))


def _exact_field(declared):
    return None  # exact rationals, dividing as _by_zero says (Declared.division)


ARITHMETICS = {a.name: a for a in (
    Arithmetic("exact", "exact rationals, the paper's field (--division total|strict; --tolerance)",
               _exact_field, _exact_same),
    Arithmetic("ieee754", "binary64 doubles: IEEE rounding, NaN, ±Infinity (--ulps N)", _ieee_field, _double_same),
    Arithmetic("integer", "integers, division rounding as --integer-division says (integer constants only)",
               _integer_field, _exact_same, frozenset({"integers"})),
)}



# Each arithmetic's settings: key -> the values it takes (None: a whole number in a range), default first.
SETTINGS = {
    "exact": {"by-zero": ("zero", "error")},
    "ieee754": {"signed-zero": ("yes", "no"), "by-zero": ("ieee", "error", "zero")},
    "integer": {"bits": None, "overflow": ("wrap", "error"), "rounding": ("trunc", "floor"), "by-zero": ("zero", "error")},
}
BITS = (2, 4096)


class ArithmeticError_(ValueError):
    """A declared arithmetic that is not one: its message says which setting and what it takes."""


@dataclass(frozen=True)
class Declared:
    """An arithmetic with its settings, as declared (`declared`), and the run's options that say
    how near an answer must be (`given`): the value the oracle judges answers by."""

    arithmetic: Arithmetic
    settings: tuple = ()  # (key, value) pairs, in the order of SETTINGS
    tolerance: Optional[Fraction] = None  # exact: relative (--tolerance)
    ulps: int = 0  # ieee754: units in the last place (--ulps)
    rounding: str = "trunc"  # integer: --integer-division, unless `rounding` is set
    by_zero: str = "total"  # --division, unless `by-zero` is set

    @property
    def name(self) -> str:
        return self.arithmetic.name

    @property
    def spec(self) -> str:
        """As the command line writes it (a replay command gives it again)."""
        return ",".join([self.name] + [f"{k}={v}" for k, v in self.settings])

    @property
    def fragments(self) -> frozenset:
        return self.arithmetic.fragments

    def setting(self, key: str, default=None):
        return dict(self.settings).get(key, default)

    def given(self, config) -> "Declared":
        """With a run's options (an OracleConfig's tolerance, ulps, integer_division, division)."""
        return replace(self, tolerance=config.tolerance, ulps=config.ulps, rounding=config.integer_division,
                       by_zero=config.division)

    def field(self):
        """The field goi's machine computes in for this arithmetic (None: exact rationals)."""
        return self.arithmetic.field(self)

    def division(self) -> str:
        """The rationals' division policy (exact): total or strict."""
        return _by_zero(self)

    def same(self, expected, got) -> bool:
        """Whether an answer's value is goi's expected value, in this arithmetic."""
        return self.arithmetic.same(expected, got, self)


def declared(spec) -> Declared:
    """The arithmetic a spec declares (`_declared`), a spec's text read once."""
    return _declared_text(spec) if isinstance(spec, str) else _declared(spec)


@functools.lru_cache(maxsize=64)
def _declared_text(spec: str) -> Declared:
    return _declared(spec)


def _declared(spec) -> Declared:
    """`NAME` or `NAME,KEY=VALUE,…` (or a mapping {"name": …, KEY: VALUE}: a target file's table)
    as a Declared arithmetic; ArithmeticError_ for anything else, naming what it takes."""
    if isinstance(spec, Declared):
        return spec
    if isinstance(spec, dict):
        table = {str(k): v for k, v in spec.items()}
        name = table.pop("name", None)
        if not isinstance(name, str):
            raise ArithmeticError_(f"an arithmetic needs a name: one of {', '.join(ARITHMETICS)}")
        pairs = [(k, _setting_text(v)) for k, v in table.items()]
    elif isinstance(spec, str):
        name, *rest = [part.strip() for part in spec.split(",")]
        pairs = []
        for part in rest:
            key, sep, value = part.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise ArithmeticError_(f"{part!r} is not KEY=VALUE (for example {name},signed-zero=no)")
            pairs.append((key.strip(), value.strip()))
    else:
        raise ArithmeticError_(f"an arithmetic is a name or a table, not {type(spec).__name__}")
    if name not in ARITHMETICS:
        raise ArithmeticError_(f"unknown arithmetic {name!r}: one of {', '.join(ARITHMETICS)}")
    allowed = SETTINGS[name]
    given: dict = {}
    for key, value in pairs:
        if key not in allowed:
            raise ArithmeticError_(f"{name} has no setting {key!r}" + (f": it has {', '.join(allowed)}" if allowed else ""))
        if key in given:
            raise ArithmeticError_(f"{name}: {key} is set twice")
        values = allowed[key]
        if values is None:
            if not (value.isdigit() and len(value) <= 4 and BITS[0] <= int(value) <= BITS[1]):
                raise ArithmeticError_(f"{name}: {key} is a whole number from {BITS[0]} to {BITS[1]}, not {value!r}")
            value = str(int(value))
        elif value not in values:
            raise ArithmeticError_(f"{name}: {key} is one of {', '.join(values)}, not {value!r}")
        given[key] = value
    return Declared(ARITHMETICS[name], tuple((k, given[k]) for k in allowed if k in given))


def _setting_text(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    raise ArithmeticError_(f"a setting is text, a number or true/false, not {type(value).__name__}")
