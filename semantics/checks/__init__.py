"""The appendix's invariants as runtime checks (docs/INVARIANTS.md).

Each check is a small module with one job. A Monitor attaches the chosen checks to a
machine: per-transition checks run after every transition, run-level checks when the run
ends. A failed check raises InvariantViolation, which names the check, the rule ID of the
last transition, the step number, and the offending nodes.

    monitor = Monitor(machine, make_checks(["validity", "stability"]))
    outcome = monitor.run(max_steps)        # outcome.status == "violation" on a failure

`goi run --check validity,stability` / `--check all` does the same from the command line.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Iterable

from .base import CHECKS, MODES, Check, GraphCheck, InvariantViolation, Policy, changes_graph, declare, is_pass, summary
from .monitor import Monitor


def registry() -> dict[str, type]:
    """Every check, by name, in the order of `all`: each module of this package is imported
    (a check declares itself with `@declare`), so adding a check is adding its module."""
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    return {name: CHECKS[name] for name in sorted(CHECKS, key=lambda n: CHECKS[n].order)}


def make_checks(names: Iterable[str], **options) -> list[Check]:
    """Checks by name ("all" for every one); options go to the checks that take them."""
    reg = registry()
    names = list(names)
    if "all" in names:
        names = list(reg)
    unknown = [n for n in names if n not in reg]
    if unknown:
        raise ValueError(f"unknown check(s) {', '.join(unknown)}; known: {', '.join(reg)}, all")
    checks = []
    for n in names:
        cls = reg[n]
        accepted = {k: v for k, v in options.items() if k in getattr(cls, "options", ())}
        checks.append(cls(**accepted))
    return checks




__all__ = ["CHECKS", "MODES", "Check", "GraphCheck", "InvariantViolation", "Monitor", "Policy", "changes_graph",
           "declare", "is_pass", "make_checks", "registry", "summary"]
