"""Oracle mode, shrinking: one `Shrinker` per bucket, a value that owns its state (Hypothesis'
`Shrinker` is the model): the bucket's signature, its budget (calls of the implementation,
and optionally seconds), what it has spent, and whether the budget ran out. It shrinks by a
Hypothesis run that fails only on its signature, then reduces structurally to a 1-minimal
program (oracle/reduction.py). It asks the run only through `ask`: a program already answered
costs nothing; past the budget, a program not yet tried is taken as not failing."""

from __future__ import annotations

import time
from typing import Optional

from hypothesis import given, reject, seed

from goi.semantics.errors import GoiError
from goi.semantics.types import F

from .notations import ReadError
from .reduction import reduce as reduce_structurally

from .cases import EXCEPTIONS, Case, OracleFailure
from .classification import ACCEPTS_INVALID, HANG


class Shrinker:
    """One bucket's shrinking, within its own budget: `calls` of the implementation (None: no
    bound) and `seconds` (None: no bound), counted from its creation."""

    def __init__(self, oracle, signature: str, calls: Optional[int], seconds: Optional[float] = None):
        self.oracle = oracle  # the run: its cache, its printer, its draw (oracle/survey.py)
        self.signature = signature
        self.klass = signature.partition(": ")[0]
        self.calls_left = calls
        self.started = time.perf_counter()
        self.deadline = None if seconds is None else self.started + seconds
        self.calls_before = oracle.calls
        self.budget_reached = False
        self.pricing_hangs = False  # while shrinking a hang: each try bounded by the price of goi's run

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started

    @property
    def calls(self) -> int:
        """Calls of the implementation made since it was created (a hang's confirmation too)."""
        return self.oracle.calls - self.calls_before

    def ask(self, text: str, origin: str = "generated") -> Optional[Case]:
        """The case of a program: from the run's cache, else asked within the budget; None past it."""
        oracle = self.oracle
        if text in oracle.cache:
            return oracle.cache[text]
        if (self.deadline is not None and time.perf_counter() > self.deadline
                or self.calls_left is not None and self.calls_left <= 0):
            self.budget_reached = True
            return None
        if self.calls_left is not None:
            self.calls_left -= 1
        return oracle.classify(text, origin, timeout=oracle.hang_timeout(text) if self.pricing_hangs else None)

    def shrink(self, stage: int = -1, first: Optional[Case] = None) -> Optional[tuple[Optional[Case], float, int, bool]]:
        """A Hypothesis run of the stage that found the bucket, from its seed, failing only on
        its signature: (its shrunk case, seconds, calls, whether 1-minimal within the budget);
        None if the run did not meet the bucket. A hang's case is the first of the reduced
        program, the one Hypothesis shrank to and the bucket's `first` that hangs again when
        asked at the full --timeout (only the reduced one can be minimal); None when none does:
        the hang is not confirmed (the machine was busy, or the implementation is not
        deterministic), and is not reported as one."""
        oracle, klass, signature = self.oracle, self.klass, self.signature
        exception = EXCEPTIONS[klass]
        found: list = []  # the bucket's first failure, once met

        @given(oracle.strategy(stage))
        def only_this_bucket(term):
            # As the survey's draw, up to the bucket's first program (so generation repeats it
            # from the cache): skip what cannot be written, feed back, fail on this bucket.
            text = oracle.text_of(term)
            if text is None:
                reject()
            case = self.ask(text)
            if case is None:
                return  # past the shrink budget: taken as not failing (no generation is repeated past it)
            if not found:
                oracle.feedback(text)  # as the survey did; once shrinking, Hypothesis no longer draws from it
            if case.klass == klass and case.signature == signature:
                found.append(case)
                raise exception(case)

        # The stage's seed, so generation repeats the survey (cache hits) until the first
        # failure of this bucket; no example database (with one, Hypothesis keeps a Pareto
        # front of the target() observations, which changes what it draws): each bucket's
        # minimal program is kept by the oracle itself (oracle/kept.py).
        stage %= len(oracle.stages())
        count = oracle.stage_counts[stage] if stage < len(oracle.stage_counts) else oracle.stages()[stage][1]
        test = seed(oracle.stage_seed(stage))(oracle._settings(None, count)(only_this_bucket))
        self.pricing_hangs = klass == HANG
        try:
            test()
        except OracleFailure as failure:
            reduced, minimal = self.reduce(failure.case)
            self.pricing_hangs = False
            if klass == HANG:
                # shrunk under the priced bound: reported only once it hangs at the full --timeout
                confirmed = self.confirmed_hang([reduced, failure.case, first])
                minimal, reduced = minimal and confirmed is reduced, confirmed
            return reduced, self.seconds, self.calls, minimal
        finally:
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
            if self.oracle._call(case.text).kind == "hang":
                return case
        return None

    def reduce(self, case: Case) -> tuple[Case, bool]:
        """The failing program reduced structurally (oracle/reduction.py) while its signature
        stays: (the smallest case, whether it is 1-minimal within the budget)."""
        oracle = self.oracle
        try:
            term = oracle._term(case.text)
        except (GoiError, ReadError):
            return case, False

        def text_of(candidate) -> Optional[str]:
            # a closed program of type F; an ill-typed program stays ill-typed (keep decides)
            return oracle.text_of(candidate, of_type=None if case.klass == ACCEPTS_INVALID else F)

        def keep(text: str) -> Optional[bool]:
            smaller = self.ask(text)
            if smaller is None:
                return None
            return smaller.klass == case.klass and smaller.signature == self.signature

        if self.budget_reached or text_of(term) is None:
            return case, False
        reduction = reduce_structurally(term, text_of, keep)
        return oracle.cache.get(reduction.text, case), reduction.minimal and not self.budget_reached

    def reduced(self, case: Case) -> tuple[Case, float, int, bool]:
        """The structural reduction alone (no Hypothesis run): (the smallest case, seconds,
        calls, whether it is 1-minimal within the budget)."""
        smallest, minimal = self.reduce(case)
        return smallest, self.seconds, self.calls, minimal
