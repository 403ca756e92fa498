"""One run of a program shared by the properties an exhaustive campaign puts to it (issue 53,
item 4).

An exhaustive shard puts every program to several properties in turn, and most of them start
with the same run: the program's translation on the machine, first strategy, its own constants,
no collector — soundness with the check `productivity`, invariants with the per-transition
checks, determinism with `determinism` and `alpha`, agreement and parameters with few or none,
gc with `gc` (in a shard; its check then makes the collecting run: properties/gc_bisimulation.py).
Checks observe a run and never change it (the machine's transitions, outcome, value and final
state are the same whatever is watching), so one run with the union of their checks stands
for each of those runs — when no check fails. `SharedRuns` owns that: it learns, property by
property, which checks are asked for under each kind of run (whether the collector is on),
makes the first such run of a program with all of them, and hands it to the properties after.

A property gets the shared run only when it could not tell it from its own:
- the run is the one it asks for: the program given as a term, first strategy, the program's
  own constants, the translation's graph, the same collector setting;
- its checks are among those the run had;
- the run ended without a violation or a budget (a violation stops the run: what the other
  checks, and the property, would have seen after it is not known; two checks failing at one
  step may be reported in another order; and a check's own run — `gc`'s other run, an order
  `determinism` tries — may stop at a budget the property's run alone would not meet): then
  each property makes its own run, as without sharing;
- it has not had this run already (a property that runs one program twice compares two runs,
  never one run with itself).
Anything else makes a run of its own, exactly as `runner.run` does without sharing.

Shared runs are for the exhaustive shards only (properties/_shards.py), where runs are counted,
not recorded for a report; a property run under Hypothesis draws its own programs.
"""

from __future__ import annotations

import contextlib
from contextvars import ContextVar
from typing import Callable, Iterator, Optional


class _Kept:
    __slots__ = ("config", "checks", "triple", "takers")

    def __init__(self, config, checks: frozenset, triple: tuple, taker: str):
        self.config = config  # the profile's settings it ran under (budgets, check modes)
        self.checks = checks
        self.triple = triple  # (judgement, machine, result), as runner.run returns it
        self.takers = {taker}


class SharedRuns:
    """The runs of the program under way, and the checks each kind of run is asked for."""

    def __init__(self):
        self.asked: dict[bool, set] = {}  # collector on? -> every check a property asked for with it
        self.term = None
        self.kept: dict[bool, _Kept] = {}
        self.shared = 0  # runs handed to a property instead of a run of its own

    def begin(self, term) -> None:
        """The next program: nothing of the last one is handed on."""
        self.term = term
        self.kept = {}

    def run(self, term, prop: str, config, checks: tuple, gc: bool, make: Callable[[list], tuple]) -> tuple:
        """The run `prop` asks for (its checks, the collector on or off, under `config`): a
        kept one, or one made by `make(checks)` — with every check asked for under this
        setting when it may be kept for the properties after."""
        wanted = frozenset(checks)
        asked = self.asked.setdefault(gc, set())
        asked |= wanted
        if term is not self.term:  # not the program under way: a run of its own
            return make(list(checks))
        kept = self.kept.get(gc)
        if kept is not None and kept.config is not config:
            kept = None  # made under other settings: never handed on
        if kept is not None and prop not in kept.takers and wanted <= kept.checks:
            kept.takers.add(prop)
            self.shared += 1
            return kept.triple
        union = frozenset(asked)
        if union == wanted:
            triple = make(list(checks))
        else:
            triple = make(_in_order(union))
            if triple[2].status in _STOPPED:  # another property's check may have stopped it
                return make(list(checks))
        if triple[2].status not in _STOPPED and (kept is None or not wanted <= kept.checks):
            self.kept[gc] = _Kept(config, union, triple, prop)
        return triple


_STOPPED = ("violation", "budget")  # a run that ended so is never handed on


def _in_order(names) -> list:
    """The checks in the order of `all` (their declared order): one run's checks are always
    made in the same order, whichever property asked first."""
    from goi.semantics.checks import default_checks

    return [n for n in default_checks() if n in names]


_ACTIVE: ContextVar[Optional[SharedRuns]] = ContextVar("goi_shared_runs", default=None)


def active() -> Optional[SharedRuns]:
    return _ACTIVE.get()


@contextlib.contextmanager
def _active_as(shared: Optional[SharedRuns]) -> Iterator[Optional[SharedRuns]]:
    token = _ACTIVE.set(shared)
    try:
        yield shared
    finally:
        _ACTIVE.reset(token)


def sharing():
    """`with sharing() as shared:` — the properties' runs inside are shared, program by
    program (`shared.begin(term)` before each)."""
    return _active_as(SharedRuns())


def alone():
    """`with alone():` — the runs inside are made afresh, as outside any `sharing()`."""
    return _active_as(None)
