"""Progress of long property runs: every `interval` seconds (30 by default) one line on the
terminal — which property, examples done out of the target, rate, time left:

    [goi] invariants: 340/2000 examples, 12.3/s, about 2m15s left

Written to the process's own standard error (past pytest's capture; pytest-xdist workers
share the terminal), only where that is a terminal and no CI is detected, unless
GOI_PROGRESS=1 asks for it anyway (GOI_PROGRESS=0 silences it). Quiet under --json.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Optional

def interval() -> float:
    """Seconds between lines (GOI_PROGRESS_SECONDS, default 30)."""
    return float(os.environ.get("GOI_PROGRESS_SECONDS", "30"))


def enabled() -> bool:
    wanted = os.environ.get("GOI_PROGRESS")
    if wanted is not None:
        return wanted not in ("", "0", "no", "false")
    from hypothesis._settings import is_in_ci

    stream = sys.__stderr__
    return stream is not None and stream.isatty() and not is_in_ci()


class Progress:
    def __init__(self):
        self.name: Optional[str] = None
        self.target = 0
        self.done = 0
        self.started = 0.0
        self.last = 0.0
        self.quiet = False
        self.target_override: Optional[int] = None  # `goi props --examples N`

    def start(self, name: str, target: int) -> None:
        self.name, self.target, self.done = name, target, 0
        self.started = self.last = time.monotonic()

    def tick(self, name: str, target: int) -> None:
        """One example of property `name` (of `target`) is about to run."""
        if name != self.name:
            self.start(name, self.target_override or target)
        self.done += 1
        now = time.monotonic()
        if now - self.last >= interval() and not self.quiet and enabled():
            self.last = now
            sys.__stderr__.write(self.line(now) + "\n")
            sys.__stderr__.flush()

    def line(self, now: float) -> str:
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        left = (self.target - self.done) / rate if rate and self.target > self.done else 0.0
        return (f"[goi] {self.name}: {self.done}/{self.target} examples, {rate:.1f}/s, "
                f"about {int(left // 60)}m{int(left % 60):02d}s left (pid {os.getpid()})")


PROGRESS = Progress()
