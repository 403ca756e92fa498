"""The CPU time an implementation spends on one program, so that a hang is judged on what it
did, not on how busy the machine was (docs/ORACLE.md, "Hangs and load").

An implementation runs in a session of its own (`start_new_session`): its processes are the
ones whose session id is its first process's id. The clock reads, from Linux's /proc, the user
and system time of the first process (its threads, and the children it has waited for) and
of every other live process of the session. A program's CPU time is what that sum grew by
since the program was sent: for the first process exactly (its reading when the program was
sent is kept); for another process of the session, all it has used since it started, an
over-count (for a helper process of a persistent session) that only brings the judgement back
towards the wall clock's.

A call is a hang when the implementation has used `timeout` seconds of CPU time on the
program, or when `WALL_FACTOR` times `timeout` has passed on the wall clock whatever it used
(a process blocked on nothing uses no CPU). Where /proc is missing the clock reads None and
the wall clock alone decides, at `timeout`.
"""

from __future__ import annotations

import os
from typing import Callable, Optional

WALL_FACTOR = 10  # a call is a hang at this many times --timeout of wall time, whatever its CPU time
try:
    TICKS = os.sysconf("SC_CLK_TCK")
except (AttributeError, ValueError, OSError):  # not a POSIX system
    TICKS = 100


def _stat(pid: int) -> Optional[tuple[int, float]]:
    """(session id, CPU seconds: user + system of its threads and waited-for children) of a
    process, or None if it is gone or /proc is missing."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            raw = handle.read()
    except OSError:
        return None
    fields = raw[raw.rindex(b")") + 2:].split()  # the name, in parentheses, may hold spaces
    return int(fields[3]), sum(int(x) for x in fields[11:15]) / TICKS


def _session(sid: int) -> dict[int, float]:
    """pid -> CPU seconds of every live process of the session `sid`."""
    out = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return out
    for entry in entries:
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None and stat[0] == sid:
                out[int(entry)] = stat[1]
    return out


class ProgramClock:
    """The CPU seconds an implementation's session `pid` has spent since the clock was made
    (module docstring); `read` is None where it cannot be told."""

    def __init__(self, pid: int, reader: Optional[Callable[[int], Optional[tuple[int, float]]]] = None):
        self.pid = pid
        self.reader = reader or _stat
        first = self.reader(pid)
        self.start = None if first is None else first[1]

    def read(self) -> Optional[float]:
        if self.start is None:
            return None
        first = self.reader(self.pid)
        used = 0.0 if first is None else max(0.0, first[1] - self.start)
        if self.reader is _stat:
            now = _session(self.pid)
            now.pop(self.pid, None)
            used += sum(now.values())
        return used


def is_hang(clock: Optional[ProgramClock], waited: float, timeout: float) -> bool:
    """Past `timeout` seconds of wall time (`waited`): a hang once the program has had
    `timeout` seconds of CPU time, or WALL_FACTOR times `timeout` of wall time."""
    if waited <= timeout:
        return False
    if waited >= WALL_FACTOR * timeout:
        return True
    used = clock.read() if clock is not None else None
    return used is None or used >= timeout
