"""The enumerator of programs by size (generators/enumerate.py) against a naive one: every
syntax tree of the size over the same constructors, binder names and annotations, type-checked
by our own checker and kept if it is a closed program of type F with the vector operations
written explicitly. The same set, hence the same counts; i ↦ program(n, i) a bijection."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest

from goi import api
from goi.generators.enumerate import MODEL_TYPES, Enumeration, Space, arg_types, size
from goi.generators.shapes import shape_space
from goi.semantics import syntax as S
from goi.semantics.errors import GoiError
from goi.semantics.types import F

SMALL = Space(constants=(Fraction(0),), provisionals=(Fraction(-1, 2),))


def raw(space: Space, scope: tuple, names: tuple, n: int):
    """Every syntax tree of size n (untyped) whose free variables are in `scope`, binders
    named by depth as the enumerator names them, annotations from the same sets."""
    if n == 1:
        for x in scope:
            yield S.Var(x)
        yield from (S.Const(c) for c in space.constants)
        yield from (S.Prov(c) for c in space.provisional_constants())
        return
    k = len(scope)
    x, f, p, vec = f"x{k}", f"f{k}", f"p{k + 1}", f"a{len(names)}"
    # unary: λ and the decoupling value
    for a in arg_types(names, space.order):
        for body in raw(space, scope + (x,), names, n - 1):
            yield S.Lam(x, a, body)
    if space.decoupling and space.decoupling_values:
        for m in MODEL_TYPES:
            for body in raw(space, scope + (f, p), names + (vec,), n - 1):
                yield S.Decouple(f, p, vec, m, body)
    # binary
    ops = ["+", "-", "*", "/", "•", "⊞", "⊠", "+^L", "*^L"]
    for left_size in range(1, n - 1):
        right_size = n - 1 - left_size
        lefts = list(raw(space, scope, names, left_size))
        rights = list(raw(space, scope, names, right_size))
        for l, r in product(lefts, rights):
            yield S.App(l, r)
            for op in ops:
                yield S.BinOp(op, l, r)
        for a in arg_types(names, space.order):
            for u, body in product(lefts, raw(space, scope + (x,), names, right_size)):
                yield S.Let(x, a, u, body)
        if space.decoupling:
            for m in MODEL_TYPES:
                for u, body in product(lefts, raw(space, scope + (f, p), names + (vec,), right_size)):
                    yield S.LetDecouple(f, p, vec, m, u, body)


def naive(space: Space, n: int) -> set:
    keep = set()
    for term in raw(space, (), (), n):
        if not space.division and any(isinstance(t, S.BinOp) and t.op == "/" for t in S.walk(term)):
            continue
        if any(isinstance(t, S.BinOp) and t.op in ("+", "-", "*", "/") and t.op not in space.operators
               for t in S.walk(term)):
            continue
        if not space.iterated and any(isinstance(t, S.BinOp) and t.op in S.ITERATED for t in S.walk(term)):
            continue
        if not space.vector_ops and any(isinstance(t, S.BinOp) and t.op in {"•", "⊞", "⊠"} | S.ITERATED
                                        for t in S.walk(term)):
            continue
        try:
            judgement = api.judge(term)
        except GoiError:
            continue
        if judgement.type != F:
            continue
        if any(judgement.operators.get(id(t)) in ("vadd", "smul") and t.op in ("+", "*") for t in S.walk(term)
               if isinstance(t, S.BinOp)):
            continue  # the overloaded + and * on vectors: listed as ⊞ and ⊠
        keep.add(term)
    return keep


CASES = [(Space(), 4), (SMALL, 5), (Space(decoupling=False), 5), (Space(iterated=False, division=False), 4),
         (Space(decoupling_values=False, signed=False), 4), (Space(vector_ops=False), 4),
         (Space(constants=(Fraction(0), Fraction(1), Fraction(2)), provisionals=(), decoupling=False,
                operators=("+",)), 5),  # the smallest fragment: naturals and + (oracle --fragment)
         (Space(order=2), 4),  # argument types (F → F) → F and F → F → F too
         (shape_space(Space()), 5)]  # shapes: one placeholder constant of each kind


@pytest.mark.parametrize("space,upto", CASES, ids=lambda v: repr(v) if isinstance(v, int) else "space")
def test_the_enumerator_lists_what_the_naive_enumerator_finds_each_once(space, upto):
    enumeration = Enumeration(space)
    for n in range(1, upto + 1):
        listed = list(enumeration.programs(n))
        assert len(listed) == enumeration.count(n)
        assert len(set(listed)) == len(listed), f"size {n}: a program listed twice"
        assert set(listed) == naive(space, n), f"size {n}"
        assert all(size(t) == n for t in listed)


def test_i_th_program_is_a_bijection_on_each_size_also_where_counts_are_large():
    enumeration = Enumeration()
    assert [enumeration.count(n) for n in range(1, 9)] == [5, 0, 155, 165, 9935, 23506, 827496, 3049158]
    rng = random.Random(0)
    for n in (7, 8, 12):
        total = enumeration.count(n)
        indices = sorted({rng.randrange(total) for _ in range(60)} | {0, total - 1})
        terms = [enumeration.program(n, i) for i in indices]
        assert len(set(terms)) == len(terms)
        for term in terms:  # each a closed well-typed program of type F and size n
            assert size(term) == n and api.judge(term).type == F
    with pytest.raises(IndexError):
        enumeration.program(3, enumeration.count(3))


def test_the_counts_of_shapes_and_of_the_second_order_space():
    """The figures docs/CAMPAIGNS.md gives (sizes 1..8)."""
    assert [Enumeration(shape_space(Space())).count(n) for n in range(1, 9)] == [2, 0, 26, 30, 740, 1951, 29355, 119889]
    assert [Enumeration(Space(order=2)).count(n) for n in range(1, 7)] == [5, 0, 155, 215, 10105, 30641]
    # the program the issue found outside the first-order space is in the second-order one
    term = api.check("(λx0:(F -> F) -> F. 0) (λx0:F -> F. 0)").surface  # binders named by depth
    assert term in set(Enumeration(Space(order=2)).programs(5)) and term not in set(Enumeration().programs(5))
    with pytest.raises(ValueError, match="order"):
        Enumeration(Space(order=3))


def test_alpha_equivalent_programs_are_one():
    """A program written with other names is listed once, under the canonical ones."""
    enumeration = Enumeration()
    listed = set(enumeration.programs(5))
    canonical = S.Let("x0", F, S.Prov(Fraction(1)), S.BinOp("+", S.Var("x0"), S.Var("x0")))
    assert canonical in listed
    assert api.check("let y : F = {1} in y + y").surface not in listed  # its names are not the canonical ones


def test_the_enumerator_is_public_as_goi_enumerate():
    import goi

    assert goi.enumerate.Enumeration().count(3) == 155 and "enumerate" in goi.__all__


@pytest.mark.parametrize("m", [1, 2, 3])
def test_the_contexts_up_to_a_size_are_every_one_hole_context_of_that_size_once(m):
    """`goi conjectures --exhaustive N --context-size M` tries every context C[□ : F] of type F
    and size ≤ M with exactly one hole, each once: checked against the naive enumerator
    (every syntax tree with □ in scope, type-checked), plugged with a marker constant."""
    from goi.laws.exhaustive import HOLE, context_count, contexts

    marker = S.Const(Fraction(7))
    listed = [plug(marker) for plug in contexts(Enumeration(), F, m)]
    assert len(listed) == len(set(listed))  # each once
    expected = set()
    for n in range(1, m + 1):
        for body in raw(Space(), (HOLE,), (), n):
            if sum(isinstance(t, S.Var) and t.name == HOLE for t in S.walk(body)) != 1:
                continue
            try:
                judgement = api.judge(S.Lam(HOLE, F, body))
            except GoiError:
                continue
            if str(judgement.type) != "F -> F" or any(
                    judgement.operators.get(id(t)) in ("vadd", "smul") and t.op in ("+", "*")
                    for t in S.walk(body) if isinstance(t, S.BinOp)):
                continue
            expected.add(S.substitute(body, HOLE, marker))
    assert set(listed) == expected and len(listed) <= context_count(Enumeration(), F, m)
