"""Parametricity: the machine's transitions do not depend on the constants' values.

What shapes rely on (generators/shapes.py, `goi props --exhaustive N --shapes`): the same
program with other constants fires the same rule at the same place at every step. The
program is run at each family of values of generators.shapes.ASSIGNMENTS (generic, zero —
every zero divisor a constant can make —, one, negative, large, tiny, mixed), under the
default `total` division and under `strict` division, and each run's transitions — the
rule, and the nodes, links and ports of its redex — are compared with the generic run's.

The runs under `strict` division are made only when a run under `total` divided by zero: the
two policies answer every other division alike, so without a zero divisor the strict runs are
the total runs again, transition for transition (tests/test_parametricity.py checks it).

Under `total` division every run must make the same transitions to the same outcome
(`final`, or the same budget). A run may stop earlier only where the field decides on a value:
at a rule declared `reads_values` (semantics.rules), with `undefined` (a strict division by
zero) or a `digits` budget (a number longer than --max-digits); its transitions are then a
prefix of the generic run's, whose next transition is that rule. Any other difference — another
rule, another place, another outcome — is a counterexample: a rule whose choice reads a value.
"""

from __future__ import annotations

from goi.semantics import graph as G

from .examples import programs_of
from .registry import declare
from .runner import BudgetFinding, Finding, show


def _element(x):
    if isinstance(x, (G.Node, G.Link, G.Box)):
        return (type(x).__name__, x.id)
    return x


def transitions(term, division: str, max_steps: int):
    """The run's transitions as (rule, redex's elements by kind and id), and its result."""
    from goi.execution import Execution

    from . import coverage

    execution = Execution(term, division=division)
    seen: list = []
    execution.machine.after.append(lambda m, rule_id, redex: seen.append((rule_id, tuple(map(_element, redex)))))
    coverage.started(execution, max_steps)
    result = execution.run(max_steps)
    coverage.current().record(result)  # counted as every property's runs are ("passed, 0 runs" said it checked nothing)
    return seen, result


def compare(generic: tuple, other: tuple, family: str, division: str, rules) -> None:
    """Raise a Finding unless `other` (a run at `family`'s values) makes the generic run's
    transitions, or a prefix of them stopped by the field at a rule declared reads_values."""
    (mine, result), (theirs, their_result) = generic, other
    where = f"at the {family} values (division {division})"
    for step, (a, b) in enumerate(zip(mine, theirs), 1):
        if a != b:
            raise Finding("parametricity", f"transition {step} differs {where}: {b[0]} {b[1]} where the generic "
                                           f"values make {a[0]} {a[1]}")
    if len(theirs) == len(mine) and their_result.status == result.status and their_result.limit == result.limit:
        return
    stopped_by_field = their_result.status == "undefined" or (their_result.status == "budget" and their_result.limit == "digits")
    if len(theirs) < len(mine) and stopped_by_field and rules[mine[len(theirs)][0]].reads_values:
        return  # the field decided on a value, where a rule computes with it
    raise Finding("parametricity", f"{where} the run ends {their_result.status} after {len(theirs)} transitions, "
                                   f"the generic run {result.status} after {len(mine)}"
                                   + (f" (transition {len(theirs) + 1}: {mine[len(theirs)][0]})" if len(theirs) < len(mine) else ""))


@declare("parametricity", order=65, statement="shapes (issue 42): transitions independent of values", examples=programs_of,
         values="independent")
def parametricity(term, config):
    """The same program with other constants fires the same rules at the same places (up to where the field decides)."""
    from goi.generators.shapes import ASSIGNMENTS, assigned
    from goi.semantics.rules import in_use

    rules = in_use()
    zero_divisions = 0  # over the runs under total division
    for division in ("total", "strict"):
        if division == "strict" and not zero_divisions:
            break  # strict division answers as total does but at a zero divisor, which no run met: the same runs again
        generic = transitions(assigned(term, "generic"), division, config.max_steps)
        if generic[1].status == "budget":
            raise BudgetFinding("parametricity", f"a budget stopped the run: {generic[1].reason}", show(term))
        zero_divisions += generic[1].machine.field.zero_divisions
        for family in ASSIGNMENTS:
            if family != "generic":
                other = transitions(assigned(term, family), division, config.max_steps)
                zero_divisions += other[1].machine.field.zero_divisions
                compare(generic, other, family, division, rules)
    return len(generic[0])
