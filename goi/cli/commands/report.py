"""`goi report`: run the properties and write a soundness report (docs/REPORTS.md).

    goi report [--profile ci|dev|deep] [--out DIR] [--properties P,…] [--examples N] [--seed N] [--json]
    goi report --from DIR/report.json [--from …] [--out DIR]
"""

from __future__ import annotations

import json
import sys

from .. import exitcodes
from ..arguments import properties_to_run, positive_int
from ..io import read_file, say, schema, writable_directory, write_json
from . import command
from ...semantics.errors import BudgetError, GoiError, ReadError
from ..errors import UsageError


def run(args, _source, out) -> int:
    from ...progress import quiet
    from ..heap import loaded
    from ...reports import collect, write
    from ...reports.collect import SCHEMA, merge, section_from
    from ...reports.pictures import MissingExtra

    writable_directory("--out", args.out)  # before the run, not after it
    try:  # the extra the pictures need, named before any property runs (not after minutes of them)
        from ...reports.pictures import require

        for module in ("matplotlib", "pygraphviz", "jinja2"):
            require(module)
    except MissingExtra as exc:
        raise UsageError(str(exc)) from None
    if args.source:
        parts = [_read_json(source, "--from") for source in args.source]
        for source, part in zip(args.source, parts):
            if not isinstance(part, dict) or part.get("schema") != SCHEMA:
                raise ReadError(f"--from {source}: not a {SCHEMA} report")
        try:
            data = merge(parts)
            render_check(data)
        except MALFORMED as exc:
            raise malformed(args.source, exc) from None
    else:

        names = properties_to_run(args.properties or ())

        def show(r) -> None:
            if not args.json:
                say(f"{r.name:<14} {r.status:<11} {r.runs:>6} runs  {r.seconds:7.2f}s", sys.stderr)

        with quiet(args.json), loaded():
            data = collect(names, args.profile, args.examples, args.seed, on_result=show)
    for path in args.include or ():
        try:
            name, section = section_from(_read_json(path, "--include"))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ReadError(f"--include {path}: {getattr(exc, 'strerror', None) or exc}") from None
        data.setdefault("sections", {})[name] = section
    try:
        failed = [p["name"] for p in data["properties"] if p["status"] == "failed"]
        interrupted = data["status"] == "interrupted"
        files = write(data, args.out)
    except MissingExtra as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise ReadError(f"--out {args.out}: {exc.strerror}") from None
    except MALFORMED as exc:
        if not args.source:
            raise  # our own run's data: a bug in goi, reported as one
        raise malformed(args.source, exc) from None
    if args.json:
        write_json({"schema": schema("report-files"), "out": args.out, "files": files, "status": data["status"],
                    "failed": failed})
    else:
        say(f"report: {args.out}/index.html, report.md, report.json ({len(files) - 3} pictures)")
    if interrupted:
        return exitcodes.INTERRUPTED
    return exitcodes.STUCK if failed else exitcodes.OK


MAX_REPORT_BYTES = 64 * 1024 * 1024  # a report.json or --include file: at most this much is read


def _read_json(path: str, option: str):
    """A JSON file read with a size bound (`--from /dev/zero` stops at once) and its errors named."""

    try:
        text, _name = read_file(path, MAX_REPORT_BYTES)
    except BudgetError:
        raise ReadError(f"{option} {path}: larger than {MAX_REPORT_BYTES} bytes, more than any report") from None
    except GoiError as exc:
        raise ReadError(f"{option} {path}: {exc.message}") from None
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ReadError(f"{option} {path}: not JSON ({str(exc)[:200]})") from None


MALFORMED = (KeyError, TypeError, ValueError, AttributeError, IndexError, ZeroDivisionError)


def malformed(sources, exc: Exception) -> ReadError:
    from ...reports.collect import SCHEMA

    return ReadError(f"--from {', '.join(sources)}: a malformed {SCHEMA} report ({type(exc).__name__}: "
                     f"{str(exc)[:200]}); docs/schemas/goi.report.json says what it holds")


def render_check(data: dict) -> None:
    """Render a report in memory (no files): a malformed one fails here, with its error named,
    before anything is written."""
    from ...reports.render import to_html, to_markdown

    to_html(data, {})
    to_markdown(data, {})


def add_arguments(p) -> None:
    from ...properties.profiles import PROFILES

    p.add_argument("--profile", choices=PROFILES, default="ci", help="Hypothesis profile (default ci)")
    p.add_argument("--out", default="goi-report", metavar="DIR", help="where to write it (default goi-report/)")
    p.add_argument("--properties", type=lambda t: [n.strip() for n in t.split(",") if n.strip()], metavar="P,…",
                   help="properties to run (default: all)")
    p.add_argument("--examples", type=positive_int, metavar="N", help="examples per property (default: the profile's)")
    p.add_argument("--seed", type=int, metavar="N", help="seed Hypothesis with N")
    p.add_argument("--from", dest="source", metavar="REPORT.json", action="append",
                   help="render an existing report.json instead of running; several are merged (a run spread over machines)")
    p.add_argument("--include", metavar="FILE", action="append",
                   help="add a section from the --json output of goi conjectures, oracle, equiv or props --exhaustive")
    p.add_argument("--json", action="store_true", help="print one JSON object (UTF-8)")


COMMAND = command("report", order=80, help="run the properties and write a soundness report (docs/REPORTS.md)",
                  add_arguments=add_arguments, run=run)
