"""What every command shares for input and output: the JSON object (one, UTF-8, with its
schema), lines for people, reading programs within a byte budget, the folders goi writes
into, and the JSON trace a run streams."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from typing import Optional

from ..files import decode, read_text_path
from ..semantics.errors import BudgetError, ReadError
from ..semantics.rules import DEFAULT
from ..semantics.show import step_to_json
from ..semantics.stack import interrupt_requested
from .errors import UsageError

SCHEMA_VERSION = 1
VERSIONS = {"oracle": 2, "props": 2}  # commands whose output changed shape since version 1 (CHANGELOG.md)


def schema(command: str) -> str:
    return f"goi.{command}/{VERSIONS.get(command, SCHEMA_VERSION)}"


# ---- output ----------------------------------------------------------------------------

def write_json(payload: dict, stream=None) -> None:
    """One JSON object and a newline, always UTF-8 (RFC 8259), whatever the stream's encoding.
    A lone surrogate (a byte that was not UTF-8 in a file name or argument, as Python keeps
    it) is written as its JSON escape, never as an invalid byte."""
    import json  # here, not at the top: a command without --json does not load it

    write_raw(json.dumps(payload, ensure_ascii=False).encode("utf-8", "backslashreplace").decode("utf-8") + "\n", stream)


def write_raw(text: str, stream=None) -> None:
    stream = stream or sys.stdout
    encoding = (getattr(stream, "encoding", None) or "utf-8").lower().replace("_", "-")
    buffer = getattr(stream, "buffer", None)
    if encoding not in ("utf-8", "utf8") and buffer is not None:
        stream.flush()
        buffer.write(text.encode("utf-8"))
        buffer.flush()
    else:
        stream.write(text)


def say(text: str = "", stream=None) -> None:
    """A line of text for people, in the stream's encoding; what it cannot encode is escaped
    (λ becomes \\u03bb on an ASCII terminal) rather than a crash. On standard error, a reader
    that went away loses the line but changes nothing else: the exit code stays the command's."""
    stream = stream or sys.stdout
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        text = text.encode(encoding, "backslashreplace").decode(encoding)
    if stream is sys.stderr or stream is sys.__stderr__:
        try:
            stream.write(text + "\n")
            stream.flush()
        except (BrokenPipeError, ConnectionResetError, ValueError):
            silence_stderr()
        return
    stream.write(text + "\n")


def silence_stderr() -> None:
    """Standard error's reader is gone: what is left to say goes nowhere, and neither a later
    message nor the interpreter's last flush can fail the command."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)
    except OSError:
        pass
    sys.stderr = open(os.devnull, "w", encoding="utf-8")


def error_payload(command: Optional[str], error: dict) -> dict:
    return {"schema": schema("error"), "status": "error", "command": command, "error": error}


# ---- reading programs ---------------------------------------------------------------------

def _bounded(data, limit: int, name: str):
    if len(data) > limit:
        raise BudgetError(f"{name} is larger than --max-input-bytes {limit}", limit="input")
    return data


def read_program(args) -> tuple[str, str]:
    """The program text: at most --max-input-bytes are read (`goi run /dev/zero` stops)."""
    if args.expr is not None:
        return read_text(args.expr, args.max_input_bytes), "<-e>"
    if args.file is None:
        raise UsageError("no program given: name a FILE (or - for standard input), or use -e TEXT")
    return read_file(args.file, args.max_input_bytes)


def read_text(text: str, limit: int) -> str:
    """Program text given on the command line (-e), within the input budget; bytes that are not
    UTF-8 (which Python keeps as lone surrogates) are an io error, as in a file."""
    if any("\udc80" <= c <= "\udcff" for c in text):
        decode(text.encode("utf-8", "surrogateescape"), "the -e text")
    return _bounded(text, limit, "the program").removeprefix("\ufeff")


def read_file(name: str, limit: int) -> tuple[str, str]:
    """(text, name to show) of a program file, or of standard input for `-`."""
    if name == "-":
        stdin = sys.stdin
        buffer = getattr(stdin, "buffer", None)
        if buffer is None:
            return _bounded(stdin.read(limit + 1), limit, "standard input"), "<stdin>"
        return decode(_bounded(buffer.read(limit + 1), limit, "standard input"), "<stdin>"), "<stdin>"
    return read_text_path(name, limit), name  # bounded, and never blocked for good (goi/files.py)


# ---- folders goi writes into -----------------------------------------------------------

_MADE: list[str] = []  # the directories this command made, outermost first (unmade_on_failure)


def writable_directory(option: str, directory: str) -> None:
    """Make `directory` if needed and write (then remove) a file in it; a ReadError naming
    the option otherwise. (A real write: os.access says yes to root on a read-only file
    system.) The directories made are remembered: a command that then fails leaves none of
    them behind empty (unmade_on_failure)."""
    missing = []
    path = os.path.abspath(directory)
    while not os.path.lexists(path):
        missing.append(path)
        path = os.path.dirname(path)
    try:
        os.makedirs(directory, exist_ok=True)
    except FileExistsError:
        raise ReadError(f"{option} {directory}: it exists and is not a directory") from None
    except OSError as exc:
        raise ReadError(f"{option} {directory}: cannot make the directory: {exc.strerror}") from None
    _MADE.extend(reversed(missing))
    try:
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".goi-probe-"):
            pass
    except OSError as exc:
        raise ReadError(f"{option} {directory}: cannot write in it: {exc.strerror}") from None


@contextlib.contextmanager
def unmade_on_failure():
    """Around a command: when it ends in an error (an exception: bad input, a usage error
    found late, Ctrl-C), each directory it made for its output and left empty is removed
    again, innermost first (`goi report --from missing.json` leaves no empty goi-report/).
    Only empty ones: os.rmdir removes nothing else, so whatever was written there stays."""
    del _MADE[:]
    try:
        yield
    except BaseException:
        for directory in reversed(_MADE):
            try:
                os.rmdir(directory)
            except OSError:
                break  # not empty (or not ours to remove): neither are those around it
        raise
    finally:
        del _MADE[:]


# ---- a streamed JSON object -----------------------------------------------------------------

class JsonTraceWriter:
    """`goi run --json --trace`: the one JSON object written as the run goes, the trace first,
    so a long trace is never held in memory."""

    def __init__(self, stream=None):
        import json  # (json is loaded only when JSON is written: a plain `goi run` starts without it)

        self._dumps = json.dumps
        self.stream = stream or sys.stdout
        self.count = 0
        self.open = False
        self.known: dict = {}  # the payload's fields known before the run ends (a run cut short still has them)
        self.passes = 0
        self.rules: dict = {}

    def start(self) -> None:
        write_raw(f'{{"schema": {self._dumps(schema("run"))}, "trace": [', self.stream)
        self.open = True

    def step(self, step) -> None:
        write_raw(("" if self.count == 0 else ", ") + self._dumps(step_to_json(step), ensure_ascii=False), self.stream)
        self.count += 1
        self.passes += DEFAULT[step.rule].is_pass  # the command line runs the default rules
        self.rules[step.rule] = self.rules.get(step.rule, 0) + 1
        if interrupt_requested():  # a Ctrl-C (goi run streams under `polled`): stop here, between two whole steps
            raise KeyboardInterrupt

    def cut_short(self, status: str, error: dict) -> None:
        """Close the object when the run did not end (interrupted, or an error): every field the
        schema requires, with what is known — the transitions streamed so far, no value."""
        self.finish({**self.known, "status": status, "value": None, "reason": error["message"], "limit": None,
                     "transitions": {"total": self.count, "pass": self.passes, "rewrite": self.count - self.passes},
                     "rules": self.rules, "error": error})

    def finish(self, payload: dict) -> None:
        rest = self._dumps({k: v for k, v in payload.items() if k not in ("schema", "trace")}, ensure_ascii=False)
        write_raw("], " + rest[1:] + "\n", self.stream)
        self.open = False


class Output:
    """What a command has written so far that an error must finish: a JSON object being
    streamed (`goi run --json --trace`). `main` reports an error by closing that object, or
    else by printing the error's own."""

    def __init__(self):
        self.streaming: Optional[JsonTraceWriter] = None

    def stream(self, writer: JsonTraceWriter) -> JsonTraceWriter:
        self.streaming = writer
        return writer

    def error(self, command: Optional[str], error: dict, text: Optional[str], as_json: bool) -> None:
        """An error, as the one JSON object under --json (closing a streamed one), else as text."""
        if as_json:
            if self.streaming is not None and self.streaming.open:
                self.streaming.cut_short("interrupted" if error["kind"] == "interrupted" else "error", error)
            else:
                write_json(error_payload(command, error))
        elif text is not None:
            say(text, sys.stderr)
