"""Known bugs set aside (`goi oracle --known FILE`, docs/ORACLE.md "Known bugs"): the buckets a
user already knows are counted and reported as known, never shrunk again, so that a run's
budget goes to the buckets that are new — the second, third and fourth bug of an
implementation whose first bug fires on most programs.

FILE is any of what a user has at hand, read within bounds (goi/files.py), each checked:

- what a run wrote: a `goi oracle --json` object (its buckets' signatures), a directory
  written by `--out` (every `*.json` in it with a `signature`), or one such file;
- a text file, a line each: a signature (a line that starts with a failure class —
  `implementation-error: TypeError: …`, `hang`), or a program (any other line), whose
  signature is its class and detail on this run; blank lines and `#` comments are skipped.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from goi.files import MAX_INPUT_BYTES, read_text_path
from goi.semantics.errors import ReadError

from .classification import FAILURES

MAX_FILES = 10_000  # *.json read from one --out directory, at most


@dataclass(frozen=True)
class Known:
    signatures: frozenset = frozenset()
    programs: tuple = ()  # programs whose signatures (on this run) are known
    sources: tuple = field(default=(), compare=False)
    minimal: tuple = ()  # the minimal programs a run wrote for known buckets (as the implementation read them)

    def __bool__(self) -> bool:
        return bool(self.signatures or self.programs)


def is_signature(line: str) -> bool:
    klass = line.split(":", 1)[0].strip()
    return klass in FAILURES


def read_known(paths) -> Known:
    """The signatures and programs of every --known FILE (module docstring); ReadError naming
    the file for what cannot be read or is none of these."""
    signatures, programs, minimal = set(), [], []
    for path in paths:
        if os.path.isdir(path):
            names = sorted(n for n in os.listdir(path) if n.endswith(".json"))[:MAX_FILES]
            found = False
            for name in names:
                data = _json(os.path.join(path, name))
                if isinstance(data, dict) and isinstance(data.get("signature"), str):
                    signatures.add(data["signature"])
                    minimal += _programs([data])
                    found = True
            if not found:
                raise ReadError(f"--known {path}: a directory with no failure of a goi oracle --out in it")
            continue
        text = read_text_path(path, MAX_INPUT_BYTES, "--known")
        stripped = text.lstrip()
        if stripped.startswith("{") or stripped.startswith("["):
            found, shown = _from_json(path, text)
            signatures |= found
            minimal += shown
            continue
        for line in text.splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if is_signature(line):
                signatures.add(line)
            else:
                programs.append(line)
        if len(dict.fromkeys(programs)) > MAX_PROGRAMS:
            raise ReadError(f"--known {path}: more than {MAX_PROGRAMS} program lines (each is run before the survey, "
                            "to take its signature); name the failures by their signatures instead")
    return Known(frozenset(signatures), tuple(dict.fromkeys(programs)), tuple(map(str, paths)),
                 tuple(dict.fromkeys(minimal))[:MAX_MINIMAL])


MAX_PROGRAMS = 50  # program lines of --known text files, each run once before the survey
MAX_MINIMAL = 100  # known minimal programs kept to steer the draw by (their constructs: oracle/steering.py)


def _programs(entries: list) -> list:
    """The minimal programs of a run's buckets or cases (text, of a bounded length)."""
    return [e["program"] for e in entries if isinstance(e, dict) and isinstance(e.get("program"), str)
            and 0 < len(e["program"]) <= 10_000]


def _json(path: str):
    text = read_text_path(path, MAX_INPUT_BYTES, "--known")
    try:
        return json.loads(text)
    except ValueError as exc:
        raise ReadError(f"--known {path}: not JSON ({exc})") from None


def _from_json(path: str, text: str) -> tuple[set, list]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ReadError(f"--known {path}: not JSON ({exc})") from None
    shown: list = []
    if isinstance(data, dict) and isinstance(data.get("buckets"), list):  # a goi oracle --json object
        found = [b.get("signature") for b in data["buckets"] if isinstance(b, dict)]
        shown = _programs(data["buckets"])
    elif isinstance(data, dict) and "signature" in data:  # one --out case
        found = [data.get("signature")]
        shown = _programs([data])
    elif isinstance(data, list):  # a list of signatures
        found = data
    else:
        found = []
    found = {s for s in found if isinstance(s, str) and is_signature(s)}  # anything else (a number, a list) is none
    if not found:
        raise ReadError(f"--known {path}: no signature in it (a goi oracle --json object, an --out case, or a list "
                        "of signatures)")
    return found, shown
