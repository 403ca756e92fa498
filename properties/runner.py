"""Shared by the properties: type-check, translate, run on the machine with checks, and
report a failure as a finding with the (shrunk) program."""

from __future__ import annotations

from typing import Iterable

from semantics.checks import Monitor, make_checks
from semantics.machine import FirstStrategy, Machine
from semantics.pretty import pretty
from semantics.translate import translate
from semantics.typecheck import typecheck

from .coverage import record


class Finding(AssertionError):
    """A property failed on a program: the message says which and how."""

    def __init__(self, prop: str, message: str, program: str = ""):
        super().__init__(f"[{prop}] {message}" + (f"\n  program: {program}" if program else ""))
        self.prop = prop
        self.message = message
        self.program = program


class BudgetFinding(Finding):
    """The run hit its step budget: not a pass, and not a soundness failure either."""


def run(term, prop: str, config, checks: Iterable[str] = (), gc: bool = False, strategy=None, params=None, graph=None):
    """Run a closed program (or a given graph of it) on the machine with the given checks;
    returns (judgement, machine, outcome)."""
    from semantics.gc import Collector

    judgement = typecheck(term)
    if graph is None:
        graph = translate(judgement, params=params)
    machine = Machine(graph, strategy=strategy or FirstStrategy())
    if gc:
        Collector(machine)
    monitor = Monitor(
        machine,
        make_checks(
            list(checks),
            check_mode=config.check_mode,
            stability_mode=config.stability_mode,
            determinism_paths=config.determinism_paths,
        ),
    )
    outcome = monitor.run(config.max_steps)
    from .reference import deep_decouplings

    record(outcome, machine, deep_decouplings=deep_decouplings(judgement) if outcome.counts.get("deep.decouple") else 0)
    if outcome.status == "budget":
        raise BudgetFinding(prop, f"step budget {config.max_steps} reached", _show(term))
    if outcome.status == "violation":
        raise Finding(prop, outcome.reason, _show(term))
    return judgement, machine, outcome


def _show(term) -> str:
    try:
        return pretty(term)
    except ValueError:
        return repr(term)


def show(term) -> str:
    return _show(term)
