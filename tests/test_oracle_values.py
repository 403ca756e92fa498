"""The oracle's shape as values (issue 51, item 9): a Fragment says what an implementation
lacks in one place, the class of an answer is a plain function of (expected, answer,
arithmetic), and each bucket is shrunk by a Shrinker that owns its budget."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goi.generators.typed import programs
from goi.oracle.arithmetic import declared
from goi.oracle.classification import AGREE, IMPL_ERROR, WRONG_VALUE, klass
from goi.oracle.fragment import FRAGMENTS, LACKS, Fragment, FragmentError
from goi.oracle.protocols import Answer
from goi.oracle.shrinking import Shrinker
from goi.oracle.survey import Oracle, OracleConfig
from goi.semantics.parser import parse

from test_oracle import mock

SUBTRACTION = "implementation-error: NotImplementedError: subtraction is not implemented"


# ---- Fragment ----------------------------------------------------------------------------------

def test_a_fragment_is_one_value_and_an_unknown_name_is_refused_by_name():
    assert set(FRAGMENTS) == set(LACKS)
    with pytest.raises(FragmentError, match="no-such-thing"):
        Fragment.of(["no-division", "no-such-thing"])
    f = Fragment.of(["no-division", "no-times"])
    assert f.operators == ("+", "-") and "no-division" in f and f.annotations
    assert not Fragment.of(["no-annotations"]).annotations


# (program, the lacks it uses among every lack), fixed by reading each program, not by goi
USES = [
    ("1 + 2", {"no-plus"}),
    ("λa. a", set()),
    ("3 / 2", {"no-division"}),
    ("0.5 * 2", {"integers", "no-times"}),
    ("(0 - 3) + {1}", {"no-minus", "no-plus", "no-provisional"}),
    ("(-3) + 1", {"non-negative", "no-plus"}),
    ("{-2} + 1", {"non-negative", "no-negative-provisional", "no-provisional", "no-plus"}),
    ("let a = 1 in 2", {"no-weakening"}),
    ("(λa. 1) 2", {"no-weakening"}),
    ("let f @ p = {1} * 2 in f p", {"no-decoupling", "no-provisional", "no-times"}),
]


@pytest.mark.parametrize("text, uses", USES)
def test_a_fragment_tells_which_of_its_lacks_a_program_uses(text, uses):
    assert Fragment.of(LACKS).uses(parse(text)) == frozenset(uses)


@settings(max_examples=60, derandomize=True, database=None, deadline=None)
@given(st.data(), st.lists(st.sampled_from(sorted(set(LACKS) - {"no-annotations"})), max_size=4, unique=True))
def test_the_draw_of_a_fragment_never_uses_what_it_lacks(data, names):
    """The generator's settings (Fragment.draw) and the declaration (Fragment.uses) agree: a
    program drawn for a fragment uses none of its lacks — but an unused λ parameter or
    decoupled name, which the generator leaves for the oracle to refuse (weakening)."""
    fragment = Fragment.of(names)
    term = data.draw(programs(max_depth=3, **fragment.draw()))
    assert fragment.uses(term) <= {"no-weakening"}


def test_a_program_using_what_the_fragment_lacks_is_never_printed_to_be_sent():
    """A reducer's or a rewriting's candidate is checked against the whole fragment: `-1`
    under non-negative (lowering a constant tries its opposite) is never sent."""
    oracle = Oracle(OracleConfig(command=["true"], fragments=frozenset({"non-negative"}), database=None))
    assert oracle.text_of(parse("1 + 2")) is not None
    assert oracle.text_of(parse("(-1) + 2")) is None
    assert Oracle(OracleConfig(command=["true"], database=None)).text_of(parse("(-1) + 2")) is not None


# ---- classification: a plain function --------------------------------------------------------

def test_the_class_of_an_answer_is_a_function_of_expected_answer_and_arithmetic():
    value = Answer("value", Fraction(3, 10))
    exact = declared("exact")
    near = OracleConfig(command=["true"], tolerance=Fraction(1, 10)).declared_arithmetic
    assert klass(Fraction(3, 10), value, True, exact) == AGREE
    assert klass(Fraction(1, 3), value, True, exact) == WRONG_VALUE
    assert klass(Fraction(1, 3), value, True, near) == AGREE  # within a tenth, relatively
    assert klass("undefined", Answer("error", None), True, exact) == AGREE
    assert klass(Fraction(1), Answer("error", None), True, exact) == IMPL_ERROR
    double = declared("ieee754")
    assert klass(0.30000000000000004, Answer("value", Fraction("0.30000000000000004")), True, double) == AGREE


# ---- Shrinker: one per bucket, owning its budget -----------------------------------------------

def _failing(oracle: Oracle):
    """A failing case of the subtraction bucket, big enough to take many calls to reduce."""
    case = oracle.classify("((5 - 1) * (2 + 3)) + ((4 - 2) * (1 + 1))")
    assert case.signature == SUBTRACTION
    return case


def test_each_shrinker_owns_its_budget_and_the_run_has_none():
    oracle = Oracle(OracleConfig(command=mock("crash_on_subtraction", "--lines"), protocol="lines", database=None,
                                 corpus=False))
    try:
        case = _failing(oracle)
        small = Shrinker(oracle, SUBTRACTION, calls=3)
        reduced, _, calls, minimal = small.reduced(case)
        assert calls == 3 and small.calls_left == 0 and small.budget_reached and not minimal
        assert reduced.signature == SUBTRACTION  # what the three calls bought, still of the bucket
        # a new bucket's shrinker starts with its own budget; the run keeps no budget of its own
        assert not hasattr(oracle, "shrink_calls_left") and not hasattr(oracle, "budget_reached")
        whole = Shrinker(oracle, SUBTRACTION, calls=None)
        smallest, _, _, minimal = whole.reduced(case)
        assert minimal and not whole.budget_reached and smallest.text == "0 - 0"
        # past the budget, a program not yet answered is taken as not failing, one answered is not
        spent = Shrinker(oracle, SUBTRACTION, calls=0)
        assert spent.ask("9 - 9") is None and spent.budget_reached
        assert spent.ask(case.text) is case
    finally:
        oracle.close()


def test_a_shrinker_keeps_its_buckets_signature_when_a_smaller_program_fails_otherwise():
    """Issue 52's surviving mutant: a reducer that takes any failure. `(0 * 0) - 5` fails as the
    subtraction bucket; `0 * 0`, one step smaller and the lightest step, fails too — as the
    product's bucket. The subtraction's shrinker must not take it: its minimal program is a
    subtraction."""
    import sys
    from pathlib import Path

    from goi.oracle import Oracle, OracleConfig

    mocks = Path(__file__).resolve().parent / "oracle_mocks"
    oracle = Oracle(OracleConfig(command=[sys.executable, str(mocks / "two_errors.py"), "--lines"], protocol="lines",
                                 database=None, corpus=False, shrink_calls=500))
    try:
        member = oracle.classify("(0 * 0) - 5")
        product = oracle.classify("0 * 0")
        assert member.signature != product.signature and "subtraction" in member.signature
        reduced, _seconds, _calls, complete = oracle.shrinker(member.signature).reduced(member)
    finally:
        oracle.close()
    assert reduced.signature == member.signature and " - " in reduced.text and "*" not in reduced.text, reduced.text
    assert complete and reduced.text == "0 - 0"
