"""Parametricity (properties/parametricity.py): the machine's transitions do not depend on the
constants' values, and the property fails on a seeded rule whose choice reads one.

The property's own Hypothesis test is derived with the others (tests/test_properties.py);
here: the shapes' helpers, the strict-division prefix it allows, and two mutants it catches.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings

from goi.generators.shapes import ASSIGNMENTS, assigned, constants_of, instantiate
from goi.generators.typed import programs
from goi.properties.parametricity import parametricity, transitions
from goi.properties.profiles import config
from goi.properties.runner import Finding
from goi.semantics import graph as G
from goi.semantics.parser import parse
from goi.semantics.rules import DEFAULT, using
from goi.semantics.token import STAR

CI = config("ci")


@settings(max_examples=40, deadline=None)
@given(programs(max_depth=4))
def test_instantiate_replaces_exactly_the_constants_in_order(term):
    defs, provs = constants_of(term)
    new_defs = [Fraction(k + 7, 3) for k in range(len(defs))]
    new_provs = [Fraction(-k - 5, 2) for k in range(len(provs))]
    other = instantiate(term, new_defs, new_provs)
    assert constants_of(other) == (tuple(new_defs), tuple(new_provs))
    assert instantiate(other, defs, provs) == term  # and back: nothing else changed
    with pytest.raises(ValueError, match="more values"):
        instantiate(term, [*defs, Fraction(1)], provs)


def test_every_family_gives_distinct_programs_the_same_shape():
    term = parse("let f @ p = {1} + {2} in (λy. p • p) (f (3 / 4))")
    shapes = {family: assigned(term, family) for family in ASSIGNMENTS}
    assert len({constants_of(t) for t in shapes.values()}) == len(ASSIGNMENTS)
    defs, provs = constants_of(shapes["generic"])
    assert len(set(defs + provs)) == len(defs) + len(provs) == 4  # 3, 4, {1}, {2}: each its own generic value


def test_a_zero_divisor_under_strict_division_stops_the_run_where_a_rule_reads_values():
    term = parse("(λx. x + 1) (2 / (3 - 4))")
    generic, _ = transitions(assigned(term, "generic"), "strict", 10_000)
    zero, result = transitions(assigned(term, "zero"), "strict", 10_000)
    assert result.status == "undefined" and zero == generic[: len(zero)] and len(zero) < len(generic)
    assert DEFAULT[generic[len(zero)][0]].reads_values
    assert parametricity(term, CI) == len(generic)  # the property allows exactly that


def _fold_only_nonzero(m, op):
    """Mutant match of rw.op.fold: folds only when neither constant operand is 0 (else the
    operation is kept, rw.op.keep) — a rule whose choice reads a value."""
    left, right = op.outs[0].dst, op.outs[1].dst
    if left is None or right is None or left.kind not in G.CONSTANTS or right.kind not in G.CONSTANTS:
        return None
    if any(n.kind == G.CONST and n.data == 0 for n in (left, right)):
        return None
    return (op,)


def _keep_unless_folded(m, op):
    return None if _fold_only_nonzero(m, op) else (op,)


def test_parametricity_catches_a_rewrite_that_chooses_by_a_value():
    term = parse("(λx. x) (5 + 6)")
    rules = DEFAULT.replace("rw.op.fold", match=_fold_only_nonzero).replace("rw.op.keep", match=_keep_unless_folded)
    with using(rules):
        with pytest.raises(Finding, match="transition .* differs at the zero values"):
            parametricity(term, CI)
    parametricity(term, CI)  # the paper's rules: no difference


def _nonnegative_values_over_star(m) -> bool:
    """Mutant guard of pass.op0.left.down: computes only over non-negative values."""
    s = m.token.stack
    return len(s) >= 3 and all(isinstance(v, Fraction) and v >= 0 for v in s[-2:]) and s[-3] is STAR


def test_parametricity_catches_a_pass_whose_guard_reads_a_value():
    term = parse("(λx. x) (5 - 6)")
    with using(DEFAULT.replace("pass.op0.left.down", guard=_nonnegative_values_over_star)):
        with pytest.raises(Finding, match=r"values \(division total\) the run ends (final|stuck) .* the generic run (stuck|final)"):
            parametricity(term, CI)


@settings(max_examples=60, deadline=None)
@given(programs(max_depth=4))
def test_without_a_zero_divisor_the_strict_runs_are_the_total_runs(term):
    """What lets the property skip its strict runs: a run under total division that never
    divided by zero is made again, transition for transition, under strict division; and a
    strict run that stops undefined had a zero divisor under total division (the count
    misses none)."""
    for family in ASSIGNMENTS:
        shape = assigned(term, family)
        total, under_total = transitions(shape, "total", 10_000)
        strict, under_strict = transitions(shape, "strict", 10_000)
        if under_total.machine.field.zero_divisions == 0:
            assert (strict, under_strict.status, under_strict.value) == (total, under_total.status, under_total.value)
        if under_strict.status == "undefined":
            assert under_total.machine.field.zero_divisions > 0


def test_the_strict_runs_are_made_only_when_a_total_run_divided_by_zero(monkeypatch):
    from goi.properties import parametricity as module

    made = []
    real = module.transitions
    monkeypatch.setattr(module, "transitions", lambda term, division, steps: made.append(division) or real(term, division, steps))
    parametricity(parse("(λx. x + 1) (2 * (3 - 4))"), CI)  # no division
    assert made == ["total"] * len(ASSIGNMENTS)
    made.clear()
    parametricity(parse("(λx. x + 1) (2 / (3 - 4))"), CI)  # the zero values divide by zero
    assert made == ["total"] * len(ASSIGNMENTS) + ["strict"] * len(ASSIGNMENTS)
