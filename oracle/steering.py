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

from goi.generators.typed import weakenings
from goi.semantics import syntax as S

DOMINANT = 0.15  # a bucket's share of the programs so far that makes it dominant
ABLATED = ("+", "-", "*", "/")  # the operators a bucket's member is tried without (splitting.Splitting._ablated)
ANY_OPERATION = "operation"  # what a program needs whose every operator is spare: one of ABLATED, any
AT_LEAST = 5  # and its programs at least this many

_OPERATORS = {"+": "+", "-": "-", "*": "*", "/": "/", "+^L": "iterated", "*^L": "iterated", "⊞": "vector-ops",
              "⊠": "vector-ops", "•": "dot"}


def shape(term: S.Term) -> dict:
    """What the program's graph holds where implementations of a token machine go wrong — the
    search's feedback (drawing.feedback) asks for more of each:
    - `contraction arity`: the most uses of one bound variable (a contraction node's arity);
    - `computed and shared`: the most uses of a variable bound to a computed value (an
      operation or an application, not a constant or a λ);
    - `weakenings`: binders nobody uses (weakening nodes), capped at 3;
    - `shared functions`: bound functions used twice or more (their boxes copied);
    - `box nesting`: the deepest nesting of λs (boxes inside boxes)."""
    arity = computed = functions = 0
    for t in S.walk(term):
        if isinstance(t, S.Let):
            n = _uses(t.body, t.var)
            arity = max(arity, n)
            if isinstance(t.bound, (S.BinOp, S.App)):
                computed = max(computed, n)
            if isinstance(t.bound, S.Lam) and n >= 2:
                functions += 1
        elif isinstance(t, S.App) and isinstance(t.fun, S.Lam):
            n = _uses(t.fun.body, t.fun.var)
            arity = max(arity, n)
            if isinstance(t.arg, (S.BinOp, S.App)):
                computed = max(computed, n)
            if isinstance(t.arg, S.Lam) and n >= 2:
                functions += 1
        elif isinstance(t, S.Lam):
            arity = max(arity, _uses(t.body, t.var))
    return {"contraction arity": min(arity, 6), "computed and shared": min(computed, 6),
            "weakenings": min(weakenings(term), 3), "shared functions": min(functions, 3),
            "box nesting": min(_nesting(term), 6)}


def _uses(term: S.Term, x: str) -> int:
    """The free occurrences of x in term."""
    if isinstance(term, S.Var):
        return int(term.name == x)
    if x in S.binds(term):
        return sum(_uses(c, x) for c in S.subterms(term) if not _binds_over(term, c))
    return sum(_uses(c, x) for c in S.subterms(term))


def _binds_over(term: S.Term, child: S.Term) -> bool:
    """Whether the binders of `term` scope over its child `child` (a let's body, not its bound term)."""
    if isinstance(term, (S.Let, S.LetDecouple)):
        return child is term.body
    return True


def _nesting(term: S.Term) -> int:
    inner = max((_nesting(c) for c in S.subterms(term)), default=0)
    return inner + 1 if isinstance(term, (S.Lam, S.Decouple)) else inner


def features(term: S.Term) -> frozenset:
    """The generator's features (typed.SWARM_FEATURES) a program has, and `weakening`: a binder
    nobody uses."""
    out = {"weakening"} if weakenings(term) else set()
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


# The constructs of a known bug's minimal program, rarest in a generated program first: the one
# switched off against it (`known_trigger`). A binder nobody uses is no construct, but what a
# 1-minimal program keeps of it, it needs.
RARER_FIRST = ("weakening", "dot", "iterated", "vector-ops", "decouple", "/", "call", "*", "-", "prov", "+", "app", "let")


def known_trigger(term: S.Term) -> frozenset:
    """What to switch off against a known bug whose minimal program is `term`: of its features,
    the one rarest in a generated program (RARER_FIRST); empty if it has none."""
    have = features(term)
    return frozenset(next(([f] for f in RARER_FIRST if f in have), []))
