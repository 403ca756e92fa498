"""Errors about the user's input. Each has a kind, a message, and a position.

These are the only exceptions the front end raises for bad input; the CLI turns
them into a message (or a JSON object) and the bad-input exit code.
"""

from __future__ import annotations

import unicodedata
from typing import Optional


class GoiError(Exception):
    """Bad input: a program that cannot be parsed, typed or read."""

    kind = "input"

    def __init__(self, message: str, line: Optional[int] = None, column: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column

    def to_json(self) -> dict:
        return {"kind": self.kind, "message": self.message, "line": self.line, "column": self.column}

    def render(self, source: Optional[str] = None, filename: str = "<input>") -> str:
        """The message, located, with the offending source line and a caret."""
        where = filename
        if self.line is not None:
            where += f":{self.line}:{self.column}"
        text = f"{where}: {self.kind} error: {self.message}"
        if source is not None and self.line is not None:
            lines = source.split("\n")  # as the lexer counts lines: only \n ends one
            if 1 <= self.line <= len(lines):
                shown, caret = excerpt(lines[self.line - 1], self.column or 1)
                text += f"\n  {shown}\n  {caret}^"
        return text


EXCERPT_REACH = 60  # characters of the offending line shown on each side of the error


def excerpt(line: str, column: int) -> tuple[str, str]:
    """The source line as shown (control and separator characters made visible) and the
    padding that puts a caret under `column` on a terminal: tabs copied, wide characters
    counted twice, combining marks not at all. A long line is shown as a window of
    EXCERPT_REACH characters either side of the column, its cut ends marked with "…"."""
    start = max(0, column - 1 - EXCERPT_REACH)
    end = column - 1 + EXCERPT_REACH
    head = "…" if start > 0 else ""
    tail = "…" if end < len(line) else ""
    line, column = line[start:end], column - start
    shown, pad = [head], [" " * len(head)]
    for i, char in enumerate(line):
        visible = _visible(char)
        shown.append(visible)
        if i < column - 1:
            pad.append("\t" if char == "\t" else " " * _width(visible))
    shown.append(tail)
    return "".join(shown), "".join(pad)


def _visible(char: str) -> str:
    if char == "\t":
        return char
    category = unicodedata.category(char)
    if category in ("Cc", "Zl", "Zp", "Cf") or char == "\ufeff":
        return f"\\u{ord(char):04x}" if ord(char) > 0xFF else f"\\x{ord(char):02x}"
    return char


def _width(text: str) -> int:
    total = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        total += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return total


class ParseError(GoiError):
    kind = "parse"

    def __init__(self, message, line, column, found: str = "", expected: tuple[str, ...] = ()):
        super().__init__(message, line, column)
        self.found = found
        self.expected = expected

    def to_json(self) -> dict:
        data = super().to_json()
        data["found"] = self.found
        data["expected"] = list(self.expected)
        return data


class TypeCheckError(GoiError):
    kind = "type"


class ReadError(GoiError):
    kind = "io"


class BudgetError(GoiError):
    """A budget was reached before a run could start (the input is larger than allowed).
    Exit code 5, like a run stopped by its step budget."""

    kind = "budget"

    def __init__(self, message: str, limit: str = ""):
        super().__init__(message)
        self.limit = limit


TOO_DEEP = "the program is nested too deeply for this implementation"


class LimitError(GoiError):
    """The input is beyond what this implementation handles (nesting depth).
    `beyond_any_stack`: too deep even for the deep-stack thread (semantics.stack), so that
    trying there is pointless."""

    kind = "limit"

    def __init__(self, message: str = TOO_DEEP, beyond_any_stack: bool = False):
        super().__init__(message)
        self.beyond_any_stack = beyond_any_stack


def seconds(name: str, value) -> float:
    """A number of seconds given to the Python API, checked: an int or float, finite and > 0
    (TypeError for another type, a bool included; ValueError for 0, a negative, NaN or ∞)."""
    import math

    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of seconds (int or float), not {type(value).__name__}")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a finite number of seconds > 0, not {value!r}")
    return float(value)


def whole_number(name: str, value, least: int = 0) -> int:
    """A whole-number argument of the Python API, checked: a clear TypeError for another type
    (a bool included), a ValueError below `least`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number (int), not {type(value).__name__}")
    if value < least:
        raise ValueError(f"{name} must be ≥ {least}, not {value}")
    return value
