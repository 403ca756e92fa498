"""Rule coverage: how often each rule fired over the runs of the properties.

Every run's per-rule counts are added here and reported to Hypothesis as events
(`pytest --hypothesis-show-statistics` shows them per test); `summary()` gives a JSON-able
summary with the rules that never fired.
"""

from __future__ import annotations

from collections import Counter

from goi.semantics.rules import DECOUPLING, fired, load_all

# the features rules declare (Rule.feature), in the order of the catalogue
FEATURES_OF_RULES = list(dict.fromkeys(r.feature for r in load_all().values() if r.feature))

TOTALS: Counter = Counter()  # rule id -> transitions
RUNS: Counter = Counter()  # rule id -> runs in which it fired
FEATURES: Counter = Counter()  # feature -> runs (decoupling, deep decoupling, projection, …)
RUN_COUNT = [0]
CHECK_RUNS: Counter = Counter()  # check -> times consulted
CHECK_VIOLATIONS: Counter = Counter()  # check -> violations
SAMPLES: list = []  # one small record per run, for the report's distributions (reports/)
MAX_SAMPLES = 100_000
CURRENT = [None]  # the property under way (set by the driver)
BUDGETS: list = []  # (property, message, program) of every example a budget stopped (not decided)


def record(result, deep_decouplings: int = 0) -> None:
    """Count one run (a goi.Result) and report its rules to Hypothesis as events."""
    from hypothesis import event
    from hypothesis.errors import InvalidArgument

    RUN_COUNT[0] += 1
    CHECK_RUNS.update(result.check_runs)
    if result.violation is not None:
        CHECK_VIOLATIONS[result.violation.check] += 1
    if len(SAMPLES) < MAX_SAMPLES:
        SAMPLES.append(_sample(result, deep_decouplings))
    fired = {r: n for r, n in {**result.rules, **(result.gc or {})}.items() if n}  # the collector's rules too
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


CONSTRUCTS = {"Lam": "λ", "App": "application", "Const": "constant", "Prov": "provisional constant", "Let": "let",
              "LetDecouple": "let @ (decoupling)", "Decouple": "A(f,x) (decoupling value)", "Var": "variable"}


def _sample(result, deep_decouplings: int) -> dict:
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
        "property": CURRENT[0],
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
    CHECK_RUNS.clear()
    CHECK_VIOLATIONS.clear()
    SAMPLES.clear()
    TOTALS.clear()
    RUNS.clear()
    FEATURES.clear()
    RUN_COUNT[0] = 0
