"""Shared by the properties: type-check, translate, run on the machine with checks, and
report a failure as a finding with the (shrunk) program."""

from __future__ import annotations

from typing import Iterable

from goi.api import Execution
from goi.semantics.pretty import pretty
from goi.semantics.rules import DECOUPLING, fired

from .coverage import record, started
from .sharing import active


class Finding(AssertionError):
    """A property failed on a program: the message says which and how."""

    def __init__(self, prop: str, message: str, program: str = ""):
        super().__init__(f"[{prop}] {message}" + (f"\n  program: {program}" if program else ""))
        self.prop = prop
        self.message = message
        self.program = program


class BudgetFinding(Finding):
    """A budget (steps, nodes, digits) stopped the run: the property is not decided on this
    program — not a pass, and not a counterexample either. The properties of the suite
    record such a program and pass over it (`undecided`), so that it is neither shrunk nor
    counted as a failure; `goi props` reports the property as `budget`, and pytest lists
    the programs in its summary."""


def run(term, prop: str, config, checks: Iterable[str] = (), gc: bool = False, strategy=None, params=None, graph=None):
    """Run a closed program (or a given graph of it) on the machine with the given checks,
    through the one pipeline of goi.api; returns (judgement, machine, result). Inside
    `sharing()` (an exhaustive shard), a run the properties before made of this program may
    stand for it (properties/sharing.py says when)."""
    shared = active() if strategy is None and params is None and graph is None else None
    if shared is None:
        judgement, machine, result = _made(term, config, list(checks), gc, strategy, params, graph)
    else:
        judgement, machine, result = shared.run(term, prop, config, tuple(checks), gc,
                                                lambda names: _made(term, config, names, gc, None, None, None))
    deep = 0
    if fired(result.rules, DECOUPLING):  # counted by the reference evaluator, loaded only when one fired
        from .reference import deep_decouplings

        deep = deep_decouplings(judgement)
    record(result, deep_decouplings=deep)
    if result.status == "budget":
        raise BudgetFinding(prop, f"a budget stopped the run: {result.reason}", _show(term))
    if result.status == "violation":
        raise Finding(prop, result.reason or "", _show(term))
    return judgement, machine, result


def _made(term, config, checks: list, gc: bool, strategy, params, graph) -> tuple:
    execution = Execution(
        term,
        params=params,
        strategy=strategy,
        checks=checks,
        check_mode=config.check_mode,
        stability_mode=config.stability_mode,
        determinism_paths=config.determinism_paths,
        gc=gc,
        graph=graph,
    )
    started(execution, config.max_steps)
    result = execution.run(config.max_steps)
    return execution.judgement, execution.machine, result


def _show(term) -> str:
    try:
        return pretty(term)
    except ValueError:
        return repr(term)


def show(term) -> str:
    return _show(term)


class undecided:
    """`with undecided(prop):` around a property's body in the suite: a BudgetFinding is
    recorded (the session's Recorder: coverage.current().budgets) and the example rejected (Hypothesis neither shrinks it nor
    counts it as a failure, and generates another in its place)."""

    def __init__(self, prop: str):
        self.prop = prop

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if exc is None or not isinstance(exc, BudgetFinding):
            return False
        from hypothesis import reject

        from . import coverage

        coverage.current().budgets.append((self.prop, exc.message, exc.program))
        reject()
