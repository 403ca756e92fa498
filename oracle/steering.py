"""Steering the survey away from a dominant failure (the search's `steer`, docs/ORACLE.md,
The search). A bug that fires on a common construct — every addition crashes — answers for
most programs, and a program that would show another bug shows that one instead. After each
stage of the survey but the last, a bucket with at least DOMINANT of the programs so far is
dominant; the features (SWARM_FEATURES) that every one of its programs has, and at most half
of the programs that agreed have, are what it needs — a feature every program has anyway
(decoupling, in a survey of decoupling programs) is no trigger — and the next stages switch
them off in half their programs. A bucket whose programs share no such feature steers
nothing."""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from goi.semantics import syntax as S

DOMINANT = 0.15  # a bucket's share of the programs so far that makes it dominant
AT_LEAST = 5  # and its programs at least this many

_OPERATORS = {"+": "+", "-": "-", "*": "*", "/": "/", "+^L": "iterated", "*^L": "iterated", "⊞": "vector-ops",
              "⊠": "vector-ops", "•": "dot"}


def features(term: S.Term) -> frozenset:
    """The generator's features (typed.SWARM_FEATURES) a program has."""
    out = set()
    for t in S.walk(term):
        if isinstance(t, S.BinOp):
            out.add(_OPERATORS[t.op])
        elif isinstance(t, S.App):
            head = t.fun
            while isinstance(head, S.App):
                head = head.fun
            out.add("call" if isinstance(head, S.Var) else "app")
        elif isinstance(t, S.Let):
            out.add("let")
        elif isinstance(t, (S.Decouple, S.LetDecouple)):
            out.add("decouple")
        elif isinstance(t, S.Prov):
            out.add("prov")
    return frozenset(out)


def dominant(signatures: Iterable[str], programs: int) -> list[str]:
    """The signatures (failures only) with at least DOMINANT of `programs`, most first."""
    counts = Counter(signatures)
    return [sig for sig, n in counts.most_common() if n >= max(AT_LEAST, DOMINANT * programs)]


COMMON = 0.5  # a feature this common among the agreeing programs is no trigger


def needs(terms: list[S.Term], agreeing: list[S.Term]) -> frozenset:
    """The one feature to switch off against a bucket: of those every one of its programs has,
    and at most COMMON of the agreeing ones, the one fewest agreeing programs have (by name
    among equals); empty if none."""
    common = None
    for term in terms:
        f = features(term)
        common = f if common is None else common & f
    if not common:
        return frozenset()
    shares = Counter(f for term in agreeing for f in features(term) & common)
    particular = sorted((shares[f], f) for f in common if shares[f] <= COMMON * max(1, len(agreeing)))
    return frozenset(particular[0][1:]) if particular else frozenset()
