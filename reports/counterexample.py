"""A counterexample, explained for a report: the shrunk program re-run with every check,
the violated invariant with its paper reference, the trace around the failing step (rule
IDs), and the graph before and after the failing transition (DOT, drawn by pictures.py)."""

from __future__ import annotations

from collections import deque
from typing import Optional

from goi import api
from goi.semantics.dot import to_dot
from goi.semantics.errors import GoiError
from goi.semantics.show import step_line, to_text as _show

TRACE_CONTEXT = 12  # steps shown before the failing one

# Where each invariant comes from (docs/INVARIANTS.md says how each is read).
PAPER = {
    "form": "the definition of (composite) graphs and the node signatures (Sec. 4, Fig. node signatures)",
    "names": "the name criteria of validity (Appendix, Def. \"Validity\")",
    "graph": "the graph criterion of validity: acyclicity and covering (Appendix, Def. \"Validity\")",
    "validity": "Def. \"Validity\" (Appendix): name and graph criteria, and the token's data fits its position's type",
    "stability": "Def. \"Stability\" (Appendix), used by Prop. D.1 \"Productivity\"",
    "determinism": "Prop. \"Determinism\" (Appendix A: Props. A.1, A.2, Cor. A.3)",
    "alpha": "Prop. \"alpha-equivalence of graph states\" (Appendix)",
    "productivity": "Prop. D.1 \"Productivity\"",
    "dataflow": "Theorem 6.1 \"Soundness\": a final state of ground type is a data-flow graph",
    "gc": "Prop. \"Garbage collection\" (App. \"Garbage collection\")",
}


MAX_STEPS = 2_000_000  # the explanation's budget, and the most a recorded run's max_steps may ask
RECORDED = ("division", "params", "strategy", "seed", "gc", "max_nodes", "max_digits")  # the run's options a replay takes


def replay_options(settings) -> tuple[Optional[dict], Optional[str]]:
    """The options of goi.run that make a counterexample's failing run again, from its `run`
    record (properties/coverage.started; read back from a report's JSON, so checked, never
    trusted whole): (options, None), or (None, why) when the run cannot be made again — then
    no explanation or page is made from another run. No record (a report of an earlier goi):
    the defaults."""
    if settings is None:
        return {}, None
    if not isinstance(settings, dict):
        return None, "its run's record is not an object"
    if settings.get("replayable") is not True:
        return None, "its run used a graph, field, rules or strategy given as an object, which a report cannot name"
    options = {k: settings.get(k) for k in RECORDED if k in settings}
    params = options.get("params")
    if params is not None and not (isinstance(params, list) and all(isinstance(v, str) and len(v) <= 1000 for v in params)):
        return None, "its run's parameters are not a list of numbers"
    checks = {
        "division": options.get("division", "total") in ("total", "strict"),
        "strategy": options.get("strategy", "first") in ("first", "random"),
        "seed": isinstance(options.get("seed", 0), int) and not isinstance(options.get("seed", 0), bool),
        "gc": isinstance(options.get("gc", False), bool),
        "max_nodes": _whole(options.get("max_nodes", 1)), "max_digits": _whole(options.get("max_digits", 1)),
        "max_steps": _whole(settings.get("max_steps", 1)) and settings.get("max_steps", 1) <= MAX_STEPS,
    }
    bad = [k for k, ok in checks.items() if not ok]
    if bad:
        return None, f"its run's record has a bad {bad[0]}"
    return options, None


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 1


def explain(program: str, settings: Optional[dict] = None) -> Optional[dict]:
    """Run `program` again as its failing run was made (`settings`: its record; see
    replay_options), with every check, exhaustively; describe the first violation (or the
    run's end, when the property failed on something other than an invariant)."""
    options, why = replay_options(settings)
    if options is None:
        return {"program": program, "error": f"not run again: {why}"}
    max_steps = (settings or {}).get("max_steps", MAX_STEPS)
    try:
        judgement = api.check(program)
        first = api.prepare(judgement, checks=["all"], check_mode="exhaustive", **options)
    except GoiError as exc:
        return {"program": program, "error": exc.message}
    except (TypeError, ValueError) as exc:  # the record does not fit the program (its parameters, say)
        return {"program": program, "error": f"not run again: its run's record does not fit the program ({exc})"}
    outcome = first.run(max_steps)
    violation = outcome.violation
    failing = violation.step if violation is not None and violation.step is not None else None

    second = api.prepare(judgement, checks=["all"], check_mode="exhaustive", **options)
    machine = second.machine
    trace: deque = deque(maxlen=TRACE_CONTEXT + 1)
    pictures: dict = {}
    if failing is None or failing == 0:
        pictures["before"] = to_dot(machine.graph, machine, "initial graph")

    def before(m, rule_id, redex) -> None:
        if failing is not None and m.steps + 1 == failing:
            pictures["before"] = to_dot(m.graph, m, f"before step {failing} ({rule_id})")

    def after(m, rule_id, redex) -> None:
        if failing is not None and m.steps == failing:
            pictures["after"] = to_dot(m.graph, m, f"after step {failing} ({rule_id})")

    machine.before.append(before)
    machine.after.insert(0, after)  # before the checks, which stop the run at the violation
    result = second.run(max_steps, trace.append)
    if failing is None:
        pictures["after"] = to_dot(machine.graph, machine, f"{result.status} graph")
    return {
        "program": program,
        "status": result.status,
        "value": None if result.value is None else _show(result.value),
        "transitions": result.transitions,
        "violation": None if violation is None else {
            **violation.to_json(), "paper": PAPER.get(violation.check, ""), "description": violation.describe()},
        "trace": [{"number": s.number, "rule": s.rule, "line": step_line(s)} for s in trace],
        "dot": pictures,
    }


