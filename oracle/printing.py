"""The user's printer (`--printer FILE.py:FUNCTION` or `MODULE:FUNCTION`, docs/ORACLE.md, A
printer of your own) run in a process of its own, so that whatever its code does, goi can stop
it: a printer that loops in a regular expression or computes a huge power holds its
interpreter's lock, and no thread of goi's could interrupt it; a process is killed at
`--timeout` or at Ctrl-C. The printer's module is imported there too (an import that never
returns is bounded by LOAD_SECONDS), and what it prints on standard output goes to goi's
standard error, never into goi's own output.

Each program goes to the process as a pickled surface term and comes back as one of:
the text (a plain `str`, UTF-8-encodable: it is what the implementation is sent); "cannot
write this program" (it raised `Inexpressible`, the one documented way to skip a program);
or what went wrong (any other exception, ValueError included: a printer that fails on every
program must not read as a survey of nothing that passed; a result that is no text, or text
no encoding can send). `PrinterError` carries that one line."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Optional

LOAD_SECONDS = 60.0  # importing the printer's module (a slow import on a loaded machine is not an error)
MAX_MESSAGE = 500  # characters of a printer's exception message said


class PrinterError(Exception):
    """The printer failed: one line that says how (the CLI's usage error, exit 2)."""


def load(spec: str):
    """The function `spec` names (`path/to/file.py:function` or `module:function`); PrinterError
    if it cannot be imported or is not callable. Run in the printer's process."""
    import importlib
    import importlib.util

    module_name, _, function = spec.rpartition(":")
    try:
        if module_name.endswith(".py") or os.sep in module_name:
            loader = importlib.util.spec_from_file_location(f"goi_printer_{abs(hash(module_name))}", module_name)
            if loader is None or loader.loader is None:
                raise PrinterError(f"cannot import {module_name}: not a Python file")
            module = importlib.util.module_from_spec(loader)
            loader.loader.exec_module(module)
        else:
            if os.getcwd() not in sys.path:
                sys.path.insert(0, os.getcwd())
            module = importlib.import_module(module_name)
    except PrinterError:
        raise
    except BaseException as exc:  # noqa: BLE001 - the user's module: any error in it is theirs
        raise PrinterError(f"cannot import {module_name}: {describe(exc)}") from None
    found = getattr(module, function, None)
    if not callable(found):
        raise PrinterError(f"{module_name} has no function {function}")
    return found


def describe(exc: BaseException) -> str:
    """`Type: message`, bounded, whatever the exception's __str__ does."""
    try:
        message = str(exc)
    except BaseException:  # noqa: BLE001 - a user's exception whose __str__ raises
        message = "(its message cannot be shown)"
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + "…"
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def answer(fn, term) -> tuple[str, Optional[str]]:
    """The printer's answer to one term, as sent back: ("ok", text), ("skip", None) or ("error", why)."""
    from .notations import Inexpressible

    try:
        value = fn(term)
    except Inexpressible:
        return "skip", None
    except BaseException as exc:  # noqa: BLE001 - the user's code: said in one line
        return "error", f"it raised {describe(exc)}"
    if not isinstance(value, str):
        return "error", f"it returned {type(value).__name__}, not the program's text"
    plain = str.__getitem__(value, slice(None))  # a str subclass's own methods are never called
    if type(plain) is not str:
        plain = "".join(str.__iter__(value))
    try:
        str.encode(plain, "utf-8")
    except UnicodeEncodeError as exc:
        return "error", (f"it returned text that cannot be sent (UTF-8 cannot encode {plain[exc.start:exc.end]!a} "
                         f"at character {exc.start})")
    return "ok", plain


def serve(spec: str, requests: int, replies: int) -> int:
    """The printer's process: load, say so, then answer each term until the requests end."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is goi's to handle: it stops this process
    incoming, outgoing = Connection(requests, writable=False), Connection(replies, readable=False)
    sys.stdout = sys.stderr  # the printer's own prints never mix with goi's output
    try:
        fn = load(spec)
    except PrinterError as exc:
        outgoing.send(("error", str(exc)))
        return 0
    outgoing.send(("ready", None))
    while True:
        try:
            term = incoming.recv()
        except (EOFError, OSError):
            return 0
        outgoing.send(answer(fn, term))


class PrinterProcess:
    """`spec`'s function, called in a process of its own: `process(term)` returns the text,
    raises Inexpressible, or raises PrinterError (it raised, it returned no text, it gave no
    answer within `timeout` seconds — then the process is killed, and a new one serves the
    next call). Ctrl-C while waiting kills the process too."""

    def __init__(self, spec: str, timeout: float = 5.0):
        self.spec, self.timeout = spec, timeout
        self._process: Optional[subprocess.Popen] = None
        self._requests: Optional[Connection] = None
        self._replies: Optional[Connection] = None
        self._lock = threading.Lock()

    def start(self) -> None:
        """Start the process and import the printer there (PrinterError if it cannot)."""
        with self._lock:
            self._start()

    def _start(self) -> None:
        if self._process is not None:
            return
        to_child, from_parent = os.pipe()
        from_child, to_parent = os.pipe()
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-c", "import sys; from goi.oracle.printing import serve; "
                 "sys.exit(serve(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))",
                 self.spec, str(to_child), str(to_parent)],
                pass_fds=(to_child, to_parent), stdin=subprocess.DEVNULL, stdout=sys.stderr.fileno()
                if _has_fileno(sys.stderr) else None, cwd=os.getcwd(), start_new_session=True)
        except OSError as exc:
            for fd in (to_child, from_parent, from_child, to_parent):
                os.close(fd)
            raise PrinterError(f"cannot start a process for it: {exc.strerror}") from None
        os.close(to_child)
        os.close(to_parent)
        self._requests, self._replies = Connection(from_parent, readable=False), Connection(from_child, writable=False)
        kind, value = self._wait(LOAD_SECONDS, "while importing it")
        if kind != "ready":
            self._stop()
            raise PrinterError(value)

    def __call__(self, term) -> str:
        from .notations import Inexpressible

        with self._lock:
            self._start()
            try:
                self._requests.send(term)
            except (OSError, ValueError):
                self._stop()
                raise PrinterError("its process ended") from None
            kind, value = self._wait(self.timeout, f"within {self.timeout:g} s (--timeout) on a program")
        if kind == "skip":
            raise Inexpressible("the printer cannot write this program")
        if kind != "ok":
            raise PrinterError(value)
        return value

    def _wait(self, seconds: float, what: str) -> tuple[str, Optional[str]]:
        """The process's next reply within `seconds`; otherwise it is stopped and PrinterError says
        `what`. Waits in short polls: Ctrl-C is answered at once (and stops the process)."""
        deadline = time.monotonic() + seconds
        try:
            while True:
                left = deadline - time.monotonic()
                if self._replies.poll(max(0.0, min(0.2, left))):
                    try:
                        return self._replies.recv()
                    except (EOFError, OSError):
                        self._stop()
                        raise PrinterError("its process ended without an answer (it exited, or was killed)") from None
                if left <= 0:
                    self._stop()
                    raise PrinterError(f"no answer {what}")
        except BaseException:
            if self._process is not None and not isinstance(sys.exc_info()[1], PrinterError):
                self._stop()  # Ctrl-C, or anything else: the process goes with the wait
            raise

    def _stop(self) -> None:
        process, self._process = self._process, None
        for conn in (self._requests, self._replies):
            if conn is not None:
                conn.close()
        self._requests = self._replies = None
        if process is not None:
            try:
                os.killpg(process.pid, 9)
            except OSError:
                process.kill()
            process.wait()

    def close(self) -> None:
        with self._lock:
            self._stop()


def _has_fileno(stream) -> bool:
    try:
        stream.fileno()
        return True
    except (AttributeError, OSError, ValueError):
        return False
