"""Strategies for surface ASTs: any term the parser can produce (not necessarily typed).

Used for the pretty-printer round trip `parse(pretty(t)) == t`. Constants are
decimal-representable (the language has no other literals); names avoid the
keywords.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from goi.semantics import syntax as S
from goi.semantics.parser import KEYWORDS
from goi.semantics.types import Arrow, F, Vec

_ident_tail = st.text(alphabet="abcxyzAB09_'", max_size=3)
variables = st.builds(lambda head, tail: head + tail, st.sampled_from("fgpqxyzuvw"), _ident_tail).filter(
    lambda v: v not in KEYWORDS
)
vector_names = st.builds(lambda head, tail: head + tail, st.sampled_from("abcn"), st.text(alphabet="ab1'", max_size=2))

decimals = st.builds(
    lambda n, k: Fraction(n, 10**k),
    st.integers(min_value=-10**6, max_value=10**6),
    st.integers(min_value=0, max_value=4),
)

types = st.recursive(
    st.one_of(st.just(F), st.builds(Vec, vector_names)),
    lambda inner: st.builds(Arrow, inner, inner),
    max_leaves=4,
)
annotations = st.one_of(st.none(), types)
names = st.one_of(st.none(), vector_names)

leaves = st.one_of(
    st.builds(S.Var, variables),
    st.builds(S.Const, decimals),
    st.builds(S.Prov, decimals),
)


def _extend(inner):
    return st.one_of(
        st.builds(S.Lam, variables, annotations, inner),
        st.builds(S.App, inner, inner),
        st.builds(S.BinOp, st.sampled_from(sorted(S.OPERATORS)), inner, inner),
        st.builds(S.Decouple, variables, variables, names, annotations, inner),
        st.builds(S.Let, variables, annotations, inner, inner),
        st.builds(S.LetDecouple, variables, variables, names, annotations, inner, inner),
    )


terms = st.recursive(leaves, _extend, max_leaves=25)
