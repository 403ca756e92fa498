"""Oracle mode, shrinking (the Oracle's job of minimising): each bucket shrunk on its own by a
Hypothesis run that fails only on its signature, then reduced structurally to a 1-minimal
program (oracle/reduction.py), within a budget; each bucket's minimal program kept in the
example database and replayed by later runs."""

from __future__ import annotations

import time
from typing import Optional

from hypothesis import given, reject, seed

from goi.semantics import syntax as S
from goi.semantics.errors import GoiError
from goi.semantics.types import F

from .notations import ReadError
from .reduction import reduce as reduce_structurally
from .steering import features

from .cases import ABLATION_CALLS, CATCH_ALL, EXCEPTIONS, MORE_MEMBERS, Case, OracleFailure, Report, Shrunk
from .classification import ACCEPTS_INVALID, AGREE, BEYOND, HANG


ABLATED = ("+", "-", "*", "/")  # the operators a covered member is tried without (Shrinking._ablated)


def _with_operator(term: S.Term, op: str, other: str) -> S.Term:
    """The term with every `op` written as `other`."""
    for i, child in enumerate(S.subterms(term)):
        term = S.with_child(term, i, _with_operator(child, op, other))
    if isinstance(term, S.BinOp) and term.op == op:
        return S.BinOp(other, term.left, term.right)
    return term


class Shrinking:
    """Shrinking buckets, and the example database of their minimal programs."""

    def shrink(self, signature: str, stage: int = -1,
               first: Optional[Case] = None) -> Optional[tuple[Optional[Case], float, int, bool]]:
        """A Hypothesis run of the stage that found the bucket, from its seed, failing only on
        `signature`: its shrunk case. A hang's is the first of the reduced program, the one
        Hypothesis shrank to and the bucket's `first` that hangs again when asked at the full
        --timeout (only the reduced one can be minimal); the case is None when none does: the
        hang is not confirmed (the machine was busy, or the implementation is not
        deterministic), and is not reported as one."""
        klass = signature.partition(": ")[0]
        exception = EXCEPTIONS[klass]
        found: list = []  # the bucket's first failure, once met

        @given(self.strategy(stage))
        def only_this_bucket(term):
            # As the survey's draw, up to the bucket's first program (so generation repeats it
            # from the cache): skip what cannot be written, feed back, fail on this bucket.
            text = self.text_of(term)
            if text is None:
                reject()
            case = self.classify(text)
            if case is None:
                return  # past the shrink budget: taken as not failing (no generation is repeated past it)
            if not found:
                self.feedback(text)  # as the survey did; once shrinking, Hypothesis no longer draws from it
            if case.klass == klass and case.signature == signature:
                found.append(case)
                raise exception(case)

        # The stage's seed, so generation repeats the survey (cache hits) until the first
        # failure of this bucket; no example database (with one, Hypothesis keeps a Pareto
        # front of the target() observations, which changes what it draws): each bucket's
        # minimal program is kept by the oracle itself (_remember).
        stage %= len(self.stages())
        count = self.stage_counts[stage] if stage < len(self.stage_counts) else self.stages()[stage][1]
        test = seed(self.stage_seed(stage))(self._settings(None, count)(only_this_bucket))
        started, calls_before = time.perf_counter(), self.calls
        seconds = self.config.shrink_seconds
        self.shrink_deadline = None if seconds is None else started + seconds
        self.shrink_calls_left = self.config.shrink_calls
        self.budget_reached = False
        self.pricing_hangs = klass == HANG
        try:
            test()
        except OracleFailure as failure:
            reduced, minimal = self.reduce(failure.case, signature)
            self.pricing_hangs = False
            minimal = minimal and not self.budget_reached
            if klass == HANG:
                # shrunk under the priced bound: reported only once it hangs at the full --timeout
                confirmed = self.confirmed_hang([reduced, failure.case, first])
                minimal, reduced = minimal and confirmed is reduced, confirmed
            return reduced, time.perf_counter() - started, self.calls - calls_before, minimal
        finally:
            self.shrink_deadline = None
            self.shrink_calls_left = None
            self.pricing_hangs = False
        return None

    def confirmed_hang(self, cases: list) -> Optional[Case]:
        """The first of `cases` (None and repeats skipped) that hangs when asked again at the full
        --timeout, not from the cache; None if none does."""
        asked = set()
        for case in cases:
            if case is None or case.text in asked:
                continue
            asked.add(case.text)
            if self._call(case.text).kind == "hang":
                return case
        return None

    # ---- after Hypothesis: structural reduction ------------------------------------------------
    def reduce(self, case: Case, signature: Optional[str] = None) -> tuple[Case, bool]:
        """The failing program reduced structurally (oracle/reduction.py) while its signature
        (its class, without one) stays: (the smallest case, whether it is 1-minimal)."""
        try:
            term = self._term(case.text)
        except (GoiError, ReadError):
            return case, False

        def text_of(candidate: S.Term) -> Optional[str]:
            # a closed program of type F; an ill-typed program stays ill-typed (keep decides)
            return self.text_of(candidate, of_type=None if case.klass == ACCEPTS_INVALID else F)

        def keep(text: str) -> Optional[bool]:
            smaller = self.classify(text)
            if smaller is None:
                return None
            return smaller.klass == case.klass and (signature is None or smaller.signature == signature)

        if self.budget_reached or text_of(term) is None:
            return case, False
        reduction = reduce_structurally(term, text_of, keep)
        return self.cache.get(reduction.text, case), reduction.minimal

    def reduce_within_budget(self, case: Case, signature: str) -> tuple[Case, float, int, bool]:
        """The structural reduction alone (no Hypothesis run) under the shrink budget in calls:
        (the smallest case, seconds, calls, whether it is 1-minimal within the budget)."""
        started, calls_before = time.perf_counter(), self.calls
        self.shrink_calls_left, self.budget_reached = self.config.shrink_calls, False
        try:
            reduced, minimal = self.reduce(case, signature)
        finally:
            self.shrink_calls_left = None
        return reduced, time.perf_counter() - started, self.calls - calls_before, minimal and not self.budget_reached

    def database_key(self, signature: str) -> bytes:
        c = self.config
        parts = [" ".join(c.command), c.notation, ",".join(sorted(c.all_fragments)), str(c.tolerance), c.division,
                 str(c.ill_typed), signature]
        return ("goi.oracle:" + "|".join(parts)).encode("utf-8")


    def _more_programs(self, report: Report, sig: str, cases: list, minimal: str,
                       complete: bool = True) -> Optional[frozenset]:
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
        reductions; each minimal program not yet shown is listed after the bucket as
        `SIGNATURE #k`. Only a 1-minimal program (`complete`) says what the bug needs: when the
        shrink budget ran out first, the catch-all's middle and last members are all there is.
        Returns what the first minimal program needs (None if not known)."""
        if not complete and sig != CATCH_ALL:
            return None
        budget = [ABLATION_CALLS]
        shown = [minimal]
        forms = {self._defect_form(minimal)}
        needed = [self._needs(minimal, sig, cases[0].klass, budget) if complete else None]
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

        for _ in range(MORE_MEMBERS):
            pick = next_uncovered(False) or next_uncovered(True)
            if pick is None:
                i = next((i for i in spread if i not in examined[False]), None)
                if i is None:
                    return needed[0]
                examined[False].add(i)
                pick = i, cases[i]
            i, member = pick
            reduced, seconds, calls, one_minimal = self.reduce_within_budget(member, sig)
            form = self._defect_form(reduced.text)
            if reduced.text in shown or form is not None and form in forms:
                continue  # the same defect written another way (a let as an applied λ, other constants)
            need = self._needs(reduced.text, sig, member.klass, budget) if one_minimal else None
            shown.append(reduced.text)
            forms.add(form)
            if need is not None and need in needed:
                continue  # it needs what a program already shown needs: nothing tells it from that defect
            needed.append(need)
            report.shrunk[f"{sig} #{len(shown)}"] = Shrunk(reduced, report.cases.index(cases[i]), len(cases),
                                                           cases[i].seconds, seconds, calls, one_minimal, sig, cases[i])
        return needed[0]

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
            return features(self._term(text))
        except (GoiError, ReadError):
            return None

    def _needs(self, text: str, sig: str, klass: str, budget: list) -> Optional[frozenset]:
        """What a minimal program needs: its constructs, less each operator it can do without —
        written as any other the fragment has, it still fails with the signature (`b 0 + b 0`
        shows a bug of applying b twice, not one of `+`). Never nothing: an operator is kept
        when it is all the program has."""
        have = self._features(text)
        if have is None:
            return None
        term, spare = self._term(text), set()
        operators = self.fragment["operators"]
        for op in [o for o in ABLATED if o in have]:
            tried = 0
            for other in [o for o in ABLATED if o != op and o in operators and o != "/"]:
                changed = self.text_of(_with_operator(term, op, other))
                if changed is None:
                    continue
                if budget[0] <= 0:
                    tried = 0
                    break
                budget[0] -= 1
                case = self.classify(changed)
                if case is None or case.klass != klass or case.signature != sig:
                    tried = 0
                    break
                tried += 1
            if tried:
                spare.add(op)
        return have - spare if have - spare else have

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
            covering = [n for n in needed if n is not None and n <= have]
            if not covering:
                return current
            if term is None:
                term = self._term(case.text)
            changed = self._ablated(term, sig, case.klass, frozenset().union(*covering), budget, seen)
            if changed is None:
                return None
            term, current = changed
            have = features(term)

    def _ablated(self, term: S.Term, sig: str, klass: str, need: frozenset, budget: list, seen: set):
        """The program with one needed operator written as another the fragment has and `need`
        lacks (`-` as `*`, …; one the program already has first), not `seen` before, if it
        still fails with the signature: (term, case); else None."""
        operators, has = self.fragment["operators"], features(term)
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


    # ---- the example database: each bucket's minimal program, replayed by later runs ----------
    # Kept as program texts (not Hypothesis' choice sequences, which a changed generator would
    # read as other programs), under one key per configuration, in Hypothesis' example database.
    def _index_key(self) -> bytes:
        return self.database_key("(buckets)")

    def _saved(self, database) -> list[tuple[str, str, bytes]]:
        """(signature, program, stored value) of every bucket kept by earlier runs."""
        import json

        if database is None:
            return []
        out = []
        for value in database.fetch(self._index_key()):
            try:
                entry = json.loads(value.decode("utf-8"))
                out.append((str(entry["signature"]), str(entry["program"]), value))
            except (ValueError, KeyError, TypeError):
                database.delete(self._index_key(), value)  # not ours, or from an older goi
        return sorted(out)

    def _remember(self, database, sig: str, text: str) -> None:
        import json

        if database is None:
            return
        for old, _, value in self._saved(database):
            if old == sig:
                database.delete(self._index_key(), value)
        database.save(self._index_key(), json.dumps({"signature": sig, "program": text}, ensure_ascii=False).encode("utf-8"))

    def _replay_saved(self, database, report: Report) -> None:
        """Each kept bucket the survey did not meet, tried again: still failing, it is reported
        (found_after -1) and its program reduced again; agreeing now, it is forgotten."""
        for sig, text, value in self._saved(database):
            if sig in report.shrunk or sig in report.known_signatures:
                continue
            try:
                case = self.classify(text)
            except GoiError:
                case = None  # our front end no longer reads it
            if case is not None and case.klass == BEYOND:
                continue  # beyond goi's budget on this run: kept, not judged
            if case is None or case.klass == AGREE:
                database.delete(self._index_key(), value)
                continue
            now = case.signature
            if now in report.shrunk or now in report.known_signatures:
                continue
            reduced, seconds, calls, complete = self.reduce_within_budget(case, now)
            report.shrunk[now] = Shrunk(reduced, -1, 0, 0.0, seconds, calls, complete, now, case)
            if now != sig:
                database.delete(self._index_key(), value)
            self._remember(database, now, reduced.text)
