"""Program and term equivalence with z3 (goi/equivalence/, goi/laws/term_equivalence.py,
conjectures.py) and the symbolic field they rest on (semantics/symbolic.py)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, Phase, settings

import goi
from goi.cli import main
from goi.laws import conjectures
from goi.properties import suite
from goi.equivalence.programs import (
    EQUIVALENT,
    NOT_COMPARABLE,
    NOT_EQUIVALENT,
    UNDEFINED,
    UNKNOWN,
    consistent_permutations,
    program_equivalence,
    symbolic_run,
)
from goi.equivalence.deadline import Deadline
from goi.properties.profiles import config
from goi.properties.runner import Finding
from goi.laws.term_equivalence import NONE_FOUND, REFUTED, term_equivalence
from goi.cli import exitcodes
from goi.semantics.parser import parse
from goi.semantics.symbolic import SymbolicField, evaluate, show
from goi.semantics.types import Arrow, F


# ---- the symbolic field -----------------------------------------------------------------

def test_one_symbolic_run_gives_the_value_as_an_expression_of_the_parameters():
    run = symbolic_run("let f @ p = λx:F. {1} * x + {2} in f p 3")
    assert run.status == "final"
    assert show(run.value) == "(q0 * 3) + q1"
    assert run.at([Fraction(2), Fraction(5)]) == goi.run("let f @ p = λx:F. {1} * x + {2} in f p 3", params=[2, 5]).value == 11


def test_expressions_are_shared_not_copied():
    # x is used 2^k times through k nested doublings: the DAG stays linear in k
    program = "(λx. " + "(λy. y + y) (" * 10 + "x" + ")" * 10 + ") {1}"
    run = symbolic_run(program)
    assert run.status == "final"
    assert run.value.size == 2**11 - 1  # the tree it stands for
    assert run.nodes < 20  # the nodes built
    assert evaluate(run.value, [Fraction(3)]) == 3 * 2**10


def test_strict_division_records_denominators_and_undefined_points():
    run = symbolic_run("(λx. 1 / (x - 2)) {5}", division="strict")
    assert [show(d) for d in run.denominators] == ["q0 - 2"]
    assert run.at([Fraction(2)]) == UNDEFINED
    assert run.at([Fraction(3)]) == 1
    assert goi.run("(λx. 1 / (x - 2)) {5}", params=[2], division="strict").status == "undefined"


def test_a_constant_zero_denominator_is_undefined_everywhere_like_the_exact_run():
    assert symbolic_run("{1} / 0", division="strict").status == "undefined"
    assert show(symbolic_run("{1} / 0", division="total").value) == "0"


def test_constant_folding_keeps_the_digit_budget():
    field = SymbolicField(max_digits=10)
    x = field.const(Fraction(10**9))
    with pytest.raises(goi.semantics.values.BudgetExceeded):
        field.mul(x, x)


# ---- permutations -----------------------------------------------------------------------

def test_permutations_consistent_with_repeated_values():
    sigmas, count = consistent_permutations([Fraction(1), Fraction(2), Fraction(1)], [Fraction(1), Fraction(1), Fraction(2)])
    assert count == 2
    assert sorted(map(tuple, sigmas)) == [(0, 2, 1), (2, 0, 1)]
    assert consistent_permutations([Fraction(1)], [Fraction(2)]) == (None, 0)


# ---- program equivalence ----------------------------------------------------------------

EQUIVALENT_PAIRS = [
    ("{1} + {2}", "{2} + {1}"),  # needs the permutation [1, 0]
    ("({1} + {2}) + {3}", "{1} + ({2} + {3})"),
    ("let f @ p = {1} * {2} in f p", "{1} * {2}"),
    ("(λx. x * x) {3}", "(λy. y * y) {3}"),
    ("(λx. (x * x + 1) / (x * x + 1)) {3}", "(λx. x * 0 + 1) {3}"),  # x²+1 is never 0
    ("let x = 2 in {1} * x", "(λy. y + y) {1}"),
]


@pytest.mark.parametrize("left,right", EQUIVALENT_PAIRS)
def test_known_equivalent_pairs_are_proven(left, right):
    v = program_equivalence(left, right)
    assert v.verdict == EQUIVALENT, v.reason
    assert v.permutation is not None and sorted(v.permutation) == list(range(len(v.parameters[0])))


def test_commutativity_is_proven_through_the_swapping_permutation():
    # the second program meets {2} first: its p⃗ is (2, 1), and σ = [1, 0] maps it onto (1, 2)
    v = program_equivalence("{1} - 2 * {2}", "(-2) * {2} + {1}")
    assert v.verdict == EQUIVALENT and v.permutation == [1, 0]
    assert v.parameters == ((1, 2), (2, 1))


INEQUIVALENT_PAIRS = [
    ("{1} * {1}", "{1} + {1}", "total"),
    ("(λx. x / x) {3}", "(λx. x * 0 + 1) {3}", "total"),  # x / x vs 1, separated at 0
    ("(λx. x / x) {3}", "(λx. x * 0 + 1) {3}", "strict"),  # undefined at 0
    ("(λx. 1 / (x - x)) {3}", "(λx. x * 0) {3}", "strict"),  # undefined everywhere vs 0
    ("{1} - {2}", "{2} - {1}", "total"),
]


@pytest.mark.parametrize("left,right,division", INEQUIVALENT_PAIRS)
def test_known_inequivalent_pairs_are_refuted_with_witnesses_the_exact_machine_confirms(left, right, division):
    v = program_equivalence(left, right, division=division)
    assert v.verdict == NOT_EQUIVALENT, v.reason
    assert len(v.refutations) == v.permutations >= 1
    for r in v.refutations:
        outcomes = []
        for program, point in ((left, r.witness), (right, [r.witness[i] for i in r.permutation])):
            result = goi.run(program, params=point, division=division)
            outcomes.append(UNDEFINED if result.status == "undefined" else result.value)
        assert outcomes == [r.left, r.right] and outcomes[0] != outcomes[1]


def test_x_over_x_is_refuted_at_zero_under_total_division():
    v = program_equivalence("(λx. x / x) {3}", "(λx. x * 0 + 1) {3}")
    assert v.witness.witness == [0] and (v.witness.left, v.witness.right) == (0, 1)


def test_witnesses_are_minimised_to_small_values():
    v = program_equivalence("(λx. λy. x * y) {5} {7}", "(λx. λy. x + y) {5} {7}")
    assert v.verdict == NOT_EQUIVALENT
    assert all(abs(q) <= 3 for q in v.witness.witness)


def test_parameter_vectors_that_are_not_permutations_are_not_comparable():
    for left, right in [("{1} + 2", "1 + 2"), ("1 + 2", "1 + {2}"), ("(λx. x + x) {1}", "{1} + {1}"), ("(λx. 0) {1}", "0")]:
        v = program_equivalence(left, right)
        assert v.verdict == NOT_COMPARABLE and "not permutations" in v.reason


def test_programs_not_of_type_F_are_not_comparable():
    v = program_equivalence("λx. x", "λy. y")
    assert v.verdict == NOT_COMPARABLE and "type F" in v.reason


def test_a_timeout_is_unknown_never_equivalent():
    v = program_equivalence("{1} + {2}", "{2} + {1}", timeout=1e-9)
    assert v.verdict == UNKNOWN and "timeout" in v.reason


# ---- the time budget bounds the whole decision (counted on a clock the test moves) --------

class TickingClock:
    """A clock that advances one second each time it is read: a budget of k seconds is k reads."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_the_budget_stops_a_symbolic_run_that_would_take_longer():
    program = " + ".join(["{1}"] * 200)  # the symbolic run takes ~1,500 transitions
    clock = TickingClock()
    v = program_equivalence(program, program, deadline=Deadline(2.5, clock))
    assert v.verdict == UNKNOWN and "during the first program's symbolic run" in v.reason and v.tried == 0
    assert clock.now <= 4  # the run asked the clock every 256 transitions, not every one


def test_the_budget_ends_the_permutations_and_says_how_many_were_tried():
    twelve = " + ".join(["{1}"] * 12)  # 12! = 479,001,600 permutations, all consistent
    clock = TickingClock()
    v = program_equivalence(twelve, twelve + " + 1", deadline=Deadline(40, clock), max_permutations=10**30)
    assert v.verdict == UNKNOWN and v.permutations == 479_001_600 and 0 < v.tried < 40
    assert f"{v.tried} of the 479001600 permutations consistent with the values were tried" in v.reason


def test_z3_stops_at_its_resource_limit_whatever_its_timer(monkeypatch):
    """z3's timer may fail to interrupt nonlinear search; its resource units are counted,
    the same on every run: a budget of a few units ends every query unknown."""
    from goi.equivalence import deadline as budget

    monkeypatch.setattr(budget, "Z3_RLIMIT_PER_SECOND", 1)
    v = program_equivalence("({1} + {2}) * ({1} - {2})", "{1} * {1} - {2} * {2}", timeout=50)
    assert v.verdict == UNKNOWN and "max. resource limit exceeded" in v.reason


def test_the_budget_bounds_a_context_search_as_a_whole():
    clock = TickingClock()
    search = term_equivalence(parse("λx:F. x * {2}"), parse("λy:F. {2} * y"), examples=200, deadline=Deadline(60, clock))
    assert search.verdict == "none found" and search.timed_out and search.contexts < 200
    assert search.to_json()["timed_out"] is True
    found = term_equivalence(parse("λx:F. x * {2}"), parse("λx:F. x + {2}"), examples=100)
    assert found.verdict == "refuted" and not found.timed_out and found.program_verdict.verdict == "not equivalent"


def test_the_machine_asks_its_stop_every_256_transitions():
    asked = []

    def stop():
        asked.append(execution.machine.steps)
        return "enough" if len(asked) == 3 else None

    execution = goi.prepare(" + ".join(["1"] * 400))
    result = execution.run(stop=stop)
    assert asked == [0, 256, 512] and result.status == "budget" and result.limit == "time" and result.reason == "enough"


def test_a_difference_only_at_irrational_points_is_unknown():
    # (x² − 2)/(x² − 2) is 1 except at ±√2: over the rationals the machine's F, no point separates them
    v = program_equivalence("(λx. (x * x - 2) / (x * x - 2)) {3}", "(λx. x * 0 + 1) {3}")
    assert v.verdict == UNKNOWN and "irrational" in v.reason


def test_untried_permutations_make_the_verdict_unknown():
    left, right = "{1} - 2 * {1}", "(-2) * {1} + {1}"  # only the swap proves it
    assert program_equivalence(left, right).verdict == EQUIVALENT
    v = program_equivalence(left, right, max_permutations=1)
    assert v.verdict == UNKNOWN and "only 1 were tried" in v.reason


def test_an_inconsistent_symbolic_field_is_an_error_never_a_verdict(monkeypatch):
    from goi.equivalence.programs import Inconsistency

    original = SymbolicField.add

    def wrong(self, x, y):
        if x.is_const and y.is_const:
            return original(self, x, y)
        return self._node("mul", x, y)

    monkeypatch.setattr(SymbolicField, "add", wrong)
    with pytest.raises(Inconsistency):
        program_equivalence("{1} + {2}", "{1} * 3 + {2}")


# ---- the properties: symbolic agreement, self-equivalence; they catch a broken field -----

PROPERTY_SETTINGS = settings(max_examples=300, derandomize=True, database=None, deadline=None,
                             phases=[Phase.generate, Phase.shrink], suppress_health_check=list(HealthCheck))


def _broken(op, replacement):
    original = getattr(SymbolicField, op)

    def broken(self, x, y):
        if x.is_const and y.is_const:
            return original(self, x, y)
        return replacement(self, x, y)

    return broken


MUTANTS = {
    "add→mul": ("add", lambda self, x, y: self._node("mul", x, y)),
    "sub swapped": ("sub", lambda self, x, y: self._node("sub", y, x)),
    "mul→add": ("mul", lambda self, x, y: self._node("add", x, y)),
    "div swapped": ("div", lambda self, x, y: self._node("div", y, x)),
}


@pytest.mark.parametrize("name", MUTANTS)
def test_the_symbolic_property_catches_a_broken_field(monkeypatch, name):
    op, replacement = MUTANTS[name]
    monkeypatch.setattr(SymbolicField, op, _broken(op, replacement))
    test = PROPERTY_SETTINGS(suite.build("symbolic", config("ci")))
    with pytest.raises(Finding, match="symbolic"):
        test()


def test_the_strict_policy_is_checked_by_the_property(monkeypatch):
    from goi.properties.symbolic_agreement import symbolic_agreement

    symbolic_agreement("(λx. 1 / x) {1}", config("ci"), [Fraction(0)], "strict")  # the real field passes
    monkeypatch.setattr(SymbolicField, "div", _broken("div", lambda self, x, y: self._node("div", x, y)))  # forgets denominators
    with pytest.raises(Finding, match="exact run gives undefined"):
        symbolic_agreement("(λx. 1 / x) {1}", config("ci"), [Fraction(0)], "strict")
    test = PROPERTY_SETTINGS(suite.build("symbolic", config("ci")))
    with pytest.raises(Finding, match="symbolic"):
        test()


# ---- term equivalence by context search -----------------------------------------------------

@pytest.mark.parametrize("left,right", [("{1}+2", "1+2"), ("1+2", "1+{2}"), ("{1}+2", "1+{2}"),
                                        ("(λx.x+x){1}", "{1}+{1}"), ("(λx.0){1}", "0")])
def test_the_papers_distinctions_are_found_by_the_search(left, right):
    search = term_equivalence(parse(left), parse(right), examples=50)
    assert search.verdict == REFUTED
    assert "□" in search.context and search.program_verdict.verdict in (NOT_EQUIVALENT, NOT_COMPARABLE)


def test_a_value_level_separation_is_found_and_replayed():
    # same parameter vector, different functions: some context applies them to a value that separates
    search = term_equivalence(parse("λx:F. x * {2}"), parse("λx:F. x + {2}"), examples=100)
    assert search.verdict == REFUTED and search.program_verdict.verdict == NOT_EQUIVALENT
    w = search.program_verdict.witness
    left, right = search.programs
    assert goi.run(left, params=w.witness).value == w.left != w.right == goi.run(right, params=w.witness).value


def test_no_refutation_is_reported_as_none_found_with_the_count():
    search = term_equivalence(parse("λx:F. x * {2}"), parse("λy:F. {2} * y"), examples=40)
    assert search.verdict == NONE_FOUND and search.contexts + search.skipped == 40


def test_open_terms_are_closed_over_their_declared_context():
    search = term_equivalence(parse("x + g 1"), parse("g 1 + x"), context=[("x", F), ("g", Arrow(F, F))], examples=30)
    assert search.verdict == NONE_FOUND and search.type == Arrow(F, Arrow(Arrow(F, F), F))
    search = term_equivalence(parse("x - g 1"), parse("g 1 - x"), context=[("x", F), ("g", Arrow(F, F))], examples=100)
    assert search.verdict == REFUTED


def test_terms_of_different_types_are_an_error():
    with pytest.raises(goi.GoiError, match="different types"):
        term_equivalence(parse("λx:F. x"), parse("1"))


# ---- the conjecture catalogue --------------------------------------------------------------

def test_the_ci_sweep_meets_every_expected_status():
    rows = conjectures.sweep(list(conjectures.LAWS), "ci")
    assert {r.law for r in rows} == set(conjectures.LAWS)
    surprising = [(r.law, r.counterexample) for r in rows if r.surprising]
    assert not surprising
    assert not [r.law for r in rows if r.untested]  # every law had instances decided
    for r in rows:
        if r.expected == conjectures.HOLDS:
            assert r.instances > 0 and r.proven > 0, r.law  # real evidence, not an empty sweep
        if r.verdict == conjectures.REFUTED:
            assert r.counterexample is not None


def test_let_floating_out_of_a_decoupled_model_is_refuted_and_the_second_opinion_agrees():
    # what the dev sweep found: the model xx was computed with {0} (then discarded); its
    # decoupling extracts that constant, and floating the let out of xx's box removes it
    from goi.properties.reference import reference_value

    left = "let xx = (let yy = {0} in 0) in let f @ p = xx in p • p + 0"
    right = "let yy = {0} in let xx = 0 in let f @ p = xx in p • p + 0"
    v = program_equivalence(left, right)
    assert v.verdict == NOT_EQUIVALENT and (v.witness.left, v.witness.right) == (1, 0)
    for program, value in ((left, 1), (right, 0)):
        assert goi.run(program, params=[1]).value == value == reference_value(goi.check(program), [Fraction(1)])


def test_a_law_that_does_not_hold_is_refuted_and_shrunk():
    from hypothesis import strategies as st

    wrong = conjectures.Law("minus-commutes", "t - u ≐ u - t", conjectures.HOLDS, "program",
                            lambda depth: st.tuples(conjectures.closed_f(depth), conjectures.closed_f(depth)).map(
                                lambda p: (goi.semantics.syntax.BinOp("-", p[0], p[1]), goi.semantics.syntax.BinOp("-", p[1], p[0]))))
    row = conjectures.decide_law(wrong, conjectures.BUDGETS["ci"])
    assert row.verdict == REFUTED and row.surprising
    assert row.counterexample["left"] in ("0 - (-1)", "0 - 1", "(-1) - 0", "1 - 0")  # the minimal pair


# ---- the CLI ------------------------------------------------------------------------------

def test_equiv_command_exit_codes_and_output(capsys):
    assert main(["equiv", "-e", "{1} + {2}", "-e", "{2} + {1}"]) == exitcodes.OK
    assert "EQUIVALENT" in capsys.readouterr().out
    assert main(["equiv", "-e", "{1} * {1}", "-e", "{1} + {1}"]) == exitcodes.NOT_EQUIVALENT
    out = capsys.readouterr().out
    assert "NOT EQUIVALENT" in out and "--params 0, 1 gives 0" in out
    assert main(["equiv", "-e", "{1} + 2", "-e", "1 + {2}"]) == exitcodes.NOT_COMPARABLE
    assert main(["equiv", "--timeout", "0.000000001", "-e", "{1}", "-e", "{1}"]) == exitcodes.UNDECIDED
    assert main(["equiv", "--terms", "-e", "λx:F. x * {2}", "-e", "λy:F. {2} * y", "--examples", "20"]) == exitcodes.UNDECIDED
    assert "not a proof" in capsys.readouterr().out


def test_equiv_command_errors(capsys, tmp_path):
    assert main(["equiv", "-e", "1"]) == exitcodes.USAGE
    assert "two programs" in capsys.readouterr().err
    bad = tmp_path / "bad.goi"
    bad.write_text("1 +\n  (2", encoding="utf-8")
    assert main(["equiv", "-e", "1", str(bad)]) == exitcodes.BAD_INPUT
    err = capsys.readouterr().err
    assert str(bad) + ":2:" in err and "^" in err
    assert main(["equiv", "--context", "x", "--terms", "-e", "x", "-e", "x"]) == exitcodes.USAGE
    assert main(["equiv", "--context", "x:F", "-e", "x", "-e", "x"]) == exitcodes.USAGE
    assert main(["equiv", "--timeout", "-1", "-e", "1", "-e", "1"]) == exitcodes.USAGE
    assert main(["equiv", "--json", "-e", "1", "-e", "(1"]) == exitcodes.BAD_INPUT
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == "goi.error/1" and data["command"] == "equiv"


def test_the_conjectures_table_lines_up_whatever_the_law_names(capsys):
    assert main(["conjectures", "plus-commutes", "let-floating-definitive"]) == exitcodes.OK
    header, *rows = capsys.readouterr().out.splitlines()
    column = header.index("expected")
    assert len(rows) == 2 and all(row[column:].startswith("holds") and row[column - 1] == " " for row in rows), rows


def test_permutations_are_enumerated_lazily_and_in_full():
    from goi.equivalence.programs import consistent_permutations

    ones = [Fraction(1)] * 12  # 12! = 479001600 permutations: none is built before it is asked for
    sigmas, count = consistent_permutations(ones, ones)
    assert count == 479001600 and next(sigmas) == list(range(12))
    left = [Fraction(v) for v in (1, 2, 1, 2, 3)]
    right = [Fraction(v) for v in (2, 1, 3, 1, 2)]
    sigmas, count = consistent_permutations(left, right)
    every = list(sigmas)
    assert len(every) == count == 4 and len({tuple(s) for s in every}) == 4
    assert all(right[j] == left[s[j]] for s in every for j in range(5))


def test_many_equal_constants_and_a_huge_permutation_budget_end_cleanly():
    program = " + ".join(["{1}"] * 12)
    assert main(["equiv", "-e", program, "-e", program + " + 0", "--max-permutations", "1"]) == exitcodes.OK
    assert main(["equiv", "-e", program, "-e", program + " + 0", "--max-permutations", "99999999999999999999999"]) == exitcodes.OK
