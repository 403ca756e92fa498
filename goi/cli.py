"""The `goi` command: the oracle's command-line interface (docs/CLI.md).

    goi parse     FILE | -e TEXT [--json]   the normalised program
    goi typecheck FILE | -e TEXT [--json]   the judgement A | Γ | p⃗ ⊢ t : T
    goi run       FILE | -e TEXT [--json] [--trace] [--max-steps N] [--dot DIR] ...
    goi props     [PROPERTY ...] [--profile P] [--examples N] [--seed N] [--replay BLOB] [--json]
    goi equiv     FILE0 FILE1 | -e P0 -e P1 [--terms] [--division D] [--timeout S] [--json]
    goi conjectures [LAW ...] [--profile P] [--json]
    goi oracle    --impl 'CMD …' [--notation N] [--fragment F] [--tolerance REL] [--out DIR] [--json] ...
    goi report    [--profile P] [--out DIR] [--properties P,…] [--from REPORT.json] [--json]

Every command goes through goi.api. Contract: a wrong command line exits 2 (USAGE), bad
input 3 (BAD_INPUT), neither with a traceback; with --json exactly one JSON object is
printed on standard output (UTF-8), whatever happens, with a "schema" naming its format
(docs/schemas/).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from fractions import Fraction
from typing import Any, NoReturn, Optional

from . import cli_equiv, cli_oracle, cli_report, cli_test, show
from .files import writable_directory
from .semantics import exitcodes
from .semantics.stack import interrupt_requested, polled
from .semantics.errors import TOO_DEEP, BudgetError, GoiError, ReadError, UsageError
from .semantics.rules import DECOUPLING, REGISTRY

SCHEMA_VERSION = 1


def schema(command: str) -> str:
    return f"goi.{command}/{SCHEMA_VERSION}"


# ---- output ----------------------------------------------------------------------------

def write_json(payload: dict, stream=None) -> None:
    """One JSON object and a newline, always UTF-8 (RFC 8259), whatever the stream's encoding.
    A lone surrogate (a byte that was not UTF-8 in a file name or argument, as Python keeps
    it) is written as its JSON escape, never as an invalid byte."""
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
    (λ becomes \\u03bb on an ASCII terminal) rather than a crash."""
    stream = stream or sys.stdout
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        text = text.encode(encoding, "backslashreplace").decode(encoding)
    stream.write(text + "\n")


def error_payload(command: Optional[str], error: dict) -> dict:
    return {"schema": schema("error"), "status": "error", "command": command, "error": error}


# ---- arguments --------------------------------------------------------------------------

class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error is raised (and reported by main, as JSON under --json)
    instead of printed and exited from deep inside the parser."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, prog=self.prog, usage=self.format_usage())


def non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def positive_int(text: str) -> int:
    value = non_negative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def rationals(text: str) -> list[Fraction]:
    """--params: exact rationals separated by commas (3, -0.5, 1/3)."""
    import re

    values = []
    for item in text.split(","):
        item = item.strip()
        # the program's own literals, signed, or a ratio: no exponents (1e5), no digit groups (1_000)
        if not re.fullmatch(r"-?[0-9]+(\.[0-9]+)?(/[0-9]+)?", item):
            raise argparse.ArgumentTypeError(f"{item!r} is not an exact rational (write 3, -0.5 or 1/3)")
        try:
            values.append(Fraction(item))
        except (ValueError, ZeroDivisionError):
            raise argparse.ArgumentTypeError(f"{item!r} is not an exact rational (write 3, -0.5 or 1/3)") from None
    return values


def check_names(text: str) -> list[str]:
    from .semantics.checks import registry

    names = [c.strip() for c in text.split(",") if c.strip()]
    known = list(registry())
    unknown = [n for n in names if n != "all" and n not in known]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown check(s) {', '.join(unknown) or '(none given)'}; known: {', '.join(known)}, all")
    return names


# ---- reading programs ---------------------------------------------------------------------

def decode(data: bytes, name: str) -> str:
    """Program bytes as text: UTF-8, a byte-order mark accepted."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReadError(f"cannot read {name}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


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
    try:
        with open(name, "rb") as handle:
            return decode(_bounded(handle.read(limit + 1), limit, name), name), name
    except OSError as exc:
        raise ReadError(f"cannot read {name}: {exc.strerror}") from None


# ---- commands ---------------------------------------------------------------------------

def cmd_parse(args, source: str) -> int:
    from .semantics.parser import parse
    from .semantics.pretty import pretty
    from .semantics.serialize import term_to_json

    term = parse(source)
    program = pretty(term)
    if args.json:
        write_json({"schema": schema("parse"), "status": "ok", "program": program, "ast": term_to_json(term)})
    else:
        say(program)
    return exitcodes.OK


def cmd_typecheck(args, source: str) -> int:
    from . import api
    from .semantics.pretty import pretty
    from .semantics.typecheck import show_fraction

    judgement = api.check(source)
    assert judgement.surface is not None  # check() keeps the parsed term
    if args.json:
        write_json({
            "schema": schema("typecheck"),
            "status": "ok",
            "judgement": str(judgement),
            "program": pretty(judgement.surface),
            "type": str(judgement.type),
            "parameters": [show_fraction(p) for p in judgement.params],
            "decouplings": list(judgement.decouplings),
        })
    else:
        say(str(judgement))
    return exitcodes.OK


class JsonTraceWriter:
    """`goi run --json --trace`: the one JSON object written as the run goes, the trace first,
    so a long trace is never held in memory."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stdout
        self.count = 0
        self.open = False
        self.known: dict = {}  # the payload's fields known before the run ends (a run cut short still has them)
        self.passes = 0
        self.rules: dict = {}

    def start(self) -> None:
        write_raw(f'{{"schema": {json.dumps(schema("run"))}, "trace": [', self.stream)
        self.open = True

    def step(self, step) -> None:
        write_raw(("" if self.count == 0 else ", ") + json.dumps(step.to_json(), ensure_ascii=False), self.stream)
        self.count += 1
        self.passes += REGISTRY[step.rule].is_pass
        self.rules[step.rule] = self.rules.get(step.rule, 0) + 1
        if interrupt_requested():  # a Ctrl-C (cmd_run runs `polled`): stop here, between two whole steps
            raise KeyboardInterrupt

    def cut_short(self, status: str, error: dict) -> None:
        """Close the object when the run did not end (interrupted, or an error): every field the
        schema requires, with what is known — the transitions streamed so far, no value."""
        self.finish({**self.known, "status": status, "value": None, "reason": error["message"], "limit": None,
                     "transitions": {"total": self.count, "pass": self.passes, "rewrite": self.count - self.passes},
                     "rules": self.rules, "error": error})

    def finish(self, payload: dict) -> None:
        rest = json.dumps({k: v for k, v in payload.items() if k not in ("schema", "trace")}, ensure_ascii=False)
        write_raw("], " + rest[1:] + "\n", self.stream)
        self.open = False


def run_payload(result, args, checks: list[str]) -> dict:
    from .semantics.typecheck import show_fraction

    payload = {
        "schema": schema("run"),
        "status": result.status,
        "value": show.to_json(result.value),
        "type": str(result.type),
        "parameters": [show_fraction(p) for p in result.parameters],
        "transitions": {"total": result.transitions, "pass": result.passes, "rewrite": result.rewrites},
        "rules": result.rules,
        "reason": result.reason,
        "limit": result.limit,
        "strategy": "first" if args.strategy == "first" else f"random:{args.seed}",
        "division": args.division,
    }
    if result.gc is not None:
        payload["gc"] = result.gc
    if args.check:
        payload["checks"] = {
            "run": checks,
            "mode": args.check_mode,
            "seconds": {name: round(s, 6) for name, s in sorted(result.check_seconds.items())},
        }
        payload["violation"] = result.violation.to_json() if result.violation else None
    return payload


def cmd_run(args, source: str) -> int:
    from . import api
    from .semantics.dot import dot_lines

    if args.dot == "":
        raise UsageError("--dot needs a directory (an empty name writes nowhere)")
    if args.seed != 0 and args.strategy != "random":
        raise UsageError("--seed seeds --strategy random; with --strategy first it would change nothing")
    judgement = api.check(source)
    if args.params is not None and len(args.params) != len(judgement.params):
        raise UsageError(f"--params gives {len(args.params)} values, but the program has {len(judgement.params)} provisional constants")
    execution = api.prepare(
        judgement,
        params=args.params,
        division=args.division,
        strategy=args.strategy,
        seed=args.seed,
        checks=args.check or (),
        check_mode=args.check_mode,
        gc=args.gc,
        max_nodes=args.max_nodes,
        max_digits=args.max_digits,
    )
    machine = execution.machine

    dump = None
    if args.dot is not None:
        writable_directory("--dot", args.dot)

        dot_files = {"written": 0, "skipped": 0, "bytes": 0}

        def picture(name: str, title: str) -> None:
            # A file goi has not just created is never overwritten, and a link planted at its
            # name is never followed: O_EXCL | O_NOFOLLOW. Past --max-dot-bytes in all,
            # pictures are skipped (and counted), not written.
            if dot_files["skipped"]:  # the budget is spent: the rest are not even drawn
                dot_files["skipped"] += 1
                return
            path = os.path.join(args.dot, name)
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
            except FileExistsError:
                raise ReadError(f"--dot {args.dot}: {name} exists already; goi writes only new files (use an empty directory)") from None
            except OSError as exc:
                raise ReadError(f"--dot {args.dot}: cannot write {name}: {exc.strerror}") from None
            room, size = args.max_dot_bytes - dot_files["bytes"], 0
            with os.fdopen(fd, "wb") as handle:
                for line in dot_lines(machine.graph, machine, title):
                    data = (line + "\n").encode("utf-8")
                    size += len(data)
                    if size > room:
                        break
                    handle.write(data)
            if size > room:  # over the budget: this picture is not kept
                os.unlink(path)
                dot_files["skipped"] += 1
                return
            dot_files["written"] += 1
            dot_files["bytes"] += size

        dump = picture
        dump("000-initial.dot", "initial graph")

        def before(m, rule_id, redex):
            if REGISTRY[rule_id].feature == DECOUPLING:
                dump(f"{m.steps + 1:06d}-before-decouple.dot", f"before decoupling (step {m.steps + 1})")

        def after(m, rule_id, redex):
            if REGISTRY[rule_id].feature == DECOUPLING:
                dump(f"{m.steps:06d}-after-decouple.dot", f"after decoupling (step {m.steps})")

        machine.before.append(before)
        machine.after.append(after)

    trace = None
    args.json_writer = None
    if args.trace and args.json:
        from .semantics.typecheck import show_fraction

        args.json_writer = JsonTraceWriter()
        args.json_writer.known = {"type": str(judgement.type), "division": args.division,
                                  "parameters": [show_fraction(p) for p in (args.params or judgement.params)],
                                  "strategy": "first" if args.strategy == "first" else f"random:{args.seed}"}
        args.json_writer.start()
        trace = args.json_writer.step
    elif args.trace:
        def trace(step):
            say(step.render())

    if args.json_writer is not None:
        with polled():
            result = execution.run(args.max_steps, trace)
    else:
        result = execution.run(args.max_steps, trace)
    if dump is not None:  # the last picture is named by its step and the run's outcome: 000097-final.dot, 000100-budget.dot
        title = f"invariant violated at step {machine.steps}" if result.status == "violation" else \
            f"{result.status} graph (step {machine.steps})"
        dump(f"{machine.steps:06d}-{result.status}.dot", title)
    if args.json:
        payload = run_payload(result, args, [c.name for c in execution.monitor.checks] if execution.monitor else [])
        if dump is not None:
            payload["dot"] = {"files": dot_files["written"], "skipped": dot_files["skipped"], "bytes": dot_files["bytes"]}
        if args.trace:
            args.json_writer.finish(payload)
        else:
            write_json(payload)
    else:
        from .semantics.typecheck import show_fraction

        say(f"value: {show.to_text(result.value)}" if result.status == "final" else f"{result.status}: {result.reason}")
        say(f"type: {result.type}")
        say(f"parameters: {', '.join(show_fraction(p) for p in result.parameters) or '-'}")
        say(f"transitions: {result.transitions} (pass {result.passes}, rewrite {result.rewrites})")
        if result.gc is not None:
            fired = {r: n for r, n in result.gc.items() if n}
            say(f"garbage collected: {sum(fired.values())} ({', '.join(f'{r} {n}' for r, n in sorted(fired.items())) or 'none'})")
        if execution.monitor is not None and result.status != "violation":
            say(f"checks passed ({args.check_mode}): {', '.join(c.name for c in execution.monitor.checks)}")
        if dump is not None:
            skipped = f", {dot_files['skipped']} skipped (--max-dot-bytes {args.max_dot_bytes})" if dot_files["skipped"] else ""
            say(f"dot: {dot_files['written']} files in {args.dot}{skipped}")
        if args.rules:
            for rule_id, count in sorted(result.rules.items()):
                if count:
                    say(f"  {rule_id:<22} {count}")
    return exitcodes.FOR_STATUS[result.status]


def cmd_props(args, _source) -> int:
    """Run the property suite (the tests pytest runs) on generated programs, with coverage."""
    import contextlib

    from .properties import coverage, driver
    from .properties.profiles import UnknownProfile, register
    from .properties.progress import PROGRESS

    try:
        register()  # a malformed GOI_HYPOTHESIS_REDIS is the user's to fix: said before anything runs
    except UnknownProfile as exc:
        raise UsageError(str(exc)) from None
    names = args.names or list(driver.NAMES)
    unknown = driver.unknown_names(names)
    if unknown:
        raise UsageError(f"unknown properties {', '.join(unknown)}; known: {', '.join(driver.NAMES)}")
    if args.replay is not None and len(names) != 1:
        raise UsageError("--replay replays one property's failure: name exactly one PROPERTY")

    def show(r) -> None:
        if args.json:
            return
        say(f"{r.name:<14} {r.status:<11} {r.runs:>6} runs  {r.seconds:7.2f}s  {r.runs_per_second or 0:8.1f} runs/s")
        if r.finding:
            say("  " + r.finding.replace("\n", "\n  "))
        if r.replay:
            say(f"  replay: {r.replay}")

    coverage.reset()
    PROGRESS.quiet = args.json
    # Hypothesis and the properties may print; under --json only the one object goes to stdout.
    quiet = contextlib.redirect_stdout(sys.stderr) if args.json else contextlib.nullcontext()
    try:
        with quiet:
            results, interrupted = driver.run_suite(names, args.profile, args.examples, args.seed, args.replay, on_result=show)
    finally:
        PROGRESS.quiet = False
    summary = coverage.summary()
    if args.json:
        write_json({
            "schema": schema("props"),
            "status": "interrupted" if interrupted else "done",
            "profile": args.profile,
            "seed": args.seed,
            "examples": args.examples,
            "properties": {r.name: r.to_json() for r in results},
            "not_run": names[len(results):],
            "coverage": summary,
        })
    else:
        if interrupted:
            say(f"interrupted: {len(results) - 1} of {len(names)} properties finished; not run: {', '.join(names[len(results):]) or 'none'}")
        say(f"coverage: {summary['runs']} runs; never fired: {', '.join(summary['never_fired']) or 'none'}")
        for feature, data in summary["features"].items():
            say(f"  {feature:<20} {data['share'] * 100:5.1f}% of runs")
    if interrupted:
        return exitcodes.INTERRUPTED
    if any(r.status == "failed" for r in results):
        return exitcodes.STUCK
    if any(r.status == "budget" for r in results):
        return exitcodes.BUDGET
    return exitcodes.OK


# ---- the parser ---------------------------------------------------------------------------

MAX_INPUT_BYTES = 16 * 1024 * 1024


def _add_program_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", metavar="FILE", help="program file (- for standard input)")
    _add_input_limit(parser)
    parser.add_argument("-e", dest="expr", metavar="TEXT", help="program text given on the command line")
    parser.add_argument("--json", action="store_true", help="print one JSON object (UTF-8)")


def _add_input_limit(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-input-bytes", type=positive_int, default=MAX_INPUT_BYTES, metavar="N",
                        help=f"read at most N bytes of program (default {MAX_INPUT_BYTES}); more is a budget error")


def build_parser() -> ArgumentParser:
    from . import __version__
    from .properties.profiles import PROFILES
    from .semantics.checks import registry as check_registry
    from .semantics.machine import DEFAULT_MAX_NODES
    from .semantics.values import DEFAULT_MAX_DIGITS

    parser = ArgumentParser(
        prog="goi",
        description="Reference oracle for the abductive calculus (see docs/CLI.md).",
        epilog="exit codes: 0 ok/final/equivalent, 1 not equivalent, 2 usage error, 3 bad input, 4 stuck or invariant "
        "failure, 5 step budget, 6 undefined (division by zero, strict), 7 not comparable, 8 undecided, 70 internal error, "
        "130 interrupted",
    )
    parser.add_argument("--version", action="version", version=f"goi {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=ArgumentParser)
    p_parse = sub.add_parser("parse", help="parse a program and print it normalised")
    _add_program_arguments(p_parse)
    p_parse.set_defaults(run=cmd_parse)
    p_type = sub.add_parser("typecheck", help="type-check a program and print its judgement")
    _add_program_arguments(p_type)
    p_type.set_defaults(run=cmd_typecheck)
    p_run = sub.add_parser("run", help="run a program on the graph machine")
    _add_program_arguments(p_run)
    p_run.add_argument("--trace", action="store_true", help="one line per transition (in the JSON with --json)")
    p_run.add_argument("--max-steps", type=non_negative_int, default=1_000_000, metavar="N", help="step budget (default 1000000)")
    p_run.add_argument("--max-nodes", type=positive_int, default=DEFAULT_MAX_NODES, metavar="N",
                       help=f"graph budget: at most N nodes, an n-vector counting n (default {DEFAULT_MAX_NODES})")
    p_run.add_argument("--max-digits", type=positive_int, default=DEFAULT_MAX_DIGITS, metavar="N",
                       help=f"number budget: no number of more than N digits (default {DEFAULT_MAX_DIGITS})")
    p_run.add_argument("--dot", metavar="DIR", help="write Graphviz files: initial graph, around each decoupling, final")
    p_run.add_argument("--max-dot-bytes", type=positive_int, default=64 * 1024 * 1024, metavar="N",
                       help="--dot writes at most N bytes in all; later pictures are skipped and counted (default 64 MiB)")
    p_run.add_argument("--rules", action="store_true", help="also print how often each rule fired")
    p_run.add_argument("--params", type=rationals, metavar="V1,V2,...", help="values replacing the provisional constants, in order")
    p_run.add_argument("--strategy", choices=["first", "random"], default="first", help="order of ?-rewrites")
    p_run.add_argument("--seed", type=integer, default=0, help="seed of --strategy random")
    p_run.add_argument("--division", choices=["total", "strict"], default="total", help="x/0 = 0, or stop as undefined")
    p_run.add_argument("--check", type=check_names, metavar="LIST", help="invariants to check after every transition: "
                       f"{','.join(check_registry())} or all")
    p_run.add_argument("--check-mode", choices=["exhaustive", "sampled", "full"], default="exhaustive",
                       help="whole-graph checks after every rewrite, incrementally (exhaustive), on a sampling schedule "
                       "(sampled), or recomputed on the whole graph, the reference (full); docs/INVARIANTS.md")
    p_run.add_argument("--gc", action="store_true", help="collect garbage between transitions (docs/RULES.md)")
    p_run.set_defaults(run=cmd_run)
    p_props = sub.add_parser("props", help="check the paper's theorems on generated programs (Hypothesis)")
    p_props.add_argument("names", nargs="*", metavar="PROPERTY",
                         help="soundness invariants determinism gc agreement parameters contractions symbolic equivalence incremental (default: all)")
    p_props.add_argument("--profile", choices=PROFILES, default="dev", help="size of terms and thoroughness of checks (default dev)")
    p_props.add_argument("--examples", type=positive_int, metavar="N", help="examples per property (default: the profile's)")
    p_props.add_argument("--seed", type=integer, metavar="N", help="seed Hypothesis with N (the same examples for the same N)")
    p_props.add_argument("--replay", metavar="BLOB", help="replay one failure: the blob a failing run printed (one PROPERTY)")
    p_props.add_argument("--json", action="store_true", help="print one JSON object (UTF-8)")
    p_props.set_defaults(run=cmd_props, takes_program=False)
    cli_equiv.add_parsers(sub, _add_input_limit)
    cli_oracle.add_parser(sub)
    cli_report.add_parser(sub)
    cli_test.add_parser(sub)
    return parser


def _command_of(argv: list[str]) -> Optional[str]:
    for word in argv:
        if word in ("parse", "typecheck", "run", "props", "equiv", "conjectures", "oracle", "report", "test"):
            return word
    return None


def main(argv: Optional[list[str]] = None) -> int:
    """The `goi` command. It runs on a deep stack (semantics.stack): nesting in the tens of
    thousands works, and beyond it a `limit` error (exit 3), never a crash. Exact numbers are
    printed whatever their length."""
    from .semantics.digits import any_digits
    from .semantics.stack import with_deep_stack

    argv = list(sys.argv[1:] if argv is None else argv)
    if sys.stdout is None:  # started with its standard output closed (`goi run … >&-`)
        if sys.stderr is not None:
            sys.stderr.write("goi: io error: standard output is closed: nowhere to write the result\n")
        return exitcodes.BAD_INPUT

    def work() -> int:
        with any_digits():
            return _main(argv)

    return with_deep_stack(work)


def _main(argv: list[str]) -> int:
    wants_json = "--json" in argv
    command = _command_of(argv)
    args = None
    source, name = None, "goi"  # until a program is read, an error is the command's own ("goi: io error: …")
    try:
        try:
            args = build_parser().parse_args(argv)
        except UsageError as exc:
            if wants_json:
                write_json(error_payload(command, exc.to_json()))
            else:
                say(exc.usage.rstrip("\n"), sys.stderr)
                say(f"{exc.prog}: error: {exc.message}", sys.stderr)
            return exitcodes.USAGE
        if getattr(args, "expr", None) is not None and getattr(args, "file", None) is not None:
            raise UsageError("give either FILE or -e TEXT, not both")
        if getattr(args, "takes_program", True):
            source, name = read_program(args)
        return args.run(args, source)
    except cli_equiv.Sourced as exc:
        error, text = cli_equiv.sourced_error(exc)
        code = exitcodes.BUDGET if isinstance(exc.error, BudgetError) else exitcodes.BAD_INPUT
        report(args, command, error, text)
        return code
    except GoiError as exc:
        code = exitcodes.USAGE if isinstance(exc, UsageError) else exitcodes.BUDGET if isinstance(exc, BudgetError) else exitcodes.BAD_INPUT
        report(args, command, exc.to_json(), exc.render(source, name) if not isinstance(exc, UsageError) else f"goi: error: {exc.message}")
        return code
    except RecursionError:
        message = TOO_DEEP
        report(args, command, {"kind": "limit", "message": message, "line": None, "column": None}, f"goi: {message}")
        return exitcodes.BAD_INPUT
    except BrokenPipeError:
        # The reader went away (`goi run --trace | head`): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return exitcodes.BROKEN_PIPE
    except KeyboardInterrupt:
        from .semantics.stack import interrupt_taken

        interrupt_taken()
        report(args, command, {"kind": "interrupted", "message": "interrupted", "line": None, "column": None}, "goi: interrupted")
        return exitcodes.INTERRUPTED
    except Exception as exc:  # a bug in goi, not bad input: say so, keep the evidence
        report(args, command, {"kind": "internal", "message": repr(exc), "line": None, "column": None}, None)
        say("goi: internal error (a bug in goi; please report it with the input):", sys.stderr)
        traceback.print_exc()
        return exitcodes.INTERNAL


def report(args, command: Optional[str], error: dict, text: Optional[str]) -> None:
    """An error, as the one JSON object under --json (closing a streamed one), else as text."""
    if args is not None and getattr(args, "json", False):
        writer = getattr(args, "json_writer", None)
        if writer is not None and writer.open:
            writer.cut_short("interrupted" if error["kind"] == "interrupted" else "error", error)
        else:
            write_json(error_payload(command, error))
    elif text is not None:
        say(text, sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
