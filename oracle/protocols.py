"""The protocols another implementation answers in (docs/ORACLE.md): what it is given and
what an answer is, and the one-shot protocol (one process per program); the persistent
protocol's sessions are in goi.oracle.sessions.

The one-shot protocol: the program text goes to the command's standard input, or into a temporary
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
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Sequence, Union

from . import reaping
from .cputime import WALL_FACTOR, ProgramClock, is_hang

MAX_OUTPUT = 4 * 1024 * 1024
POLL = 0.01
EXIT_POLL = 0.1  # seconds between two looks at whether a persistent session's process still runs

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


def unstartable(command: Sequence[str]) -> Optional[str]:
    """Why the implementation command cannot be started at all (its program is not there, or
    not executable), said before any program is drawn; None when it can be tried."""
    import shutil

    program = command[0]
    if "{file}" in program:
        return None
    if os.sep in program or (os.altsep and os.altsep in program):
        if not os.path.exists(program):
            return f"cannot start {program}: no such file"
        if os.path.isdir(program) or not os.access(program, os.X_OK):
            return f"cannot start {program}: not an executable file"
        return None
    if shutil.which(program) is None:
        return f"cannot start {program}: no such command on PATH"
    return None


def call(command: Sequence[str], program: str, timeout: float, memory_mb: Optional[int] = None,
         reading=None) -> Answer:
    """Run the implementation on one program text (module docstring). `reading` (a target's
    [answer], oracle/target.py): the command does not speak the protocol; its answer is read
    from its exit status and output by the target's patterns."""
    from goi.semantics.errors import seconds, whole_number

    if isinstance(command, (str, bytes)) or not all(isinstance(word, str) for word in command):
        raise TypeError("command is a list of words (['./impl', '--flag']), not a string")
    if not isinstance(program, str):
        raise TypeError(f"program is the text sent, not {type(program).__name__}")
    seconds("timeout", timeout)
    if memory_mb is not None:
        whole_number("memory_mb", memory_mb, 1)
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
            argv = [sys.executable, "-c", _LIMITER, str(memory_mb), *argv]
        out_path, err_path = os.path.join(tmp, "stdout"), os.path.join(tmp, "stderr")
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            try:
                token = reaping.new_token()
                proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL if uses_file else subprocess.PIPE, stdout=out,
                                        stderr=err, start_new_session=True, env=reaping.marked(token))
            except OSError as exc:
                return Answer("crash", message=f"cannot start {argv[0]}: {exc.strerror}", seconds=time.perf_counter() - started)
            if not uses_file:
                try:
                    assert proc.stdin is not None
                    proc.stdin.write(program.encode("utf-8"))
                    proc.stdin.close()
                except (BrokenPipeError, OSError):
                    pass  # it did not read its input: its answer says what it made of that
            clock = ProgramClock(proc.pid)
            kind = None
            while proc.poll() is None:
                waited = time.perf_counter() - started
                if waited > timeout and is_hang(clock, waited, timeout):
                    kind = "hang"
                    break
                if os.path.getsize(out_path) + os.path.getsize(err_path) > MAX_OUTPUT:
                    kind = "crash"
                    break
                time.sleep(POLL if waited <= timeout else EXIT_POLL)
            _kill_group(proc)
            proc.wait()
            reaping.end_marked(token)  # what left the group (setsid, a double fork) too
        seconds = time.perf_counter() - started
        stdout = _read(out_path)
        stderr = _read(err_path)
    if kind == "hang":
        return Answer("hang", message=hang_message(timeout), stdout=stdout, stderr=stderr, seconds=seconds)
    if kind == "crash":
        return Answer("crash", message=f"more than {MAX_OUTPUT} bytes of output (killed)", stdout=stdout[:2000],
                      stderr=stderr[:2000], seconds=seconds)
    answer = parse_answer(stdout) if reading is None else _read_plain(reading, stdout, stderr, proc.returncode)
    answer.stdout, answer.stderr, answer.exit, answer.seconds = stdout, stderr, proc.returncode, seconds
    if proc.returncode != 0 and answer.kind not in ("rejected", "error"):
        how = f"killed by signal {signal.Signals(-proc.returncode).name}" if proc.returncode < 0 else f"exit status {proc.returncode}"
        last = stderr.strip().splitlines()[-1:] or [""]
        return Answer("crash", message=f"{how}: {last[0][:300]}", stdout=stdout, stderr=stderr, exit=proc.returncode,
                      seconds=seconds)
    return answer


def hang_message(timeout: float) -> str:
    return (f"no answer within {timeout:g} s of CPU time (or {WALL_FACTOR * timeout:g} s of wall time) (killed)")


def _read_plain(reading, stdout: str, stderr: str, status: int) -> Answer:
    """A plain command's answer, read by its target's patterns (oracle/target.py): a value's text
    is read as a bare answer is; what meets no pattern is a crash."""
    kind, text = reading.read(stdout, stderr, status)
    if kind in ("rejected", "error"):
        return Answer(kind, message=text)
    if kind == "value":
        answer = parse_answer(text)
        if answer.kind != "value":
            return Answer("unparseable", message=f"the value pattern found {text[:200]!r}, which is not a value "
                                                 "(a number, a rational such as 1/3, λ, or a vector [1, 2])")
        return answer
    how = f"killed by signal {signal.Signals(-status).name}" if status < 0 else f"exit status {status}"
    last = (stderr.strip() or stdout.strip()).splitlines()[-1:] or [""]
    return Answer("crash", message=f"{how}, and no pattern of the target's [answer] met: {last[0][:300]}")


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
        if x in NON_FINITE:
            return x
        try:
            return Fraction(x.strip())
        except (ValueError, ZeroDivisionError):
            pass
    raise Unreadable(f"{_as_written(x)} is not a number (expected a number, a string holding one or a rational "
                     f'such as "1/3", or NaN/Infinity)')


class Unreadable(ValueError):
    """A part of an answer that is not what the protocol allows, described in goi's words."""


def _as_written(x) -> str:
    """A piece of a parsed answer shown as JSON (its numbers are Fractions: shown as numbers)."""
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, list):
        return "[" + ", ".join(map(_as_written, x)) + "]"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{json.dumps(k)}: {_as_written(v)}" for k, v in x.items()) + "}"
    return json.dumps(x, ensure_ascii=False)


def _constant(name: str) -> str:
    return name


MAX_NESTING = 16  # brackets and braces in an answer; a value is at most a list in an object
MAX_DIGITS = 10_000  # digits of one number in an answer
MAX_EXPONENT = 1_000  # |exponent| of one number in an answer
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?([0-9]+))?")


def absurd(text: str) -> Optional[str]:
    """Why an answer is absurd before it is read (a bounded look, linear in its length):
    nesting deeper than any value, a number with too many digits or too large an exponent
    (reading them would take the parser's stack, or minutes). None if it may be read."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
            continue
        if char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_NESTING:
                return f"nested more than {MAX_NESTING} deep"
        elif char in "]}":
            depth -= 1
    for m in _NUMBER.finditer(text):
        if len(m.group(0)) > MAX_DIGITS:
            return f"a number of more than {MAX_DIGITS} digits"
        exponent = m.group(1)
        # the length first: int() of thousands of digits is itself refused, or slow
        if exponent is not None and (len(exponent.lstrip("0")) > len(str(MAX_EXPONENT)) or int(exponent) > MAX_EXPONENT):
            return f"a number with an exponent beyond {MAX_EXPONENT}"
    return None


def parse_answer(stdout: str) -> Answer:
    """What the implementation printed, as an Answer (kind value, rejected, error or unparseable).
    An absurd answer (absurd()) is unparseable without being read."""
    text = stdout.strip()
    if not text:
        return Answer("unparseable", message="no output")
    why = absurd(text)
    if why is not None:
        return Answer("unparseable", message=f"an absurd answer ({why}): {text[:120]!r}")
    try:
        data = _json(text)
    except ValueError:
        if text == "λ":
            return Answer("value", "λ")
        try:
            return Answer("value", Fraction(text))
        except (ValueError, ZeroDivisionError):
            return Answer("unparseable", message=f"not an answer (expected a JSON object with value, rejected or error, "
                                                 f"or a bare number, rational, λ or vector): the implementation printed {text[:200]!r}")
    return answer_of(data, text)


def _json(text: str):
    """JSON read exactly: numbers as the decimals they are written as (0.1 is 1/10)."""
    return json.loads(text, parse_float=Fraction, parse_int=Fraction, parse_constant=_constant)


def answer_of(data, text: str) -> Answer:
    """The Answer a parsed JSON answer stands for (`text`, what was printed, for messages).
    What cannot be read is `unparseable`, with what was expected and what came."""
    came = f"the implementation printed {text[:200]!r}"
    try:
        if isinstance(data, dict):
            if "value" in data:
                return Answer("value", _value(data["value"]))
            if "rejected" in data:
                return Answer("rejected", message=_message(data["rejected"]))
            if "error" in data:
                return Answer("error", message=_message(data["error"]))
            return Answer("unparseable", message=f"an object with none of value, rejected, error: {came}")
        return Answer("value", _value(data))
    except Unreadable as exc:
        return Answer("unparseable", message=f"not a value: {exc}: {came}")


def _message(m) -> str:
    return m if isinstance(m, str) else _as_written(m)


def _value(v) -> Value:
    if v == "λ" or v in NON_FINITE:
        return v
    if isinstance(v, list):
        return tuple(_number(x) for x in v)
    if isinstance(v, (bool, dict)) or v is None:
        raise Unreadable(f"{_as_written(v)} is not a value (expected a number, a rational such as \"1/3\", \"λ\", "
                         "or a list of numbers)")
    return _number(v)


# runs the implementation under an address-space limit (memory_mb), then execs it
_LIMITER = ("import os, resource, sys; n = int(sys.argv[1]) * 1024 * 1024; "
            "resource.setrlimit(resource.RLIMIT_AS, (n, n)); os.execvp(sys.argv[2], sys.argv[2:])")
