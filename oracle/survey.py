"""Oracle mode: another implementation against the machine, every distinct failure shrunk
(docs/ORACLE.md).

1. The corpus first: the paper's and the visualiser's example programs (tests/programs/),
   printed in the target's notation.
2. A survey: `max_programs` distinct programs drawn by the well-typed generators, only what
   the target's notation and fragment can write (a notation without negative numbers gets
   none drawn), in stages of growing depth (SCHEDULE: many small programs first), with swarm
   testing and sharing patterns (generators/typed.py), and our machine's run of each fed
   back to Hypothesis' target() (rules fired, each rule feature's count), so that what the machine
   rarely does is drawn more. They are printed in its notation and run by it (`jobs` at a
   time); each is classified (CLASSES) and given a signature (oracle/classification.py). The
   expected outcome is always our machine's on the very text the implementation received
   (our parser reads both notations).
3. Failures are bucketed by signature. For every bucket (and every one kept in Hypothesis'
   example database), a separate Hypothesis run, from the seed of the stage that found it,
   fails *only* on that signature, so each is shrunk on its own — a shrink step never slides
   from one bug to another. Answers are cached by program text: the second run's generation
   costs nothing; only shrinking calls the implementation. Then the structural reducer
   (oracle/reduction.py) takes the program to a 1-minimal one, still of that signature. A
   shrink budget — calls of the implementation, and optionally seconds — bounds each bucket:
   past it, programs not yet tried are taken as not failing, which ends the shrinking (the
   failure is then reported as shrunk as far as the budget allowed, and not known to be
   minimal).

Two protocols (oracle/protocols.py, oracle/sessions.py): one process per program (`oneshot`), or one
persistent process per job answering JSON lines (`lines`), restarted after a crash or a hang.
"""

from __future__ import annotations

import queue
import time
from dataclasses import replace
from fractions import Fraction
from typing import Callable, Optional

from hypothesis.database import DirectoryBasedExampleDatabase

from goi.semantics import syntax as S
from goi.semantics.errors import GoiError

from .arithmetic import declared
from .notations import ReadError, notation
from .sessions import Session

from .cases import MAX_BUCKETS, SAME_DEFECT_CALLS, Case, OracleConfig, Report, Shrunk
from .classification import ACCEPTS_INVALID, AGREE, BEYOND, CLASSES, FAILURES, HANG, IMPL_ERROR, REJECTS_VALID, WRONG_VALUE  # noqa: F401
from .asking import Asking
from .campaigning import Campaigning, OracleWork, SurveyWork  # noqa: F401 (the campaign's works, by their old name)
from .classifying import Classifying
from .drawing import Drawing, ill_typed  # noqa: F401
from .kept import Kept
from .shrinking import Shrinker
from .splitting import Splitting, as_applied, closed_parts, covers
from .unmasking import Unmasking


def same(expected, got, tolerance: Optional[Fraction]) -> bool:
    """The exact arithmetic's agreement (oracle/arithmetic.py), within a relative tolerance."""
    return replace(declared("exact"), tolerance=tolerance).same(expected, got)


def _root(report: Report, key: Optional[str], start: str) -> Optional[str]:
    """The entry `key` leads to through what each is said to be the same defect as (`start`'s
    own chain: a cycle stops where it comes back), or None for None."""
    seen = {start}
    while key is not None and report.shrunk[key].same_defect_as is not None and key not in seen:
        seen.add(key)
        key = report.shrunk[key].same_defect_as
    return key


class Oracle(Drawing, Asking, Classifying, Splitting, Unmasking, Campaigning):
    """One run against one implementation, its jobs each a module of its own: drawing the
    programs (oracle/drawing.py), asking the implementation (asking.py), classifying its
    answers (classifying.py), splitting a bucket (splitting.py), unmasking (unmasking.py),
    campaigns (campaigning.py). The run itself is a loop over the buckets, each shrunk by a
    Shrinker of its own (shrinking.py) that owns its budget; the buckets kept between runs
    (kept.py) and known buckets set aside, here."""

    def __init__(self, config: OracleConfig, progress: Optional[Callable[[str, int, int], None]] = None,
                 warn: Optional[Callable[[str], None]] = None):
        self.config = config
        self.warn = warn  # a campaign's plan and its checkpoint's warnings (standard error)
        self.cache: dict[str, Case] = {}
        self.calls = 0
        self.progress = progress
        self.sessions: "queue.SimpleQueue[Session]" = queue.SimpleQueue()  # the lines protocol's idle sessions
        self.all_sessions: list[Session] = []
        # the notation's declaration (oracle/notations): it prints each program and reads it back
        self.declared = notation(config.notation) if config.printer is None else None
        self.lacks = config.fragment  # what it lacks (oracle/fragment.py): never drawn, never sent
        self.arithmetic = config.declared_arithmetic  # what it computes with (oracle/arithmetic.py)
        signed = not ("fit" in config.search and self.declared is not None
                      and not self.declared.notation.signed_provisional)
        self.fragment = self.lacks.draw(config.search, signed)  # the generator's settings
        self.expectations: dict[str, tuple] = {}  # text -> our outcome (the survey's draw computes it)
        self.stage_counts: list[int] = []  # the programs each stage of the survey drew (SCHEDULE, carried over)
        self.terms: dict[str, S.Term] = {}  # each printed text's term (what it reads as; the printer's term)
        self.judgements: dict = {}  # text -> the judgement text_of made, when the text reads as the term judged
        self.seconds = {"ours": 0.0, "implementation": 0.0}  # where the time goes (summed over jobs): benchmarks
        self.ours: dict[str, float] = {}  # seconds goi's machine took on each text (a hang's shrinking is priced by it)
        self.avoid: dict[int, frozenset] = {}  # stage -> the features steered away from (oracle/steering.py)
        self.known_set: frozenset = frozenset()  # the signatures --known sets aside (steered away from too)


    def run(self) -> Report:
        try:
            return self._run()
        finally:
            self.close()

    def _run(self) -> Report:
        started = time.perf_counter()
        report = Report(self.config)
        report.known_signatures = self.known_set = self.known_signatures()
        self.corpus_cases(report)
        if self.config.exhaustive is not None or self.config.shards is not None:
            self.campaign(report)
            report.seconds = time.perf_counter() - started
            return report
        survey_started = time.perf_counter()
        drawn = self.survey(report)
        report.survey_seconds = time.perf_counter() - survey_started
        for stage, text in drawn:
            case = self.cache[text]
            report.cases.append(case)
            report.counts[case.klass] += 1
            report.programs += 1
        kept = Kept(DirectoryBasedExampleDatabase(self.config.database) if self.config.database else None, self.config)
        every = report.buckets()
        buckets = self.set_aside(report, every, lambda sig: len(every[sig]))
        needs: dict = {}  # signature -> what its minimal program needs (the split's; the unmasking's)
        order = sorted(buckets, key=lambda sig: (-len(buckets[sig]), report.cases.index(buckets[sig][0])))
        for rank, sig in enumerate(order):
            cases = buckets[sig]
            first = cases[0]
            found_after, find_seconds = report.cases.index(first), first.seconds
            if rank >= MAX_BUCKETS:
                report.shrunk[sig] = Shrunk(first, found_after, len(cases), find_seconds, 0.0, 0, False, sig, first,
                                            shrunk=False)
                continue
            shrinker = Shrinker(self, sig, self.config.shrink_calls, self.config.shrink_seconds)
            shrunk = shrinker.shrink(first.stage, first)
            case, seconds, calls, complete = shrunk if shrunk is not None else (first, 0.0, 0, False)
            if case is not None and case.klass == HANG and shrunk is None:
                case = shrinker.confirmed_hang([first])
            if case is None:  # a hang that did not hang again at the full --timeout: not reported
                report.unconfirmed[sig] = len(cases)
                continue
            report.shrunk[sig] = Shrunk(case, found_after, len(cases), find_seconds, seconds, calls, complete, sig, first)
            kept.remember(sig, case.text)
            if case.klass in (WRONG_VALUE, IMPL_ERROR, REJECTS_VALID):
                needs[sig] = self._more_programs(report, sig, cases, case.text, complete, needs)
        self.same_defects(report, needs)
        if "unmask" in self.config.search:  # the known buckets' members too: what they hide is new
            self.unmask(report, {sig: every[sig] for sig in order + [s for s in every if s not in buckets]}, needs)
        self.replay_kept(kept, report)
        report.seconds = time.perf_counter() - started
        return report

    def shrinker(self, signature: str) -> Shrinker:
        """A Shrinker for a reduction alone (a bucket's further member, a campaign's failure, a
        kept program): the shrink budget in calls."""
        return Shrinker(self, signature, self.config.shrink_calls)

    def replay_kept(self, kept: Kept, report: Report) -> None:
        """Each kept bucket the survey did not meet, tried again: still failing, it is reported
        (found_after -1) and its program reduced again; agreeing now, it is forgotten."""
        for sig, text, value in kept.saved():
            if sig in report.shrunk or sig in report.known_signatures:
                continue
            try:
                case = self.classify(text)
            except GoiError:
                case = None  # our front end no longer reads it
            if case is not None and case.klass == BEYOND:
                continue  # beyond goi's budget on this run: kept, not judged
            if case is None or case.klass == AGREE:
                kept.forget(value)
                continue
            now = case.signature
            if now in report.shrunk or now in report.known_signatures:
                continue
            reduced, seconds, calls, complete = self.shrinker(now).reduced(case)
            report.shrunk[now] = Shrunk(reduced, -1, 0, 0.0, seconds, calls, complete, now, case)
            if now != sig:
                kept.forget(value)
            kept.remember(now, reduced.text)

    def same_defects(self, report: Report, needs: dict) -> None:
        """A wrong value's signature is the kind of its difference, not its cause: one defect
        (a subtraction computed the wrong way round) gives the opposite sign on `0 - 1` and
        another value on `1 + (0 - 1)`. A wrong-value bucket (or another minimal program of
        one, `#k`) is listed as the same defect as an earlier bucket, and not counted as a
        defect of its own, when its minimal program
        - needs the same constructs (Splitting._needs: what it cannot do without) as an
          earlier bucket's, or
        - (a `#k` of a bucket said to be another's defect) has all that that one's minimal
          program needs: within that bucket it would not have been listed, or
        - holds a closed scalar subprogram that fails by itself in that bucket and has what one
          of its minimal programs needs: its wrong value flows from that one, or
        - (a bucket) is an earlier one's defect carried by other operators
          (Splitting._same_by_operators: written with the operators that one needs, it fails
          so still, and not by an operator alone).
        `needs` holds what each shrunk entry needs, by its key (a bucket's signature, `#k`).
        Each costs at most SAME_DEFECT_CALLS calls of the implementation a bucket."""
        first: dict = {}
        listed: list = []  # the buckets so far that are defects of their own: (key, program, need, signature)
        for key in list(report.shrunk):
            shrunk = report.shrunk[key]
            if shrunk.case.klass != WRONG_VALUE or not shrunk.complete:
                continue
            need = needs.get(key)
            root = key == shrunk.signature
            if root and need is not None and as_applied(need) in first:  # a let is the applied λ it means
                shrunk.same_defect_as, shrunk.same_because = first[as_applied(need)], "it needs the same constructs"
                continue
            if not root and need is not None and shrunk.same_defect_as is None:  # a #k listed as perhaps another bug
                same = self._same_as_another_bucket(report, key, need, first, needs)
                if same is not None:
                    shrunk.same_defect_as, shrunk.same_because = same
                    continue
            earlier = {other: (s.signature, needs.get(other)) for other, s in report.shrunk.items()
                       if s.signature != shrunk.signature and s.complete and s.case.klass == WRONG_VALUE
                       and (other == s.signature) == (s.same_defect_as is None)}  # a defect's programs
            cause = self._failing_part(shrunk.case.text, earlier)
            if cause is not None:
                shrunk.same_defect_as, shrunk.same_because = cause, "it holds a part that fails so by itself"
            elif root and need is not None:
                same = self._same_by_operators(shrunk.case.text, need, key, listed, WRONG_VALUE, [SAME_DEFECT_CALLS])
                if same is not None:
                    shrunk.same_defect_as, shrunk.same_because = same
                else:
                    listed.append((key, shrunk.case.text, need, key))
            if root and need is not None and shrunk.same_defect_as is None:
                first[as_applied(need)] = key  # a defect of its own: what a later one needing the same is
        for key, shrunk in report.shrunk.items():  # a defect merged into one later merged: its root
            shrunk.same_defect_as = _root(report, shrunk.same_defect_as, key)
            if shrunk.same_defect_as == key:  # a cycle back to itself: nothing else is its defect
                shrunk.same_defect_as = shrunk.same_because = None

    def _same_as_another_bucket(self, report: Report, key: str, need: frozenset, first: dict,
                                needs: dict) -> Optional[tuple[str, str]]:
        """Whether a `#k` (`key`, needing `need`) listed as perhaps another bug of its bucket is
        the defect of another bucket: it needs what that bucket's minimal program needs, or its
        own bucket is said to be that bucket's defect and it has all that one needs (as a
        member of that bucket, it would have been taken for its defect again: `1 - 1 - 1`, the
        opposite sign, beside `0 - 1 - 1`, another value, of one `-` read right-associative).
        (that bucket, why), or None."""
        signature = report.shrunk[key].signature
        other = first.get(as_applied(need))
        if other is not None and other != signature:
            return other, "it needs the same constructs"
        carrier = _root(report, report.shrunk[signature].same_defect_as, signature) if signature in report.shrunk else None
        if carrier is not None and covers(needs.get(carrier), need):
            return carrier, f"its bucket is {carrier!r}'s defect, and it has all that {carrier!r} needs"
        return None

    def _failing_part(self, text: str, shown: dict) -> Optional[str]:
        """The entry (of `shown`: key -> its signature and what its minimal program needs) in
        whose signature a closed scalar proper subprogram of `text` fails by itself, smallest
        subprograms first, and whose minimal program's needs the subprogram has: a signature
        is the kind of a wrong value, which two defects can share (`0 - 1 + 1` read as
        `0 - (1 + 1)` gives another value, as a function's parameters swapped do), so a part
        failing in the bucket of another defect is not that defect. Every minimal program
        shown counts, a bucket's and its `#k`: a part `0 - 7 - (0 - 2)` has what `0 - 1 - 1`
        needs, not what `0 - 1 + 1` does. None if none does (within SAME_DEFECT_CALLS calls),
        or the needs are not known."""
        from goi.semantics.types import F

        try:
            term = self._term(text)
        except (GoiError, ReadError):
            return None
        parts = sorted({S.size(node): node for node in closed_parts(term)}.items())
        budget = [SAME_DEFECT_CALLS]
        for _, node in parts:
            part = self.text_of(node, of_type=F)
            if part is None or part == text:
                continue
            if part not in self.cache and budget[0] <= 0:
                return None
            case = self.classify_within(part, budget)
            if case is None or case.klass != WRONG_VALUE:
                continue
            have = self._features(part) or frozenset()
            for key, (signature, need) in shown.items():
                if signature == case.signature and covers(need, have):
                    return key
        return None

    # ---- known bugs set aside (--known, oracle/known.py) ---------------------------------------
    def known_signatures(self) -> frozenset:
        """The signatures --known names, with those of the programs it lists as they fail here."""
        known = self.config.known
        if not known:
            return frozenset()
        found = set(known.signatures)
        triggers: set = set()
        for text in known.programs:
            try:
                case = self.classify(text, origin="known")
            except GoiError:
                continue  # not a program our front end reads: nothing to set aside
            if case is not None and case.klass not in (AGREE, BEYOND):
                found.add(case.signature)
                triggers |= self._trigger(text)
        for text in known.minimal:
            triggers |= self._trigger(text)
        if triggers and "steer" in self.config.search:  # from the survey's first program: steered away from
            self.avoid[0] = frozenset(triggers)
        return frozenset(found)

    def _trigger(self, text: str) -> frozenset:
        """What a known bucket's program needs that the draw can do without (steering.known_trigger)."""
        from .steering import known_trigger

        try:
            return known_trigger(self._term(text))
        except (GoiError, ReadError):
            return frozenset()

    @staticmethod
    def set_aside(report: Report, by_signature: dict, count: Callable[[str], int]) -> dict:
        """`by_signature` less the known signatures, each known one counted (`count(sig)`
        programs) in `report.known`: a survey's buckets, a campaign's first failures."""
        for sig in by_signature:
            if sig in report.known_signatures:
                report.known[sig] = report.known.get(sig, 0) + count(sig)
        return {sig: v for sig, v in by_signature.items() if sig not in report.known_signatures}
