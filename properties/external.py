"""Running another implementation of the calculus on one program (docs/ORACLE.md).

The protocol: the program text goes to the command's standard input, or into a temporary
file whose path replaces `{file}` wherever it appears in the command. The implementation
prints its answer on standard output and exits:

- a JSON object: `{"value": V}` — V a number (JSON numbers are read exactly, as decimals:
  0.1 is 1/10), a string holding an exact rational ("1/3") or "λ" for a function, or a
  list of numbers or such strings for a vector; `{"rejected": "message"}` — the program is
  not in the implementation's language (a parse or type error); `{"error": "message"}` —
  the implementation failed while running it;
- or bare text: a number, a rational `1/3`, `λ`, or a vector `[1, 2]`.

A non-zero exit status is a crash unless the output is a `rejected` or `error` object (many
tools exit non-zero on errors). The command runs in its own process group, killed as a
whole when the program times out and again after it exits (nothing is left running);
its output is bounded (`MAX_OUTPUT` bytes); `memory_mb` caps its address space.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Sequence, Union

MAX_OUTPUT = 4 * 1024 * 1024
POLL = 0.01

Value = Union[Fraction, tuple, str]


@dataclass
class Answer:
    kind: str  # value | rejected | error | crash | unparseable | hang
    value: Optional[Value] = None
    message: str = ""
    stdout: str = ""
    stderr: str = ""
    exit: Optional[int] = None
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "value": _value_json(self.value),
            "message": self.message,
            "stdout": self.stdout[-2000:],
            "stderr": self.stderr[-2000:],
            "exit": self.exit,
            "seconds": round(self.seconds, 4),
        }


def _value_json(v):
    if v is None:
        return None
    if isinstance(v, tuple):
        return [str(x) for x in v]
    return str(v)


def split_command(command: str) -> list[str]:
    words = shlex.split(command)
    if not words:
        raise ValueError("the implementation command is empty")
    return words


def call(command: Sequence[str], program: str, timeout: float, memory_mb: Optional[int] = None) -> Answer:
    """Run the implementation on one program text (module docstring)."""
    argv = list(command)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="goi-oracle-") as tmp:
        uses_file = any("{file}" in word for word in argv)
        if uses_file:
            path = os.path.join(tmp, "program.goi")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(program)
            argv = [word.replace("{file}", path) for word in argv]
        if memory_mb is not None:
            limiter = ("import os, resource, sys; n = int(sys.argv[1]) * 1024 * 1024; "
                       "resource.setrlimit(resource.RLIMIT_AS, (n, n)); os.execvp(sys.argv[2], sys.argv[2:])")
            argv = [sys.executable, "-c", limiter, str(memory_mb), *argv]
        out_path, err_path = os.path.join(tmp, "stdout"), os.path.join(tmp, "stderr")
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            try:
                proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL if uses_file else subprocess.PIPE, stdout=out,
                                        stderr=err, start_new_session=True)
            except OSError as exc:
                return Answer("crash", message=f"cannot start {argv[0]}: {exc.strerror}", seconds=time.perf_counter() - started)
            if not uses_file:
                try:
                    assert proc.stdin is not None
                    proc.stdin.write(program.encode("utf-8"))
                    proc.stdin.close()
                except (BrokenPipeError, OSError):
                    pass  # it did not read its input: its answer says what it made of that
            deadline = started + timeout
            kind = None
            while proc.poll() is None:
                if time.perf_counter() > deadline:
                    kind = "hang"
                    break
                if os.path.getsize(out_path) + os.path.getsize(err_path) > MAX_OUTPUT:
                    kind = "crash"
                    break
                time.sleep(POLL)
            _kill_group(proc)
            proc.wait()
        seconds = time.perf_counter() - started
        stdout = _read(out_path)
        stderr = _read(err_path)
    if kind == "hang":
        return Answer("hang", message=f"no answer within {timeout:g} s (killed)", stdout=stdout, stderr=stderr, seconds=seconds)
    if kind == "crash":
        return Answer("crash", message=f"more than {MAX_OUTPUT} bytes of output (killed)", stdout=stdout[:2000],
                      stderr=stderr[:2000], seconds=seconds)
    answer = parse_answer(stdout)
    answer.stdout, answer.stderr, answer.exit, answer.seconds = stdout, stderr, proc.returncode, seconds
    if proc.returncode != 0 and answer.kind not in ("rejected", "error"):
        how = f"killed by signal {signal.Signals(-proc.returncode).name}" if proc.returncode < 0 else f"exit status {proc.returncode}"
        last = stderr.strip().splitlines()[-1:] or [""]
        return Answer("crash", message=f"{how}: {last[0][:300]}", stdout=stdout, stderr=stderr, exit=proc.returncode,
                      seconds=seconds)
    return answer


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _read(path: str) -> str:
    with open(path, "rb") as handle:
        return handle.read(MAX_OUTPUT + 1).decode("utf-8", "replace")


NON_FINITE = ("NaN", "Infinity", "-Infinity")  # read, kept as text: never equal to a value of the field


def _number(x) -> Union[Fraction, str]:
    if isinstance(x, Fraction):
        return x
    if isinstance(x, str):
        return x if x in NON_FINITE else Fraction(x.strip())
    raise ValueError(f"not a number: {x!r}")


def _constant(name: str) -> str:
    return name


def parse_answer(stdout: str) -> Answer:
    """What the implementation printed, as an Answer (kind value, rejected, error or unparseable)."""
    text = stdout.strip()
    if not text:
        return Answer("unparseable", message="no output")
    try:
        data = json.loads(text, parse_float=Fraction, parse_int=Fraction, parse_constant=_constant)
    except ValueError:
        data = None
        if text == "λ":
            return Answer("value", "λ")
        try:
            return Answer("value", Fraction(text))
        except (ValueError, ZeroDivisionError):
            return Answer("unparseable", message=f"not an answer: {text[:200]!r}")
    try:
        if isinstance(data, dict):
            if "value" in data:
                return Answer("value", _value(data["value"]))
            if "rejected" in data:
                return Answer("rejected", message=str(data["rejected"]))
            if "error" in data:
                return Answer("error", message=str(data["error"]))
            return Answer("unparseable", message=f"an object with none of value, rejected, error: {text[:200]!r}")
        return Answer("value", _value(data))
    except (ValueError, TypeError, ZeroDivisionError) as exc:
        return Answer("unparseable", message=f"{exc}: {text[:200]!r}")


def _value(v) -> Value:
    if v == "λ" or v in NON_FINITE:
        return v
    if isinstance(v, list):
        return tuple(_number(x) for x in v)
    if isinstance(v, bool) or v is None:
        raise ValueError(f"not a value: {v!r}")
    return _number(v)
