"""Oracle mode's data: a run's configuration (OracleConfig), one program's outcome on both
implementations (Case), a bucket's shrunk failure (Shrunk), a run's report (Report), and the
failures as exceptions (a shrinking run fails on them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Optional

from goi.campaigns.runner import MAX_ESTIMATE
from goi.semantics.rules import load_all
from goi.semantics.show import to_json as _show

from .classification import ACCEPTS_INVALID, AGREE, CLASSES, FAILURES, HANG, IMPL_ERROR, REJECTS_VALID, WRONG_VALUE  # noqa: F401
from .classification import signature as signature_of
from .protocols import Answer

from .fragment import FRAGMENTS, OPERATORS as OPERATOR_FRAGMENTS, Fragment  # noqa: E402,F401 (their old home)
# Shrinking a hang: a try is given what goi's own machine needs for the same program, times
# HANG_FACTOR, and at least HANG_FLOOR seconds (never more than --timeout); the shrunk program
# is confirmed to hang at the full --timeout before it is reported (docs/ORACLE.md, Shrinking).
HANG_FLOOR = 1.0
HANG_FACTOR = 100
FEEDBACK_FEATURES = tuple(dict.fromkeys(r.feature for r in load_all().values() if r.feature))

# The search's techniques (docs/ORACLE.md, The search), each one switch of OracleConfig.search:
SEARCH = {
    "fit": "draw only what the notation can write (no negative provisional constant for the visualiser)",
    "swarm": "swarm testing: each program drawn with a random half of the constructs switched off",
    "sharing": "sharing patterns: a constant, variable or function used 2-3 times, across decouplings",
    "scopes": "binding chains: 2-5 lets and applied λs, closures over them, the outermost variables used most, some 2-3 times",
    "schedule": "stages of growing depth: many small programs first (SCHEDULE)",
    "steer": "after a stage, what every program of a dominant bucket has is switched off in half the next ones (oracle/steering.py)",
    "feedback": "the machine's run fed back to Hypothesis' target(): distinct rules fired, each rule feature's count",
    "unmask": "after shrinking, each bucket's members rewritten by an equivalence at one site (a let as an applied λ, "
              "operands swapped): a bug the bucket's bug hid shows as a bucket of its own (oracle/unmasking.py)",
}

# The survey's stages: (greatest depth, share of the programs); None is the configured depth.
SCHEDULE = ((2, 0.3), (3, 0.3), (None, 0.4))
# A stage draws at most DRAWS times its programs (repeats are drawn, not sent; a stage that
# falls short passes the rest to the next). Hypothesis runs its one target() optimisation pass
# after half its examples, so 2 puts that pass inside the stage, before its programs run out.
DRAWS = 2
MORE_MEMBERS = 3  # a bucket (not a hang): other members reduced too (Oracle._more_programs)
ABLATION_CALLS = 100  # and the calls spent trying its members without what the shown programs need
SAME_DEFECT_CALLS = 20  # calls a wrong-value bucket's subprograms may take, to tell it is an earlier defect's
UNMASK_CALLS = 100  # a bucket's members rewritten (the search's unmask): at most this many calls a bucket
CATCH_ALL = f"{WRONG_VALUE}: another value"  # the signature of a wrong value of no particular kind
MAX_BUCKETS = 20  # buckets shrunk in one run (the rest are listed with a failing program, not shrunk)
PRINTER_WARNING = 0.10  # a user's printer refusing more than this share of the draw is warned about


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
    search: frozenset = frozenset(SEARCH)  # the search's techniques in use (SEARCH; the benchmark turns them off)
    exhaustive: Optional[int] = None  # every program of size ≤ this, in size order, instead of the survey
    shards: Optional[int] = None  # a survey divided into this many shards, a seed each (properties/campaign.py)
    cluster: Optional[str] = None  # exhaustive or shards: run the shards on Dask (properties/campaign.py)
    checkpoint: Optional[str] = None  # exhaustive or shards: record each finished shard in this file
    resume: bool = False  # skip the shards the checkpoint has
    cluster_wait: float = 30.0  # seconds to reach a scheduler, and for a worker to join
    known: object = None  # oracle.known.Known: buckets set aside (--known), counted but never shrunk
    arithmetic: str = "exact"  # what the implementation computes with: NAME[,KEY=VALUE…] (oracle/arithmetic.py)
    ulps: int = 0  # ieee754: units in the last place an answer may be off
    integer_division: str = "trunc"  # integer: how division rounds
    max_campaign: int = 100_000_000  # a campaign of more programs is refused before it starts (properties/campaign.py)
    max_estimate: Optional[float] = MAX_ESTIMATE  # and one estimated at more CPU seconds (None: the user's bound, --max-campaign)
    reading: object = None  # oracle.target.Reading: how a plain command answers (a target's [answer]); None: the protocol
    max_nodes: int = 250_000  # goi's own graph budget per program: a drawn program past it is skipped and counted
    max_steps: int = 1_000_000  # and its transition budget

    @property
    def all_fragments(self) -> frozenset:
        from .arithmetic import declared

        return frozenset(self.fragments) | self.notation_fragments | declared(self.arithmetic).fragments

    @property
    def declared_arithmetic(self):
        """The arithmetic declared, with this run's options (oracle/arithmetic.py): what answers
        are judged by."""
        from .arithmetic import declared

        return declared(self.arithmetic).given(self)

    @property
    def fragment(self) -> Fragment:
        """Everything the implementation lacks, as one value (oracle/fragment.py): the fragments
        named, those the notation and the arithmetic imply."""
        return Fragment.of(self.all_fragments)

    @property
    def notation_fragments(self) -> frozenset:
        """What the notation cannot write, as fragments (its declaration implies them)."""
        from .notations import notation

        return frozenset() if self.printer is not None else notation(self.notation).notation.fragments


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
    stage: int = 0  # the survey's stage that drew it
    seconds: float = 0.0  # into the survey when its answer was in

    @property
    def signature(self) -> str:
        return signature_of(self)

    def to_json(self) -> dict:
        return {
            "class": self.klass,
            "signature": self.signature,
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
    found_after: int  # programs of the survey before the first of its bucket (-1: from the database)
    count: int  # programs of the survey in the bucket
    find_seconds: float
    shrink_seconds: float
    calls: int  # implementation calls while shrinking
    complete: bool  # True: 1-minimal for the reducer's steps; False: the shrink budget ran out first
    signature: str = ""
    first: Optional[Case] = None  # the survey's first program in the bucket, as drawn
    shrunk: bool = True  # False: past MAX_BUCKETS, listed with its first program, not shrunk
    unmasked: Optional[tuple] = None  # (the bucket, the rewriting): found by rewriting its member (oracle/unmasking.py)
    same_defect_as: Optional[str] = None  # a wrong-value bucket needing what this earlier one needs (Oracle.same_defects)
    same_because: Optional[str] = None  # what shows it is the same defect as `same_defect_as`

    def to_json(self, key: Optional[str] = None) -> dict:
        """As the JSON's `buckets` lists it (`key`: its key in Report.shrunk). Another minimal
        program of a bucket (`SIGNATURE #k`) counts no program: its bucket's entry counts them."""
        extra = key is not None and key != self.signature
        return {**self.case.to_json(), "signature": self.signature, "found_after": self.found_after,
                "count": 0 if extra else self.count,
                "another_program_of": self.same_defect_as or (self.signature if extra else None),
                "same_defect_because": self.same_because if self.same_defect_as else None,
                "find_seconds": round(self.find_seconds, 3),
                "shrink_seconds": round(self.shrink_seconds, 3), "shrink_calls": self.calls,
                "shrink_complete": self.complete, "shrunk": self.shrunk,
                "first_program": self.first.text if self.first is not None else None,
                "unmasked_from": ({"bucket": self.unmasked[0], "rewriting": self.unmasked[1]}
                                  if self.unmasked is not None else None)}


@dataclass
class Report:
    config: OracleConfig
    counts: dict = field(default_factory=lambda: {k: 0 for k in CLASSES})
    corpus: list = field(default_factory=list)  # Cases (failing ones)
    corpus_run: int = 0
    corpus_skipped: int = 0  # corpus programs the notation cannot write
    skipped: int = 0  # drawn programs the notation (or the user's printer) could not write: not sent
    duplicates: int = 0  # drawn programs already drawn: not sent again
    shrunk: dict = field(default_factory=dict)  # signature -> Shrunk: one per bucket, most frequent first
    programs: int = 0
    seconds: float = 0.0
    survey_seconds: float = 0.0
    cases: list = field(default_factory=list)  # every Case of the survey, in order
    exhaustive: Optional[dict] = None  # an exhaustive run: {"bound", "programs", "of"} (docs/CAMPAIGNS.md)
    cpu_seconds: Optional[dict] = None  # a campaign's CPU time, every process counted (goi/campaigns/cpu.py)
    known: dict = field(default_factory=dict)  # signature -> programs of a bucket --known set aside (not shrunk)
    known_signatures: frozenset = frozenset()  # every signature --known names (its programs' included)
    unconfirmed: dict = field(default_factory=dict)  # signature -> programs: hangs that answered when asked again
    beyond_budget: int = 0  # drawn programs goi's own machine could not finish within --max-nodes/--max-steps: not sent

    @property
    def failures(self) -> int:
        return sum(self.counts[k] for k in FAILURES) + len(self.corpus)

    @property
    def short_of_target(self) -> bool:
        """A survey that sent fewer programs than asked for (the draw could not write enough)."""
        return self.exhaustive is None and self.config.shards is None and self.programs < self.config.max_programs

    @property
    def defects(self) -> list:
        """The buckets found (their signatures): each a defect of its own, whatever further
        minimal programs of it are listed as `SIGNATURE #k`."""
        return [key for key, s in self.shrunk.items() if key == s.signature and s.same_defect_as is None]

    @property
    def new_buckets(self) -> int:
        """Buckets this run found that --known did not name (each shrunk, or listed)."""
        return sum(1 for sig in self.shrunk if sig.split(" #")[0] not in self.known_signatures)

    @property
    def new_failures(self) -> bool:
        """A failure --known does not set aside: a new bucket, or a corpus program failing anew."""
        return bool(self.new_buckets or any(case.signature not in self.known_signatures for case in self.corpus))

    @property
    def skipped_share(self) -> float:
        """The share of the draw the notation or printer could not write."""
        return self.skipped / max(1, self.skipped + self.programs + self.duplicates)

    def buckets(self) -> dict:
        """The survey's failures by signature, in order of first appearance: signature -> cases."""
        out: dict = {}
        for case in self.cases:
            if case.klass != AGREE:
                out.setdefault(case.signature, []).append(case)
        return out


# ---- comparing -------------------------------------------------------------------------
