"""Oracle mode, unmasking (the search's `unmask`, docs/ORACLE.md, The search): a bug that fires
first hides the bugs behind it — a program that shows two bugs gives the answer of the one
that fires first, so the other is never a bucket of its own, however many programs have it.
After the buckets are shrunk, members of each bucket are rewritten by an equivalence of the
calculus at one site at a time (equivalence modulo inputs, Le et al., PLDI 2014): a `let`
written as the applied λ it means, an applied λ as a `let`, the operands of a commutative
`+` or `*` swapped. A rewriting that dodges the first bug's trigger, and keeps the rest, may
show what it hid: a rewritten member that fails with a signature the run has not met is a new
bucket, reduced on its own. The rewriting is only a way to reach programs: whatever it gives
is judged against goi's own run of that very program, so it raises no false alarm."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Iterator, Optional

from goi.semantics import syntax as S
from goi.semantics.errors import GoiError
from goi.semantics.types import F

from .cases import CATCH_ALL, MAX_BUCKETS, UNMASK_CALLS, Report, Shrunk
from .classification import ACCEPTS_INVALID, AGREE, HANG
from .notations import ReadError, strip_annotations
from .steering import ABLATED, ANY_OPERATION

COMMUTATIVE = ("+", "*")


def equivalents(term: S.Term) -> Iterator[tuple[str, str, S.Term]]:
    """The programs equal to `term` by one equivalence at one site, outermost site first:
    (the construct rewritten, as steering.features names it; what was done; the program)."""
    def at(t: S.Term, rebuild) -> Iterator[tuple[str, str, S.Term]]:
        if isinstance(t, S.Let):
            yield "let", "a let written as an applied λ", rebuild(S.App(S.Lam(t.var, t.annot, t.body), t.bound))
        if isinstance(t, S.App) and isinstance(t.fun, S.Lam):
            yield "app", "an applied λ written as a let", rebuild(S.Let(t.fun.var, t.fun.annot, t.arg, t.fun.body))
        if isinstance(t, S.BinOp) and t.op in COMMUTATIVE:
            yield t.op, f"the operands of {t.op} swapped", rebuild(S.BinOp(t.op, t.right, t.left))
        for i, child in enumerate(S.subterms(t)):
            yield from at(child, lambda new, t=t, i=i: rebuild(S.with_child(t, i, new)))

    yield from at(term, lambda new: new)


def same_defect_form(term: S.Term) -> str:
    """The program up to what the search already knows does not tell one defect from another:
    every `let` as the applied λ it means, the operands of `+` and `*` in one order, every
    constant 0, no annotations, canonical names. Two minimal programs of one bucket with the
    same form are one defect written two ways (docs/ORACLE.md, Buckets and signatures)."""
    from goi.semantics.canonical import canonical_names
    from goi.semantics.pretty import pretty

    def go(t: S.Term) -> S.Term:
        if isinstance(t, S.Const):
            return S.Const(Fraction(0))
        if isinstance(t, S.Prov):
            return S.Prov(Fraction(0))
        if isinstance(t, S.Let):
            return S.App(S.Lam(t.var, None, go(t.body)), go(t.bound))
        for i, child in enumerate(S.subterms(t)):
            t = S.with_child(t, i, go(child))
        if isinstance(t, S.BinOp) and t.op in COMMUTATIVE:
            left, right = sorted((t.left, t.right), key=_nameless)
            return S.BinOp(t.op, left, right)
        return t

    return pretty(canonical_names(go(canonical_names(strip_annotations(term)))))


def _nameless(term: S.Term) -> str:
    """A term's text with every name the same: an order of operands that renaming keeps."""
    from goi.semantics.pretty import pretty

    return re.sub(r"[A-Za-z_][A-Za-z0-9_']*", "_", pretty(term))


class Unmasking:
    """Members of the buckets rewritten, for the bugs their first bug hides."""

    def unmask(self, report: Report, buckets: dict, needs: dict) -> None:
        """For each bucket (`buckets`: every bucket of the survey, signature -> its members: a
        signature among them is not new; hangs and accepted ill-typed programs excepted: a hang's try costs the timeout), its members rewritten
        (`equivalents`) at the sites of what the bucket's minimal program needs (`needs`:
        signature -> features; None: unknown, every site) — a bug that needs only a `-` is
        never dodged by a rewriting, and its members cost no call — at most UNMASK_CALLS calls
        a bucket; a rewriting that fails with a signature neither met nor known is reduced and
        listed as a bucket."""
        for sig, cases in buckets.items():
            if cases[0].klass in (HANG, ACCEPTS_INVALID) or sig == CATCH_ALL and len(cases) < 2:
                continue
            budget = [UNMASK_CALLS]
            need = needs.get(sig)
            members = sorted(range(len(cases)), key=lambda i: (-self._beyond(cases[i].text, need), i))
            for i in members:
                if budget[0] <= 0 or len(report.shrunk) >= MAX_BUCKETS:
                    break
                self._unmask_member(report, sig, cases[i], need, budget, buckets)

    def _beyond(self, text: str, need: Optional[frozenset]) -> int:
        """How many constructs a member has beyond what its bucket's bug needs."""
        have = self._features(text)
        return 0 if have is None else len(have - (need or frozenset()))

    def _unmask_member(self, report: Report, sig: str, member, need: Optional[frozenset], budget: list,
                       met: dict) -> None:
        try:
            term = self._term(member.text)
        except (GoiError, ReadError):
            return
        variants = list(equivalents(term))
        if need:  # only the sites of what the bucket's bug needs: rewriting anything else leaves
            variants = [v for v in variants if v[0] in need  # its trigger as it was
                        or ANY_OPERATION in need and v[0] in ABLATED]
        for _, what, variant in variants:
            if budget[0] <= 0:
                return
            text = self.text_of(variant, of_type=F)  # an annotation the notation dropped may now be missing
            if text is None or text in self.cache:
                continue
            budget[0] -= 1
            case = self.classify(text, origin="rewritten")
            if case is None or case.klass in (AGREE, HANG, ACCEPTS_INVALID):
                continue  # agreeing, or a hang (whose reduction costs the timeout a try): no new bucket
            new = case.signature
            if new == sig or new in report.known_signatures or new in report.shrunk or new in met:
                continue
            reduced, seconds, calls, minimal = self.shrinker(new).reduced(case)
            report.shrunk[new] = Shrunk(reduced, report.cases.index(member), 1, member.seconds, seconds, calls,
                                        minimal, new, case, unmasked=(sig, what))
            if len(report.shrunk) >= MAX_BUCKETS:
                return
