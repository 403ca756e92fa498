"""A time budget shared by every part of one decision (`goi equiv --timeout`): the symbolic
runs, each z3 query, the minimisation of a witness and the exact replays all take what is
left of it, so the whole decision ends within the budget plus one poll of whatever is
running. The clock can be replaced, so tests decide without depending on the machine's speed."""

from __future__ import annotations

import time
from typing import Callable, Optional

# z3's own resource limit, in its resource units per second of the budget: a query that
# z3's timer fails to interrupt still stops at this much work. (z3 spent 0.4 to 2.9 million
# units a second on the nonlinear queries tried on this machine: this is well above.)
Z3_RLIMIT_PER_SECOND = 50_000_000


class Deadline:
    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic):
        self.seconds = seconds
        self.clock = clock
        self.end = clock() + seconds

    def remaining(self) -> float:
        return max(0.0, self.end - self.clock())

    def expired(self) -> bool:
        return self.clock() >= self.end

    def stop(self) -> Optional[str]:
        """For Machine.run's `stop`: a reason once the budget is spent."""
        return self.reason() if self.expired() else None

    def reason(self) -> str:
        return f"the time budget of {self.seconds:g} s ran out"

    def z3_milliseconds(self) -> int:
        return max(1, int(self.remaining() * 1000))

    def z3_rlimit(self) -> int:
        return max(1, int(self.remaining() * Z3_RLIMIT_PER_SECOND))
