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


@dataclass(slots=True)  # read and written at every transition: slots, not a __dict__
class Token:
    """The token: its position (a link), direction, rewriting flag, computation stack and box stack."""

    position: Link
    direction: str = UP
    flag: object = NONE_FLAG
    stack: list = field(default_factory=lambda: [STAR])
    box_stack: list = field(default_factory=list)
