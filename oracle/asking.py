"""Oracle mode, asking the implementation (the Oracle's job of calling it): one process per
program or a persistent session per job (oracle/protocols.py, oracle/sessions.py), each
call bounded by --timeout, or while shrinking a hang by the price of goi's own run."""

from __future__ import annotations

import queue
import time
from typing import Optional


from .protocols import Answer, call
from .sessions import Session

from .cases import HANG_FACTOR, HANG_FLOOR


class Asking:
    """Calls of the implementation, and its sessions."""

    def _call(self, text: str, timeout: Optional[float] = None) -> Answer:
        """The implementation's answer, within `timeout` (default --timeout)."""
        started = time.perf_counter()
        try:
            return self._call_implementation(text, self.config.timeout if timeout is None else timeout)
        finally:
            self.seconds["implementation"] += time.perf_counter() - started

    def hang_timeout(self, text: str) -> float:
        """A try's bound while shrinking a hang: a multiple of what goi's machine needs for the
        same program, with a floor, never past --timeout (cases.HANG_FACTOR, HANG_FLOOR)."""
        return min(self.config.timeout, max(HANG_FLOOR, HANG_FACTOR * self.ours.get(text, 0.0)))

    def _call_implementation(self, text: str, timeout: float) -> Answer:
        self.calls += 1
        c = self.config
        if c.protocol == "oneshot":
            return call(c.command, text, timeout, c.memory_mb, c.reading)
        try:
            session = self.sessions.get_nowait()
        except queue.Empty:
            session = Session(c.command, c.timeout, c.memory_mb, c.startup_timeout)
            self.all_sessions.append(session)
        try:
            return session.ask(text, timeout)
        finally:
            self.sessions.put(session)

    def close(self) -> None:
        """End every persistent session (the whole process group of each)."""
        for session in self.all_sessions:
            session.close()
