"""The persistent protocol (docs/ORACLE.md): one implementation started once and asked
program after program, restarted after a hang or a crash."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from typing import Optional, Sequence

from . import reaping
from .cputime import ProgramClock, is_hang
from .protocols import _LIMITER, EXIT_POLL, Answer, _json, _kill_group, absurd, answer_of, hang_message

MAX_LINE = 4 * 1024 * 1024  # bytes of one answer line; more is a crash
WARM_UP = "0"  # the program a (re)started session answers first, within the start-up timeout


class Session:
    """One persistent implementation (docs/ORACLE.md, "The persistent protocol"): started once
    in its own process group, it reads one JSON line `{"id": N, "program": TEXT}` per program
    on standard input and writes one JSON line `{"id": N, "value"|"rejected"|"error": …}`
    on standard output. After a hang, a crash (it exits, or writes a line that is not its
    answer) or too much output, the whole group is killed and the next program starts a new
    session. Each (re)start is followed by the warm-up program `0`, whose answer may take
    `startup` seconds: the per-program `timeout` never pays for the start-up."""

    def __init__(self, command: Sequence[str], timeout: float, memory_mb: Optional[int] = None, startup: float = 30.0):
        if any("{file}" in word for word in command):
            raise ValueError("the persistent protocol reads programs on standard input: no {file} in the command")
        self.command, self.timeout, self.memory_mb, self.startup = list(command), timeout, memory_mb, startup
        self.proc: Optional[subprocess.Popen] = None
        self.token = ""  # the mark of the running session's processes (properties/reaping.py)
        self.stderr = None
        self.buffer = b""
        self.next_id = 0
        self.starts = 0

    def ask(self, program: str, timeout: Optional[float] = None) -> Answer:
        """The answer to one program, within `timeout` seconds (the session's own by default)."""
        started = time.perf_counter()
        if self.proc is None:
            failure = self._start()
            if failure is not None:
                failure.seconds = time.perf_counter() - started
                return failure
        answer = self._exchange(program, self.timeout if timeout is None else timeout)
        answer.seconds = time.perf_counter() - started
        if answer.kind in ("hang", "crash"):
            self.close()
        return answer

    def _start(self) -> Optional[Answer]:
        argv = self.command
        if self.memory_mb is not None:
            argv = [sys.executable, "-c", _LIMITER, str(self.memory_mb), *argv]
        self.stderr = tempfile.TemporaryFile()
        self.token = reaping.new_token()
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
                                         start_new_session=True, env=reaping.marked(self.token))
        except OSError as exc:
            self.proc = None
            return Answer("crash", message=f"cannot start {argv[0]}: {exc.strerror}")
        self.starts += 1
        self.buffer = b""
        os.set_blocking(self.proc.stdout.fileno(), False)  # type: ignore[union-attr]
        warm = self._exchange(WARM_UP, self.startup)
        if warm.kind == "value" and warm.value == 0:
            return None
        self.close()
        what = f"{warm.kind}: {warm.message}" if warm.message else warm.kind
        return Answer("crash", message=f"the persistent session did not answer the warm-up program 0 with 0 ({what})",
                      stdout=warm.stdout, stderr=warm.stderr, exit=warm.exit)

    def _exchange(self, program: str, timeout: float) -> Answer:
        assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
        self.next_id += 1
        request = json.dumps({"id": self.next_id, "program": program}, ensure_ascii=False) + "\n"
        try:
            self.proc.stdin.write(request.encode("utf-8"))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return self._died("it closed its standard input")
        sent = time.perf_counter()
        clock = ProgramClock(self.proc.pid)
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            waited = time.perf_counter() - sent
            if waited > timeout and is_hang(clock, waited, timeout):
                return Answer("hang", message=hang_message(timeout), stderr=self._stderr())
            left = timeout - waited
            ready, _, _ = select.select([fd], [], [], min(left, EXIT_POLL) if left > 0 else EXIT_POLL)
            if not ready:
                if self.proc.poll() is not None:  # it exited, though a process it left holds the pipe open
                    return self._died("it exited")
                continue
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                return self._died("it exited")
            self.buffer += chunk
            if len(self.buffer) > MAX_LINE:
                return Answer("crash", message=f"more than {MAX_LINE} bytes in one answer line (killed)",
                              stdout=self.buffer[:2000].decode("utf-8", "replace"), stderr=self._stderr())
        line, _, self.buffer = self.buffer.partition(b"\n")
        text = line.decode("utf-8", "replace").strip()
        why = absurd(text)  # bounded before it is read, as a one-shot answer is
        try:
            data = None if why is not None else _json(text)
        except ValueError:
            data = None
        if not isinstance(data, dict) or data.get("id") != self.next_id:
            what = f"an absurd line ({why})" if why is not None else f"not the answer to request {self.next_id}"
            return Answer("crash", message=f"{what}: {text[:200]!r}", stdout=text[:2000], stderr=self._stderr())
        answer = answer_of(data, text)  # the same reading as the one-shot protocol's (the id is ignored)
        answer.stdout = text
        return answer

    def _died(self, how: str) -> Answer:
        assert self.proc is not None
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        stderr = self._stderr()
        last = stderr.strip().splitlines()[-1:] or [""]
        status = "" if code is None else (f", killed by signal {signal.Signals(-code).name}" if code < 0
                                          else f", exit status {code}")
        return Answer("crash", message=f"{how}{status}: {last[0][:300]}", stderr=stderr, exit=code)

    def _stderr(self) -> str:
        if self.stderr is None:
            return ""
        self.stderr.seek(0, os.SEEK_END)
        size = self.stderr.tell()
        self.stderr.seek(max(0, size - 2000))
        return self.stderr.read().decode("utf-8", "replace")

    def close(self) -> None:
        if self.proc is not None:
            _kill_group(self.proc)
            for stream in (self.proc.stdin, self.proc.stdout):
                try:
                    stream.close()  # type: ignore[union-attr]
                except OSError:
                    pass
            self.proc.wait()
            self.proc = None
            reaping.end_marked(self.token)  # what left the group (setsid, a double fork) too
        if self.stderr is not None:
            self.stderr.close()
            self.stderr = None
