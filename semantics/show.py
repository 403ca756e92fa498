"""How the machine's data is written — for people (`to_text`) and for JSON (`to_json`): the
one place for it, used by the machine's messages, traces, DOT pictures, the CLI, the
oracle and the reports.

A computation-stack element is a marker (★ @ λ), a scalar (an exact rational of any length,
or a symbolic value written by its field: `show_scalar`) or a vector (a tuple of scalars).

    to_text: ★  3  -9/2  (1, 2)           to_json: "★"  "3"  "-9/2"  ["1", "2"]   (None stays None)

Stacks are written top first, as in the paper (X : Y : □); flags as □ λ $0 $1(n) ? !.
"""

from __future__ import annotations

from typing import Any, Callable

from .digits import text_of_fraction

DIRECTION_WORDS = {"↑": "up", "↓": "down"}


def scalar(x) -> str:
    """An exact rational: '3', '-1/2', of any length (other scalars by str)."""
    if isinstance(x, float):  # a field of doubles (IEEEField): as JavaScript prints it
        from .values import show_double

        return show_double(x)
    return text_of_fraction(x) if hasattr(x, "denominator") else str(x)


def to_text(x, show_scalar: Callable[[Any], str] = scalar) -> str:
    symbol = getattr(x, "symbol", None)  # a marker
    if symbol is not None:
        return symbol
    if isinstance(x, tuple):
        return "(" + ", ".join(show_scalar(v) for v in x) + ")"
    return show_scalar(x)


def to_json(x, show_scalar: Callable[[Any], str] = scalar) -> Any:
    if x is None:
        return None
    symbol = getattr(x, "symbol", None)
    if symbol is not None:
        return symbol
    if isinstance(x, tuple):
        return [show_scalar(v) for v in x]
    return show_scalar(x)


def stack(elements, show_scalar: Callable[[Any], str] = scalar) -> str:
    """A computation stack kept top last (the machine's lists), written top first: X:Y:□."""
    return ":".join([to_text(x, show_scalar) for x in reversed(elements)] + ["□"])


def box_stack(links) -> str:
    """A box stack of links kept top last, written top first: ℓ3:ℓ7:□."""
    return ":".join([f"ℓ{link.id}" for link in reversed(links)] + ["□"])


def flag(value) -> str:
    if isinstance(value, tuple):
        return f"{value[0]}({value[1]})"
    return str(value)


def step_line(step, show_scalar: Callable[[Any], str] = scalar) -> str:
    """One line of `goi run --trace` for a machine.Step (stacks top first)."""
    elements = stack(step.stack[::-1], show_scalar)
    boxes = ":".join([f"ℓ{i}" for i in step.box_stack] + ["□"])
    at = f"  at {span_text(step.span)}" if step.span is not None else ""
    return (
        f"{step.number:>7} {step.rule:<20} ℓ{step.position:<5} {step.position_type:<14} "
        f"{step.direction} {step.flag:<6} S={elements}  B={boxes}{at}"
    )


def span_text(span) -> str:
    """A source span as line:column-line:column."""
    return f"{span.line}:{span.column}-{span.end_line}:{span.end_column}"


def span_to_json(span):
    """A source span as {start, end (character offsets), line, column, end_line, end_column}, or None."""
    if span is None:
        return None
    return {"start": span.start, "end": span.end, "line": span.line, "column": span.column,
            "end_line": span.end_line, "end_column": span.end_column}


def step_to_json(step, show_scalar: Callable[[Any], str] = scalar) -> dict:
    """One step of `goi run --json --trace` (schema goi.run/1): stacks as arrays, top first;
    the direction as a word."""
    return {
        "number": step.number,
        "rule": step.rule,
        "position": step.position,
        "position_type": step.position_type,
        "direction": DIRECTION_WORDS[step.direction],
        "flag": step.flag,
        "stack": [to_json(x, show_scalar) for x in step.stack],
        "box_stack": list(step.box_stack),
        "span": span_to_json(step.span),
    }
