"""Parser: precedence, both notations, exact literals, positions, and error reports."""

from fractions import Fraction

import pytest

from goi.semantics import syntax as S
from goi.semantics.errors import ParseError
from goi.semantics.parser import parse


def V(name):
    return S.Var(name)


def op(sym, left, right):
    return S.BinOp(sym, left, right)


# ---- precedence and associativity (docs/SYNTAX.md, "Precedence") ----------------

PRECEDENCE = [
    ("1 + 2 * 3", op("+", S.Const(1), op("*", S.Const(2), S.Const(3)))),
    ("1 * 2 + 3", op("+", op("*", S.Const(1), S.Const(2)), S.Const(3))),
    ("a - b - c", op("-", op("-", V("a"), V("b")), V("c"))),
    ("a / b / c", op("/", op("/", V("a"), V("b")), V("c"))),
    ("a - b + c", op("+", op("-", V("a"), V("b")), V("c"))),
    ("f x + g y", op("+", S.App(V("f"), V("x")), S.App(V("g"), V("y")))),
    ("f x y", S.App(S.App(V("f"), V("x")), V("y"))),
    ("f (x y)", S.App(V("f"), S.App(V("x"), V("y")))),
    ("p • p + 1", op("+", op("•", V("p"), V("p")), S.Const(1))),
    ("2 * p ⊞ q", op("⊞", op("*", S.Const(2), V("p")), V("q"))),
    ("f +^L v ⊞ w", op("⊞", op("+^L", V("f"), V("v")), V("w"))),
    ("g *^L v • w", op("•", op("*^L", V("g"), V("v")), V("w"))),
    ("λx. x + 1", S.Lam("x", None, op("+", V("x"), S.Const(1)))),
    ("(λx. x) 1 + 2", op("+", S.App(S.Lam("x", None, V("x")), S.Const(1)), S.Const(2))),
    ("let x = 1 in x + 2", S.Let("x", None, S.Const(1), op("+", V("x"), S.Const(2)))),
]


@pytest.mark.parametrize("text,expected", PRECEDENCE, ids=[t for t, _ in PRECEDENCE])
def test_precedence_and_associativity(text, expected):
    assert parse(text) == expected


# ---- both notations: the paper's and the visualiser's ----------------------------

SAME = [
    ("λx. x", r"\x. x", r"\lambda x. x"),
    ("λx. λy. x", "λx y. x", r"\x.\y.x"),
    ("λx:F. λy:F. x", "λ(x:F) (y:F). x"),
    ("λf:F -> F. f", "λf:F → F. f", "λ(f:(F -> F)). f"),
    ("p ⊞ q", r"p \sq+ q"),
    ("2 ⊠ q", r"2 \sq* q"),
    ("p • q", "p dot q", "p ⊡ q", r"p \sq. q"),
    ("2 * x", "2 × x"),
    ("f *^L v", "f ×^L v"),
    ("let f @ p = {1} in f p", "let (f, p) = abs {1} in f p", "let f@p = {1} in f p"),
    ("let f x y = x in f", "let f = λx. λy. x in f"),
    ("let f (x:F) y = x in f", "let f = λx:F. λy. x in f"),
    ("(A(f, p). f p) {1}", "(A(f,p).f p){1}"),
    ("1 + 2 -- a comment", "1 + (* a block\n comment *) 2"),
]


@pytest.mark.parametrize("texts", SAME, ids=[t[0] for t in SAME])
def test_notations_parse_to_the_same_term(texts):
    first = parse(texts[0])
    for other in texts[1:]:
        assert parse(other) == first, other


def test_explicit_vector_operators_differ_from_overloaded_ones():
    # ⊞ forces vectors, + is resolved by type: they are different terms.
    assert parse("p ⊞ q") != parse("p + q")
    assert parse("2 ⊠ q") != parse("2 * q")


def test_decoupling_with_name_and_model_annotation():
    t = parse("A_b(f,x):F -> F. f x")
    assert isinstance(t, S.Decouple) and t.name == "b" and str(t.annot) == "F -> F"
    t = parse("let f @_c p : F = {1} in p • p")
    assert isinstance(t, S.LetDecouple) and t.name == "c" and str(t.annot) == "F"


# ---- literals are exact --------------------------------------------------------

@pytest.mark.parametrize(
    "text,value",
    [("0.001", Fraction(1, 1000)), ("3", Fraction(3)), ("(-3)", Fraction(-3)), ("(-0.25)", Fraction(-1, 4)), ("12.50", Fraction(25, 2))],
)
def test_numeric_literals_are_exact_rationals(text, value):
    assert parse(text) == S.Const(value)


def test_provisional_literals():
    assert parse("{0.5}") == S.Prov(Fraction(1, 2))
    assert parse("{-2}") == S.Prov(Fraction(-2))
    # 0.1 + 0.2 is exactly 3/10 in the field, not a float.
    t = parse("0.1 + 0.2")
    assert t.left.value + t.right.value == Fraction(3, 10)


# ---- keywords and identifiers --------------------------------------------------

def test_identifiers_may_contain_keywords_and_primes():
    assert parse("let lettuce = 1 in lettuce") == S.Let("lettuce", None, S.Const(1), V("lettuce"))
    assert parse("λps'. ps'") == S.Lam("ps'", None, V("ps'"))
    assert parse("dotty dot in_x") == op("•", V("dotty"), V("in_x"))


@pytest.mark.parametrize("text", ["let in = 1 in 2", "λdot. dot", "let abs = 1 in abs", "λlet. 1", "λfold. fold"])
def test_keywords_are_reserved(text):
    with pytest.raises(ParseError):
        parse(text)


def test_the_visualisers_fold_is_read_as_an_iterated_operation_and_nothing_else():
    plus = parse("fold (λe. λa. (g e) ⊞ a) v")
    times = parse("fold (λe. λa. ((λx. x • x) e) ⊠ a) v")
    assert plus == op("+^L", V("g"), V("v")) and times.op == "*^L" and isinstance(times.left, S.Lam)
    for other in ["fold (λe. λa. a) v", "fold (λe. λa. (g e) + a) v", "fold (λe. λa. (e e) ⊞ a) v",
                  "fold (λe. λa. (g a) ⊞ a) v", "fold (λe. λe. (g e) ⊞ e) v"]:
        with pytest.raises(ParseError, match="fold h v only as an iterated operation"):
            parse(other)


# ---- positions -----------------------------------------------------------------

def test_positions_are_kept():
    t = parse("let x = 1 in\n  f x")
    assert (t.pos.line, t.pos.column) == (1, 1)
    body = t.body
    assert isinstance(body, S.App)
    assert (body.pos.line, body.pos.column, body.pos.end_line, body.pos.end_column) == (2, 3, 2, 6)
    assert (body.arg.pos.line, body.arg.pos.column) == (2, 5)


def test_positions_do_not_take_part_in_equality():
    assert parse("f   x") == parse("f x")


# ---- parse errors: line, column, offending text, what was expected -------------

ERRORS = [
    ("1 +", 1, 4, "unexpected end of the program; expected an operand"),
    ("(1", 1, 3, "expected ')'"),
    ("let x = 1 in\n  x $ 2", 2, 5, "unexpected character '$'"),
    ("f λx. x", 1, 3, "must be parenthesised"),
    ("x - -1", 1, 5, "negative literal is written (-3)"),
    ("let f x = in x", 1, 11, "unexpected 'in'; expected a term"),
    ("λ1. x", 1, 2, "expected '(' or a variable"),
    ("{x}", 1, 2, "expected '-' or a number"),
    ("A(f). x", 1, 4, "expected ','"),
    ("λx:G. x", 1, 4, "expected '(', a vector type 'V_a' or the type 'F'"),
    ("f x)", 1, 4, "unexpected ')'; expected the end of the program"),
    ("", 1, 1, "expected a term"),
    ("let f @ p = 1 f p", 1, 18, "unexpected end of the program; expected 'in'"),
]


@pytest.mark.parametrize("text,line,column,fragment", ERRORS, ids=[e[0] for e in ERRORS])
def test_parse_errors_are_located_and_say_what_was_expected(text, line, column, fragment):
    with pytest.raises(ParseError) as info:
        parse(text)
    err = info.value
    assert (err.line, err.column) == (line, column), err.message
    assert fragment in err.message


def test_parse_error_reports_the_offending_text():
    with pytest.raises(ParseError) as info:
        parse("let x = 1 in x )")
    assert info.value.found == ")"
    assert "the end of the program" in info.value.expected
