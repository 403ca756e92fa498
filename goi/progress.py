"""Progress of long property runs: every `interval` seconds (30 by default) one line on the
terminal — which property, examples done out of the target, rate, time left:

    [goi] invariants: 340/2000 examples, 12.3/s, about 2m15s left

Written to the terminal itself (/dev/tty: past pytest's output capture, and from every
pytest-xdist worker), only where there is one and no CI is detected, unless GOI_PROGRESS=1
asks for it anyway — then to GOI_PROGRESS_FILE if set, else the terminal, else standard
error. GOI_PROGRESS=0 silences it; `goi props --json` too.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from typing import Iterator, Optional


def interval() -> float:
    """Seconds between lines (GOI_PROGRESS_SECONDS, default 30)."""
    return float(os.environ.get("GOI_PROGRESS_SECONDS", "30"))


_TTY: list = []  # the terminal, opened once (None where there is none)


def _terminal():
    if not _TTY:
        try:
            _TTY.append(open("/dev/tty", "w", encoding="utf-8"))
        except OSError:
            _TTY.append(None)
    return _TTY[0]


def _in_ci() -> bool:
    from hypothesis._settings import is_in_ci

    return is_in_ci()


def enabled() -> bool:
    wanted = os.environ.get("GOI_PROGRESS")
    if wanted is not None:
        return wanted not in ("", "0", "no", "false")
    return _terminal() is not None and not _in_ci()


def write(line: str) -> None:
    path = os.environ.get("GOI_PROGRESS_FILE")
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")
        return
    stream = _terminal() or sys.__stderr__
    if stream is not None:
        stream.write(line + "\n")
        stream.flush()


class Progress:
    def __init__(self):
        self.name: Optional[str] = None
        self.target = 0
        self.done = 0
        self.started = 0.0
        self.last = 0.0
        self.quiet = False
        self.target_override: Optional[int] = None  # `goi props --examples N`

    @contextlib.contextmanager
    def quiet_while(self, wanted: bool = True) -> Iterator[None]:
        """No progress lines inside the block (when `wanted`): a command whose standard output
        is one JSON object. The previous setting comes back after it, whatever happens."""
        before = self.quiet
        self.quiet = before or wanted
        try:
            yield
        finally:
            self.quiet = before

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
            write(self.line(now))

    def line(self, now: float) -> str:
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        left = (self.target - self.done) / rate if rate and self.target > self.done else 0.0
        return (f"[goi] {self.name}: {self.done}/{self.target} examples, {rate:.1f}/s, "
                f"about {int(left // 60)}m{int(left % 60):02d}s left (pid {os.getpid()})")


PROGRESS = Progress()


def quiet(wanted: bool = True):
    """`with quiet(args.json): …` — no progress lines inside the block (when `wanted`)."""
    return PROGRESS.quiet_while(wanted)
