"""The laws of the conjecture catalogue on *every* instance up to a size (docs/CAMPAIGNS.md,
`goi conjectures --exhaustive N`).

Each law's metavariables are filled with every term of their type from the enumerator
(generators/enumerate.py) whose sizes add up to at most N, smallest first; a context law's
instances are put in every context C[□ : T] of type F and size at most the context size (a
program with exactly one hole, the hole counted as one). The first refutation found is the
smallest in that order. The instance shapes are those of the random instance strategies of
goi/laws/conjectures.py, metavariable by metavariable.
"""

from __future__ import annotations

import time
from typing import Iterator, Optional

from goi.generators.enumerate import Enumeration, splits
from goi.semantics import syntax as S
from goi.semantics.types import Arrow, F, Type

from .conjectures import REFUTED, SURVIVED, LAWS, Law, Row, counterexample, decide_instance, definitive
from goi.progress import PROGRESS

FF = Arrow(F, F)
HOLE = "□"


def fill(enum: Enumeration, metas: list, n: int) -> Iterator[tuple]:
    """Every tuple of terms for `metas` ((context, type) each) with sizes adding up to ≤ n,
    by total size, then sizes, then index."""
    for total in range(len(metas), n + 1):
        for sizes in splits(total, len(metas)):
            yield from _product(enum, metas, sizes)


def fill_count(enum: Enumeration, metas: list, n: int) -> int:
    """How many tuples `fill` gives (TooLarge where the enumeration cannot count them)."""
    total = 0
    for size in range(len(metas), n + 1):
        for sizes in splits(size, len(metas)):
            product = 1
            for (context, type_), k in zip(metas, sizes):
                product *= enum.count_terms(context, type_, k)
                if not product:
                    break
            total += product
    return total


def instance_bound(law: Law, enum: Enumeration, n: int) -> int:
    """At most how many instances `instances(law, enum, n)` gives (the same metavariables,
    counted instead of listed; the definitive ones filter some out)."""
    name = law.name
    closed = ((), F)
    if name.startswith("distinct-"):
        return 1
    if name in ("plus-commutes", "times-commutes"):
        return fill_count(enum, [closed, closed], n)
    if name in ("plus-associates", "times-associates"):
        return fill_count(enum, [closed, closed, closed], n)
    if name == "let-application":
        return sum(fill_count(enum, [((), a), ((("vv", a),), F)], n) for a in (F, FF))
    if name in ("beta-value", "gc"):
        rest = (lambda a: [((("vv", a),), F)] if name == "beta-value" else [closed])
        return sum(fill_count(enum, ([((), F)] if a == F else [((("yy", F),), F)]) + rest(a), n) for a in (F, FF))
    if name in ("let-floating", "let-floating-definitive"):
        return 2 * sum(fill_count(enum, [((), ta), ((("yy", ta),), tb), ((("xx", tb),), F)], n)
                       for ta in (F, FF) for tb in (F, FF))
    if name == "eta-value":
        return fill_count(enum, [((("yy", F),), F)], n)
    if name == "congruence":
        return sum(instance_bound(LAWS[other], enum, n) for other in
                   ("plus-commutes", "times-commutes", "plus-associates", "times-associates", "let-application",
                    "beta-value"))
    raise ValueError(f"law {name} has no exhaustive instances")


def context_count(enum: Enumeration, type_: Type, m: int) -> int:
    """At most how many contexts `contexts(enum, type_, m)` gives (bodies with the hole in scope)."""
    return sum(enum.count_terms(((HOLE, type_),), F, size) for size in range(1, m + 1))


def _product(enum, metas, sizes):
    if not metas:
        yield ()
        return
    (context, type_), size = metas[0], sizes[0]
    for t in enum.terms(context, type_, size):
        for rest in _product(enum, metas[1:], sizes[1:]):
            yield (t,) + rest


def definitive_value(t: S.Term, type_: Type) -> Optional[S.Term]:
    """t as the law's definitive value of its type (a constant, or λyy:F. body), or None."""
    if any(isinstance(x, S.Prov) for x in S.walk(t)):
        return None
    if type_ == F:
        return t if isinstance(t, S.Const) else None
    return t if isinstance(t, S.Lam) and t.var == "yy" else None


def instances(law: Law, enum: Enumeration, n: int) -> Iterator[tuple]:
    """Every instance (left, right) of the law whose metavariables add up to size ≤ n."""
    name = law.name
    closed = ((), F)
    if name.startswith("distinct-"):
        yield _fixed(law)
    elif name in ("plus-commutes", "times-commutes"):
        op = "+" if name.startswith("plus") else "*"
        for t, u in fill(enum, [closed, closed], n):
            yield S.BinOp(op, t, u), S.BinOp(op, u, t)
    elif name in ("plus-associates", "times-associates"):
        op = "+" if name.startswith("plus") else "*"
        for t, u, v in fill(enum, [closed, closed, closed], n):
            yield S.BinOp(op, S.BinOp(op, t, u), v), S.BinOp(op, t, S.BinOp(op, u, v))
    elif name == "let-application":
        for a in (F, FF):
            for u, t in fill(enum, [((), a), ((("vv", a),), F)], n):
                yield S.Let("vv", a, u, t), S.App(S.Lam("vv", a, t), u)
    elif name in ("beta-value", "gc"):
        for a in (F, FF):
            value = [((), F)] if a == F else [((("yy", F),), F)]
            rest = [((("vv", a),), F)] if name == "beta-value" else [closed]
            for v, t in fill(enum, value + rest, n):
                v = v if a == F else S.Lam("yy", F, v)
                if definitive_value(v, a) is None:
                    continue
                if name == "beta-value":
                    yield S.App(S.Lam("vv", a, t), v), S.substitute(t, "vv", v)
                else:
                    yield S.Let("vv", a, v, t), t
    elif name in ("let-floating", "let-floating-definitive"):
        for ta in (F, FF):
            for tb in (F, FF):
                for a, b, c in fill(enum, [((), ta), ((("yy", ta),), tb), ((("xx", tb),), F)], n):
                    if name.endswith("definitive"):
                        a = definitive(a)
                    yield S.Let("xx", tb, S.Let("yy", ta, a, b), c), S.Let("yy", ta, a, S.Let("xx", tb, b, c))
                    # and through a decoupling of xx (the random strategy's other half)
                    use = S.BinOp("•", S.Var("pp"), S.Var("pp"))
                    c2 = S.LetDecouple("ff", "pp", "aa", tb, S.Var("xx"), S.BinOp("+", use, c))
                    yield S.Let("xx", tb, S.Let("yy", ta, a, b), c2), S.Let("yy", ta, a, S.Let("xx", tb, b, c2))
    elif name == "eta-value":
        for (body,) in fill(enum, [((("yy", F),), F)], n):
            f = S.Lam("yy", F, body)
            yield S.Lam("xx", F, S.App(f, S.Var("xx"))), f
    elif name == "congruence":
        for other in ("plus-commutes", "times-commutes", "plus-associates", "times-associates", "let-application",
                      "beta-value"):
            yield from instances(LAWS[other], enum, n)
    else:
        raise ValueError(f"law {name} has no exhaustive instances")


def _fixed(law: Law) -> tuple:
    """A fixed law's one instance (its strategy is st.just of it)."""
    from hypothesis import find

    return find(law.instances(0), lambda _: True)


def contexts(enum: Enumeration, type_: Type, m: int) -> Iterator:
    """Every context C[□ : type_] of type F and size ≤ m (the hole counts 1): a plug function."""
    for size in range(1, m + 1):
        for body in enum.terms(((HOLE, type_),), F, size):
            if sum(1 for t in S.walk(body) if isinstance(t, S.Var) and t.name == HOLE) == 1:
                yield (lambda t, body=body: S.substitute(body, HOLE, t))


def decide_exhaustive(law: Law, n: int, context_size: int, timeout: float, division: str = "total",
                      enum: Optional[Enumeration] = None, part: tuple[int, int] = (0, 1)) -> Row:
    """The law on every instance up to size n (and every context up to context_size); with
    `part` (k, K) only the instances whose index is k modulo K (a campaign's shard of one law:
    `merge_parts` puts the K rows together). A refutation's counterexample carries its
    `index` [instance, context] in the whole order, so the smallest of the parts' is the
    smallest of all."""
    from goi.equivalence import EQUIVALENT, program_equivalence
    from goi.semantics.pretty import pretty

    enum = enum or Enumeration()
    started = time.perf_counter()
    row = Row(law.name, law.statement, law.expected, SURVIVED, paper=law.paper)
    proofs: dict = {}

    def proven(pair) -> bool:
        key = (pretty(pair[0]), pretty(pair[1]))
        if key not in proofs:
            proofs[key] = program_equivalence(pair[0], pair[1], division=division, timeout=timeout).verdict
        return proofs[key] == EQUIVALENT

    plugs = list(contexts(enum, law.type, context_size)) if law.level == "context" else [None]
    k, parts = part
    for index, pair in enumerate(instances(law, enum, n)):
        if index % parts != k:
            continue
        for place, plug in enumerate(plugs):
            PROGRESS.tick(f"conjecture {law.name}", 0)
            if decide_instance(law, row, pair, plug, proven, timeout, division):
                row.verdict = REFUTED
                row.counterexample = {**counterexample(law, pair, plug, timeout, division), "index": [index, place]}
                row.seconds = time.perf_counter() - started
                return row
    row.seconds = time.perf_counter() - started
    return row


def merge_parts(rows: list) -> Row:
    """The rows of one law's parts as one: counts added, the smallest refutation kept (but
    the counts of a refuted law stop at each part's first refutation, not the whole's)."""
    first = rows[0]
    merged = Row(first.law, first.statement, first.expected, SURVIVED, paper=first.paper)
    for r in rows:
        merged.instances += r.instances
        merged.proven += r.proven
        merged.unknown += r.unknown
        merged.skipped += r.skipped
        merged.seconds += r.seconds
        if r.verdict == REFUTED and (merged.counterexample is None
                                     or r.counterexample["index"] < merged.counterexample["index"]):
            merged.verdict, merged.counterexample = REFUTED, r.counterexample
    return merged
