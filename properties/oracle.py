"""Oracle mode: another implementation against the machine, every disagreement shrunk
(docs/ORACLE.md).

1. The corpus first: the paper's and the visualiser's example programs (tests/programs/),
   printed in the target's notation.
2. A survey: `max_programs` programs drawn by the well-typed generators (restricted to the
   target's fragment), printed in its notation and run by it (`jobs` at a time); each is
   classified (CLASSES). The expected outcome is always our machine's on the very text the
   implementation received (our parser reads both notations).
3. For every class of failure found (and every class with failures in Hypothesis' example
   database), a separate Hypothesis run with the same seed that fails *only* on that
   class, so each is shrunk on its own — a shrink step never slides from a hang to a
   different failure. Answers are cached by program text: the second run's generation
   costs nothing; only shrinking calls the implementation. Then the structural reducer
   (properties/reduce.py) takes the program to a 1-minimal one. A shrink budget — calls of
   the implementation, and optionally seconds — bounds each class: past it, programs not yet
   tried are taken as not failing, which ends the shrinking (the failure is then reported as
   shrunk as far as the budget allowed, and not known to be minimal).

Two protocols (properties/external.py): one process per program (`oneshot`), or one
persistent process per job answering JSON lines (`lines`), restarted after a crash or a hang.
"""

from __future__ import annotations

import queue
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Callable, Optional

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase

from goi import api
from goi.semantics.show import to_json as _show
from goi.generators.typed import programs
from goi.semantics import syntax as S
from goi.semantics.errors import GoiError
from goi.semantics.types import F
from goi.semantics.notation import Inexpressible, render, render_term

from .external import Answer, Session, call
from .reduce import reduce as reduce_structurally

AGREE = "agree"
WRONG_VALUE = "wrong-value"
IMPL_ERROR = "implementation-error"
HANG = "hang"
REJECTS_VALID = "rejects-valid"
ACCEPTS_INVALID = "accepts-invalid"
CLASSES = (AGREE, WRONG_VALUE, IMPL_ERROR, HANG, REJECTS_VALID, ACCEPTS_INVALID)
FAILURES = CLASSES[1:]

FRAGMENTS = {
    "no-iterated": "no iterated operations (+^L, *^L)",
    "no-division": "no division",
    "no-vector-ops": "no ⊞ ⊠ • in source (a decoupled p is only applied: f p)",
    "no-decoupling-values": "no decoupling value A(f,x). t (let f @ p = t in u stays)",
    "no-annotations": "no type annotations and no decoupling names",
    "no-decoupling": "no decoupling at all",
}
NOTATION_FRAGMENTS = {"paper": set(), "visualiser": {"no-annotations"}}

def corpus_files() -> list:
    """The example programs (tests/programs/, installed as the data package goi.corpus), as
    (origin, text), in a stable order."""
    from importlib import resources

    try:
        root = resources.files("goi.corpus")
    except ModuleNotFoundError:
        return []
    out = []
    for folder in sorted((d for d in root.iterdir() if d.is_dir()), key=lambda d: d.name):
        for item in sorted((f for f in folder.iterdir() if f.name.endswith(".goi")), key=lambda f: f.name):
            out.append((f"{folder.name}/{item.name}", item.read_text(encoding="utf-8")))
    return out


@dataclass
class OracleConfig:
    command: list[str]
    notation: str = "paper"
    fragments: frozenset = frozenset()
    tolerance: Optional[Fraction] = None  # relative, for floating-point implementations
    timeout: float = 5.0
    memory_mb: Optional[int] = None
    division: str = "total"
    ill_typed: bool = False
    max_programs: int = 100
    max_depth: int = 4
    seed: int = 0
    jobs: int = 1
    protocol: str = "oneshot"  # or "lines": a persistent process per job (docs/ORACLE.md)
    startup_timeout: float = 30.0  # lines: seconds for a (re)started session to answer its warm-up
    shrink_calls: Optional[int] = 2000  # implementation calls per class while shrinking (None: no bound)
    shrink_seconds: Optional[float] = None  # seconds per class while shrinking (None: no bound)
    corpus: bool = True
    database: Optional[str] = ".hypothesis/oracle"  # None: no example database
    parenthesize: str = "minimal"  # or "all": every non-atomic operand, argument and body in parentheses
    printer: Optional[Callable] = None  # the user's printer: a surface term -> its text (replaces `notation`)

    @property
    def all_fragments(self) -> frozenset:
        return frozenset(self.fragments) | NOTATION_FRAGMENTS[self.notation]


@dataclass
class Case:
    """One program put to both implementations."""

    text: str  # as the implementation received it
    klass: str
    expected: object = None  # our value (Fraction, tuple, "λ"), "undefined", or "ill-typed: …"
    answer: Optional[Answer] = None
    transitions: int = 0
    rules: dict = field(default_factory=dict)
    origin: str = "generated"  # or the corpus file

    def to_json(self) -> dict:
        return {
            "class": self.klass,
            "program": self.text,
            "origin": self.origin,
            "expected": _show(self.expected),
            "transitions": self.transitions,
            "rules": {r: n for r, n in self.rules.items() if n},
            "implementation": self.answer.to_json() if self.answer else None,
        }


class OracleFailure(AssertionError):
    def __init__(self, case: Case):
        super().__init__(f"{case.klass}: {case.text}")
        self.case = case


# One exception type per class: Hypothesis tells failures apart by type and place.
class WrongValue(OracleFailure):
    pass


class ImplementationError(OracleFailure):
    pass


class Hang(OracleFailure):
    pass


class RejectsValid(OracleFailure):
    pass


class AcceptsInvalid(OracleFailure):
    pass


EXCEPTIONS = {WRONG_VALUE: WrongValue, IMPL_ERROR: ImplementationError, HANG: Hang, REJECTS_VALID: RejectsValid,
              ACCEPTS_INVALID: AcceptsInvalid}


@dataclass
class Shrunk:
    case: Case
    found_after: int  # programs of the survey before the first of its class
    count: int  # programs of the survey in the class
    find_seconds: float
    shrink_seconds: float
    calls: int  # implementation calls while shrinking
    complete: bool  # True: 1-minimal for the reducer's steps; False: the shrink budget ran out first

    def to_json(self) -> dict:
        return {**self.case.to_json(), "found_after": self.found_after, "count": self.count,
                "find_seconds": round(self.find_seconds, 3), "shrink_seconds": round(self.shrink_seconds, 3),
                "shrink_calls": self.calls, "shrink_complete": self.complete}


@dataclass
class Report:
    config: OracleConfig
    counts: dict = field(default_factory=lambda: {k: 0 for k in CLASSES})
    corpus: list = field(default_factory=list)  # Cases (failing ones)
    corpus_run: int = 0
    corpus_skipped: int = 0  # corpus programs the notation cannot write
    skipped: int = 0  # generated programs the notation cannot write (or ill-typed once annotations are dropped)
    shrunk: dict = field(default_factory=dict)  # class -> Shrunk
    programs: int = 0
    seconds: float = 0.0
    survey_seconds: float = 0.0
    cases: list = field(default_factory=list)  # every Case of the survey, in order

    @property
    def failures(self) -> int:
        return sum(self.counts[k] for k in FAILURES) + len(self.corpus)


# ---- comparing -------------------------------------------------------------------------

def same(expected, got, tolerance: Optional[Fraction]) -> bool:
    if isinstance(expected, tuple) or isinstance(got, tuple):
        return (isinstance(expected, tuple) and isinstance(got, tuple) and len(expected) == len(got)
                and all(same(e, g, tolerance) for e, g in zip(expected, got)))
    if not isinstance(expected, Fraction) or not isinstance(got, Fraction):
        return expected == got  # "λ" against "λ"; a non-finite float never equals a value
    if tolerance is None:
        return expected == got
    return abs(got - expected) <= tolerance * max(Fraction(1), abs(expected))


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
    def __init__(self, config: OracleConfig, progress: Optional[Callable[[str, int, int], None]] = None):
        self.config = config
        self.cache: dict[str, Case] = {}
        self.calls = 0
        self.progress = progress
        self.shrink_deadline: Optional[float] = None
        self.shrink_calls_left: Optional[int] = None  # while shrinking with a call budget
        self.budget_reached = False
        self.sessions: "queue.SimpleQueue[Session]" = queue.SimpleQueue()  # the lines protocol's idle sessions
        self.all_sessions: list[Session] = []
        self.found_after: dict[str, float] = {}  # seconds into the survey when a class was first seen
        fr = config.all_fragments
        self.fragment = dict(iterated="no-iterated" not in fr, division="no-division" not in fr,
                             vector_ops="no-vector-ops" not in fr, decoupling_values="no-decoupling-values" not in fr,
                             decoupling="no-decoupling" not in fr)
        self.annotations = "no-annotations" not in fr
        self.terms: dict[str, S.Term] = {}  # with the user's printer: each text's term (our parser may not read it)
        self.seconds = {"ours": 0.0, "implementation": 0.0}  # where the time goes (summed over jobs): benchmarks

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
        try:
            if judgement is None:  # an ill-typed program (--ill-typed): written as it is
                return render_term(term, c.notation, self.annotations, parenthesize=c.parenthesize)
            return render(judgement, c.notation, self.annotations, c.parenthesize)
        except (Inexpressible, ValueError):
            return None

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
        """The term a text stands for: the printed one (the user's printer), else our parse."""
        from goi.semantics.parser import parse

        return self.terms[text] if text in self.terms else parse(text)

    def expected(self, text: str) -> tuple[object, int, dict, bool]:
        """Our outcome on the text: (value or "undefined", transitions, rules, well_typed)."""
        started = time.perf_counter()
        try:
            return self._expected(text)
        finally:
            self.seconds["ours"] += time.perf_counter() - started

    def _expected(self, text: str) -> tuple[object, int, dict, bool]:
        try:
            judgement = api.judge(self.terms[text]) if text in self.terms else api.check(text)
        except GoiError as exc:
            return f"ill-typed: {exc.message}", 0, {}, False
        result = api.run(judgement, division=self.config.division)
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

    def _call_implementation(self, text: str) -> Answer:
        self.calls += 1
        c = self.config
        if c.protocol == "oneshot":
            return call(c.command, text, c.timeout, c.memory_mb)
        try:
            session = self.sessions.get_nowait()
        except queue.Empty:
            session = Session(c.command, c.timeout, c.memory_mb, c.startup_timeout)
            self.all_sessions.append(session)
        try:
            return session.ask(text)
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
        return AGREE if same(expected, answer.value, self.config.tolerance) else WRONG_VALUE

    # ---- the runs ----------------------------------------------------------------------
    def strategy(self):
        well = programs(max_depth=self.config.max_depth, **self.fragment)
        if not self.config.ill_typed:
            return well
        return st.one_of(well, ill_typed(self.config.max_depth, **self.fragment))

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
        term, fr = judgement.surface, self.config.fragments
        nodes = list(S.walk(term))
        vector_ops = {"vadd", "smul", "dot"}
        uses = {
            "no-iterated": any(isinstance(n, S.BinOp) and n.op in S.ITERATED for n in nodes),
            "no-division": any(isinstance(n, S.BinOp) and n.op == "/" for n in nodes),
            "no-vector-ops": any(isinstance(n, S.BinOp) and (n.op in ("⊞", "⊠", "•")
                                                             or judgement.operators.get(id(n)) in vector_ops)
                                 for n in nodes),
            "no-decoupling-values": any(isinstance(n, S.Decouple) for n in nodes),
            "no-decoupling": any(isinstance(n, (S.Decouple, S.LetDecouple)) for n in nodes),
        }
        return any(uses.get(name, False) for name in fr)

    def _settings(self, database):
        return settings(max_examples=self.config.max_programs, deadline=None, database=database, derandomize=False,
                        phases=[Phase.reuse, Phase.generate, Phase.shrink] if database is not None else
                        [Phase.generate, Phase.shrink],
                        suppress_health_check=list(HealthCheck), report_multiple_bugs=False, print_blob=False)

    def survey(self) -> list[Optional[str]]:
        """Draw the programs (Hypothesis, seeded), then run them `jobs` at a time."""
        texts: list[Optional[str]] = []

        @given(self.strategy())
        def draw(term):
            texts.append(self.text_of(term))

        from hypothesis import seed as seeded

        seeded(self.config.seed)(self._settings(None)(draw))()
        todo = list(dict.fromkeys(t for t in texts if t is not None and t not in self.cache))
        done = [0]
        started = time.perf_counter()

        def one(text: str) -> Case:
            expected, transitions, rules, well_typed = self.expected(text)
            answer = self._call(text)
            klass = self._klass(expected, answer, well_typed)
            done[0] += 1
            self.found_after.setdefault(klass, time.perf_counter() - started)
            if self.progress:
                self.progress("survey", done[0], len(todo))
            return Case(text, klass, expected, answer, transitions, rules)

        with ThreadPoolExecutor(max_workers=max(1, self.config.jobs)) as pool:
            for case in pool.map(one, todo):
                self.cache[case.text] = case
        return texts

    def shrink(self, klass: str, database) -> Optional[tuple[Case, float, int, bool]]:
        """A Hypothesis run failing only on `klass`, from the same seed: its shrunk case."""
        exception = EXCEPTIONS[klass]

        @given(self.strategy())
        def only_this_class(term):
            text = self.text_of(term)
            if text is None:
                return
            case = self.classify(text)
            if case is not None and case.klass == klass:
                raise exception(case)

        # Hypothesis' own hooks (as its pytest plugin uses them): a key per class, so each keeps
        # its failures in the example database; the survey's seed, so generation repeats the
        # survey (cache hits) until the first failure of this class. (@seed would also turn
        # the database off.)
        only_this_class._hypothesis_internal_database_key = self.database_key(klass)  # type: ignore[attr-defined]
        only_this_class._hypothesis_internal_use_seed = self.config.seed  # type: ignore[attr-defined]
        test = self._settings(database)(only_this_class)
        started, calls_before = time.perf_counter(), self.calls
        seconds = self.config.shrink_seconds
        self.shrink_deadline = None if seconds is None else started + seconds
        self.shrink_calls_left = self.config.shrink_calls
        self.budget_reached = False
        try:
            test()
        except OracleFailure as failure:
            reduced, minimal = self.reduce(failure.case)
            return reduced, time.perf_counter() - started, self.calls - calls_before, minimal and not self.budget_reached
        finally:
            self.shrink_deadline = None
            self.shrink_calls_left = None
        return None

    # ---- after Hypothesis: structural reduction ------------------------------------------------
    def reduce(self, case: Case) -> tuple[Case, bool]:
        """The failing program reduced structurally (properties/reduce.py) while its class stays:
        (the smallest case, whether it is 1-minimal)."""
        try:
            term = self._term(case.text)
        except GoiError:
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
            return None if smaller is None else smaller.klass == case.klass

        if self.budget_reached or text_of(term) is None:
            return case, False
        reduction = reduce_structurally(term, text_of, keep)
        return self.cache.get(reduction.text, case), reduction.minimal

    def database_key(self, klass: str) -> bytes:
        c = self.config
        parts = [" ".join(c.command), c.notation, ",".join(sorted(c.all_fragments)), str(c.tolerance), c.division,
                 str(c.ill_typed), klass]
        return ("goi.oracle:" + "|".join(parts)).encode("utf-8")

    def run(self) -> Report:
        try:
            return self._run()
        finally:
            self.close()

    def _run(self) -> Report:
        started = time.perf_counter()
        report = Report(self.config)
        self.corpus_cases(report)
        survey_started = time.perf_counter()
        texts = self.survey()
        report.survey_seconds = time.perf_counter() - survey_started
        first_seen: dict[str, int] = {}
        for i, text in enumerate(texts):
            if text is None:
                report.skipped += 1
                continue
            case = self.cache[text]
            report.cases.append(case)
            report.counts[case.klass] += 1
            report.programs += 1
            first_seen.setdefault(case.klass, i)
        database = DirectoryBasedExampleDatabase(self.config.database) if self.config.database else None
        for klass in FAILURES:
            if report.counts[klass] == 0 and not self._saved(database, klass):
                continue
            find_seconds = self.found_after.get(klass, 0.0)
            shrunk = self.shrink(klass, database)
            if shrunk is not None:
                case, seconds, calls, complete = shrunk
                report.shrunk[klass] = Shrunk(case, first_seen.get(klass, -1), report.counts[klass], find_seconds, seconds,
                                              calls, complete)
        report.seconds = time.perf_counter() - started
        return report

    def _saved(self, database, klass: str) -> bool:
        if database is None:
            return False
        return any(True for _ in database.fetch(self.database_key(klass)))
