"""A program's run shared by the properties of an exhaustive shard (properties/sharing.py):
each property's verdict is the one it gives with a run of its own — on the correct machine and
on mutants whose checks fail — and the sharing does happen."""

from __future__ import annotations

import pytest

from goi.generators.enumerate import Enumeration
from goi.properties.profiles import config
from goi.properties.runner import BudgetFinding, Finding
from goi.properties.sharing import SharedRuns, sharing
from goi.properties.suite import registry
from goi.semantics.rules import DEFAULT, using

from test_mutants import (
    GC_CAUGHT,
    absorption_forgets_the_doors_after_the_first,
    beta_pushes_a_stray_box_stack_entry,
    folding_deletes_a_provisional_constant,
    gc_also_matches_doors,
    gc_drops_a_door_fed_by_a_weakening,
    vector_constant_reads_its_name,
)

PROPERTIES = ["soundness", "invariants", "determinism", "agreement", "parameters", "gc"]


# the programs tests/test_mutants.py catches its mutants with
CAUGHT = ["{1} + 2", "(λx. x + x) {1}", "let a = 1 in let b = 2 in (λu. u) (a + b)",
          "let a = 1 in let b = 2 in let c = 3 in (λu. u) (a + b + c)",
          "let f @_a p = {1} - {2} in let g @_b q = {3} in (f p) + (q • q) + (p • p)", "(λx. x + 1) 2", GC_CAUGHT]


def _programs():
    """Those, and every 150th program of size 5: vectors, decouplings, boxes and folds among them."""
    from goi.semantics.parser import parse

    return [parse(text) for text in CAUGHT] + list(Enumeration().programs(5))[::150]


def _verdicts(terms, profile: str, shared: bool):
    """Each (program, property)'s verdict as a shard counts it: held, undecided (a budget)
    or the failure's message; and the SharedRuns when shared."""
    cfg = config(profile)
    checks = {name: registry()[name].check for name in PROPERTIES}
    out = []

    def put(term, runs):
        if runs is not None:
            runs.begin(term)
        for name in PROPERTIES:
            try:
                checks[name](term, cfg)
            except BudgetFinding as b:
                out.append((name, "undecided", b.message))
            except Finding as f:
                out.append((name, "failed", f.message))
            else:
                out.append((name, "held", None))

    if not shared:
        for term in terms:
            put(term, None)
        return out, None
    with sharing() as runs:
        for term in terms:
            put(term, runs)
    return out, runs


MUTANTS = {
    "correct": None,
    "form: folding deletes a provisional constant": ("rw.op.keep", folding_deletes_a_provisional_constant, {}),
    "determinism: absorption forgets doors": ("box.absorb", absorption_forgets_the_doors_after_the_first, {}),
    "alpha: a rule reads the spelling of names": ("pass.vconst.up", vector_constant_reads_its_name, {}),
    "stability: beta pushes a stray box-stack entry": ("rw.beta", beta_pushes_a_stray_box_stack_entry, {}),
    "gc: the collector drops a door": ("gc.pcon0", gc_drops_a_door_fed_by_a_weakening, {"match": gc_also_matches_doors}),
}


@pytest.mark.parametrize("mutant", list(MUTANTS))
@pytest.mark.parametrize("profile", ["ci", "deep"])
def test_a_shared_run_gives_every_property_the_verdict_of_its_own_run(mutant, profile):
    terms = _programs()
    given = MUTANTS[mutant]
    rules = DEFAULT if given is None else DEFAULT.replace(given[0], apply=given[1], summary="mutant", **given[2])
    with using(rules):
        alone, _ = _verdicts(terms, profile, shared=False)
        together, runs = _verdicts(terms, profile, shared=True)
    assert together == alone
    if given is None:  # from the second program on, at least three of the five runs without a
        # collector are handed on (agreement, parameters, and invariants or determinism)
        assert runs.shared >= 3 * (len(terms) - 1)
    else:  # the mutant is caught: runs that stopped at a violation were seen, and not handed on
        assert any(v == "failed" for _p, v, _m in alone), "the mutant fails no property on these programs"
        assert runs.shared > 0


class _Result:
    def __init__(self, status):
        self.status = status


def test_a_run_is_handed_on_only_when_its_taker_could_not_tell():
    """SharedRuns' rules on their own, with runs made by a counter: the checks asked for under
    a setting are learned, a violation or a budget is never handed on, a property never gets one run
    twice, and another program or other settings get runs of their own."""
    made = []

    def maker(status="final"):
        def make(checks):
            made.append(tuple(checks))
            return (None, object(), _Result(status))
        return make

    runs = SharedRuns()
    cfg, other_cfg = object(), object()
    term = object()
    runs.begin(term)
    a = runs.run(term, "soundness", cfg, ("productivity",), False, maker())
    b = runs.run(term, "invariants", cfg, ("form", "productivity"), False, maker())
    c = runs.run(term, "agreement", cfg, (), False, maker())
    assert made == [("productivity",), ("form", "productivity")] and c is b and a is not b
    assert runs.run(term, "agreement", cfg, (), False, maker()) is not b  # never one run twice
    assert runs.run(term, "parameters", other_cfg, (), False, maker()) is not b  # other settings
    assert runs.run(object(), "parameters", cfg, (), False, maker()) is not b  # another program
    assert runs.run(term, "gc", cfg, ("gc",), True, maker()) is not b  # the collector on: another run
    made.clear()
    term2 = object()
    runs.begin(term2)
    first = runs.run(term2, "soundness", cfg, ("productivity",), False, maker())
    assert made == [("form", "productivity")]  # the union learned, in the order of `all`
    assert runs.run(term2, "invariants", cfg, ("form",), False, maker()) is first
    # the union's run stopped at a violation, or at a budget (a check's own run may have met it,
    # where the property's run alone would not): the property's own run instead, and nothing kept
    for status in ("violation", "budget"):
        made.clear()
        term3 = object()
        runs.begin(term3)
        own = runs.run(term3, "soundness", cfg, ("productivity",), False, maker(status))
        assert made == [("form", "productivity"), ("productivity",)] and own[2].status == status
        assert runs.run(term3, "agreement", cfg, (), False, maker()) is not own


def test_an_exhaustive_shard_makes_one_run_of_each_program_for_the_properties_that_share_it(monkeypatch):
    """The shard of `goi props --exhaustive` puts each program to its properties under one
    SharedRuns: three properties that start with the same run make it once a program (after
    the first, where the checks they ask for are learned), and count what they counted alone."""
    from dataclasses import asdict

    from goi.campaigns.runner import Shard
    from goi.generators.enumerate import Space
    from goi.properties import runner
    from goi.properties.campaign import PropsWork

    made = []
    real = runner._made
    monkeypatch.setattr(runner, "_made", lambda *a: made.append(a[2]) or real(*a))
    names = ("soundness", "invariants", "agreement")
    result = PropsWork(names, "ci", asdict(Space()))(Shard(4, 100, 130))
    assert result["held"] == {name: 30 for name in names} and not result["failures"]
    assert len(made) == 30 + 1  # the first program: soundness's own run, then the union's


def test_the_gc_property_watches_the_shared_run_in_a_shard_and_collects_in_the_check(monkeypatch):
    """With the collector's property among them, a shard still makes one run of each program
    (after the first): the check `gc` watches the shared run and makes the collecting run
    itself; outside a shard the property's own run collects (its report counts the
    collector's rules)."""
    from dataclasses import asdict

    from goi.campaigns.runner import Shard
    from goi.generators.enumerate import Space
    from goi.properties import runner
    from goi.properties.campaign import PropsWork

    made = []
    real = runner._made
    monkeypatch.setattr(runner, "_made", lambda *a: made.append((a[0], a[3])) or real(*a))
    names = ("soundness", "invariants", "determinism", "gc")
    result = PropsWork(names, "ci", asdict(Space()))(Shard(4, 100, 130))
    assert result["held"] == {name: 30 for name in names} and not result["failures"]
    first = made[0][0]
    assert [gc for term, gc in made if term is not first] == [False] * 29  # one run a program, none collecting
    made.clear()
    registry()["gc"].check(first, config("ci"))
    assert made == [(first, True)]
