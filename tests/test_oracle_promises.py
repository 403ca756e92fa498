"""The oracle's classification and reduction keep what their docstrings and docs/ORACLE.md
promise, one promise a test: the signature's parts (the last exception line, a protocol
failure, an exit status, the folded message), the kinds of a wrong value, the notation hint,
and the reducer's steps, order, budget and result."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

import pytest

from goi.oracle.classification import (ACCEPTS_INVALID, HANG, IMPL_ERROR, REJECTS_VALID, WRONG_VALUE, difference,
                                       error_detail, exception_line, looks_like_parser, signature)
from goi.oracle.reduction import reduce, steps, weight
from goi.semantics import syntax as S
from goi.semantics.parser import parse
from goi.semantics.pretty import pretty


@dataclass
class Answer:
    kind: str
    value: object = None
    message: str = ""
    stderr: str = ""
    exit: Optional[int] = None


@dataclass
class Case:
    klass: str
    text: str
    answer: Optional[Answer]
    expected: object = None


PY = """Traceback (most recent call last):
  File "impl.py", line 3, in <module>
    run(program)
KeyError: 'x'
During handling of the above exception, another exception occurred:
Traceback (most recent call last):
ValueError: bad node 17 at 0x7f3a
"""
JS = """/home/me/impl.js:12
    throw new TypeError("cannot read n of undefined");
    ^
TypeError: cannot read n of undefined
    at step (/home/me/impl.js:12:11)
"""


def test_the_exception_named_is_the_last_one_a_traceback_or_a_stack_prints():
    assert exception_line(PY) == "ValueError: bad node 17 at 0x7f3a"
    assert exception_line(JS) == "TypeError: cannot read n of undefined"
    assert exception_line("Uncaught RangeError: Maximum call stack size exceeded") == \
        "Uncaught RangeError: Maximum call stack size exceeded"
    assert exception_line("thread 'main' panicked at src/main.rs:3:5") is not None
    assert exception_line("Segmentation fault (core dumped)") is not None
    assert exception_line("all went well\nvalue 3") is None


def test_an_errors_detail_prefers_the_exception_then_the_message_then_the_exit_status():
    text = "let foo = 1 in foo + 22"
    on_stderr = error_detail(Answer("crash", message="it broke", stderr=PY, exit=1), text)
    assert on_stderr.startswith("ValueError: bad node N")  # numbers and addresses folded
    assert error_detail(Answer("error", message="cannot apply foo to 22"), text) == "cannot apply NAME to N"
    assert error_detail(Answer("crash", exit=139), text) == "exit status 139"
    assert error_detail(Answer("crash"), text) == "crash"
    assert error_detail(Answer("unparseable", message="{]"), text) == "an answer that is not the protocol's"
    assert error_detail(Answer("error"), text) == "(no message)"


def test_a_signature_is_the_class_and_what_tells_one_bug_from_another():
    assert signature(Case(HANG, "1", Answer("hang"))) == HANG
    assert signature(Case(ACCEPTS_INVALID, "1", Answer("value", Fraction(1)))) == ACCEPTS_INVALID
    assert signature(Case(WRONG_VALUE, "1", Answer("value", Fraction(-1)), Fraction(1))) == \
        "wrong-value: the opposite sign"
    assert signature(Case(IMPL_ERROR, "1", Answer("error", message="boom at 3"))) == "implementation-error: boom at N"
    assert signature(Case(REJECTS_VALID, "x", Answer("rejected", message="parse error at 1:4"))) == \
        "rejects-valid: parse error at N:N"
    # the same defect on two programs: one bucket
    one = signature(Case(IMPL_ERROR, "let aa = 1 in aa", Answer("error", message="no rule for 'aa' at depth 3")))
    two = signature(Case(IMPL_ERROR, "let bb = 2 in bb + bb", Answer("error", message="no rule for 'bb' at depth 12")))
    assert one == two


@pytest.mark.parametrize("expected, got, kind", [
    ("undefined", Fraction(1), "a value where the program is undefined"),
    (Fraction(1), "Infinity", "a non-finite number"),
    (Fraction(1), (Fraction(1),), "a vector for a scalar"),
    ((Fraction(1),), Fraction(1), "a scalar for a vector"),
    ((Fraction(1),), (Fraction(1), Fraction(2)), "a vector of another length"),
    ((Fraction(1), Fraction(2)), (Fraction(-1), Fraction(-2)), "the opposite sign"),
    ((Fraction(1), Fraction(2)), (Fraction(-1), Fraction(5)), "vector components differ in several ways"),
    ("λ", Fraction(1), "a number for a function"),
    (Fraction(1), "λ", "a function for a number"),
    (Fraction(3), Fraction(-3), "the opposite sign"),
    (Fraction(1000), Fraction(1000) + Fraction(1, 10**4), "a rounding difference"),
    (Fraction(1000), Fraction(1001), "another value"),
    (Fraction(0), Fraction(1, 10**9), "another value"),  # no rounding of a zero: relative to nothing
    (Fraction(1), Fraction(2), "another value"),  # a factor is no kind of its own
])
def test_the_kinds_of_a_wrong_value(expected, got, kind):
    assert difference(expected, got) == kind


def test_the_notation_is_suspected_only_where_a_parser_speaks():
    assert not looks_like_parser("rejects-valid: the compiler crashed (exit N)")  # a rejection that says no parse
    assert looks_like_parser("rejects-valid: parse error: unexpected token '…'")
    assert looks_like_parser("implementation-error: SyntaxError: unexpected token ')'")
    assert looks_like_parser("implementation-error: parse error at N:N")
    assert not looks_like_parser("implementation-error: TypeError: cannot read n of undefined")
    assert not looks_like_parser("wrong-value: another value") and not looks_like_parser(HANG)


# ---- reduction ------------------------------------------------------------------------------

def text_of(term) -> Optional[str]:
    from goi import api
    from goi.semantics.errors import GoiError

    try:
        judgement = api.judge(term)
    except GoiError:
        return None
    return pretty(term) if str(judgement.type) == "F" else None


def test_the_steps_include_each_kind_the_docstring_lists():
    term = parse("let xlong : F = {3} in (λylong : F. ylong * 2) xlong")
    candidates = {pretty(c) for c in steps(term)}
    assert "(λylong:F. ylong * 2) {3}" in candidates  # inline
    assert "let xlong : F = {0} in (λylong:F. ylong * 2) xlong" in candidates  # {c} to {0}
    assert "0" in candidates  # a subterm replaced by 0
    assert "{3}" in candidates  # a subterm by one of its own
    assert "let xlong = {3} in (λylong. ylong * 2) xlong" in candidates  # annotations dropped
    assert any(c.startswith("let b : F = {3} in (λc:F. c * 2) b") for c in candidates)  # binders renamed in order


def test_every_step_taken_is_lighter_and_the_lightest_kept_is_taken():
    term = parse("let xlong : F = {3} in (λylong : F. ylong * 2 + 5) xlong")
    kept = []

    def keep(text):
        kept.append(text)
        return "{" in text  # the failure: a provisional constant somewhere

    result = reduce(term, text_of, keep)
    assert result.text == "{0}" and result.minimal  # as long as {3}, but nearer 0: lighter, taken
    taken = [t for t in kept if "{" in t]
    weights = [weight(parse(t), t) for t in taken]
    assert weights == sorted(weights, reverse=True) and len(set(weights)) == len(weights)  # strictly lighter each time
    assert result.steps == len(taken)


def test_a_budget_that_stops_the_reducer_is_said():
    calls = []

    def keep(text):
        calls.append(text)
        return None if len(calls) > 2 else "{" in text

    result = reduce(parse("let x = {3} in x * 2 + 5"), text_of, keep)
    assert not result.minimal and len(calls) == 3 and result.steps <= 2


def test_the_reducer_keeps_only_well_typed_closed_programs_of_type_f():
    seen = []

    def keep(text):
        seen.append(text)
        return "*" in text

    reduce(parse("(λf : F -> F. f 2 * 3) (λy : F. y + 1)"), text_of, keep)
    from goi import api

    for text in seen:
        assert str(api.check(text).type) == "F"


@pytest.mark.parametrize("messages", [
    ["stuck with stack [1, 2, 3]", "stuck with stack [7]", "stuck with stack []"],  # a data stack, any depth
    ["no transition at node n42 (contraction)", "no transition at node n7 (contraction)"],  # node ids
    ["stack: 1 :: 2 :: 3", "stack: 4 :: 5"],
    ["values (1, 2) and (3, 4, 5) differ", "values (0) and (9, 9) differ"],
    ["TypeError: cannot read x of undefined at 12:3", "TypeError: cannot read x of undefined at 1:40"],
])
def test_one_defect_is_one_signature_whatever_an_adapter_prints_around_it(messages):
    from goi.folding import fold

    assert len({fold(m) for m in messages}) == 1, [fold(m) for m in messages]


def test_folding_keeps_apart_what_is_not_the_same():
    from goi.folding import fold

    assert fold("stuck at a contraction") != fold("stuck at a box door")
    assert fold("error at 3:4") == "error at N:N"  # a position stays a position, not a list
