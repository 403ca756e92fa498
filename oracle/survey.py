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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Callable, Optional

from hypothesis import HealthCheck, Phase, Verbosity, given, reject, seed, settings, target
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.errors import FlakyFailure, Unsatisfiable

from goi import api
from goi.generators.typed import programs
from goi.semantics import syntax as S
from goi.semantics.errors import GoiError
from goi.semantics.types import F
from goi.semantics.rules import fired

from .arithmetic import ARITHMETICS
from .corpus import corpus_files
from .notations import Inexpressible, ReadError, notation
from .protocols import Answer, call
from .reduction import reduce as reduce_structurally
from .sessions import Session

from .cases import (CATCH_ALL, DRAWS, EXCEPTIONS, FEEDBACK_FEATURES, HANG_FACTOR, HANG_FLOOR, MAX_BUCKETS, MORE_MEMBERS,
                    OPERATOR_FRAGMENTS, SCHEDULE,
                    Case, OracleConfig, OracleFailure, Report, Shrunk)
from .classification import ACCEPTS_INVALID, AGREE, CLASSES, FAILURES, HANG, IMPL_ERROR, REJECTS_VALID, WRONG_VALUE


def same(expected, got, tolerance: Optional[Fraction]) -> bool:
    """The exact arithmetic's agreement (oracle/arithmetic.py), within a relative tolerance."""
    from types import SimpleNamespace

    return ARITHMETICS["exact"].same(expected, got, SimpleNamespace(tolerance=tolerance))


# ---- ill-typed programs ----------------------------------------------------------------------

@st.composite
def ill_typed(draw, max_depth: int, **fragment):
    """A well-typed program made ill-typed at its root (our checker must reject it; the
    callers skip the rare one it accepts)."""
    t = draw(programs(max_depth=max_depth, **fragment))
    kind = draw(st.sampled_from(["apply", "add-function", "escape", "dot-scalars"]))
    if kind == "apply":
        return S.App(t, t)  # F applied to F
    if kind == "add-function":
        return S.BinOp("+", S.Lam("x", None, t), t)
    if kind == "escape":
        return S.LetDecouple("f", "p", None, None, t, S.Var("p"))  # V_a escapes its decoupling
    return S.BinOp("•", t, t)  # • on scalars


class Oracle:
    def __init__(self, config: OracleConfig, progress: Optional[Callable[[str, int, int], None]] = None,
                 warn: Optional[Callable[[str], None]] = None):
        self.config = config
        self.warn = warn  # a campaign's plan and its checkpoint's warnings (standard error)
        self.cache: dict[str, Case] = {}
        self.calls = 0
        self.progress = progress
        self.shrink_deadline: Optional[float] = None
        self.shrink_calls_left: Optional[int] = None  # while shrinking with a call budget
        self.budget_reached = False
        self.sessions: "queue.SimpleQueue[Session]" = queue.SimpleQueue()  # the lines protocol's idle sessions
        self.all_sessions: list[Session] = []
        # the notation's declaration (oracle/notations): it prints each program and reads it back
        self.declared = notation(config.notation) if config.printer is None else None
        fr = config.all_fragments
        self.fragment = dict(iterated="no-iterated" not in fr, division="no-division" not in fr,
                             vector_ops="no-vector-ops" not in fr, decoupling_values="no-decoupling-values" not in fr,
                             decoupling="no-decoupling" not in fr and "no-provisional" not in fr,
                             provisional="no-provisional" not in fr, integers="integers" in fr,
                             non_negative="non-negative" in fr,
                             operators=tuple(op for name, op in OPERATOR_FRAGMENTS.items() if name not in fr))
        search = config.search
        self.fragment.update(sharing="sharing" in search, swarm="swarm" in search, scopes="scopes" in search,
                             signed=not ("fit" in search and self.declared is not None
                                         and not self.declared.notation.signed_provisional))
        self.expectations: dict[str, tuple] = {}  # text -> our outcome (the survey's draw computes it)
        self.stage_counts: list[int] = []  # the programs each stage of the survey drew (SCHEDULE, carried over)
        self.annotations = "no-annotations" not in fr
        self.terms: dict[str, S.Term] = {}  # each printed text's term (what it reads as; the printer's term)
        self.seconds = {"ours": 0.0, "implementation": 0.0}  # where the time goes (summed over jobs): benchmarks
        self.ours: dict[str, float] = {}  # seconds goi's machine took on each text (a hang's shrinking is priced by it)
        self.pricing_hangs = False  # while shrinking a hang: each try bounded by hang_timeout(text)
        self.avoid: dict[int, frozenset] = {}  # stage -> the features steered away from (oracle/steering.py)

    # ---- one program -------------------------------------------------------------------
    def text_of(self, term: S.Term) -> Optional[str]:
        """The program in the target's notation; None if it cannot be written there or our
        own front end does not accept what was written (annotations dropped)."""
        c = self.config
        try:
            judgement = api.judge(term)
        except GoiError:
            judgement = None
            if not c.ill_typed:
                return None
        if c.printer is not None:
            return self._printed(term)
        try:  # an ill-typed program (--ill-typed) has no types: its operators are written as they are
            printed = self.declared.print(term, judgement.operators if judgement is not None else None,
                                          self.annotations, c.parenthesize)
        except Inexpressible:
            return None
        self.terms[printed.text] = printed.term
        return printed.text

    def _printed(self, term: S.Term) -> Optional[str]:
        """The user's printer (--printer): its text, remembered with the term, since our own
        parser need not read it; Inexpressible (or ValueError) from it skips the program."""
        try:
            text = self.config.printer(term)
        except (Inexpressible, ValueError):
            return None
        if not isinstance(text, str):
            raise TypeError(f"the printer returned {type(text).__name__}, not the program's text")
        self.terms[text] = term
        return text

    def _term(self, text: str):
        """The term a text stands for: the one printed (by the notation, or the user's
        printer), else the text read by the notation (a replayed or saved program)."""
        if text in self.terms:
            return self.terms[text]
        if self.declared is None:  # --printer: a text it printed that this run did not (goi's parser reads it, or not)
            from goi.semantics.parser import parse

            return parse(text)
        return self.declared.read(text)

    def expected(self, text: str) -> tuple[object, int, dict, bool]:
        """Our outcome on the text: (value or "undefined", transitions, rules, well_typed)."""
        if text in self.expectations:
            return self.expectations[text]
        started = time.perf_counter()
        try:
            self.expectations[text] = self._expected(text)
            return self.expectations[text]
        finally:
            took = time.perf_counter() - started
            self.seconds["ours"] += took
            self.ours[text] = took

    def _expected(self, text: str) -> tuple[object, int, dict, bool]:
        try:
            judgement = api.judge(self._term(text))
        except GoiError as exc:
            return f"ill-typed: {exc.message}", 0, {}, False
        except ReadError as exc:
            return f"ill-typed: not a program of the notation: {exc}", 0, {}, False
        field = ARITHMETICS[self.config.arithmetic].field(self.config)
        if field is None:
            result = api.run(judgement, division=self.config.division)
        else:
            try:
                result = api.run(judgement, field=field)
            except ValueError as exc:  # a constant the arithmetic has no value for (an integer field's 0.5)
                return f"ill-typed: outside the {self.config.arithmetic} arithmetic: {exc}", 0, {}, False
        if result.status == "undefined":
            return "undefined", result.transitions, result.rules, True
        if result.status != "final":
            raise RuntimeError(f"our machine ended {result.status} on a well-typed program: {result.reason}\n{text}")
        return result.value, result.transitions, result.rules, True

    def classify(self, text: str, origin: str = "generated") -> Optional[Case]:
        if text in self.cache:
            return self.cache[text]
        if (self.shrink_deadline is not None and time.perf_counter() > self.shrink_deadline
                or self.shrink_calls_left is not None and self.shrink_calls_left <= 0):
            self.budget_reached = True
            return None  # past the shrink budget: an untried program is taken as not failing
        if self.shrink_calls_left is not None:
            self.shrink_calls_left -= 1
        expected, transitions, rules, well_typed = self.expected(text)
        answer = self._call(text)
        case = Case(text, self._klass(expected, answer, well_typed), expected, answer, transitions, rules, origin)
        self.cache[text] = case
        return case

    def _call(self, text: str) -> Answer:
        started = time.perf_counter()
        try:
            return self._call_implementation(text)
        finally:
            self.seconds["implementation"] += time.perf_counter() - started

    def hang_timeout(self, text: str) -> float:
        """A try's bound while shrinking a hang: a multiple of what goi's machine needs for the
        same program, with a floor, never past --timeout (cases.HANG_FACTOR, HANG_FLOOR)."""
        return min(self.config.timeout, max(HANG_FLOOR, HANG_FACTOR * self.ours.get(text, 0.0)))

    def _call_implementation(self, text: str) -> Answer:
        self.calls += 1
        c = self.config
        timeout = self.hang_timeout(text) if self.pricing_hangs else c.timeout
        if c.protocol == "oneshot":
            return call(c.command, text, timeout, c.memory_mb)
        try:
            session = self.sessions.get_nowait()
        except queue.Empty:
            session = Session(c.command, c.timeout, c.memory_mb, c.startup_timeout)
            self.all_sessions.append(session)
        try:
            return session.ask(text, timeout)
        finally:
            self.sessions.put(session)

    def close(self) -> None:
        """End every persistent session (the whole process group of each)."""
        for session in self.all_sessions:
            session.close()

    def _klass(self, expected, answer: Answer, well_typed: bool) -> str:
        if answer.kind == "hang":
            return HANG
        if not well_typed:  # not a program we evaluate: anything but a value is a refusal
            return ACCEPTS_INVALID if answer.kind == "value" else AGREE
        if answer.kind in ("crash", "unparseable"):
            return IMPL_ERROR
        if answer.kind == "rejected":
            return REJECTS_VALID
        if answer.kind == "error":
            return AGREE if expected == "undefined" else IMPL_ERROR
        if expected == "undefined":
            return WRONG_VALUE
        return AGREE if ARITHMETICS[self.config.arithmetic].same(expected, answer.value, self.config) else WRONG_VALUE

    # ---- the runs ----------------------------------------------------------------------
    def stages(self) -> list[tuple[int, int]]:
        """The survey's stages as (greatest depth, programs): SCHEDULE's growing depths, or one
        stage at the configured depth."""
        c = self.config
        if "schedule" not in c.search:
            return [(c.max_depth, c.max_programs)]
        depths = [min(d or c.max_depth, c.max_depth) for d, _ in SCHEDULE]
        counts = [round(share * c.max_programs) for _, share in SCHEDULE]
        counts[-1] = c.max_programs - sum(counts[:-1])
        merged: dict[int, int] = {}
        for depth, count in zip(depths, counts):
            if count > 0:
                merged[depth] = merged.get(depth, 0) + count
        return list(merged.items())

    def stage_seed(self, stage: int) -> int:
        return self.config.seed if stage == 0 else self.config.seed * 1_000_003 + stage

    def strategy(self, stage: int = -1):
        """The programs of a stage (-1: the last, whose depth is the configured one). The stages
        differ only in the greatest depth, so a choice sequence kept in the example database
        for one replays the same program in any stage that allows its depth."""
        depth = self.stages()[stage][0]
        well = programs(max_depth=depth, avoid=self.avoid.get(stage, frozenset()), **self.fragment)
        if not self.config.ill_typed:
            return well
        return st.one_of(well, ill_typed(depth, **self.fragment))

    def feedback(self, text: str) -> None:
        """Our machine's run of the text, fed back to Hypothesis (`target`): it steers the draw
        towards runs that fire more distinct rules and exercise each declared feature of the
        rules (copying, decoupling, deep contraction, projection, iterated operation) more."""
        if "feedback" not in self.config.search:
            return
        _, _, rules, _ = self.expected(text)
        target(float(sum(1 for n in rules.values() if n)), label="distinct rules fired")
        for feature in FEEDBACK_FEATURES:  # copying, decoupling, deep contraction, … as the rules declare them
            target(float(fired(rules, feature)), label=feature)

    def corpus_cases(self, report: Report) -> None:
        for origin, source in corpus_files() if self.config.corpus else []:
            try:
                judgement = api.check(source)
            except GoiError:
                continue  # the corpus also holds programs our checker rejects on purpose
            text = self.text_of(judgement.surface) if judgement.surface is not None else None
            if text is None or self.outside_fragment(judgement):
                report.corpus_skipped += 1
                continue
            case = self.classify(text)
            assert case is not None
            report.corpus_run += 1
            if case.klass != AGREE:
                report.corpus.append(replace(case, origin=origin))

    def outside_fragment(self, judgement) -> bool:
        """Whether a (corpus) program uses a construct the chosen fragment leaves out: the
        implementation is never sent what it was declared to lack."""
        term, fr = judgement.surface, self.config.all_fragments
        nodes = list(S.walk(term))
        vector_ops = {"vadd", "smul", "dot"}
        uses = {
            "no-iterated": any(isinstance(n, S.BinOp) and n.op in S.ITERATED for n in nodes),
            "no-vector-ops": any(isinstance(n, S.BinOp) and (n.op in ("⊞", "⊠", "•")
                                                             or judgement.operators.get(id(n)) in vector_ops)
                                 for n in nodes),
            "no-decoupling-values": any(isinstance(n, S.Decouple) for n in nodes),
            "no-decoupling": any(isinstance(n, (S.Decouple, S.LetDecouple)) for n in nodes),
            "no-provisional": any(isinstance(n, (S.Prov, S.Decouple, S.LetDecouple)) for n in nodes),
            "integers": any(isinstance(n, (S.Const, S.Prov)) and n.value.denominator != 1 for n in nodes),
            "non-negative": any(isinstance(n, (S.Const, S.Prov)) and n.value < 0 for n in nodes),
            **{name: any(isinstance(n, S.BinOp) and n.op == op for n in nodes) for name, op in OPERATOR_FRAGMENTS.items()},
        }
        return any(uses.get(name, False) for name in fr)

    def _settings(self, database, count: Optional[int] = None):
        """Hypothesis' settings for a stage of `count` programs: a bound on the draw of DRAWS
        times that (repeats are not sent; the survey stops at `count` distinct programs)."""
        count = self.config.max_programs if count is None else count
        return settings(max_examples=DRAWS * count, deadline=None, database=database, derandomize=False,
                        phases=[Phase.generate, Phase.target, Phase.shrink],
                        suppress_health_check=list(HealthCheck), report_multiple_bugs=False, print_blob=False)

    def survey(self, report: Report) -> list[tuple[int, str]]:
        """Draw the programs (Hypothesis, seeded, stage by stage), each run as soon as drawn,
        `jobs` at a time: (stage, text) of every distinct program sent, in the order drawn."""
        drawn: list[tuple[int, str]] = []
        started = time.perf_counter()
        done = [0]
        total = self.config.max_programs

        def one(stage: int, text: str) -> Case:
            expected, transitions, rules, well_typed = self.expected(text)
            answer = self._call(text)
            klass = self._klass(expected, answer, well_typed)
            done[0] += 1
            if self.progress:
                self.progress("survey", done[0], total)
            return Case(text, klass, expected, answer, transitions, rules, stage=stage,
                        seconds=time.perf_counter() - started)

        # Drawing and running overlap: each program goes to the implementation as soon as it is
        # drawn, so a case's `seconds` (into the survey) counts the drawing before it too.
        pending: list = []
        submitted: set[str] = set()
        with ThreadPoolExecutor(max_workers=max(1, self.config.jobs)) as pool:
            carry = 0
            self.stage_counts = []
            for stage, (_, planned) in enumerate(self.stages()):
                count = planned + carry  # what an earlier stage fell short of, this one draws
                self.stage_counts.append(count)
                seen: set[str] = set()

                # Whether a program is sent depends on the program alone (a repeat returns as
                # any other, not rejected: Hypothesis may replay an example and must see the
                # same), so the shrinking runs, which replay this draw, see what the survey saw;
                # the stage ends once it has `count` distinct programs (_Enough), short of the
                # draw's bound.
                @given(self.strategy(stage))
                def draw(term):
                    if len(seen) >= count:
                        raise _Enough()
                    text = self.text_of(term)
                    if text is None:
                        report.skipped += 1
                        reject()
                    self.feedback(text)
                    if text in submitted:  # drawn before, in this stage or an earlier one
                        report.duplicates += 1
                        return
                    seen.add(text)
                    submitted.add(text)
                    drawn.append((stage, text))
                    if text not in self.cache:  # the corpus's
                        pending.append((text, pool.submit(one, stage, text)))

                survey = settings(self._settings(None, count), phases=[Phase.generate, Phase.target],
                                  verbosity=Verbosity.quiet)
                try:
                    seed(self.stage_seed(stage))(survey(draw))()
                except _Enough:
                    pass
                except Unsatisfiable:  # nothing drawn could be written: the stage ends short (the summary says so)
                    pass
                except FlakyFailure as flaky:  # _Enough on an example Hypothesis replays: done all the same
                    if not all(isinstance(e, _Enough) for e in flaky.exceptions):
                        raise
                carry = count - len(seen)
                if "steer" in self.config.search and stage + 1 < len(self.stages()):
                    self._steer(stage + 1, pending, drawn)
            for text, future in pending:
                self.cache.setdefault(text, future.result())
        return drawn

    def _steer(self, stage: int, pending: list, drawn: list) -> None:
        """Before `stage`: the features the dominant buckets so far need, switched off in half of
        its programs (oracle/steering.py); the programs sent so far are waited for."""
        from .steering import dominant, needs

        cases = {**self.cache, **{text: future.result() for text, future in pending}}
        failing = [cases[text] for _, text in drawn if text in cases and cases[text].klass in FAILURES]
        avoid = frozenset()
        for sig in dominant((c.signature for c in failing), len(drawn)):
            terms = [self.terms[c.text] for c in failing if c.signature == sig and c.text in self.terms]
            avoid |= needs(terms)
        self.avoid[stage] = avoid | self.avoid.get(stage - 1, frozenset())

    def shrink(self, signature: str, stage: int = -1) -> Optional[tuple[Case, float, int, bool]]:
        """A Hypothesis run of the stage that found the bucket, from its seed, failing only on
        `signature`: its shrunk case."""
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
            if klass == HANG and reduced is not failure.case and not self._still_hangs(reduced.text):
                # shrunk under the priced bound, but it answers within the full --timeout: not
                # known to hang; the bucket's program that did is reported instead
                return failure.case, time.perf_counter() - started, self.calls - calls_before, False
            return reduced, time.perf_counter() - started, self.calls - calls_before, minimal and not self.budget_reached
        finally:
            self.shrink_deadline = None
            self.shrink_calls_left = None
            self.pricing_hangs = False
        return None

    def _still_hangs(self, text: str) -> bool:
        """Asked again at the full --timeout (not from the cache): does it hang?"""
        return self._call(text).kind == "hang"

    # ---- after Hypothesis: structural reduction ------------------------------------------------
    def reduce(self, case: Case, signature: Optional[str] = None) -> tuple[Case, bool]:
        """The failing program reduced structurally (oracle/reduction.py) while its signature
        (its class, without one) stays: (the smallest case, whether it is 1-minimal)."""
        try:
            term = self._term(case.text)
        except (GoiError, ReadError):
            return case, False

        def text_of(candidate: S.Term) -> Optional[str]:
            if case.klass != ACCEPTS_INVALID:  # an ill-typed program stays ill-typed (keep decides)
                try:
                    if api.judge(candidate).type != F:
                        return None  # programs are closed terms of type F
                except GoiError:
                    return None
            return self.text_of(candidate)

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

    def run(self) -> Report:
        try:
            return self._run()
        finally:
            self.close()

    def _run(self) -> Report:
        started = time.perf_counter()
        report = Report(self.config)
        report.known_signatures = self.known_signatures()
        self.corpus_cases(report)
        if self.config.exhaustive is not None or self.config.shards is not None:
            self._exhaustive(report) if self.config.exhaustive is not None else self._sharded(report)
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
        database = DirectoryBasedExampleDatabase(self.config.database) if self.config.database else None
        buckets = report.buckets()
        buckets = self.set_aside(report, buckets, lambda sig: len(buckets[sig]))
        order = sorted(buckets, key=lambda sig: (-len(buckets[sig]), report.cases.index(buckets[sig][0])))
        for rank, sig in enumerate(order):
            cases = buckets[sig]
            first = cases[0]
            found_after, find_seconds = report.cases.index(first), first.seconds
            if rank >= MAX_BUCKETS:
                report.shrunk[sig] = Shrunk(first, found_after, len(cases), find_seconds, 0.0, 0, False, sig, first,
                                            shrunk=False)
                continue
            shrunk = self.shrink(sig, first.stage)
            case, seconds, calls, complete = shrunk if shrunk is not None else (first, 0.0, 0, False)
            report.shrunk[sig] = Shrunk(case, found_after, len(cases), find_seconds, seconds, calls, complete, sig, first)
            self._remember(database, sig, case.text)
            if sig == CATCH_ALL:
                self._more_programs(report, sig, cases, case.text)
        self._replay_saved(database, report)
        report.seconds = time.perf_counter() - started
        return report

    # ---- known bugs set aside (--known, oracle/known.py) ---------------------------------------
    def known_signatures(self) -> frozenset:
        """The signatures --known names, with those of the programs it lists as they fail here."""
        known = self.config.known
        if not known:
            return frozenset()
        found = set(known.signatures)
        for text in known.programs:
            try:
                case = self.classify(text, origin="known")
            except GoiError:
                continue  # not a program our front end reads: nothing to set aside
            if case is not None and case.klass != AGREE:
                found.add(case.signature)
        return frozenset(found)

    @staticmethod
    def set_aside(report: Report, by_signature: dict, count: Callable[[str], int]) -> dict:
        """`by_signature` less the known signatures, each known one counted (`count(sig)`
        programs) in `report.known`: a survey's buckets, a campaign's first failures."""
        for sig in by_signature:
            if sig in report.known_signatures:
                report.known[sig] = report.known.get(sig, 0) + count(sig)
        return {sig: v for sig, v in by_signature.items() if sig not in report.known_signatures}

    def _more_programs(self, report: Report, sig: str, cases: list, minimal: str) -> None:
        """A wrong value's signature is only the kind of the difference, so two bugs can share
        the catch-all bucket (both give "another value"), and its shrunk first program shows
        one of them. MORE_MEMBERS other members, spread over the bucket (its middle and its last),
        are reduced structurally too, keeping the signature; each minimal program not yet
        shown is listed after the bucket as `SIGNATURE #k` — possibly another bug."""
        seen = {minimal}
        picks = [cases[i] for i in sorted({len(cases) // 2, len(cases) - 1}) if i > 0][:MORE_MEMBERS]
        for k, member in enumerate(picks, 2):
            reduced, seconds, calls, complete = self.reduce_within_budget(member, sig)
            if reduced.text in seen:
                continue
            seen.add(reduced.text)
            report.shrunk[f"{sig} #{k}"] = Shrunk(reduced, report.cases.index(member), len(cases), member.seconds,
                                                  seconds, calls, complete, sig, member)

    # ---- every program up to a size (docs/CAMPAIGNS.md) --------------------------------------
    def space(self):
        """The enumeration's space for this target: its fragment, signed or not as drawn."""
        from goi.generators.enumerate import Space

        f = self.fragment
        whole, unsigned = f["integers"], f["non_negative"]
        third = (Fraction(2) if unsigned else Fraction(-1)) if whole else (Fraction(1, 2) if unsigned else Fraction(-1, 2))
        constants = (Fraction(0), Fraction(1), third)
        provisionals = (Fraction(1), third) if f["provisional"] else ()
        return Space(constants=constants, provisionals=provisionals, iterated=f["iterated"], division=f["division"],
                     vector_ops=f["vector_ops"], decoupling_values=f["decoupling_values"], decoupling=f["decoupling"],
                     signed=f["signed"], operators=f["operators"])

    def _exhaustive(self, report: Report) -> None:
        """Every program of size ≤ N, in shards (properties/campaign.py); each bucket's first
        program in size-and-index order is its smallest: no shrinking is needed."""
        import dataclasses

        from goi.generators.enumerate import Enumeration

        from goi.properties.campaign import (Campaign, default_cluster, exhaustive_counts, exhaustive_shards,
                                             sample_of, space_fields)

        c = self.config
        space = self.space()
        enumeration = Enumeration(space)
        shards = exhaustive_shards(exhaustive_counts(enumeration, c.exhaustive, c.max_campaign))
        work = OracleWork(replace(c, exhaustive=None, cluster=None, checkpoint=None, database=None, corpus=False,
                                  printer=None), dataclasses.asdict(space)) if c.printer is None else None
        if work is None:
            raise ValueError("an exhaustive run prints with goi's notations (not --printer)")
        total = sum(s.stop - s.start for s in shards)
        results = Campaign("oracle exhaustive", shards, work, total,
                           {"command": "oracle", "implementation": c.command, "notation": c.notation,
                            "fragments": sorted(c.all_fragments), "bound": c.exhaustive, "space": space_fields(space)},
                           cluster=default_cluster(c.cluster, total), checkpoint=c.checkpoint, resume=c.resume,
                           limit=c.max_campaign, sample=sample_of(shards), warn=self.warn, wait=c.cluster_wait).run()
        firsts: dict = {}
        counts: dict = {}
        for shard in shards:
            r = results[shard.key]
            report.skipped += r["skipped"]
            for k, n in r["counts"].items():
                report.counts[k] += n
            for f in r["failures"]:
                counts[f["signature"]] = counts.get(f["signature"], 0) + 1
                key = (f["size"], f["index"])
                if f["signature"] not in firsts or key < firsts[f["signature"]][0]:
                    firsts[f["signature"]] = (key, f)
        report.programs = sum(report.counts.values())
        report.exhaustive = {"bound": c.exhaustive, "programs": report.programs, "of": total,
                             "shards": len(shards)}
        firsts = self.set_aside(report, firsts, counts.__getitem__)
        order = sorted(firsts, key=lambda sig: firsts[sig][0])
        for sig in order:
            (size, index), f = firsts[sig]
            case = self.classify(f["text"]) or Case(f["text"], f["class"])
            case = replace(case, origin=f"size {size}, index {index}")
            report.shrunk[sig] = Shrunk(case, -1, counts[sig], 0.0, 0.0, 0, True, sig, case)

    def _sharded(self, report: Report) -> None:
        """The survey divided into shards, a seed each (`--shards K`), run here or on Dask; the
        failures bucketed over all shards, and each bucket's first program (lowest seed, then
        first drawn) reduced once, here (oracle/reduction.py), keeping its signature."""
        import math

        from goi.properties.campaign import Campaign, check_division, seed_shards

        c = self.config
        count = c.shards or 1
        check_division(count, "--shards", most=c.max_programs, of=f"the {c.max_programs:,} programs to share")
        per_shard = max(1, math.ceil(c.max_programs / count))
        shards = seed_shards(c.seed, count)
        work = SurveyWork(replace(c, shards=None, cluster=None, checkpoint=None, database=None, corpus=False,
                                  max_programs=per_shard, printer=None))
        if c.printer is not None:
            raise ValueError("a divided survey prints with goi's notations (not --printer)")
        results = Campaign("oracle campaign", shards, work, per_shard * count,
                           {"command": "oracle", "implementation": c.command, "notation": c.notation,
                            "fragments": sorted(c.all_fragments), "programs": per_shard,
                            "seeds": [c.seed, c.seed + count]},
                           cluster=c.cluster, checkpoint=c.checkpoint, resume=c.resume, limit=c.max_campaign,
                           warn=self.warn, wait=c.cluster_wait).run()
        firsts: dict = {}
        counts: dict = {}
        for shard in shards:
            r = results[shard.key]
            report.skipped += r["skipped"]
            report.duplicates += r["duplicates"]
            for k, n in r["counts"].items():
                report.counts[k] += n
            for f in r["failures"]:
                counts[f["signature"]] = counts.get(f["signature"], 0) + 1
                firsts.setdefault(f["signature"], (shard.start, f))
        report.programs = sum(report.counts.values())
        firsts = self.set_aside(report, firsts, counts.__getitem__)
        for sig in sorted(firsts, key=lambda sig: (-counts[sig], firsts[sig][0])):
            seed_, f = firsts[sig]
            case = self.classify(f["text"])
            if case is None or case.signature != sig:  # it no longer fails so (a flaky implementation)
                continue
            reduced, seconds, calls, complete = self.reduce_within_budget(case, sig)
            report.shrunk[sig] = Shrunk(reduced, f["index"], counts[sig], f["seconds"], seconds, calls, complete, sig,
                                        replace(case, origin=f"seed {seed_}"))

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


@dataclass(frozen=True)
class OracleWork:
    """One shard of an exhaustive oracle run: every program of the range, printed, run by the
    implementation and classified (a session of its own per shard)."""

    config: OracleConfig
    space: dict

    def __call__(self, shard) -> dict:
        from goi.generators.enumerate import Enumeration, Space

        oracle = Oracle(self.config)
        counts = {k: 0 for k in CLASSES}
        failures, skipped = [], 0
        try:
            enumeration = Enumeration(Space(**self.space))
            for index, term in zip(range(shard.start, shard.stop), enumeration.programs(shard.size, shard.start, shard.stop)):
                text = oracle.text_of(term)
                if text is None:
                    skipped += 1
                    continue
                case = oracle.classify(text)
                assert case is not None
                counts[case.klass] += 1
                if case.klass != AGREE:
                    failures.append({"size": shard.size, "index": index, "text": text, "class": case.klass,
                                     "signature": case.signature})
        finally:
            oracle.close()
        return {"programs": shard.stop - shard.start, "counts": counts, "failures": failures, "skipped": skipped}

    def check_result(self, shard, result: dict) -> None:
        """A recorded result this shard could have given (properties/checkpoint.py)."""
        from goi.properties.checkpoint import need, programs_of_range, whole

        programs = programs_of_range(shard, result)
        counts = _checked_counts(shard, result)
        need(whole(result.get("skipped")) and sum(counts.values()) + result["skipped"] == programs,
             f"shard {shard.key}: its classes and skipped programs are not its {programs} programs")
        failures = _checked_failures(shard, result, counts)
        need(all(f.get("size") == shard.size and whole(f.get("index")) and shard.start <= f["index"] < shard.stop
                 for f in failures), f"shard {shard.key}: a failure that is not one of its programs")


@dataclass(frozen=True)
class SurveyWork:
    """One shard of a divided survey: the survey from the shard's seed, its failures as drawn
    (not shrunk: the campaign reduces each bucket once)."""

    config: OracleConfig

    def __call__(self, shard) -> dict:
        oracle = Oracle(replace(self.config, seed=shard.start))
        report = Report(oracle.config)
        try:
            drawn = oracle.survey(report)
        finally:
            oracle.close()
        cases = [oracle.cache[text] for _, text in drawn]
        counts = {k: 0 for k in CLASSES}
        for case in cases:
            counts[case.klass] += 1
        failures = [{"text": case.text, "class": case.klass, "signature": case.signature, "index": i,
                     "seconds": round(case.seconds, 3)} for i, case in enumerate(cases) if case.klass != AGREE]
        return {"programs": len(cases), "counts": counts, "failures": failures, "skipped": report.skipped,
                "duplicates": report.duplicates}

    def check_result(self, shard, result: dict) -> None:
        """A recorded result this shard could have given (properties/checkpoint.py)."""
        from goi.properties.checkpoint import need, whole

        need(result["programs"] <= self.config.max_programs,
             f"shard {shard.key}: {result['programs']} programs, more than its {self.config.max_programs}")
        counts = _checked_counts(shard, result)
        need(sum(counts.values()) == result["programs"], f"shard {shard.key}: its classes are not its programs")
        need(whole(result.get("skipped")) and whole(result.get("duplicates")), f"shard {shard.key}: bad skipped/duplicates")
        failures = _checked_failures(shard, result, counts)
        need(all(whole(f.get("index")) and f["index"] < result["programs"]
                 and isinstance(f.get("seconds"), (int, float)) for f in failures),
             f"shard {shard.key}: a failure that is not one of its programs")


def _checked_counts(shard, result: dict) -> dict:
    from goi.properties.checkpoint import counts_of, need

    counts = counts_of(result, "counts", CLASSES)
    need(set(result["counts"]) == set(CLASSES), f"shard {shard.key}: not a count per class")
    return counts


def _checked_failures(shard, result: dict, counts: dict) -> list:
    from goi.properties.checkpoint import list_of_objects, need

    failures = list_of_objects(result, "failures")
    need(all(isinstance(f.get("text"), str) and f.get("class") in FAILURES and isinstance(f.get("signature"), str)
             for f in failures), f"shard {shard.key}: a failure that is not one goi writes")
    need(len(failures) == sum(counts[k] for k in FAILURES), f"shard {shard.key}: its failures are not its failing programs")
    return failures


class _Enough(Exception):
    """A survey's stage has its programs: ends its Hypothesis run."""
