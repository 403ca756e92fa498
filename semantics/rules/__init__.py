"""The machine's transitions, one named rule per function, registered by ID.

The IDs are those of docs/RULES.md; a test checks that the two agree. Modules:
- passes:      pass transitions (Fig. PassTransitions), flag □
- compute:     computational rewrites (Fig. RewriteTransitionsComput), flags λ, $0, $1(n)
- open_box:    ?-phase: absorption and closing (Fig. RewriteTransitionsOpenBox)
- deep:        ?-phase deep rewrites (Figs. RewriteTransitionsDeep*)
- closed_box:  !-phase: copying closed boxes (Fig. RewriteTransitionsClosedBox)
- gc:          garbage collection, not transitions (Prop. Garbage collection)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Rule:
    id: str
    kind: str  # "pass" or "rewrite" (machine transitions), or "gc" (garbage collection)
    apply: Callable
    summary: str


REGISTRY: dict[str, Rule] = {}


def rule(rule_id: str, kind: str):
    """Register `fn(machine, redex)` as the rule `rule_id`; its docstring is the summary."""

    def register(fn):
        if rule_id in REGISTRY:
            raise ValueError(f"rule {rule_id} registered twice")
        REGISTRY[rule_id] = Rule(rule_id, kind, fn, (fn.__doc__ or "").strip().splitlines()[0])
        return fn

    return register


def load_all() -> dict[str, Rule]:
    """Import every rule module (registration happens on import)."""
    from . import closed_box, compute, deep, gc, open_box, passes  # noqa: F401

    return REGISTRY
