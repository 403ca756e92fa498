"""The machine agrees with the second-opinion evaluator (properties.reference) on the value."""

from __future__ import annotations


from .examples import programs_of
from .registry import declare
from .reference import reference_value
from .runner import Finding, run, show


@declare("agreement", order=50, statement="second opinion (properties.reference)", examples=programs_of)
def agreement(term, config):
    """The machine agrees with the substitution-based second-opinion evaluator."""
    judgement, _m, outcome = run(term, "agreement", config)
    expected = reference_value(judgement)
    got = outcome.value
    if outcome.status != "final" or got != expected:
        raise Finding("agreement", f"machine: {outcome.status} {got}; reference: {expected}", show(term))
    return outcome
