"""Running the property suite outside pytest (`goi props`, and anything else that wants the
results as data): the same tests as pytest (properties.suite), under a profile's settings,
optionally seeded or replaying one failure, one result per property.

    results = run_suite(["soundness"], profile="ci", seed=3)
    results[0].status      # passed | failed | budget | interrupted
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Callable, Iterable, Optional

import hypothesis
import hypothesis.reporting
from hypothesis import reproduce_failure, settings

from goi.semantics.stack import interrupt_taken

from . import coverage, suite
from .profiles import config, database_unreachable, register
from goi.progress import PROGRESS
from .runner import BudgetFinding, Finding, show


_BLOB = re.compile(r"@reproduce_failure\('([^']+)', b'([^']+)'\)")


@dataclass
class PropertyResult:
    name: str
    status: str  # passed | failed | budget | interrupted | fixed (a replayed failure no longer happens)
    runs: int
    seconds: float
    finding: Optional[str] = None  # the message, with the shrunk program
    program: Optional[str] = None
    blob: Optional[str] = None  # Hypothesis' @reproduce_failure blob
    replay: Optional[str] = None  # a command that replays the failure
    run: Optional[dict] = None  # a failure's: the settings of the last run made on its program (coverage.started)

    @property
    def runs_per_second(self) -> Optional[float]:
        return round(self.runs / self.seconds, 1) if self.seconds else None

    def to_json(self) -> dict:
        return {
            "status": self.status,
            "runs": self.runs,
            "seconds": round(self.seconds, 3),
            "runs_per_second": self.runs_per_second,
            "finding": self.finding,
            "program": self.program,
            "blob": self.blob,
            "replay": self.replay,
        }


def _first_failure(exc: BaseException) -> BaseException:
    if isinstance(exc, BaseExceptionGroup):
        return _first_failure(exc.exceptions[0])
    return exc


def _blob_of(exc: BaseException) -> Optional[str]:
    for note in getattr(exc, "__notes__", ()):
        found = _BLOB.search(note)
        if found:
            return found.group(2)
    return None


def _say(messages: list[str]) -> None:
    for message in messages:
        hypothesis.reporting.default(message)


def _program_of(example: Optional[dict]) -> Optional[str]:
    """The program of an example (its first surface term, as the paper writes it); None if it
    has none (a pair of contexts, say, is shown by the property's own Finding)."""
    from goi.semantics import syntax as S

    for value in (example or {}).values():
        if isinstance(value, S.Term):
            try:
                return show(value)
            except Exception:  # noqa: BLE001 - what cannot be shown is not kept; the finding still says what raised
                return None
    return None


def run_property(name: str, profile: str, examples: Optional[int] = None, seed: Optional[int] = None,
                 replay: Optional[str] = None, shrink: bool = True) -> PropertyResult:
    """Run one property of the suite; a KeyboardInterrupt propagates (the caller reports).
    `shrink=False`: a failure is reported as found (a campaign's shard: the campaign shrinks
    each distinct failure once)."""
    register()
    cfg = config(profile)
    test = suite.build(name, cfg)
    options = dict(max_examples=examples or cfg.examples, report_multiple_bugs=False)
    if not shrink:
        options["phases"] = [p for p in settings.get_profile(profile).phases if p != hypothesis.Phase.shrink]
    test = settings(settings.get_profile(profile), **options)(test)
    if seed is not None:
        test = hypothesis.seed(seed)(test)
    if replay is not None:
        test = reproduce_failure(hypothesis.__version__, replay.encode("ascii"))(test)
    recorder = coverage.current()
    runs_before = recorder.run_count
    start = time.perf_counter()
    recorder.property = name
    PROGRESS.name, PROGRESS.target_override = None, examples
    status, finding, program, blob = "passed", None, None, None
    budgets_before = len(recorder.budgets)
    said: list[str] = []  # Hypothesis' reports: shown once the test ends, dropped on Ctrl-C (nothing failed)
    try:
        try:
            with hypothesis.reporting.with_reporter(said.append):
                test()
        except (KeyboardInterrupt, hypothesis.errors.DidNotReproduce):
            said.clear()  # Ctrl-C: nothing failed; a replay that passes: the failure is gone (reported as fixed)
            raise
        finally:
            _say(said)
        stopped = [b for b in recorder.budgets[budgets_before:] if b[0] == name]
        if stopped:  # every decided example passed; these were not decided (runner.undecided)
            status = "budget"
            _prop, message, program = stopped[0]
            finding = f"[{name}] {len(stopped)} example(s) not decided: {message}"
    except (BaseExceptionGroup, Exception) as raised:  # a Finding, or the machine itself raising
        exc = _first_failure(raised)
        lost = database_unreachable(exc)
        if lost is not None:  # the example database, not the property: an I/O error
            raise lost from None
        blob = _blob_of(exc) or _blob_of(raised)
        stopped = [b for b in recorder.budgets[budgets_before:] if b[0] == name]
        if isinstance(exc, hypothesis.errors.DidNotReproduce) and stopped:  # a replayed budget example
            exc = BudgetFinding(name, stopped[0][1], stopped[0][2])
            blob = replay
        if isinstance(exc, hypothesis.errors.DidNotReproduce):  # the replayed example passes: the failure is gone
            seconds = time.perf_counter() - start
            return PropertyResult(name, "fixed", recorder.run_count - runs_before, seconds,
                                  f"[{name}] the replayed example passes now: the failure it recorded is gone")
        if isinstance(exc, BudgetFinding):
            status = "budget"
        else:
            status = "failed"
        if isinstance(exc, Finding):
            finding, program = str(exc), exc.program or None
        else:  # the machine itself raised on a generated program: a finding too, with that program
            finding = f"[{name}] {type(exc).__name__}: {exc}"
            program = _program_of(recorder.example)
    seconds = time.perf_counter() - start
    result = PropertyResult(name, status, recorder.run_count - runs_before, seconds, finding, program, blob)
    if status == "failed" and program is not None:
        result.run = recorder.last_run
    if blob:
        result.replay = f"goi props {name} --profile {profile} --replay {blob}"
    return result


def run_suite(names: Iterable[str], profile: str, examples: Optional[int] = None, seed: Optional[int] = None,
              replay: Optional[str] = None, on_result: Optional[Callable[[PropertyResult], None]] = None,
              shrink: bool = True) -> tuple[list[PropertyResult], bool]:
    """Run properties in order; returns (results, interrupted). On Ctrl-C the property under
    way is reported as interrupted and the rest are not run."""
    if isinstance(names, str):
        raise TypeError(f"names is a list of property names, not the string {names!r}")
    names = list(names)
    known = suite.names()
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown propert{'y' if len(unknown) == 1 else 'ies'} {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(known)}")
    results = []
    for name in names:
        start = time.perf_counter()
        recorder = coverage.current()
        runs_before = recorder.run_count
        try:
            result = run_property(name, profile, examples, seed, replay, shrink)
        except KeyboardInterrupt:
            interrupt_taken()
            result = PropertyResult(name, "interrupted", recorder.run_count - runs_before, time.perf_counter() - start)
        results.append(result)
        if on_result:
            on_result(result)
        if result.status == "interrupted":
            return results, True
    return results, False
