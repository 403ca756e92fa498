"""Check `productivity`: Props. "Productivity" and "Safe termination": a valid, stable,
non-final state always has a transition, so a run from a translated (well-typed) program
never ends *stuck*. Checked when the run ends: a stuck outcome is a violation (run it
together with `validity` and `stability` to know the stuck state was valid and stable).
Cost: O(1).
"""

from __future__ import annotations

from .base import Check, declare


@declare
class Productivity(Check):
    """A run from a well-typed program never ends stuck (safe termination)."""

    name = "productivity"
    order = 80
    implements = "Props. D.1 \"Productivity\", D.2 \"Safe termination\", D.3 \"Safe termination of programs\""
    values = ("independent: a transition exists or not; no rule's guard, match or place reads a value "
              "(the property parametricity checks it), only the field may stop a run (strict division, digits)")

    def at_end(self, machine, outcome) -> None:
        if outcome.status == "stuck":
            raise self.fail(f"a non-final state has no transition: {outcome.reason}")
