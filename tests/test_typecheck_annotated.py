"""A program annotated throughout (the enumerator's, typed by construction) is typed without
inference (semantics.typecheck.typecheck_annotated, issue 53 item 4): the judgement must be
the one inference gives — every core node, its type and operator, the parameter vector, the
decouplings' names — and a program it cannot type is left to the checker, whose error the
user sees."""

from fractions import Fraction

import pytest
from hypothesis import given, settings

from goi import execution
from goi.generators.enumerate import Enumeration, Space
from goi.generators.shapes import assigned, shape_space
from goi.generators.typed import programs
from goi.semantics import core as C
from goi.semantics import syntax as S
from goi.semantics.errors import TypeCheckError
from goi.semantics.parser import parse
from goi.semantics.typecheck import NotAnnotated, typecheck, typecheck_annotated
from goi.semantics.types import F, Vec

NODE_FIELDS = ("type", "var_type", "model_type", "index", "name", "op", "var", "f", "x", "value")
JUDGEMENT_FIELDS = ("names", "context", "params", "type", "decouplings", "operators", "source", "surface")


def differences(inferred, synthesised) -> list:
    """Where two judgements of one program differ (every core node's fields, then the judgement's)."""
    out = []
    if C.show_core(inferred.term) != C.show_core(synthesised.term):
        out.append(("core", C.show_core(inferred.term), C.show_core(synthesised.term)))
    for a, b in zip(C.walk(inferred.term), C.walk(synthesised.term)):
        if type(a) is not type(b):
            out.append(("node", a, b))
        out += [(f, getattr(a, f, None), getattr(b, f, None)) for f in NODE_FIELDS if getattr(a, f, None) != getattr(b, f, None)]
    out += [(f, getattr(inferred, f), getattr(synthesised, f)) for f in JUDGEMENT_FIELDS
            if getattr(inferred, f) != getattr(synthesised, f)]
    return out


def listed(size: int, stride: int = 1, shapes_stride: int = 1):
    """Every `stride`-th program of a size over the five constants, and every `shapes_stride`-th
    shape at the generic values."""
    concrete, shapes = Enumeration(), Enumeration(shape_space(Space()))
    for n in range(0, concrete.count(size), stride):
        yield concrete.program(size, n)
    for n in range(0, shapes.count(size), shapes_stride):
        yield assigned(shapes.program(size, n), "generic")


def with_vector(body) -> S.Term:
    """let f0 @_a0 p1 : F = 1 in body(p1), annotated as the enumerator writes it."""
    return S.LetDecouple("f0", "p1", "a0", F, S.Const(Fraction(1)), body(S.Var("p1")))


def dot(v, p):
    return S.BinOp("•", v, p)


ONE, TWO = S.Const(Fraction(1)), S.Const(Fraction(2))
# every vector operator, the overloaded + and * on vectors among them, and two decouplings
# of one name (renamed apart), written out: the enumeration's first such programs are past
# what the test lists
WRITTEN = [
    with_vector(lambda p: dot(S.BinOp("⊞", p, p), p)),
    with_vector(lambda p: dot(S.BinOp("+", p, p), p)),
    with_vector(lambda p: dot(S.BinOp("⊠", TWO, p), p)),
    with_vector(lambda p: dot(S.BinOp("*", TWO, p), p)),
    with_vector(lambda p: dot(S.BinOp("+^L", S.Lam("x2", Vec("a0"), S.Var("x2")), p), p)),
    with_vector(lambda p: dot(S.BinOp("*^L", S.Lam("x2", Vec("a0"), dot(S.Var("x2"), S.Var("x2"))), p), p)),
    S.BinOp("+", with_vector(lambda p: dot(p, p)), with_vector(lambda p: dot(p, S.BinOp("⊠", S.Prov(TWO.value), p)))),
]


def test_the_enumerators_programs_have_the_judgement_inference_gives():
    """Every program of size ≤ 5 and one in seven of size 6, over the constants and as shapes,
    and a sample of sizes 7 and 8 (where the vector operations begin): 17,500 programs, with
    the paths that matter met — provisional constants, decouplings, a decoupling renamed apart
    from another of the same name, every operator."""
    met = {"params": 0, "renamed": 0, "ops": set()}
    compared = 0
    sample = [*listed(6, 7, 7), *listed(7, 997, 53), *listed(8, 20_011, 97)]
    for term in [t for size in range(1, 6) for t in listed(size)] + sample + WRITTEN:
        inferred, synthesised = typecheck(term), typecheck_annotated(term)
        assert differences(inferred, synthesised) == [], term
        compared += 1
        met["params"] += bool(synthesised.params)
        met["renamed"] += any(a not in {t.name for t in S.preorder(term, S.subterms) if hasattr(t, "name")}
                              for a in synthesised.decouplings)
        met["ops"] |= set(synthesised.operators.values())
    assert compared > 17_000
    assert met["params"] > 1000 and met["renamed"] > 0
    assert met["ops"] >= {"add", "sub", "mul", "div", "dot", "vadd", "smul", "iadd", "imul"}


@settings(max_examples=300)
@given(programs())
def test_a_generated_program_is_synthesised_as_inferred_or_left_to_inference(term):
    """The random generator's programs (not all annotated): where synthesis answers, it gives
    inference's judgement; where it does not, the pipeline's judgement is inference's."""
    inferred = typecheck(term)
    try:
        synthesised = typecheck_annotated(term)
    except NotAnnotated:
        synthesised = None
    if synthesised is not None:
        assert differences(inferred, synthesised) == []
    assert differences(inferred, execution.judge(term)) == []


def decoupling_escaping() -> S.Term:
    """A_a(f, p) : F. p — its vector, of type V_a, escapes the decoupling."""
    return S.Decouple("f", "p", "a", F, S.Var("p"))


@pytest.mark.parametrize("term, why", [
    (parse("(λx. x + 1) 2"), "without its annotation"),
    (S.App(S.Lam("x", F, S.Var("x")), S.Lam("y", F, S.Var("y"))), "applied to an argument"),
    (S.BinOp("+", S.Const(Fraction(1)), S.Lam("y", F, S.Var("y"))), "with operands"),
    *[(S.BinOp(op, ONE, ONE), "with operands") for op in ("⊞", "⊠", "•", "+^L", "*^L")],  # vector operators on scalars
    (decoupling_escaping(), "escapes its decoupling"),
    (S.Decouple("f", "f", "a", F, S.Const(Fraction(1))), "binding one name twice"),
    (S.Var("z"), "unbound variable"),
])
def test_what_synthesis_cannot_type_is_left_to_the_checker(term, why):
    with pytest.raises(NotAnnotated, match=why):
        typecheck_annotated(term)
    try:
        expected = typecheck(term)
    except TypeCheckError as exc:  # the user sees the checker's own error, not synthesis'
        with pytest.raises(TypeCheckError) as got:
            execution.judge(term)
        assert str(got.value) == str(exc)
    else:  # what inference can type (an unannotated λ) is typed by it
        assert differences(expected, execution.judge(term)) == []


def test_an_unknown_vector_name_in_an_annotation_is_the_checkers_error():
    term = S.Lam("v", Vec("b"), S.Const(Fraction(1)))  # V_b, where no decoupling binds b
    with pytest.raises(TypeCheckError) as inferred:
        typecheck(term)
    with pytest.raises(TypeCheckError) as judged:
        execution.judge(term)
    assert str(judged.value) == str(inferred.value)
