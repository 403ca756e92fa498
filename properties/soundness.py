"""Theorem 6.1 (Soundness): a well-typed closed program reaches a *final* state whose
value is an answer of its type (Def. B.9), never *stuck*. A budget hit is its own finding."""

from __future__ import annotations

from fractions import Fraction

from goi.semantics.types import Arrow, Vec

from .examples import programs_of
from .registry import declare
from .runner import Finding, run, show


@declare("soundness", order=10, statement="Theorem 6.1 (soundness)", examples=programs_of, values="independent")
def soundness(term, config) -> object:
    """A program's run ends in a final state holding a value of its type (never stuck)."""
    judgement, machine, outcome = run(term, "soundness", config, checks=["productivity"])
    if outcome.status != "final":
        raise Finding("soundness", f"the run ended {outcome.status}: {outcome.reason}", show(term))
    value, ty = outcome.value, judgement.type
    if isinstance(ty, Arrow):
        ok = value == "λ"
    elif isinstance(ty, Vec):
        ok = False  # a closed program never has a vector type (the name would escape)
    else:
        ok = isinstance(value, Fraction)
    if not ok:
        raise Finding("soundness", f"the value {value!r} is not an answer of type {ty}", show(term))
    return value
