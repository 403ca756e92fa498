"""Token data of a graph state (paper Def. "Graph states"): position, direction,
rewriting flag, computation stack, box stack.

Computation-stack elements: the markers ★ (STAR), @ (AT), λ (LAMBDA), field
elements (scalars) and tuples of field elements (vectors). Stacks are Python
lists with the top at the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .graph import Link

UP, DOWN = "↑", "↓"


class Marker:
    __slots__ = ("symbol",)

    def __init__(self, symbol: str):
        self.symbol = symbol

    def __repr__(self) -> str:
        return self.symbol


STAR = Marker("★")
AT = Marker("@")
LAMBDA = Marker("λ")

# Rewriting flags: "□", "λ", "$0", ("$1", n), "?", "!".
NONE_FLAG = "□"


@dataclass
class Token:
    position: Link
    direction: str = UP
    flag: object = NONE_FLAG
    stack: list = field(default_factory=lambda: [STAR])
    box_stack: list = field(default_factory=list)


def show_flag(flag) -> str:
    if isinstance(flag, tuple):
        return f"{flag[0]}({flag[1]})"
    return str(flag)


def show_element(x, show_value=str) -> str:
    if isinstance(x, Marker):
        return x.symbol
    if isinstance(x, tuple):
        return "(" + ", ".join(show_value(v) for v in x) + ")"
    return show_value(x)


def show_stack(stack, show_value=str) -> str:
    """Top first, as in the paper: X : Y : □."""
    return ":".join([show_element(x, show_value) for x in reversed(stack)] + ["□"])


def show_box_stack(box_stack) -> str:
    return ":".join([f"ℓ{link.id}" for link in reversed(box_stack)] + ["□"])
