"""Rule coverage: how often each rule fired over the runs of the properties.

Every run's per-rule counts are added here and reported to Hypothesis as events
(`pytest --hypothesis-show-statistics` shows them per test); `summary()` gives a JSON-able
summary with the rules that never fired.
"""

from __future__ import annotations

from collections import Counter

from goi.semantics.rules import load_all

TOTALS: Counter = Counter()  # rule id -> transitions
RUNS: Counter = Counter()  # rule id -> runs in which it fired
FEATURES: Counter = Counter()  # feature -> runs (decoupling, deep decoupling, projection, …)
RUN_COUNT = [0]


def record(result, deep_decouplings: int = 0) -> None:
    """Count one run (a goi.Result) and report its rules to Hypothesis as events."""
    from hypothesis import event
    from hypothesis.errors import InvalidArgument

    RUN_COUNT[0] += 1
    fired = {r: n for r, n in result.rules.items() if n}
    TOTALS.update(fired)
    for rule_id in fired:
        RUNS[rule_id] += 1
        try:
            event(f"rule {rule_id}")
        except InvalidArgument:  # not inside a Hypothesis test: no statistics, counts still kept
            pass
    for feature in features(fired):
        FEATURES[feature] += 1
    if deep_decouplings:
        FEATURES["deep decoupling"] += 1


def features(c: dict[str, int]) -> list[str]:
    """The constructs a run exercised, from its per-rule counts."""
    found = []
    if c.get("deep.decouple"):
        found.append("decoupling")
        if c["deep.decouple"] > 1:
            found.append("several decouplings")
    if c.get("deep.project"):
        found.append("projection")
    if c.get("deep.contract"):
        found.append("deep contraction")
    if c.get("rw.iter.unfold"):
        found.append("iterated operation")
    if c.get("copy.dup"):
        found.append("copying")
    return found


def rules() -> list[str]:
    return sorted(r for r, rule in load_all().items() if rule.kind != "gc")


def summary() -> dict:
    runs = RUN_COUNT[0]
    return {
        "runs": runs,
        "transitions": {r: TOTALS.get(r, 0) for r in rules()},
        "runs_firing": {r: RUNS.get(r, 0) for r in rules()},
        "never_fired": [r for r in rules() if not TOTALS.get(r)],
        "features": {f: {"runs": n, "share": round(n / runs, 3) if runs else 0.0} for f, n in sorted(FEATURES.items())},
    }


def reset() -> None:
    TOTALS.clear()
    RUNS.clear()
    FEATURES.clear()
    RUN_COUNT[0] = 0
