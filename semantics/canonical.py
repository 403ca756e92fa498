"""Canonical names: a program's binders renamed in binding order, so that two programs that
differ only in their names print the same (oracle mode's shrunk programs, and the tests that
compare them: docs/ORACLE.md).

Binders are named in the order the text shows them. Term variables become `b`, `c`, … `o`, then `aa`, `ab`, … (`a`, `an`, `of` … are
skipped: semantics/words.py); the parameter vectors a
decoupling binds become `p`, `q`, … `z`, then `pp`, `pq`, … — letters only, so the names are
valid in both notations, and never a keyword of either. Decoupling names (`@_a1`) and the
types that mention them are left as they are.
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Iterator

from goi.semantics import syntax as S
from goi.semantics.words import WORDS

TERM_LETTERS = "abcdefghijklmno"
VECTOR_LETTERS = "pqrstuvwxyz"
RESERVED = {"let", "in", "abs", "dot", "fold", "rec", "if", "then", "else", "true", "false"}



def _fresh(letters: str) -> Iterator[str]:
    for width in itertools.count(1):
        for letters_tuple in itertools.product(letters, repeat=width):
            name = "".join(letters_tuple)
            if name not in RESERVED and name not in WORDS:  # read as a message's word, not a name
                yield name


def canonical_names(term: S.Term) -> S.Term:
    """The term with every binder renamed as the module says; free variables keep their names
    (and no binder takes one of them)."""
    free = S.free_variables(term)
    terms = (n for n in _fresh(TERM_LETTERS) if n not in free)
    vectors = (n for n in _fresh(VECTOR_LETTERS) if n not in free)

    def go(t: S.Term, env: dict) -> S.Term:
        if isinstance(t, S.Var):
            return dataclasses.replace(t, name=env.get(t.name, t.name))
        if isinstance(t, (S.Const, S.Prov)):
            return t
        if isinstance(t, S.Lam):
            x = next(terms)
            return dataclasses.replace(t, var=x, body=go(t.body, {**env, t.var: x}))
        if isinstance(t, S.Let):  # named in the order the text shows them: the binder before its bound term
            x = next(terms)
            bound = go(t.bound, env)
            return dataclasses.replace(t, var=x, bound=bound, body=go(t.body, {**env, t.var: x}))
        if isinstance(t, S.Decouple):
            f, x = next(terms), next(vectors)
            return dataclasses.replace(t, f=f, x=x, body=go(t.body, {**env, t.f: f, t.x: x}))
        if isinstance(t, S.LetDecouple):
            f, x = next(terms), next(vectors)
            bound = go(t.bound, env)
            return dataclasses.replace(t, f=f, x=x, bound=bound, body=go(t.body, {**env, t.f: f, t.x: x}))
        if isinstance(t, S.App):
            return dataclasses.replace(t, fun=go(t.fun, env), arg=go(t.arg, env))
        if isinstance(t, S.BinOp):
            return dataclasses.replace(t, left=go(t.left, env), right=go(t.right, env))
        raise TypeError(f"not a term: {t!r}")

    return go(term, {})
