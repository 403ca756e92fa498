"""Programs checked against the expected results kept with them (`goi test`, docs/CLI.md).

An expectation is a set of fields, each `KEY: VALUE`, kept either in the program itself as
comment lines `-- expect KEY: VALUE` (`-- expect: V` is short for `-- expect value: V`) or in a
file `NAME.expected` beside `NAME.goi`, one `KEY: VALUE` a line (`#` starts a comment line).

| key | what | example |
|---|---|---|
| `value` | the final value, as `goi run` prints it (implies status final) | `3`, `-9/2`, `(1, 2)`, `λ` |
| `status` | `final`, `parse error`, `type error`, `budget`, `undefined`, `stuck` | `type error` |
| `type` | the program's type | `F -> F` |
| `parameters` | its parameter vector p⃗, in order (`-` for none) | `1, 0` |
| `division` | run with this division policy (an option, not a result) | `strict` |
| `max-steps` | run with this step budget (an option) | `100` |

Only the fields given are compared. A program with no expectation is an error of the test
(nothing would be checked), unless `update` writes one.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Iterable, Optional

from . import api
from .files import MAX_INPUT_BYTES, read_text_path
from .semantics.errors import GoiError, ParseError
from .semantics.show import scalar
from .semantics.show import to_text

RESULT_KEYS = ("status", "value", "type", "parameters")
OPTION_KEYS = ("division", "max-steps")
KEYS = RESULT_KEYS + OPTION_KEYS
STATUSES = ("final", "parse error", "type error", "budget", "undefined", "stuck")
INLINE = re.compile(r"^\s*--\s*expect(?:\s+([a-z-]+))?\s*:\s*(.*?)\s*$")
# `-- division: strict` without `expect`: a comment that reads like an expectation (a key of KEYS)
LOOKALIKE = re.compile(r"^\s*--\s*(" + "|".join(map(re.escape, KEYS)) + r")\s*:\s*(.*?)\s*$")
DEFAULT_MAX_STEPS = 1_000_000


class ExpectationError(ValueError):
    """An expectation that cannot be read (an unknown key, a bad value)."""


@dataclass
class Outcome:
    """What one program did: the fields an expectation may name."""

    fields: dict


@dataclass
class TestCase:
    path: str
    expected: dict  # KEY -> VALUE (strings), result keys and options
    source: str  # "inline", "file" or "none"
    outcome: Optional[Outcome] = None
    mismatches: list = field(default_factory=list)  # (key, expected, got)
    error: Optional[str] = None  # the expectation could not be read

    @property
    def errored(self) -> bool:
        """No expectation to compare with: none kept, or one that cannot be read."""
        return self.error is not None or self.source == "none"

    @property
    def passed(self) -> bool:
        return not self.errored and not self.mismatches

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "passed": self.passed,
            "source": self.source,
            "expected": dict(self.expected),
            "got": dict(self.outcome.fields) if self.outcome else None,
            "mismatches": [{"key": k, "expected": e, "got": g} for k, e, g in self.mismatches],
            "error": self.error,
        }


def program_files(paths: Iterable[str]) -> list[str]:
    """The .goi files named, and those below the folders named, in a stable order."""
    out: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            for folder, dirs, files in os.walk(path):
                dirs.sort()
                out += [os.path.join(folder, f) for f in sorted(files) if f.endswith(".goi")]
        elif os.path.exists(path):
            out.append(path)
        else:
            raise FileNotFoundError(path)
    return out


def expected_file(path: str) -> str:
    return os.path.splitext(path)[0] + ".expected"


def _field(key: Optional[str], value: str, where: str) -> tuple[str, str]:
    key = key or "value"
    if key not in KEYS:
        raise ExpectationError(f"{where}: unknown key {key!r} (known: {', '.join(KEYS)})")
    if key == "status" and value not in STATUSES:
        raise ExpectationError(f"{where}: unknown status {value!r} (known: {', '.join(STATUSES)})")
    if key == "division" and value not in ("total", "strict"):
        raise ExpectationError(f"{where}: division is total or strict, not {value!r}")
    if key == "max-steps" and not (value.isascii() and value.isdigit() and len(value) <= 15):
        raise ExpectationError(f"{where}: max-steps is a whole number (at most 15 digits), not {value!r}")
    return key, value


def read_expectation(path: str, text: str, max_bytes: int = MAX_INPUT_BYTES) -> tuple[dict, str]:
    """(fields, where they were found: "inline", "file" or "none")."""
    inline = {}
    for number, line in enumerate(text.splitlines(), 1):
        m = INLINE.match(line)
        if m:
            key, value = _field(m.group(1), m.group(2), f"{path}:{number}")
            inline[key] = value
        elif lookalike := LOOKALIKE.match(line):
            key, value = lookalike.groups()
            written = "-- expect: " + value if key == "value" else f"-- expect {key}: {value}"
            raise ExpectationError(f"{path}:{number}: `{line.strip()}` is only a comment; an expectation is "
                                   f"written `{written}`")
    side = expected_file(path)
    if os.path.lexists(side):
        if inline:
            raise ExpectationError(f"{path}: expectations both inline and in {side}; keep one")
        fields = {}
        for number, line in enumerate(read_text_path(side, max_bytes).splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, sep, value = line.partition(":")
            if not sep:
                raise ExpectationError(f"{side}:{number}: expected KEY: VALUE, found {line!r}")
            key, value = _field(key.strip(), value.strip(), f"{side}:{number}")
            fields[key] = value
        return fields, "file"
    return inline, "inline" if inline else "none"


def outcome(text: str, division: str = "total", max_steps: int = DEFAULT_MAX_STEPS) -> Outcome:
    """Run one program as `goi run` would and describe what it did."""
    try:
        judgement = api.check(text)
    except ParseError:
        return Outcome({"status": "parse error"})
    except GoiError as exc:
        return Outcome({"status": "type error" if exc.kind in ("type", "scope") else exc.kind.replace("_", " ")})
    fields = {"type": str(judgement.type), "parameters": ", ".join(scalar(p) for p in judgement.params) or "-"}
    result = api.run(judgement, division=division, max_steps=max_steps)  # type: ignore[arg-type]
    fields["status"] = result.status
    if result.status == "final":
        fields["value"] = to_text(result.value)
    return Outcome(fields)


def check_file(path: str, update: bool = False, max_bytes: int = MAX_INPUT_BYTES) -> TestCase:
    """One program against its expectation. The program and its expectation file are read
    within bounds (goi/files.py): a file too large, a FIFO with no writer, text that is not
    UTF-8 is a ReadError or BudgetError (the command stops there and says which file)."""
    text = read_text_path(path, max_bytes)
    try:
        expected, source = read_expectation(path, text, max_bytes)
    except ExpectationError as exc:
        return TestCase(path, {}, "none", error=str(exc))
    division = expected.get("division", "total")
    max_steps = int(expected.get("max-steps", DEFAULT_MAX_STEPS))
    got = outcome(text, division, max_steps)
    case = TestCase(path, expected, source, got)
    wanted = dict(expected)
    if "value" in wanted:
        wanted.setdefault("status", "final")
    for key in RESULT_KEYS:
        if key in wanted and wanted[key] != got.fields.get(key, "-"):
            case.mismatches.append((key, wanted[key], got.fields.get(key, "-")))
    if update and not case.passed:
        write_expectation(path, text, source, expected, got)
        return check_file(path, max_bytes=max_bytes)
    return case


def write_expectation(path: str, text: str, source: str, expected: dict, got: Outcome) -> None:
    """`--update`: record what the program does now, where its expectation is kept (inline by
    default), keeping the options and the keys it already named (all result keys if none)."""
    keys = [k for k in RESULT_KEYS if k in expected] or [k for k in ("value", "status", "parameters") if k in got.fields]
    if "value" in keys and "status" in keys and got.fields.get("status") == "final":
        keys.remove("status")
    if got.fields.get("status") != "final" and "value" in keys:  # no value to record: its status instead
        keys.remove("value")
        if "status" not in keys:
            keys.insert(0, "status")
    fields = {**{k: v for k, v in expected.items() if k in OPTION_KEYS}, **{k: got.fields[k] for k in keys if k in got.fields}}
    if source == "file":
        with open(expected_file(path), "w", encoding="utf-8") as handle:
            handle.write("".join(f"{k}: {v}\n" for k, v in fields.items()))
        return
    lines = [f"-- expect: {v}" if k == "value" else f"-- expect {k}: {v}" for k, v in fields.items()]
    old = text.splitlines()
    at = next((i for i, line in enumerate(old) if INLINE.match(line)), None)
    if at is None:  # none yet: at the end
        kept = "\n".join(old).rstrip("\n") + "\n" + "\n".join(lines)
    else:  # where the first one was (beside its comment), the others gone
        kept = "\n".join(old[:at] + lines + [line for line in old[at:] if not INLINE.match(line)])
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(kept.rstrip("\n") + "\n")


def check_paths(paths: Iterable[str], update: bool = False, max_bytes: int = MAX_INPUT_BYTES) -> list[TestCase]:
    """Every program under `paths` against its expectation (goi test)."""
    return [check_file(p, update, max_bytes) for p in program_files(paths)]
