"""The declared arithmetics against values fixed apart from goi (issue 52): the mocks of the
oracle's tests compute with goi's own fields, so they agree with whatever goi computes; here
each expected value is written out (IEEE-754 doubles as Python's floats compute them, and
two's-complement integers as the C standard says), and goi's machine, run over the declared
arithmetic's field, must give exactly it — sign of zero included."""

from __future__ import annotations

import math

import pytest

import goi
from goi.oracle.arithmetic import declared

NAN = float("nan")

DOUBLES = [  # (program, the double IEEE-754 gives)
    ("0.1 + 0.2", 0.30000000000000004),
    ("0.1 * 3", 0.30000000000000004),
    ("1 / 3", 0.3333333333333333),
    ("0 * (0 - 1)", -0.0),
    ("1 / (0 * (0 - 1))", -math.inf),
    ("1 / 0", math.inf),
    ("(0 - 1) / 0", -math.inf),
    ("0 / 0", NAN),
    ("0 - 0", 0.0),
    ("1 / (0 - 0)", math.inf),
    ("{0.1} * {0.2}", 0.020000000000000004),
    ("let f @ p = {0.1} + {0.7} in f p", 0.7999999999999999),
]


def value_in(spec: str, program: str):
    arithmetic = declared(spec)
    result = goi.run(program, field=arithmetic.field())
    assert result.status == "final", result
    return result.value


def same_double(got, want: float) -> bool:
    got = float(got)
    if math.isnan(want):
        return math.isnan(got)
    return got == want and math.copysign(1.0, got) == math.copysign(1.0, want)


@pytest.mark.parametrize("program, want", DOUBLES)
def test_ieee754_computes_the_double_ieee_gives(program, want):
    assert same_double(value_in("ieee754", program), want), (program, value_in("ieee754", program), want)


@pytest.mark.parametrize("program, want", [("0 * (0 - 1)", 0.0), ("1 / (0 * (0 - 1))", math.inf),
                                           ("(0 - 1) * 0 + 0", 0.0)])
def test_ieee754_without_signed_zero_reads_minus_zero_as_zero(program, want):
    """signed-zero=no: values pass through decimal text, where -0 is written 0."""
    assert same_double(value_in("ieee754,signed-zero=no", program), want), program


INTEGERS = [  # (spec, program, the integer the declared arithmetic gives)
    ("integer,bits=32", "2147483647 + 1", -2147483648),
    ("integer,bits=32", "0 - 2147483647 - 2", 2147483647),
    ("integer,bits=8", "100 + 100", -56),
    ("integer,bits=8", "16 * 16", 0),
    ("integer", "2147483647 + 1", 2147483648),
    ("integer", "(0 - 7) / 2", -3),
    ("integer,rounding=floor", "(0 - 7) / 2", -4),
    ("integer,rounding=floor", "7 / (0 - 2)", -4),
    ("integer", "7 / (0 - 2)", -3),
    ("integer", "7 / 0", 0),
]


@pytest.mark.parametrize("spec, program, want", INTEGERS)
def test_integers_compute_as_declared(spec, program, want):
    got = value_in(spec, program)
    assert got == want, (spec, program, got, want)
