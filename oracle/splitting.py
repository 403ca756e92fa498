"""Oracle mode, splitting a bucket (the Oracle's job after a bucket is shrunk): a signature
says how a program fails, not why, so one bucket may hold two defects. Its other members are
looked at by what they need (oracle/steering.py's features, less the operators a program can
do without), and each one that needs something else is reduced too and listed as
`SIGNATURE #k` (docs/ORACLE.md, Buckets and signatures)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Optional

from goi.generators.typed import weakenings
from goi.semantics.types import F

from goi.semantics import syntax as S
from goi.semantics.errors import GoiError

from .notations import ReadError
from .steering import ABLATED, ANY_OPERATION, features

from .cases import ABLATION_CALLS, CATCH_ALL, MORE_MEMBERS, Case, Report, Shrunk
from .classification import AGREE, ROUNDING, WRONG_VALUE



def _features(term: S.Term) -> frozenset:
    """steering.features, and ANY_OPERATION for a program with any of ABLATED."""
    return _any_operation(features(term))


def _any_operation(constructs: frozenset) -> frozenset:
    """The constructs, and ANY_OPERATION if one of them is an operator (ABLATED): a program
    needing `+` needs an operation."""
    return constructs | {ANY_OPERATION} if constructs & set(ABLATED) else constructs


def as_applied(need: frozenset) -> frozenset:
    """What a program needs, read as the search reads programs (unmasking.same_defect_form): a
    `let` is the applied λ it means, so a need of `let` is one of `app`. Needs are compared in
    this form (a minimal program `let b = 0 + 1 in b` and one `(λb. b) (0 + 1)` need the same);
    they are kept as they are for the unmasking, which rewrites at the sites they name."""
    return frozenset("app" if f == "let" else f for f in need)


def covers(need: Optional[frozenset], have: frozenset) -> bool:
    """Whether a program with `have` has everything a minimal program needing `need` needs —
    so that it may fail by that one's bug (both read by as_applied)."""
    return need is not None and as_applied(need) <= as_applied(have)


def _used(term: S.Term) -> S.Term:
    """The term with every λ or let binder nobody uses used, harmlessly: its body `u` written
    `u + 0 * x` (well typed only where x and u are scalars; a decoupling's f and p are left)."""
    for i, child in enumerate(S.subterms(term)):
        term = S.with_child(term, i, _used(child))
    if isinstance(term, (S.Lam, S.Let)) and term.var not in S.free_variables(term.body):
        return dataclasses.replace(term, body=S.BinOp("+", term.body, S.BinOp("*", S.Const(Fraction(0)), S.Var(term.var))))
    return term


def _needing_less(need: Optional[frozenset], listed: list) -> Optional[tuple[str, str]]:
    """Whether a minimal program of a bucket is the defect of one listed before it in the
    bucket (key, program, need, signature) because that one has all it needs and more: the
    rule `covers` read the other way. Met in the other order, that one would not have been
    listed (it may be this bug again), so listing this one as perhaps another bug would make
    the answer depend on the order of the survey: `0 - 1 - 1` (a `-` read right-associative)
    needs `-`, the bucket's `0 - 1 + 1` needs `-` and `+`. The earlier one may show a second
    bug needing more; this one is listed still, so nothing it shows is hidden. (key, why), or
    None."""
    if need is None:
        return None
    mine = as_applied(need)
    for key, _, theirs, _ in listed:
        if theirs is not None and mine < as_applied(_any_operation(theirs)):
            return key, (f"it needs less than {key!r}, which has all it needs: met first, it would have had "
                         f"{key!r} taken for its defect again")
    return None


def _same_answer(case: Case, before: Case) -> bool:
    """Two failures of one signature alike to the letter: a wrong value the same value where
    the same is expected (an error's message is its signature, node names folded)."""
    if case.klass != WRONG_VALUE:
        return True
    a, b = case.answer, before.answer
    return case.expected == before.expected and a is not None and b is not None and (a.kind, a.value) == (b.kind, b.value)


MASKS = {"+": ((0,), (0,)), "-": ((), (0,)), "*": ((0, 1), (0, 1)), "/": ((0,), (1,))}  # left and right
# operands that make an operator's result hide the other operand: an identity (x + 0, x * 1, x / 1)
# or an annihilator (0 * x, 0 / x)
UNMASKED = {"+": 1, "-": 1, "*": 2, "/": 2}  # a constant that does neither


def _with_operator(term: S.Term, op: str, other: str, unmasked: bool = False) -> S.Term:
    """The term with every `op` written as `other`; `unmasked`: and each constant operand of
    one so written that would hide the other operand (MASKS: an identity or an annihilator of
    `other`) written as one that does not (UNMASKED). A minimal program's constants are
    lowered toward 0 and 1, so `x * 0` written with `+` is `x + 0`, which is x, and `0 - x`
    written with `*` is 0: the rewriting, not the implementation, would hide a difference."""
    for i, child in enumerate(S.subterms(term)):
        term = S.with_child(term, i, _with_operator(child, op, other, unmasked))
    if isinstance(term, S.BinOp) and term.op == op:
        left, right = term.left, term.right
        if unmasked:
            left, right = (S.Const(Fraction(UNMASKED[other])) if isinstance(t, S.Const) and t.value in masks else t
                           for t, masks in zip((left, right), MASKS[other]))
        return S.BinOp(other, left, right)
    return term


def _written_with(term: S.Term, ops, other: str) -> list:
    """The term with every operator of `ops` written as `other`: as it is, then unmasked
    (`_with_operator`) if that differs."""
    plain, unmasked = term, term
    for op in ops:
        plain, unmasked = _with_operator(plain, op, other), _with_operator(unmasked, op, other, unmasked=True)
    return [plain] if unmasked == plain else [plain, unmasked]


def closed_parts(term: S.Term) -> list:
    """The term's closed proper subprograms that compute something (no constant, provisional
    constant, λ or decoupling alone), pre-order: the parts that can fail by themselves."""
    from .reduction import positions

    return [node for path, node in positions(term) if path and not S.free_variables(node)
            and not isinstance(node, (S.Const, S.Prov, S.Lam, S.Decouple))]


class Splitting:
    """A shrunk bucket's other members: further minimal programs, and what each needs."""

    def _more_programs(self, report: Report, sig: str, cases: list, minimal: str,
                       complete: bool = True, needs: Optional[dict] = None) -> Optional[frozenset]:
        """A signature says how a program fails, not why: a wrong value's is only the kind of the
        difference ("another value"), and a generic message (a TypeError) is one for many
        defects. So two bugs can share a bucket, and its shrunk first program shows one of them.
        The bucket is split by what its programs need: a member that has every construct of a
        minimal program already shown (oracle/steering.py's features) may be that bug again;
        one that lacks some construct of each fails without what they need — perhaps another
        bug. A covered member is also tried with a needed operator written as another the
        fragment has (`a - b` as `a * b`: `_ablated`); if it still fails alike, it did not
        need that operator. The earliest such member (or its changed program) is reduced
        structurally, keeping the signature, then the earliest still uncovered; for the
        catch-all bucket its middle and its last member after them. At most MORE_MEMBERS
        reductions; each minimal program not yet shown, and not needing all that one shown
        needs (`covers`, read with a `let` as the applied λ it means: it may be that bug
        again), is listed after the bucket as `SIGNATURE #k` — said to be the same defect as
        one listed before it when that one has all it needs (`_needing_less`) or it is that
        one's defect carried by other operators (`_same_by_operators`). Only a 1-minimal
        program (`complete`) says what the bug needs: when the shrink budget ran out first,
        the catch-all's middle and last members are all there is. Returns what the first
        minimal program needs (None if not known); what each `#k` needs goes into `needs`
        under its key."""
        if not complete and sig != CATCH_ALL:
            return None
        budget = [ABLATION_CALLS]
        shown = [minimal]
        forms = {self._defect_form(minimal)}
        needed = [self._needs(minimal, sig, cases[0].klass, budget) if complete else None]
        if sig.endswith(": " + ROUNDING):  # answers within a millionth: one cause, the arithmetic the implementation
            return needed[0]  # computes in (--arithmetic), whatever construct each program has — not split by them
        spread = [i for i in sorted({len(cases) // 2, len(cases) - 1}) if i > 0] if sig == CATCH_ALL else []
        examined: dict = {False: {0}, True: {0}}  # members looked at as they are, and with operators changed

        def next_uncovered(ablate: bool) -> Optional[tuple[int, Case]]:
            if not complete:
                return None
            for i in range(1, len(cases)):
                if i not in examined[ablate]:
                    examined[ablate].add(i)  # needs only grow: a member covered now stays covered
                    found = self._uncovered(cases[i], sig, needed, budget if ablate else [0])
                    if found is not None:
                        examined[not ablate].add(i)
                        return i, found
            return None

        listed = [(sig, minimal, needed[0], sig)]  # the programs a later one may be the same defect as
        for _ in range(MORE_MEMBERS):
            pick = next_uncovered(False) or next_uncovered(True)
            if pick is None:
                i = next((i for i in spread if i not in examined[False]), None)
                if i is None:
                    return needed[0]
                examined[False].add(i)
                pick = i, cases[i]
            i, member = pick
            reduced, seconds, calls, one_minimal = self.shrinker(sig).reduced(member)
            form = self._defect_form(reduced.text)
            if reduced.text in shown or form is not None and form in forms:
                continue  # the same defect written another way (a let as an applied λ, other constants)
            need = self._needs(reduced.text, sig, member.klass, budget) if one_minimal else None
            shown.append(reduced.text)
            forms.add(form)
            if need is not None and any(covers(n, need) for n in needed):
                continue  # it needs all that a program already shown needs: it may be that defect again
            needed.append(need)
            same = _needing_less(need, listed) or \
                self._same_by_operators(reduced.text, need, sig, listed, member.klass, budget)
            key = f"{sig} #{len(shown)}"
            if needs is not None:
                needs[key] = need
            report.shrunk[key] = Shrunk(reduced, report.cases.index(cases[i]), len(cases), cases[i].seconds, seconds,
                                        calls, one_minimal, sig, cases[i], same_defect_as=same and same[0],
                                        same_because=same and same[1])
            if same is None:
                listed.append((key, reduced.text, need, sig))
        return needed[0]

    def _same_by_operators(self, text: str, need: Optional[frozenset], sig: str, listed: list, klass: str,
                           budget: list) -> Optional[tuple[str, str]]:
        """Whether a minimal program (failing with `sig`) is the same defect as one listed before
        it (key, program, need, signature) that needs other operators: one defect carried by
        whatever operator the program computes with (a closure's captured value read wrongly,
        `(b + b)` or `(b - b) / b` alike) needs `+` in one minimal program and `-` in another,
        since an operator written as another can hide the wrong value (`b - b` is 0 whatever b
        reads as). It is, when the two share a needed construct, it has every construct the
        earlier one needs but operators, and written with the earlier one's needed operators
        (each operator it has that that one does not need as one that one needs) it fails with
        either signature still, and not by an operator alone (every closed part of it without
        that one's constructs agrees by itself): (that program's key, why). Within a bucket the two signatures
        are one; across buckets they are two kinds of wrong value of one defect (`(c 0) + (c 0)`
        another value, `(c 0) / (c 0)` a non-finite number). Only the later program is
        rewritten: the earlier one written with the later one's operators has all that the
        later one needs, so it can fail by the later one's bug (a product's, when the earlier
        shows a subtraction's) — the zoo's goi_mutant did. A bug of one operator alone (`a - b`
        wrong, `a * b` wrong) shares no construct with another's and is never merged. None if
        none is, or `budget[0]` calls are spent."""
        if need is None:
            return None
        mine = as_applied(need) - {ANY_OPERATION}
        for key, other, theirs, other_sig in listed:
            if theirs is None:
                continue
            theirs = as_applied(theirs) - {ANY_OPERATION}
            if not mine & theirs or not theirs - set(ABLATED) <= mine:
                continue  # nothing shared, or the earlier one needs a construct this one does without
            if self._fails_with_operators(text, theirs, {sig, other_sig}, klass, budget):
                return key, f"written with the operators {key!r} needs, it fails alike"
        return None

    def _fails_with_operators(self, text: str, into: frozenset, sigs: set, klass: str, budget: list) -> bool:
        """Whether the program, every operator it has that `into` lacks written as one operator
        of `into` (each tried), still fails with one of the signatures `sigs`."""
        try:
            term = self._term(text)
        except (GoiError, ReadError):
            return False
        targets = [o for o in ABLATED if o in into and o in self.lacks.operators]
        sources = [o for o in ABLATED if o in features(term) and o not in into]
        if not sources:
            return False  # nothing to write otherwise: it tells nothing
        for target in targets:
            for changed in _written_with(term, sources, target):
                written = self.text_of(changed)
                if written is None or written == text:
                    continue
                if budget[0] <= 0:
                    return False
                budget[0] -= 1
                case = self.classify(written)
                if case is not None and case.klass == klass and case.signature in sigs \
                        and self._parts_agree(changed, into - set(ABLATED), budget):
                    return True
        return False

    def _parts_agree(self, term: S.Term, structure: frozenset, budget: list) -> bool:
        """Whether every closed scalar proper subprogram of the term that lacks some construct of
        `structure` (what the defect carried needs but operators) agrees by itself: a
        rewritten program that fails because an operator written in fails without that
        structure (`2 - 3`, a subtraction's bug) shows that operator's bug, not the one
        carried; a part with the structure may be the carried defect itself. False once
        `budget[0]` calls are spent."""
        for node in closed_parts(term):
            if structure <= as_applied(_features(node)):
                continue
            part = self.text_of(node, of_type=F)
            if part is None:
                continue
            case = self.classify_within(part, budget)
            if case is None or case.klass != AGREE:
                return False
        return True

    def classify_within(self, text: str, budget: list) -> Optional[Case]:
        """The program's case, a call of the implementation spent from `budget[0]` unless the
        cache has it; None once the budget is spent."""
        if text not in self.cache:
            if budget[0] <= 0:
                return None
            budget[0] -= 1
        return self.classify(text)

    def _defect_form(self, text: str) -> Optional[str]:
        """The program's form up to what does not tell defects apart (unmasking.same_defect_form)."""
        from .unmasking import same_defect_form

        try:
            return same_defect_form(self._term(text))
        except (GoiError, ReadError):
            return None

    def _features(self, text: str) -> Optional[frozenset]:
        """The constructs (steering.features) of a program as the notation reads it; None if it
        does not read back."""
        try:
            return _features(self._term(text))
        except (GoiError, ReadError):
            return None

    def _needs(self, text: str, sig: str, klass: str, budget: list) -> Optional[frozenset]:
        """What a minimal program needs: its constructs, less each operator it can do without —
        written as any other the fragment has, it still fails (`b 0 + b 0` shows a bug of
        applying b twice, not one of `+`; any, since another operator may have a bug of its
        own) — and less its unused binders (`weakening`) when, each used harmlessly (`u + 0 *
        x`, `_used`), it fails as it did, the same answer (an operator the use adds that has a
        bug of its own would change it): a 1-minimal program keeps an unused
        binder where removing it would take away what the bug needs (the third use of a
        shared value, say), not only where the bug is one of unused binders. Failing alike is
        failing in the same class: a signature is the kind of the difference, which other
        operators change for one defect (`1 + {-1}` for a constant read without its sign:
        another value; `1 * {-1}`: the opposite sign). Never nothing: a program whose every
        operator is spare needs an operation, any (ANY_OPERATION: `1 / 3` and `0.2 + 0.4`
        show one rounding bug)."""
        have = self._features(text)
        if have is None:
            return None
        have = have - {ANY_OPERATION}
        term, spare = self._term(text), set()
        operators = self.lacks.operators
        for op in [o for o in ABLATED if o in have]:
            tried = 0
            for other in [o for o in ABLATED if o != op and o in operators and o != "/"]:
                alike = self._fails_in_class([self.text_of(t) for t in _written_with(term, [op], other)], klass, budget)
                if alike is None:
                    continue
                if not alike:
                    tried = 0
                    break
                tried += 1
            if tried:
                spare.add(op)
        if "weakening" in have and {"+", "*"} <= set(operators) and budget[0] > 0:
            used = _used(term)
            changed = self.text_of(used, of_type=F) if weakenings(used) == 0 else None
            if changed is not None:
                budget[0] -= 1
                case, before = self.classify(changed), self.classify(text)
                if case is not None and before is not None and case.signature == sig and _same_answer(case, before):
                    spare.add("weakening")  # its unused binders used, it fails as it did: they were incidental
        operations = spare - {"weakening"}
        return have - spare if have - spare else frozenset({ANY_OPERATION}) if operations else have

    def _fails_in_class(self, texts: list, klass: str, budget: list) -> Optional[bool]:
        """Whether one of the programs (None: not written) fails in the class `klass`, each one
        a call spent from `budget[0]` until one does; None if none is written, False once the
        budget is spent."""
        texts = [t for t in texts if t is not None]
        if not texts:
            return None
        for text in texts:
            if budget[0] <= 0:
                return False
            budget[0] -= 1
            case = self.classify(text)
            if case is not None and case.klass == klass:
                return True
        return False

    def _uncovered(self, case: Case, sig: str, needed: list, budget: list) -> Optional[Case]:
        """The member itself if no minimal program shown is covered by its constructs; else
        the member with the covering programs' operators written as others, one at a time
        (`_ablated`), as long as it fails with the same signature, until it is uncovered; None
        if it is not (or `budget[0]` calls are spent)."""
        have = self._features(case.text)
        if have is None:
            return None
        current, term, seen = case, None, {case.text}
        while True:
            covering = [n for n in needed if covers(n, have)]
            if not covering:
                return current
            if term is None:
                term = self._term(case.text)
            changed = self._ablated(term, sig, case.klass, frozenset().union(*covering), budget, seen)
            if changed is None:
                return None
            term, current = changed
            have = _features(term)

    def _ablated(self, term: S.Term, sig: str, klass: str, need: frozenset, budget: list, seen: set):
        """The program with one needed operator written as another the fragment has and `need`
        lacks (`-` as `*`, …; one the program already has first), not `seen` before, if it
        still fails with the signature: (term, case); else None."""
        operators, has = self.lacks.operators, features(term)
        others = sorted((o for o in ABLATED if o in operators and o not in need and o != "/"), key=lambda o: o not in has)
        for op in [o for o in ABLATED if o in need]:
            for other in others:
                if budget[0] <= 0:
                    return None
                changed = _with_operator(term, op, other)
                text = self.text_of(changed)
                if text is None or text in seen:
                    continue
                seen.add(text)
                budget[0] -= 1
                case = self.classify(text)
                if case is not None and case.klass == klass and case.signature == sig:
                    return self.terms.get(text, changed), case
        return None
