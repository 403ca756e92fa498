"""Oracle mode, drawing programs (the Oracle's job of searching): the corpus, then the survey
in stages of growing depth, with the search's techniques (docs/ORACLE.md, The search):
swarm, sharing, scopes, feedback, and steering away from dominant buckets (oracle/steering.py)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Optional

from hypothesis import HealthCheck, Phase, Verbosity, given, reject, seed, settings, target
from hypothesis import strategies as st
from hypothesis.errors import FlakyFailure, Unsatisfiable

from goi import api
from goi.generators.typed import programs
from goi.generators.composite import composite
from goi.semantics import syntax as S
from goi.semantics.errors import GoiError
from goi.semantics.rules import fired

from .corpus import corpus_files
from .steering import AT_LEAST, dominant, needs, shape

from .cases import DRAWS, FEEDBACK_FEATURES, SCHEDULE, Case, Report
from .classification import AGREE, BEYOND, FAILURES, OUTSIDE, klass as judged


# ---- ill-typed programs ----------------------------------------------------------------------

@composite
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


class Drawing:
    """The corpus and the survey's draw."""

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
        term = self.terms.get(text)
        if term is not None:  # the graph's shape: where DGoIM implementations' defects live (steering.shape)
            avoided = frozenset().union(*self.avoid.values()) if self.avoid else frozenset()
            for label, value in shape(term).items():
                if not (label == "weakenings" and "weakening" in avoided):  # never asked for what is steered from
                    target(float(value), label=label)

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
            if case.klass == BEYOND:
                report.beyond_budget += 1
                continue
            report.corpus_run += 1
            if case.klass != AGREE:
                report.corpus.append(replace(case, origin=origin))

    def outside_fragment(self, judgement) -> bool:
        """Whether a (corpus) program uses a construct the chosen fragment leaves out: the
        implementation is never sent what it was declared to lack."""
        return self.lacks.excludes(judgement.surface, judgement.operators)

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
            klass = judged(expected, answer, well_typed, self.arithmetic)
            done[0] += 1
            if self.progress:
                self.progress("survey", done[0], total)
            return Case(text, klass, expected, answer, transitions, rules, stage=stage,
                        seconds=time.perf_counter() - started)

        # Drawing and running overlap: each program goes to the implementation as soon as it is
        # drawn, so a case's `seconds` (into the survey) counts the drawing before it too.
        pending: list = []
        submitted: set[str] = set()
        beyond: set[str] = set()
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
                    expected = self.expected(text)[0]
                    if isinstance(expected, str) and expected.startswith(OUTSIDE):  # a constant the arithmetic lacks
                        report.skipped += 1
                        reject()
                    if expected == BEYOND:  # goi's own budget: no expected outcome to judge by
                        if text not in beyond:
                            beyond.add(text)
                            report.beyond_budget += 1
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
        cases = {**self.cache, **{text: future.result() for text, future in pending}}
        failing = [cases[text] for _, text in drawn if text in cases and cases[text].klass in FAILURES]
        agreeing = [self.terms[text] for _, text in drawn
                    if text in cases and cases[text].klass == AGREE and text in self.terms]
        avoid = frozenset()
        known = [sig for sig in dict.fromkeys(c.signature for c in failing)
                 if sig in self.known_set and sum(c.signature == sig for c in failing) >= AT_LEAST]
        for sig in list(dict.fromkeys(known + dominant((c.signature for c in failing), len(drawn)))):
            terms = [self.terms[c.text] for c in failing if c.signature == sig and c.text in self.terms]
            avoid |= needs(terms, agreeing)
        self.avoid[stage] = avoid | self.avoid.get(stage - 1, frozenset())


class _Enough(Exception):
    """A survey's stage has its programs: ends its Hypothesis run."""
