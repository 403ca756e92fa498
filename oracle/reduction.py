"""Structural reduction of a failing program, after Hypothesis (docs/ORACLE.md, "Shrinking").

Hypothesis shrinks the generator's choices; a program can still hold a smaller one of the
same failure that those choices cannot reach. In the style of delta debugging and C-Reduce,
`reduce` applies the steps below, smallest result first, while the failure stays, until
none applies — the result is then *1-minimal* for these steps:

- **subterm**: replace any subterm by one of its own subterms (open ones included, wherever
  their variables are still bound), which also drops a `let` whose variable is unused;
- **constant**: replace any subterm by the constant `0`, and lower a constant toward 0 (to 0,
  to 1 with its sign, to its integer part, a negative one to its opposite; a provisional
  constant `{c}` likewise, `{0}` first), so that no constant of a 1-minimal program can be
  lowered so; and every constant of one value at once (`9 - 9 - 1` to `0 - 0 - 1`: a bug may
  need two constants equal, and lowering either alone loses it);
- **inline**: replace `let x = v in u`, and the applied λ `(λx. u) v` it means, by `u[v/x]`
  (v closed);
- **annotations**: drop type annotations and decoupling names;
- **rename**: give the binders short names, in binding order (`a`, `b`, … for terms, `p`, `q`,
  … for decoupled parameter vectors).

A candidate counts only if it is a closed well-typed program of type F (our checker decides)
and the failure predicate holds for it; `keep` returns None for a candidate it could not try
(a budget), and the reduction then stops and says it is not known to be minimal.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Iterator, Optional

from goi.semantics import syntax as S

from .notations import strip_annotations

from goi.semantics.canonical import canonical_names

Path = tuple[int, ...]


def positions(term: S.Term) -> Iterator[tuple[Path, S.Term]]:
    """Every subterm with its path of child indices, the term first, pre-order."""
    todo: list[tuple[Path, S.Term]] = [((), term)]
    while todo:
        path, node = todo.pop()
        yield path, node
        children = S.subterms(node)
        for i in reversed(range(len(children))):
            todo.append((path + (i,), children[i]))


def replace_at(term: S.Term, path: Path, new: S.Term) -> S.Term:
    if not path:
        return new
    child = S.subterms(term)[path[0]]
    return S.with_child(term, path[0], replace_at(child, path[1:], new))


def lowered(value: Fraction) -> list[Fraction]:
    """A constant's values toward 0: 0, then 1 with its sign, its integer part and its opposite
    (a negative constant's), each lighter (`magnitude`) than the constant."""
    out = [Fraction(0), Fraction(1 if value > 0 else -1), Fraction(int(value)), -value]
    return list(dict.fromkeys(v for v in out if magnitude(v) < magnitude(value)))


def magnitude(value: Fraction) -> int:
    """How far a constant is from 0, as a reducer lowers it: |numerator| + denominator - 1,
    and one more for a minus sign."""
    return abs(value.numerator) + value.denominator - 1 + (value < 0)


def _zero_like(node: S.Term) -> list[S.Term]:
    zero = S.Const(Fraction(0))
    if isinstance(node, S.Const):
        return [S.Const(v) for v in lowered(node.value)]
    if isinstance(node, S.Prov):
        return [zero] + [S.Prov(v) for v in lowered(node.value)]
    return [zero]


def steps(term: S.Term) -> Iterator[S.Term]:
    """Every candidate one step away (not yet checked for type or failure)."""
    for path, node in positions(term):
        for _sub_path, sub in positions(node):
            if sub is not node:
                yield replace_at(term, path, sub)
        for constant in _zero_like(node):
            yield replace_at(term, path, constant)
        if isinstance(node, S.Let) and not S.free_variables(node.bound):
            yield replace_at(term, path, S.substitute(node.body, node.var, node.bound))
        if isinstance(node, S.App) and isinstance(node.fun, S.Lam) and not S.free_variables(node.arg):
            yield replace_at(term, path, S.substitute(node.fun.body, node.fun.var, node.arg))
    counts: dict = {}
    for node in S.walk(term):
        if isinstance(node, (S.Const, S.Prov)):
            counts[type(node), node.value] = counts.get((type(node), node.value), 0) + 1
    for (kind, value), n in counts.items():
        if n > 1:  # equal constants, lowered together
            for lower in lowered(value):
                yield _with_constants(term, kind, value, lower)
    yield strip_annotations(term)
    yield canonical_names(term)


def _with_constants(term: S.Term, kind: type, value: Fraction, lower: Fraction) -> S.Term:
    """The term with every constant of `kind` (S.Const or S.Prov) worth `value` worth `lower`."""
    if isinstance(term, kind) and term.value == value:
        return kind(lower)
    for i, child in enumerate(S.subterms(term)):
        changed = _with_constants(child, kind, value, lower)
        if changed is not child:
            term = S.with_child(term, i, changed)
    return term


def weight(term: S.Term, text: str) -> tuple[int, int, int, int]:
    """What a step must lower: the number of nodes, the length of the printed text, how far its
    constants are from 0 (`magnitude`: `1 - 0` is lighter than `1 - 2`, though as long), then
    whether its names are not yet canonical."""
    constants = sum(magnitude(t.value) for t in S.walk(term) if isinstance(t, (S.Const, S.Prov)))
    return S.size(term), len(text), constants, int(canonical_names(term) != term)


@dataclass
class Reduction:
    term: S.Term
    text: str
    minimal: bool  # False when `keep` could not try a candidate (a budget ran out)
    steps: int  # steps taken


def reduce(term: S.Term, text_of: Callable[[S.Term], Optional[str]],
           keep: Callable[[str], Optional[bool]]) -> Reduction:
    """Greedy reduction: `text_of(candidate)` is the candidate's program text (None if it is not
    a closed program of type F that can be written); `keep(text)` says whether it still fails
    alike (None: not tried). Candidates are tried lightest first; the first kept one is taken."""
    text = text_of(term)
    assert text is not None, "the failing program itself must be printable"
    taken = 0
    while True:
        step = _first_kept(term, text, text_of, keep)
        if step is None:
            return Reduction(term, text, True, taken)
        if step is _NOT_TRIED:
            return Reduction(term, text, False, taken)
        term, text = step
        taken += 1


_NOT_TRIED = object()


def _first_kept(term: S.Term, text: str, text_of, keep):
    """The lightest candidate one step from `term` that `keep` keeps: (term, text); None if
    there is none; _NOT_TRIED if `keep` could not try one. Candidates are printed (and so
    type-checked) a size at a time, smallest first, so a step found early costs little."""
    current = weight(term, text)
    by_size: dict[int, list[S.Term]] = {}
    for candidate in steps(term):
        by_size.setdefault(S.size(candidate), []).append(candidate)
    seen = {text}
    for size in sorted(by_size):
        if size > current[0]:
            break
        printed = []
        for candidate in by_size[size]:
            candidate_text = text_of(candidate)
            if candidate_text is None or candidate_text in seen:
                continue
            seen.add(candidate_text)
            lighter = weight(candidate, candidate_text)
            if lighter < current:
                printed.append((lighter, candidate_text, candidate))
        for _, candidate_text, candidate in sorted(printed, key=lambda c: (c[0], c[1])):
            verdict = keep(candidate_text)
            if verdict is None:
                return _NOT_TRIED
            if verdict:
                return candidate, candidate_text
    return None
