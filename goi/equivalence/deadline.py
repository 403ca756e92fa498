"""The budget shared by every part of one decision (`goi equiv --timeout S` or `--work N`): the
symbolic runs, each z3 query, the minimisation of a witness and the exact replays all take what
is left of it.

Two kinds, and both at once if asked:
- **time** (`seconds`): the whole decision ends within the budget plus one poll of whatever
  is running. What is decided depends on the machine's speed and load.
- **work** (`work`): z3's own resource units (its deterministic `rlimit` counter), spent
  query by query; the symbolic runs are bounded by their step budget as always. The verdict
  is the same on any machine at any load: tests, documented examples and the `ci` profile
  decide by work, never by time (docs/CONJECTURES.md).

The clock can be replaced, so tests can slow it down to show that a work budget ignores it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Optional, Union

# z3's own resource limit, in its resource units per second of a *time* budget: a query that
# z3's timer fails to interrupt still stops at this much work. (z3 spent 0.4 to 2.9 million
# units a second on the nonlinear queries tried on this machine: this is well above.)
Z3_RLIMIT_PER_SECOND = 50_000_000
PIN_WORK = 2_000_000  # at most this much of a work budget for each try at pinning a witness's variable


@dataclass(frozen=True)
class Work:
    """A budget of z3 resource units (`goi equiv --work N`): where a function takes a
    `timeout`, a Work given instead decides by work, not time."""

    units: int

    def __post_init__(self):
        if isinstance(self.units, bool) or not isinstance(self.units, int) or self.units < 1:
            raise ValueError(f"a work budget is a whole number of z3 units ≥ 1, not {self.units!r}")


Budget = Union[float, int, Work]
DEFAULT_WORK = Work(20_000_000)  # goi equiv's and the API's default budget (well above every query of the docs and tests)


class Deadline:
    def __init__(self, seconds: Optional[float] = 10.0, clock: Optional[Callable[[], float]] = None,
                 work: Optional[int] = None):
        self.seconds = seconds
        self.clock = clock or time.monotonic  # read when made: a test may slow the clock down
        self.end = None if seconds is None else self.clock() + seconds
        self.work = work
        self.spent = 0

    @classmethod
    def of(cls, budget: Budget) -> "Deadline":
        """A float or int is seconds; a Work is z3 units (and no clock is read)."""
        if isinstance(budget, Work):
            return cls(None, work=budget.units)
        from ..semantics.errors import seconds

        return cls(seconds("timeout", budget))

    @property
    def timed(self) -> bool:
        return self.end is not None

    def remaining(self) -> float:
        return float("inf") if self.end is None else max(0.0, self.end - self.clock())

    def spend(self, units: int) -> None:
        self.spent += max(0, units)

    def expired(self) -> bool:
        if self.work is not None and self.spent >= self.work:
            return True
        return self.end is not None and self.clock() >= self.end

    def stop(self) -> Optional[str]:
        """For Machine.run's `stop`: a reason once the budget is spent."""
        return self.reason() if self.expired() else None

    def reason(self) -> str:
        if self.work is not None and self.spent >= self.work:
            return f"the work budget of {self.work:,} z3 units ran out"
        return f"the time budget of {self.seconds:g} s ran out"

    def z3_milliseconds(self) -> Optional[int]:
        """z3's timer for the next query; None under a work budget alone (no timer at all)."""
        return None if self.end is None else max(1, int(self.remaining() * 1000))

    def z3_rlimit(self, most: Optional[int] = None) -> int:
        limits = []
        if self.end is not None:
            limits.append(int(self.remaining() * Z3_RLIMIT_PER_SECOND))
        if self.work is not None:
            limits.append(self.work - self.spent)
        if most is not None:
            limits.append(most)
        return max(1, min(limits)) if limits else 0
