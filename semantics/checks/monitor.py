"""The Monitor: runs a machine with checks attached, timing each check."""

from __future__ import annotations

import time
from collections import defaultdict
from typing import Optional

from ..machine import Outcome
from ..rules import PASS
from ..values import BudgetExceeded
from .base import Check, InvariantViolation
from .incremental import stop as stop_recording


class Monitor:
    """Runs a machine with checks attached, timing each check."""

    def __init__(self, machine, checks: list[Check]):
        self.machine = machine
        self.checks = checks
        self.seconds: dict[str, float] = defaultdict(float)
        self.runs: dict[str, int] = defaultdict(int)  # times each check was consulted
        self.violation: Optional[InvariantViolation] = None
        # whom to consult after a rewrite, and after a pass: checks with a per-transition part
        on_rewrites = [c for c in checks if type(c).after is not Check.after]
        self.on_rewrites = [(c.name, c.after) for c in on_rewrites]  # bound once: called per transition
        self.on_passes = [(c.name, c.after) for c in on_rewrites if c.on_passes]
        if machine.monitor is not None:
            raise ValueError("this machine has a monitor already")
        machine.monitor = self
        if self.on_rewrites:  # a machine nothing observes makes its transitions without the observers' calls
            machine.after.append(self._after)

    def _timed(self, check: Check, method: str, *args) -> None:
        self.runs[check.name] += 1
        start = time.perf_counter()
        try:
            getattr(check, method)(self.machine, *args)
        finally:
            self.seconds[check.name] += time.perf_counter() - start

    def _after(self, machine, rule_id, redex) -> None:
        """What `_timed` does for each check with a per-transition part, inlined (it runs
        after every transition)."""
        seconds, runs, clock = self.seconds, self.runs, time.perf_counter
        for name, after in self.on_passes if machine.rules[rule_id].kind == PASS else self.on_rewrites:
            runs[name] += 1
            start = clock()
            try:
                after(machine, rule_id, redex)
            except InvariantViolation as v:
                v.rule, v.step = rule_id, machine.steps
                raise
            finally:
                seconds[name] += clock() - start

    def run(self, max_steps: int = 1_000_000, trace=None, stop=None):
        m = self.machine
        try:
            for check in self.checks:
                self._timed(check, "initial")
            outcome = m.run(max_steps, trace, stop)
            for check in self.checks:
                self._timed(check, "at_end", outcome)
            return outcome
        except BudgetExceeded as exc:  # a check's own run stopped (gc's other run): undecided, as in a transition
            return Outcome("budget", None, m.steps, m.counts.copy(), str(exc), exc.limit, rules=m.rules)
        except InvariantViolation as v:
            if v.step is None:
                v.step = m.steps
                v.rule = m.last_rule
            self.violation = v
            return Outcome("violation", None, m.steps, m.counts.copy(), v.describe(), rules=m.rules)
        finally:  # the journals stop recording: the run is over, whatever its outcome
            stop_recording(m)
            for check in self.checks:
                journal = getattr(check, "journal", None)
                if journal is not None:
                    journal.detach(m.graph)
