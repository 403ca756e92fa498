"""The public Python API (docs/API.md): goi.check, goi.run, goi.prepare, goi.strategies."""

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings

import goi
import goi.execution
from goi.semantics.types import F


def test_check_gives_the_judgement():
    j = goi.check("let f @ p = {0.5} - {2} in f p")
    assert isinstance(j, goi.Judgement)
    assert j.params == (Fraction(1, 2), Fraction(2)) and j.type == F and j.decouplings == ("a",)


def test_nesting_moves_to_the_deep_stack_only_when_it_can_help(monkeypatch):
    from goi.semantics import stack

    # deeper than the ordinary stack walks, within the deep stack: checked there
    j = goi.check("(λx. " * 3000 + "1" + ")" * 3000)
    assert j.type.dom == F
    # deeper than the deep stack walks: refused at once, without a second parse there
    def no_retry(*_args):
        raise AssertionError("a nesting beyond any stack was tried again on the deep stack")

    monkeypatch.setattr(stack, "with_deep_stack", no_retry)
    with pytest.raises(goi.LimitError, match="nested too deeply"):
        goi.check("(λx. " * 40000 + "1" + ")" * 40000)
    # parentheses nest no term: the parser never recurses, and no deep stack is needed
    assert goi.check("(" * 50000 + "1" + ")" * 50000).type == F


def test_bad_input_raises_the_documented_errors():
    with pytest.raises(goi.ParseError) as info:
        goi.check("(1")
    assert (info.value.line, info.value.column) == (1, 3)
    with pytest.raises(goi.TypeCheckError):
        goi.check("let f @ p = {1} in p")


def test_run_gives_exact_values_and_counts():
    r = goi.run("let f @ p = {0.5} - {2} in f (3 * p)")
    assert r.status == "final" and r.ok
    assert r.value == Fraction(-9, 2) and isinstance(r.value, Fraction)
    assert r.parameters == (Fraction(1, 2), Fraction(2))
    assert r.transitions == r.passes + r.rewrites == sum(r.rules.values()) > 0
    assert r.rules["deep.decouple"] == 1 and r.violation is None and r.gc is None


def test_run_accepts_text_terms_and_judgements():
    text = "(λx. x + x) {1}"
    j = goi.check(text)
    assert goi.run(text).value == goi.run(j).value == goi.run(j.surface).value == 2


def test_run_options():
    assert goi.run("λx. x").value == "λ"
    assert goi.run("{1} * {3}", params=[Fraction(1, 2), -4]).value == -2
    assert goi.run("1 / 0").value == 0
    assert goi.run("1 / 0", division="strict").status == "undefined"
    assert goi.run("1 + 2", max_steps=3).status == "budget"
    r = goi.run("let f @ p = {1} + 2 in f p", checks=["all"], gc=True)
    assert r.status == "final" and set(r.check_seconds) >= {"form", "validity", "determinism"} and r.gc is not None
    assert goi.run("let f @ p = {1} + {2} in f p", strategy="random", seed=3).value == 3


def test_run_rejects_wrong_options():
    with pytest.raises(ValueError, match="params gives 2 values"):
        goi.run("{1}", params=[1, 2])
    with pytest.raises(ValueError, match="unknown strategy"):
        goi.run("1", strategy="sideways")
    with pytest.raises(ValueError, match="unknown check"):
        goi.run("1", checks=["nonsense"])
    with pytest.raises(ValueError, match="max_steps"):
        goi.run("1", max_steps=-1)


def test_prepare_exposes_the_machine_before_it_runs():
    execution = goi.prepare("let f @ p = {1} in f p")
    seen = []
    execution.machine.after.append(lambda m, rule, redex: seen.append(rule))
    r = execution.run()
    assert r.status == "final" and len(seen) == r.transitions and "deep.decouple" in seen


def test_trace_steps():
    steps = []
    r = goi.run("(λx. x) 1", trace=steps.append)
    assert len(steps) == r.transitions
    last = steps[-1].to_json()
    assert last["direction"] == "down" and last["stack"] == ["1"] and last["box_stack"] == []


@settings(max_examples=20, deadline=None)
@given(goi.strategies.programs(max_depth=3))
def test_public_strategies_draw_programs_goi_runs(term):
    r = goi.run(term)
    assert r.status == "final"


def test_the_version_is_the_distributions():
    from importlib.metadata import version

    assert goi.__version__ == version("goi-abductive")


def test_the_variant_semantics_example_of_the_api_docs_runs_as_written(capsys):
    """docs/API.md's worked example of a variant semantics, executed as it is written: each
    print gives what its comment says."""
    text = (Path(__file__).parent.parent / "docs" / "API.md").read_text(encoding="utf-8")
    section = text.split("## A variant semantics", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/API.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    said = [line.split("# prints: ", 1)[1] for line in code.splitlines() if "# prints: " in line]
    assert len(said) == 2 and printed == said


def test_a_variant_rule_set_leaves_the_default_alone():
    from goi.semantics.rules import DEFAULT, using

    variant = DEFAULT.remove("deep.decouple")
    assert "deep.decouple" in DEFAULT and "deep.decouple" not in variant and len(variant) == len(DEFAULT) - 1
    assert goi.run("let f @ p = {1} in f p", rules=variant).status == "stuck"
    assert goi.run("let f @ p = {1} in f p").status == "final"
    with using(variant):  # machines made inside, without rules of their own
        assert goi.run("let f @ p = {1} in f p").status == "stuck"
    assert goi.run("let f @ p = {1} in f p").status == "final"
    with pytest.raises(KeyError):
        DEFAULT.replace("no.such.rule", apply=print)
    with pytest.raises(AttributeError):
        DEFAULT._rules = {}  # a RuleSet is immutable
    with pytest.raises(TypeError):
        DEFAULT["rw.beta"] = None  # and so is the mapping of its rules
    from goi.semantics.checks import DEFAULT_CHECKS

    assert "gc" not in DEFAULT_CHECKS.remove("gc") and "gc" in DEFAULT_CHECKS
    with pytest.raises(AttributeError):
        DEFAULT_CHECKS._checks = {}


# ---- wrong types and values: a clear TypeError or ValueError, never an incidental exception ----

import pytest as _pytest  # noqa: E402

from goi.enumerate import Enumeration as _Enumeration  # noqa: E402


@_pytest.mark.parametrize("call, error, says", [
    (lambda: goi.check(None), TypeError, "program's text"),
    (lambda: goi.check(b"1"), TypeError, "program's text"),
    (lambda: goi.run("1", strategy=3), TypeError, "strategy"),
    (lambda: goi.run("{1}", params=[0.1]), TypeError, "not exact"),
    (lambda: goi.run("{1}", params=0.1), TypeError, "list of values"),
    (lambda: goi.run("{1}", params=["x"]), ValueError, "not an exact rational"),
    (lambda: goi.run("{1}", params=[True]), TypeError, "exact rational"),
    (lambda: goi.run("1", checks="all"), TypeError, "list of names"),
    (lambda: goi.run("1", max_steps="5"), TypeError, "max_steps"),
    (lambda: goi.run("1", max_steps=-1), ValueError, "max_steps"),
    (lambda: goi.run("1", division="lenient"), ValueError, "division"),
    (lambda: goi.run("1", gc="yes"), TypeError, "gc"),
    (lambda: goi.run("1", max_nodes=0), ValueError, "max_nodes"),
    (lambda: list(_Enumeration().programs(3, -3, 2)), ValueError, "start"),
    (lambda: _Enumeration().count("3"), TypeError, "whole number"),
    (lambda: _Enumeration().program(3, 10**6), IndexError, "there are 155"),
    (lambda: _Enumeration(space=None), TypeError, "Space"),
])
def test_the_api_answers_a_wrong_argument_clearly(call, error, says):
    with _pytest.raises(error) as info:
        call()
    assert says in str(info.value)


def test_counting_beyond_reach_stops_at_its_table_budget():
    """Enumeration().count(200) ran unbounded: now it stops at the table's budget (counted
    entries, not time) with a BudgetError that says so."""
    from goi.generators.enumerate import TooLarge

    small = _Enumeration(max_table=2_000)
    assert small.count(9) == 79_800_943  # within the budget
    with _pytest.raises(TooLarge, match="beyond reach"):
        small.count(200)
    with _pytest.raises(TooLarge, match="beyond reach"):
        _Enumeration().count(10**20)
