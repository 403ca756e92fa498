"""Parameter preservation: the ¡-constants of (p⃗)‡ and their values never change during a
run (the machine only ever rewrites the definitive part: Prop. 4.3), and replacing them
(H ∘ (q⃗)‡) changes the value as the second opinion says it should."""

from __future__ import annotations

from fractions import Fraction


from .examples import programs_of
from .registry import declare
from .reference import reference_value
from .runner import Finding, run, show


@declare("parameters", order=60, statement="the ¡-constants (Sec. 4)", examples=programs_of)
def parameter_preservation(term, config, shift: Fraction = Fraction(1, 2)):
    """The ¡-constants never change; replacing them acts as the program says."""
    judgement, machine, outcome = run(term, "parameters", config, checks=["form"])
    # form checks the ¡-constants after every rewrite; here also their identity at the end
    values = [p.outs[0].dst.data for p in machine.graph.params]
    if values != list(judgement.params):
        raise Finding("parameters", f"the constants changed: {list(judgement.params)} became {values}", show(term))
    moved = [v + shift for v in judgement.params]
    _j, _m, other = run(term, "parameters", config, params=moved)
    got = other.value
    expected = reference_value(judgement, moved)
    if got != expected:
        raise Finding("parameters", f"with parameters {moved}: machine {got}, reference {expected}", show(term))
    return outcome
