"""The oracle's verdicts (goi.oracle.survey `classify`), tested as an oracle's must be: a
false "agree" is the one failure an oracle must never have. A table of every kind of answer
an implementation can give, judged through both protocols end to end (the scripted mock
prints each answer as it is written); the same judgement on answers against expectations a
program cannot produce (vectors); and a property: an answer that differs from ours — our own
answers perturbed — is never `agree`."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goi import api
from goi.generators.typed import programs
from goi.oracle.protocols import Answer, parse_answer
from goi.oracle.classification import klass as judge
from goi.oracle.survey import (ACCEPTS_INVALID, AGREE, HANG, IMPL_ERROR, REJECTS_VALID, WRONG_VALUE, Oracle,
                                   OracleConfig)
from goi.oracle.notations import render

MOCK = Path(__file__).parent / "oracle_mocks" / "scripted.py"
TOLERANCE = Fraction(1, 10**9)

# (program, what the implementation does, tolerance, the verdict). Our values: `1 + 2` is 3,
# `3 * 0.1` is 3/10, `1000000000000 + 0.5` is 10^12 + 1/2, `0.000000000001` is 10^-12,
# `1 / 0` is undefined under strict division (goi's default here), `λx. x` is a function,
# `0 0` is ill-typed.
BIG, TINY = "1000000000000 + 0.5", "0.000000000001"
ROWS = [
    ("1 + 2", '{"value": 3}', None, AGREE),
    ("1 + 2", '{"value": "3"}', None, AGREE),
    ("1 + 2", '{"value": "6/2"}', None, AGREE),
    ("1 + 2", '{"value": 3.0}', None, AGREE),
    ("1 + 2", '{"value": 4}', None, WRONG_VALUE),
    ("1 + 2", '{"value": -3}', None, WRONG_VALUE),
    ("1 + 2", '{"value": 3.0000000001}', None, WRONG_VALUE),  # exact unless a tolerance is given
    ("1 + 2", '{"value": [3]}', None, WRONG_VALUE),  # a vector is not a scalar
    ("1 + 2", '{"value": "λ"}', None, WRONG_VALUE),
    ("1 + 2", '{"value": "NaN"}', TOLERANCE, WRONG_VALUE),
    ("1 + 2", '{"value": "Infinity"}', TOLERANCE, WRONG_VALUE),
    ("1 + 2", '{"value": "-Infinity"}', TOLERANCE, WRONG_VALUE),
    ("1 + 2", '{"error": "out of memory"}', None, IMPL_ERROR),  # an error where we have a value
    ("1 + 2", '{"rejected": "unknown operator"}', None, REJECTS_VALID),
    ("1 + 2", '{"value": null}', None, IMPL_ERROR),  # unreadable
    ("1 + 2", '{"value": true}', None, IMPL_ERROR),
    ("1 + 2", '{"value": "three"}', None, IMPL_ERROR),
    ("1 + 2", '{"result": 3}', None, IMPL_ERROR),
    ("1 + 2", {"exit": 3, "stderr": "Segmentation fault"}, None, IMPL_ERROR),
    ("1 + 2", {"hang": True}, None, HANG),
    ("3 * 0.1", '{"value": 0.30000000000000004}', TOLERANCE, AGREE),
    ("3 * 0.1", '{"value": 0.30000000000000004}', None, WRONG_VALUE),
    ("3 * 0.1", '{"value": 0.31}', TOLERANCE, WRONG_VALUE),
    # relative at large magnitudes: 0.25 off 10^12 is within 1e-9 of it, 2000 off is not
    (BIG, '{"value": 1000000000000.25}', TOLERANCE, AGREE),
    (BIG, '{"value": 1000000002000.5}', TOLERANCE, WRONG_VALUE),
    (BIG, '{"value": 1000000000000}', None, WRONG_VALUE),
    # near zero the tolerance is REL × max(1, |expected|) (docs/ORACLE.md): 10^-12 off is within
    (TINY, '{"value": 0.000000000002}', TOLERANCE, AGREE),
    (TINY, '{"value": 0.000000002}', TOLERANCE, WRONG_VALUE),
    ("1 / 0", '{"error": "division by zero"}', None, AGREE),  # both undefined
    ("1 / 0", '{"value": 0}', None, WRONG_VALUE),  # a value where we are undefined
    ("1 / 0", '{"value": "Infinity"}', TOLERANCE, WRONG_VALUE),
    ("1 / 0", '{"rejected": "division"}', None, REJECTS_VALID),
    ("λx. x", '{"value": "λ"}', None, AGREE),
    ("λx. x", '{"value": 0}', None, WRONG_VALUE),
    ("λx. x", '{"error": "cannot print a function"}', None, IMPL_ERROR),
    ("0 0", '{"rejected": "type error"}', None, AGREE),  # ill-typed: a refusal of any kind agrees
    ("0 0", '{"error": "cannot apply a number"}', None, AGREE),
    ("0 0", '{"value": 0}', None, ACCEPTS_INVALID),
    ("0 0", {"hang": True}, None, HANG),
]
BARE = [  # the one-shot protocol also reads bare text
    ("1 + 2", "3", None, AGREE), ("1 + 2", "6/2", None, AGREE), ("1 + 2", "4", None, WRONG_VALUE),
    ("1 + 2", "[3]", None, WRONG_VALUE), ("1 + 2", "λ", None, WRONG_VALUE), ("1 + 2", "NaN", TOLERANCE, WRONG_VALUE),
    ("1 + 2", "Segmentation fault", None, IMPL_ERROR), ("1 + 2", "", None, IMPL_ERROR),
    ("λx. x", "λ", None, AGREE), ("3 * 0.1", "0.30000000000000004", TOLERANCE, AGREE),
]


def judged(rows: list, protocol: str, tmp_path, monkeypatch) -> list:
    """Each row's class, as `goi oracle` judges the scripted implementation's answer."""
    out = []
    for i, (program, action, tolerance, _klass) in enumerate(rows):
        script = tmp_path / f"script-{protocol}-{i}.json"
        script.write_text(json.dumps({program: {"print": action} if isinstance(action, str) else action}), encoding="utf-8")
        monkeypatch.setenv("GOI_SCRIPT", str(script))
        command = [sys.executable, str(MOCK), *(["--lines"] if protocol == "lines" else [])]
        # a hang never answers, so 1 s decides it; an answer is given all the time it needs
        # (a one-shot answer includes the interpreter's start): no verdict depends on speed
        hangs = isinstance(action, dict) and action.get("hang")
        oracle = Oracle(OracleConfig(command=command, protocol=protocol, tolerance=tolerance, timeout=1.0 if hangs else 120.0,
                                     division="strict", ill_typed=True, database=None, corpus=False))
        try:
            out.append(oracle.classify(program).klass)
        finally:
            oracle.close()
    return out


@pytest.mark.parametrize("protocol", ["oneshot", "lines"])
def test_every_kind_of_answer_is_judged_as_documented_through_both_protocols(protocol, tmp_path, monkeypatch):
    rows = ROWS + (BARE if protocol == "oneshot" else [])
    got = judged(rows, protocol, tmp_path, monkeypatch)
    wrong = [(program, action, tolerance, want, klass) for (program, action, tolerance, want), klass in zip(rows, got)
             if klass != want]
    assert wrong == []


# ---- the judgement itself, on expectations no closed program has (vectors) ----------------------

def klass(expected, answer: Answer, tolerance=None, well_typed: bool = True) -> str:
    # the plain function of (expected, answer, arithmetic), with the run's declared arithmetic
    return judge(expected, answer, well_typed, OracleConfig(command=["true"], tolerance=tolerance).declared_arithmetic)


V = (Fraction(1), Fraction(2), Fraction(3))


@pytest.mark.parametrize("got,tolerance,want", [
    ((Fraction(1), Fraction(2), Fraction(3)), None, AGREE),
    ((Fraction(1), Fraction(2)), None, WRONG_VALUE),  # truncated
    ((Fraction(1), Fraction(2), Fraction(3), Fraction(0)), None, WRONG_VALUE),  # extended by a zero
    ((Fraction(1), Fraction(3), Fraction(2)), None, WRONG_VALUE),  # two components swapped
    ((Fraction(3), Fraction(2), Fraction(1)), None, WRONG_VALUE),  # reversed
    ((), None, WRONG_VALUE),
    ((Fraction(1), Fraction(2), Fraction(3) + Fraction(1, 10**12)), TOLERANCE, AGREE),
    ((Fraction(1), Fraction(2), Fraction(3) + Fraction(1, 10**3)), TOLERANCE, WRONG_VALUE),
    ((Fraction(1), Fraction(2), "NaN"), TOLERANCE, WRONG_VALUE),
    (Fraction(1), None, WRONG_VALUE),  # a scalar for a vector
    ("λ", None, WRONG_VALUE),
])
def test_vector_answers_agree_only_in_full(got, tolerance, want):
    assert klass(V, Answer("value", got), tolerance) == want


def test_the_kinds_of_answer_that_never_agree_with_a_value():
    for kind in ("error", "crash", "unparseable", "rejected", "hang"):
        assert klass(Fraction(3), Answer(kind, message="m")) != AGREE, kind
        assert klass(V, Answer(kind, message="m")) != AGREE, kind
        assert klass("λ", Answer(kind, message="m")) != AGREE, kind
    assert klass("undefined", Answer("error", message="m")) == AGREE
    assert klass("undefined", Answer("value", Fraction(0))) == WRONG_VALUE
    assert klass("undefined", Answer("value", "NaN"), TOLERANCE) == WRONG_VALUE


# ---- the property: no perturbed answer agrees --------------------------------------------------

def perturbations(value) -> list:
    """Answers that differ from `value` (ours) by far more than any tolerance here: off by one
    (by a millionth of the magnitude where that is more), scaled, negated, a function or a
    number in its place, NaN, and for vectors truncated, extended, components swapped."""
    def off(v):
        return v + max(Fraction(1), abs(v) / 10**6)

    if value == "λ":
        return [Fraction(0), Fraction(1), (Fraction(0),), "NaN"]
    if isinstance(value, tuple):
        out = [value[:-1], value + (Fraction(0),), tuple(off(v) for v in value), "λ", value[0]]
        out += [value[:i] + (value[j],) + value[i + 1:j] + (value[i],) + value[j + 1:]
                for i in range(len(value)) for j in range(i + 1, len(value)) if value[i] != value[j]]
    else:
        out = [off(value), -off(-value), value * 2, value * 3, -value, value / 2, Fraction(1, 3), "λ", (value,), "NaN",
               "Infinity"]
    return [p for p in out if p != value]


def printed(v) -> str:
    """An answer as an implementation would print it (exact rationals as strings)."""
    if isinstance(v, tuple):
        return json.dumps({"value": [str(x) for x in v]})
    return json.dumps({"value": str(v)}, ensure_ascii=False)


@settings(max_examples=150, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(programs(max_depth=4), st.sampled_from([None, TOLERANCE]))
def test_an_answer_different_from_ours_is_never_agree(term, tolerance):
    oracle = Oracle(OracleConfig(command=["true"], tolerance=tolerance, division="strict"))
    text = render(api.judge(term), "paper")
    expected, _transitions, _rules, well_typed = oracle.expected(text)
    assert well_typed
    if expected == "undefined":
        answers = [printed(Fraction(0)), printed("NaN")]
    else:
        answers = [printed(p) for p in perturbations(expected)] + ['{"error": "failed"}']
        assert judge(expected, parse_answer(printed(expected)), True, oracle.arithmetic) == AGREE  # ours, printed, agrees
    for answer in answers:
        assert judge(expected, parse_answer(answer), True, oracle.arithmetic) != AGREE, (text, expected, answer)


@settings(max_examples=200, derandomize=True, database=None, deadline=None)
@given(st.lists(st.fractions(max_denominator=50).map(Fraction), min_size=1, max_size=5), st.sampled_from([None, TOLERANCE]))
def test_a_perturbed_vector_is_never_agree(vector, tolerance):
    value = tuple(vector)
    assert klass(value, parse_answer(printed(value)), tolerance) == AGREE
    for p in perturbations(value):
        assert klass(value, parse_answer(printed(p)), tolerance) != AGREE, (value, p)


# ---- unreadable answers, in goi's words ---------------------------------------------------------

@pytest.mark.parametrize("text", ['{"value": "wrong"}', '{"value": "1/0"}', '{"value": [[1]]}', '{"value": {"a": 1}}',
                                  '{"value": null}', '{"value": ["1", "x"]}', '{"answer": 1}', "hello", '{"value": 1e3x}'])
def test_an_answer_that_cannot_be_read_says_what_was_expected_and_what_came(text):
    answer = parse_answer(text)
    assert answer.kind == "unparseable"
    assert "expected" in answer.message or "none of value, rejected, error" in answer.message
    assert repr(text[:200]) in answer.message  # what came, as printed
    for python in ("Invalid literal", "Fraction(", "ZeroDivisionError", "Traceback", "not supported"):
        assert python not in answer.message, (python, answer.message)
