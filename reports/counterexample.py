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


def explain(program: str, max_steps: int = 2_000_000) -> Optional[dict]:
    """Re-run `program` with every check, exhaustively; describe the first violation (or the
    run's end, when the property failed on something other than an invariant)."""
    try:
        judgement = api.check(program)
    except GoiError as exc:
        return {"program": program, "error": exc.message}
    first = api.prepare(judgement, checks=["all"], check_mode="exhaustive")
    outcome = first.run(max_steps)
    violation = outcome.violation
    failing = violation.step if violation is not None and violation.step is not None else None

    second = api.prepare(judgement, checks=["all"], check_mode="exhaustive")
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


