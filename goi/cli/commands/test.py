"""`goi test PATH…`: programs checked against the expected results kept with them
(goi/expected.py; docs/CLI.md, `goi test`).

    goi test PATH ... [--update] [--json] [--max-input-bytes N]
"""

from __future__ import annotations

import difflib
import os
import time

from .. import exitcodes
from ..io import say, schema, write_json
from . import command
from ...semantics.errors import ReadError
from ..arguments import add_input_limit
from ..errors import UsageError


def run(args, _source, out) -> int:
    from ... import expected

    started = time.perf_counter()
    try:
        files = expected.program_files(args.paths)
    except FileNotFoundError as exc:
        raise ReadError(f"cannot read {exc.args[0]}: no such file or directory") from None
    if not files:
        raise UsageError(f"no .goi programs in {', '.join(args.paths)}")
    cases = []
    for path in files:  # read within bounds (goi/files.py): too large, a silent FIFO or not UTF-8 stops here, named
        try:
            cases.append(expected.check_file(path, args.update, args.max_input_bytes))
        except OSError as exc:  # --update writing
            raise ReadError(f"cannot write {path}: {exc.strerror}") from None
    seconds = time.perf_counter() - started
    passed = sum(c.passed for c in cases)
    errors = sum(c.errored for c in cases)
    failed = len(cases) - passed - errors
    if args.json:
        write_json({"schema": schema("test"), "passed": passed, "failed": failed, "errors": errors,
                    "seconds": round(seconds, 3), "cases": [c.to_json() for c in cases]})
    else:
        for line in summary_lines(cases):
            say(line)
        say(f"{passed} passed, {failed} failed" + (f", {errors} error{'s' if errors > 1 else ''}" if errors else ""))
    return exitcodes.OK if passed == len(cases) else exitcodes.NOT_EQUIVALENT


def summary_lines(cases) -> list[str]:
    """A line of marks per folder (. passed, F failed, E error), then each failure with a diff."""
    lines: list[str] = []
    folders: dict[str, str] = {}
    for c in cases:
        folder = os.path.dirname(c.path) or "."
        folders[folder] = folders.get(folder, "") + ("." if c.passed else "E" if c.errored else "F")
    lines += [f"{folder} {marks}" for folder, marks in folders.items()]
    for c in cases:
        if c.passed:
            continue
        lines.append("")
        if c.error is not None:
            lines.append(f"ERROR {c.path}: {c.error}")
            continue
        if c.source == "none":
            lines.append(f"ERROR {c.path}: no expected result (add a line `-- expect: VALUE`, or run goi test --update)")
            continue
        lines.append(f"FAILED {c.path}: " + "; ".join(f"{k} expected {e!s}, got {g!s}" for k, e, g in c.mismatches))
        keys = [k for k, _, _ in c.mismatches]
        want = [f"{k}: {e}" for k, e, _ in c.mismatches]
        got = [f"{k}: {c.outcome.fields.get(k, '-')}" for k in keys] if c.outcome else []
        lines += ["  " + d for d in difflib.unified_diff(want, got, "expected", "got", lineterm="", n=0)]
    return lines


def add_arguments(p) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help=".goi programs, or folders holding them")
    p.add_argument("--update", action="store_true", help="write what each failing program does now as its expectation")
    p.add_argument("--json", action="store_true", help="print one JSON object (UTF-8)")
    add_input_limit(p)  # programs and expectation files alike


COMMAND = command("test", order=90, help="check programs against the expected results kept with them",
                  add_arguments=add_arguments, run=run)
