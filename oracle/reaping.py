"""Ending every process an implementation started, including those that left its process
group (`setsid()`, a double fork): each call or session runs with a mark of its own in the
environment (GOI_ORACLE_SESSION=<token>), which its descendants inherit, and ending it kills
every process of ours that carries the mark, wherever it was reparented.

Where the platform allows: on Linux, /proc shows each process's environment to its owner.
Elsewhere (no /proc), or for a process that scrubs its environment and leaves its group,
only the process group is killed (docs/ORACLE.md says so)."""

from __future__ import annotations

import itertools
import os
import secrets
import signal
from typing import Optional

MARK = "GOI_ORACLE_SESSION"
PASSES = 20  # rounds of kill-and-look: a process forking while it is killed is caught by the next
_counter = itertools.count()
_prefix = f"{os.getpid()}-{secrets.token_hex(4)}"


def new_token() -> str:
    return f"{_prefix}-{next(_counter)}"


def marked(token: str, environment: Optional[dict] = None) -> dict:
    """The environment to start an implementation with."""
    return {**(os.environ if environment is None else environment), MARK: token}


def processes_marked(token: str) -> list[int]:
    """The live processes of this user that carry `token` (none where /proc is missing)."""
    needle = f"{MARK}={token}".encode()
    found = []
    me = os.getpid()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                environ = handle.read()
        except OSError:  # gone, or another user's
            continue
        if needle in environ.split(b"\0"):
            found.append(int(entry))
    return found


def end_marked(token: str) -> int:
    """Kill (SIGKILL) every process carrying `token`, until none is left; how many were."""
    killed: set[int] = set()
    for _ in range(PASSES):
        pids = processes_marked(token)
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            except (ProcessLookupError, PermissionError):
                pass
    return len(killed)
