"""Rule coverage: how often each rule fired over the runs of the properties.

Every run's per-rule counts are added to the session's Recorder and reported to Hypothesis
as events (`pytest --hypothesis-show-statistics` shows them per test); its `summary()` gives
a JSON-able summary with the rules that never fired.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Iterator, Optional

from goi.semantics.rules import DECOUPLING, fired, load_all

# the features rules declare (Rule.feature), in the order of the catalogue
FEATURES_OF_RULES = list(dict.fromkeys(r.feature for r in load_all().values() if r.feature))

MAX_SAMPLES = 100_000


@dataclass
class Recorder:
    """What the runs of one session of properties fired and met: rule and feature counts,
    check consultations and violations, a sample per run for the report, and the examples a
    budget stopped. The session under way is a context variable (`current()`); `recording()`
    starts a new one, and pytest's run uses the default."""

    totals: Counter = field(default_factory=Counter)  # rule id -> transitions
    runs: Counter = field(default_factory=Counter)  # rule id -> runs in which it fired
    features: Counter = field(default_factory=Counter)  # feature -> runs (decoupling, deep decoupling, projection, …)
    run_count: int = 0
    check_runs: Counter = field(default_factory=Counter)  # check -> times consulted
    check_violations: Counter = field(default_factory=Counter)  # check -> violations
    samples: list = field(default_factory=list)  # one small record per run, for the report's distributions
    budgets: list = field(default_factory=list)  # (property, message, program) of every example a budget stopped
    property: Optional[str] = None  # the property under way (set by the suite)
    example: Optional[dict] = None  # the example under way: after a failure, the shrunk one Hypothesis replayed last
    last_run: Optional[dict] = None  # the settings of the example's last run started (Execution.settings, max_steps)

    def record(self, result, deep_decouplings: int = 0) -> None:
        """Count one run (a goi.Result) and report its rules to Hypothesis as events."""
        from hypothesis import currently_in_test_context, event

        self.run_count += 1
        self.check_runs.update(result.check_runs)
        if result.violation is not None:
            self.check_violations[result.violation.check] += 1
        if len(self.samples) < MAX_SAMPLES:
            self.samples.append(_sample(result, deep_decouplings, self.property))
        fired_now = {r: n for r, n in {**result.rules, **(result.gc or {})}.items() if n}  # the collector's rules too
        self.totals.update(fired_now)
        in_test = currently_in_test_context()  # outside a Hypothesis test: no statistics, counts still kept
        for rule_id in fired_now:
            self.runs[rule_id] += 1
            if in_test:
                event(f"rule {rule_id}")
        for feature in features(fired_now):
            self.features[feature] += 1
        if deep_decouplings:
            self.features["deep decoupling"] += 1

    def summary(self) -> dict:
        runs = self.run_count
        return {
            "runs": runs,
            "transitions": {r: self.totals.get(r, 0) for r in rules()},
            "runs_firing": {r: self.runs.get(r, 0) for r in rules()},
            "never_fired": [r for r in rules() if not self.totals.get(r)],
            "features": {f: {"runs": n, "share": round(n / runs, 3) if runs else 0.0} for f, n in sorted(self.features.items())},
        }


_CURRENT: ContextVar[Recorder] = ContextVar("goi_coverage", default=Recorder())


def current() -> Recorder:
    """The recorder of the session under way."""
    return _CURRENT.get()


@contextlib.contextmanager
def recording(recorder: Optional[Recorder] = None) -> Iterator[Recorder]:
    """`with recording() as rec:` — the runs inside are recorded in a fresh Recorder (or the
    one given)."""
    token = _CURRENT.set(recorder if recorder is not None else Recorder())
    try:
        yield _CURRENT.get()
    finally:
        _CURRENT.reset(token)


class Discarding(Recorder):
    """A session whose runs are not recorded (a campaign's shard: it reports counts, not coverage)."""

    def record(self, result, deep_decouplings: int = 0) -> None:
        pass


def discarding():
    """`with discarding():` — the runs inside are not recorded."""
    return recording(Discarding())


def started(execution, max_steps: int) -> None:
    """A property starts a run of its example: its settings are kept, so that a failure's
    report shows this run (reports/collect.py), not one under other options."""
    current().last_run = {**execution.settings, "max_steps": max_steps}


def record(result, deep_decouplings: int = 0) -> None:
    """Count one run in the session under way."""
    current().record(result, deep_decouplings)


CONSTRUCTS = {"Lam": "λ", "App": "application", "Const": "constant", "Prov": "provisional constant", "Let": "let",
              "LetDecouple": "let @ (decoupling)", "Decouple": "A(f,x) (decoupling value)", "Var": "variable"}


def _sample(result, deep_decouplings: int, prop: Optional[str]) -> dict:
    from goi.semantics import syntax as S

    term = result.judgement.surface
    size = depth = 0
    constructs: set = set()
    todo = [(term, 1)] if term is not None else []
    while todo:  # one walk: size, depth and constructs
        t, d = todo.pop()
        size, depth = size + 1, max(depth, d)
        kind = type(t).__name__
        constructs.add(f"operator {t.op}" if isinstance(t, S.BinOp) else CONSTRUCTS.get(kind, kind))
        todo.extend((c, d + 1) for c in S.subterms(t))
    return {
        "property": prop,
        "program": _text(term, size),
        "size": size if term is not None else None,
        "depth": depth if term is not None else None,
        "parameters": len(result.judgement.params),
        "transitions": result.transitions,
        "status": result.status,
        "features": features(result.rules) + (["deep decoupling"] if deep_decouplings else []),
        "constructs": sorted(constructs),
        "rules": sum(1 for n in result.rules.values() if n),
    }


SAMPLE_TEXT_NODES = 120  # programs up to this size keep their text, for the report's sample


def _text(term, size: int):
    if term is None or size > SAMPLE_TEXT_NODES:
        return None
    from goi.semantics.pretty import pretty

    try:
        return pretty(term)
    except ValueError:
        return None


def features(c: dict[str, int]) -> list[str]:
    """The constructs a run exercised, from its per-rule counts."""
    found = []
    for feature in FEATURES_OF_RULES:
        n = fired(c, feature)
        if n:
            found.append(feature)
        if feature == DECOUPLING and n > 1:
            found.append("several decouplings")
    return found


def rules() -> list[str]:
    """Every rule of the catalogue: the machine's transitions and the collector's (gc.*)."""
    return sorted(load_all())
