"""A target: everything oracle mode needs to know of an implementation, declared in one small
TOML file (`goi oracle --target FILE.toml`, docs/ORACLE.md "Your first oracle run"): its
command and protocol, its notation (a name, a file beside the target, or a table inline), the
fragment it implements, its arithmetic, its timeouts, its known bugs — and, for a command that
does not speak the protocol, how it answers (`[answer]`): the value read from its standard
output by a pattern, and which exit codes and standard-error patterns mean "not in my
language" or "an error". A command-line implementation then needs no adapter code at all.

    command = "mlc run {file}"
    notation = "ml.toml"                 # beside this file
    fragment = ["no-provisional"]
    arithmetic = "integer,bits=63"       # or { name = "integer", bits = 63 }
    timeout = 5

    [answer]
    value = 'result = (?P<value>\\S+)'    # on standard output
    function = "<fun>"                   # how it writes a function's value
    rejected = { exit = [2], stderr = "syntax error|type error" }
    error = { stderr = "exception|error" }

`read_target(path)` checks every key (a TargetError names the file and the key) and gives a
`Target`: the options it sets, by their command-line names, and the answer's reading.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from typing import Optional

MAX_TARGET_BYTES = 1 << 20
MAX_PATTERN = 1000  # characters of one answer pattern

_STRING, _NUMBER, _LIST = "text", "a number", "a list of text"
# key -> what it takes; the command-line option it stands for is the key with - for _
KEYS = {
    "command": _STRING, "protocol": ("oneshot", "lines"), "notation": "a notation", "parenthesize": ("minimal", "all"),
    "fragment": _LIST, "arithmetic": "an arithmetic", "tolerance": _NUMBER, "ulps": _NUMBER, "division": ("total", "strict"),
    "integer_division": ("trunc", "floor"), "timeout": _NUMBER, "startup_timeout": _NUMBER, "memory_mb": _NUMBER,
    "max_nodes": _NUMBER, "known": _LIST, "ill_typed": "true or false", "answer": "a table",
}
ANSWER_KEYS = {"value", "value_exit", "function", "rejected", "error"}
WHEN_KEYS = {"exit", "stdout", "stderr"}


class TargetError(ValueError):
    """A target file that cannot be used: its message names the file and the key."""


@dataclass(frozen=True)
class When:
    """A condition on a finished call: its exit status among `exit` (any, when empty), and each
    pattern given found in its output (searched, case-insensitive, line by line)."""

    exit: tuple = ()
    stdout: Optional[re.Pattern] = None
    stderr: Optional[re.Pattern] = None

    def line(self, stdout: str, stderr: str, status: Optional[int]) -> Optional[str]:
        """The line that matched (the stream's first matching line; the first line of standard
        error, else of standard output, when only the exit status was asked), or None."""
        if self.exit and status not in self.exit:
            return None
        found = None
        for pattern, text in ((self.stderr, stderr), (self.stdout, stdout)):
            if pattern is None:
                continue
            match = pattern.search(text)
            if match is None:
                return None
            found = found or _line_at(text, match.start())
        if found is None:
            found = next((l.strip() for l in (stderr + "\n" + stdout).splitlines() if l.strip()), f"exit status {status}")
        return found


def _line_at(text: str, at: int) -> str:
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return text[start:end if end >= 0 else len(text)].strip()


@dataclass(frozen=True)
class Reading:
    """How a plain command answers (`[answer]`): checked in the order rejected, error, value;
    a call that meets none of them is a crash."""

    value: re.Pattern
    value_exit: tuple = (0,)
    rejected: Optional[When] = None
    error: Optional[When] = None
    function: str = "λ"  # the value's text for a function (`<fun>`, `#<procedure>`)

    def read(self, stdout: str, stderr: str, status: Optional[int]):
        """What a finished call answered (read_plain)."""
        return read_plain(self, stdout, stderr, status)


@dataclass(frozen=True)
class Target:
    path: str
    options: dict = field(default_factory=dict)  # command-line option (dest) -> value, as the file says
    reading: Optional[Reading] = None


def read_target(path: str) -> Target:
    """The target declared in the file at `path` (module docstring)."""
    from goi.files import read_path
    from goi.semantics.errors import GoiError

    try:
        data = read_path(path, MAX_TARGET_BYTES, "a target file's 1 MiB")
    except GoiError as exc:
        raise TargetError(str(exc.message if hasattr(exc, "message") else exc)) from None
    try:
        table = tomllib.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise TargetError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        raise TargetError(f"{path}: not a TOML file: {exc}") from None
    return _Reader(path).target(table)


class _Reader:
    def __init__(self, path: str):
        self.path = path
        self.here = os.path.dirname(os.path.abspath(path))

    def fail(self, key: str, message: str):
        raise TargetError(f"{self.path}: {key}: {message}")

    def target(self, table: dict) -> Target:
        unknown = sorted(set(table) - set(KEYS))
        if unknown:
            self.fail(unknown[0], f"not a key of a target (the keys: {', '.join(KEYS)})")
        if "command" not in table:
            self.fail("command", "required: the implementation's command")
        options: dict = {}
        for key, value in table.items():
            if key == "answer":
                continue
            options[key] = self.option(key, value)
        reading = self.reading(table["answer"]) if "answer" in table else None
        if reading is not None and options.get("protocol") == "lines":
            self.fail("answer", "a persistent session answers in JSON lines: [answer] is for a plain command (oneshot)")
        return Target(self.path, options, reading)

    def option(self, key: str, value):
        kind = KEYS[key]
        if key == "command":
            if isinstance(value, list) and value and all(isinstance(w, str) for w in value):
                import shlex

                return " ".join(shlex.quote(w) for w in value)
            if not isinstance(value, str) or not value.strip():
                self.fail(key, "the implementation's command: text, or a list of words")
            return value
        if key == "notation":
            if isinstance(value, dict):
                return f"{os.path.abspath(self.path)}#notation"  # read by the notations from this very file
            if not isinstance(value, str):
                self.fail(key, "a built-in notation's name, a notation file (beside the target), or a table")
            return self.beside(value) if value.endswith(".toml") or os.sep in value else value
        if key == "arithmetic":
            from .arithmetic import ArithmeticError_, declared

            try:
                return declared(value).spec
            except ArithmeticError_ as exc:
                self.fail(key, str(exc))
        if key in ("fragment", "known"):
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                self.fail(key, "a list of text")
            if key == "known":
                return [self.beside(v) for v in value]
            from .fragment import FRAGMENTS

            bad = [v for v in value if v not in FRAGMENTS]
            if bad:
                self.fail(key, f"unknown fragment {bad[0]!r}; known: {', '.join(FRAGMENTS)}")
            return frozenset(value)
        if key == "ill_typed":
            if not isinstance(value, bool):
                self.fail(key, "true or false")
            return value
        if isinstance(kind, tuple):
            if value not in kind:
                self.fail(key, f"one of {', '.join(kind)}, not {value!r}")
            return value
        # numbers
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            self.fail(key, "a number")
        if key in ("ulps", "memory_mb", "max_nodes"):
            if not isinstance(value, int) or value < (0 if key == "ulps" else 1) or value > 10**9:
                self.fail(key, "a whole number" + (" from 0" if key == "ulps" else ", at least 1") + ", at most 10^9")
            return value
        if key == "tolerance":
            from fractions import Fraction

            if not 0 <= value <= 1:
                self.fail(key, "a relative tolerance from 0 to 1")
            return Fraction(str(value))
        if not 0 < value <= 86_400:
            self.fail(key, "seconds, more than 0 and at most a day")
        return float(value)

    def beside(self, name: str) -> str:
        return name if os.path.isabs(name) else os.path.join(self.here, name)

    def reading(self, table) -> Reading:
        if not isinstance(table, dict):
            self.fail("answer", "a table: [answer] with value = 'PATTERN', and rejected, error")
        unknown = sorted(set(table) - ANSWER_KEYS)
        if unknown:
            self.fail(f"answer.{unknown[0]}", f"not a key of [answer] (the keys: {', '.join(sorted(ANSWER_KEYS))})")
        if "value" not in table:
            self.fail("answer.value", "required: the pattern that finds the value on standard output "
                                      "(its group `value`, else the whole match)")
        value_exit = table.get("value_exit", [0])
        function = table.get("function", "λ")
        if not isinstance(function, str) or not function.strip():
            self.fail("answer.function", "the text a function's value is written as (`<fun>`), as text")
        return Reading(self.pattern("answer.value", table["value"]), self.exits("answer.value_exit", value_exit),
                       self.when("answer.rejected", table.get("rejected")), self.when("answer.error", table.get("error")),
                       function.strip())

    def when(self, key: str, table) -> Optional[When]:
        if table is None:
            return None
        if not isinstance(table, dict) or not table:
            self.fail(key, "a table of exit = [codes], stdout = 'PATTERN', stderr = 'PATTERN'")
        unknown = sorted(set(table) - WHEN_KEYS)
        if unknown:
            self.fail(f"{key}.{unknown[0]}", f"not a condition (the conditions: {', '.join(sorted(WHEN_KEYS))})")
        return When(self.exits(f"{key}.exit", table.get("exit", [])),
                    None if "stdout" not in table else self.pattern(f"{key}.stdout", table["stdout"]),
                    None if "stderr" not in table else self.pattern(f"{key}.stderr", table["stderr"]))

    def exits(self, key: str, value) -> tuple:
        if isinstance(value, int) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) and -255 <= v <= 255
                                                  for v in value):
            self.fail(key, "a list of exit statuses (whole numbers from -255 to 255; a negative one is a signal)")
        return tuple(value)

    def pattern(self, key: str, value) -> re.Pattern:
        if not isinstance(value, str) or not value:
            self.fail(key, "a regular expression (Python's), as text")
        if len(value) > MAX_PATTERN:
            self.fail(key, f"a pattern of at most {MAX_PATTERN} characters")
        try:
            return re.compile(value, re.IGNORECASE | re.MULTILINE)
        except (re.error, RecursionError, OverflowError) as exc:
            self.fail(key, f"not a regular expression: {exc}")


def read_plain(reading: Reading, stdout: str, stderr: str, status: Optional[int]):
    """What a plain command's finished call answered, by the target's [answer]: (kind, value
    text or message) with kind rejected, error, value, or None (none of them: a crash)."""
    for kind, when in (("rejected", reading.rejected), ("error", reading.error)):
        if when is not None:
            line = when.line(stdout, stderr, status)
            if line is not None:
                return kind, line[:2000]
    if status in reading.value_exit:
        match = reading.value.search(stdout)
        if match is not None:
            text = match.groupdict().get("value")
            text = (text if text is not None else match.group(0)).strip()
            return "value", "λ" if text == reading.function else text
    return None, None
