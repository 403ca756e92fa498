"""Exact numbers of any size as text.

Python refuses to convert integers of more than 4300 digits to or from decimal text
(`sys.set_int_max_str_digits`, a guard against quadratic conversions). goi's values are
exact: a literal of 5000 digits, or a value that grew by repeated squaring, must still be
read and printed. The size of numbers a run may build is bounded by the machine's own
budget instead (docs/CLI.md)."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from fractions import Fraction


@contextmanager
def any_digits():
    """Within this block, int <-> str conversions have no digit limit."""
    getter = getattr(sys, "get_int_max_str_digits", None)
    if getter is None:  # Python without the limit
        yield
        return
    before = getter()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(before)


def fraction_of_text(text: str) -> Fraction:
    """An exact rational from its decimal or n/d text, of any length."""
    with any_digits():
        return Fraction(text)


def text_of_fraction(value: Fraction) -> str:
    """'3', '-1/2', of any length."""
    with any_digits():
        return str(value)
