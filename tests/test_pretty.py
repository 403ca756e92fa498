"""Pretty-printer: parse(pretty(t)) == t, minimal parentheses, exact decimals."""

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given

from goi.generators.syntax import terms
from goi.semantics import syntax as S
from goi.semantics.parser import parse
from goi.semantics.pretty import decimal, pretty

PROGRAMS = sorted(Path(__file__).parent.joinpath("programs").glob("*/*.goi"))


@given(terms)
def test_round_trip_on_generated_asts(term):
    assert parse(pretty(term)) == term


@pytest.mark.parametrize("path", PROGRAMS, ids=[f"{p.parent.name}/{p.stem}" for p in PROGRAMS])
def test_round_trip_on_example_programs(path):
    term = parse(path.read_text(encoding="utf-8"))
    assert parse(pretty(term)) == term


@pytest.mark.parametrize(
    "text,printed",
    [
        ("1 + (2 * 3)", "1 + 2 * 3"),
        ("(1 + 2) * 3", "(1 + 2) * 3"),
        ("a - (b - c)", "a - (b - c)"),
        ("(a - b) - c", "a - b - c"),
        ("(f x) (g y)", "f x (g y)"),
        ("(λx. x) (λy. y)", "(λx. x) (λy. y)"),
        ("let f = λx. λy. x in f", "let f x y = x in f"),
        ("let (f, p) = abs {1} in p ⊡ p", "let f @ p = {1} in p • p"),
        (r"\x. x \sq+ x", "λx. x ⊞ x"),
        ("1 + (λx. x)", "1 + (λx. x)"),
        ("{-0.5} + (-2)", "{-0.5} + (-2)"),
    ],
)
def test_printing_is_normalised_with_minimal_parentheses(text, printed):
    assert pretty(parse(text)) == printed


@pytest.mark.parametrize(
    "value,text",
    [(Fraction(0), "0"), (Fraction(1, 1000), "0.001"), (Fraction(25, 2), "12.5"), (Fraction(-7, 4), "1.75"), (Fraction(3, 8), "0.375")],
)
def test_decimal_literals_are_exact(value, text):
    assert decimal(value) == text


def test_a_constant_without_a_literal_is_refused_not_misprinted():
    with pytest.raises(ValueError, match="no finite decimal expansion"):
        pretty(S.Const(Fraction(1, 3)))
