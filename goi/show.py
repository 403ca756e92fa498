"""How a value of the machine is written for people and for JSON — the one place for it.

A value is an exact rational (Fraction), a vector (a tuple of them) or "λ" (a function).
`to_text`: `3`, `-9/2`, `(1, 2)`, `λ`. `to_json`: an exact rational string, a list of such
strings, or "λ" (None stays None).
"""

from __future__ import annotations

from typing import Any


def to_text(x) -> str:
    if isinstance(x, tuple):
        return "(" + ", ".join(str(v) for v in x) + ")"
    return str(x)


def to_json(x) -> Any:
    if isinstance(x, tuple):
        return [str(v) for v in x]
    return None if x is None else str(x)
