"""`goi oracle`: test another implementation against the machine (docs/ORACLE.md).

    goi oracle --impl 'CMD …' [--protocol oneshot|lines] [--notation paper|visualiser|FILE] [--fragment F,…]
               [--tolerance REL] [--timeout S] [--startup-timeout S] [--memory-mb N] [--ill-typed]
               [--profile P] [--seed N] [--max-programs N] [--jobs N] [--shrink-calls N]
               [--shrink-seconds S] [--exhaustive N | --shards K] [--cluster local|ADDRESS] [--checkpoint FILE] [--resume]
               [--out DIR] [--json] [--replay FILE | --replay-program TEXT]
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
from fractions import Fraction

from .. import exitcodes
from ..arguments import (MAX_INPUT_BYTES, add_campaign_arguments, campaign_options, campaign_warn,
                         non_negative_int, positive_int, positive_seconds)
from ..io import read_file, read_text, say, schema, writable_directory, write_json
from . import command

from ..errors import UsageError

BUDGETS = {"ci": (60, 4), "default": (300, 5), "dev": (1500, 5), "deep": (5000, 6)}  # programs, term depth


def fragments(text: str) -> frozenset:
    from ...oracle.fragment import FRAGMENTS

    names = frozenset(f.strip() for f in text.split(",") if f.strip())
    unknown = sorted(names - set(FRAGMENTS))
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown fragment(s) {', '.join(unknown) or '(none)'}; known: {', '.join(FRAGMENTS)}")
    return names


def notation_spec(text: str) -> str:
    """`--notation NAME|FILE`: a built-in notation, or a notation file (TOML, docs/ORACLE.md,
    Notation files), loaded and checked now so that a mistake in it is a usage error."""
    from ...oracle.notations import NotationError, notation

    try:
        notation(text)
    except NotationError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def printer(text: str):
    """`--printer module:function` or `--printer path/to/file.py:function`: a Python function
    from our surface term to program text (a module from the current directory or the path,
    or a file by its path), run in a process of its own (oracle/printing.py). Its spec, with a
    file's path made absolute, is what a replay command gives again. Only the form is checked
    here: the module is imported in its process when the command starts it."""
    module_name, sep, function = text.rpartition(":")
    if not sep or not module_name or not function:
        raise argparse.ArgumentTypeError(f"{text!r} is not module:function or file.py:function "
                                         "(for example myprinter:show)")
    if module_name.endswith(".py") or os.sep in module_name:
        path = os.path.abspath(module_name)
        if not os.path.isfile(path):
            raise argparse.ArgumentTypeError(f"{module_name}: no such file")
        text = f"{path}:{function}"
    return Printer(text)


class Printer:
    """The user's printer, called so that whatever it does is said in one line: it raises
    (anything but Inexpressible), it returns something else than text, or it does not answer
    within `timeout` seconds — a usage error (exit 2). Its code runs in a process of its own,
    which goi kills at the timeout or at Ctrl-C (oracle/printing.py)."""

    def __init__(self, spec: str, timeout: float = 5.0):
        from ...oracle.printing import PrinterProcess

        self.spec = spec
        self.process = PrinterProcess(spec, timeout)

    @property
    def timeout(self) -> float:
        return self.process.timeout

    @timeout.setter
    def timeout(self, seconds: float) -> None:
        self.process.timeout = seconds

    def start(self) -> None:
        from ...oracle.printing import PrinterError

        try:
            self.process.start()
        except PrinterError as exc:
            raise UsageError(f"--printer {self.spec}: {exc}") from None

    def __call__(self, term):
        from ...oracle.printing import PrinterError

        try:
            return self.process(term)
        except PrinterError as exc:
            raise UsageError(f"--printer {self.spec}: {exc}") from None

    def close(self) -> None:
        self.process.close()


def arithmetic_spec(text: str):
    """`--arithmetic NAME[,KEY=VALUE…]`: a declared arithmetic (oracle/arithmetic.py), checked now."""
    from ...oracle.arithmetic import ArithmeticError_, declared

    try:
        return declared(text)
    except ArithmeticError_ as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


TOLERANCE = re.compile(r"\s*\+?(?:[0-9]{1,40}(?:\.[0-9]{0,40})?|\.[0-9]{1,40})(?:[eE][-+]?[0-9]{1,4})?\s*")


def tolerance(text: str) -> Fraction:
    """--tolerance REL: a relative tolerance from 0 to 1, read as written (1e-9, 0.000001) — its
    form checked before any number is built (`1e999999999` would be a billion digits)."""
    if not TOLERANCE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a relative tolerance (write 1e-9 or 0.000001: "
                                         "at most 40 digits, an exponent of at most 4)")
    mantissa, _, exponent = text.strip().lower().partition("e")
    if exponent and int(exponent) > 40:
        raise argparse.ArgumentTypeError(f"{text!r}: a relative tolerance is at most 1")
    value = Fraction(text.strip())
    if value > 1:
        raise argparse.ArgumentTypeError(f"{text!r}: a relative tolerance is at most 1")
    return value


def run(args, _source, out) -> int:
    try:
        return _run(args)
    finally:
        if getattr(args, "printer", None) is not None:
            args.printer.close()  # its process goes with the command, however the command ends


def _config(args, command: list, reading):
    """The run's OracleConfig from the options (the arithmetic's options checked together)."""
    from ...campaigns.kinds import Options
    from ...oracle.known import Known, read_known
    from ...oracle.survey import OracleConfig

    known = read_known(args.known) if args.known else Known()
    _check_arithmetic(args)
    programs, depth = BUDGETS[args.profile]
    chosen = frozenset().union(*(args.fragment or [frozenset()]))
    bounds = Options.bounded(args.max_campaign)  # --max-campaign read as every campaign reads it
    return OracleConfig(
        command=command, notation=args.notation, fragments=chosen, tolerance=args.tolerance, timeout=args.timeout,
        memory_mb=args.memory_mb, division=args.division, ill_typed=args.ill_typed,
        max_programs=args.max_programs or programs, max_depth=depth, seed=args.seed, jobs=args.jobs,
        protocol=args.protocol, startup_timeout=args.startup_timeout,
        shrink_calls=args.shrink_calls, shrink_seconds=args.shrink_seconds, corpus=not args.no_corpus,
        parenthesize=args.parenthesize, printer=args.printer, exhaustive=args.exhaustive, cluster=args.cluster,
        shards=args.shards if args.shards is not None or args.cluster is None or args.exhaustive is not None else 8,
        checkpoint=args.checkpoint, resume=args.resume, max_campaign=bounds.limit,
        max_estimate=bounds.estimate_limit,
        cluster_wait=args.cluster_wait, known=known, arithmetic=args.arithmetic.spec, ulps=args.ulps,
        integer_division=args.integer_division, max_nodes=args.max_nodes, reading=reading,
        database=None if args.no_database else os.path.join(".hypothesis", "oracle"),
    )


def _check_arithmetic(args) -> None:
    """What the arithmetic options need of each other."""
    arithmetic = args.arithmetic.name
    if arithmetic != "exact" and args.tolerance is not None:
        raise UsageError("--tolerance is the exact arithmetic's; with --arithmetic ieee754 say --ulps N")
    if arithmetic == "ieee754" and args.division != "total":
        raise UsageError("--arithmetic ieee754 divides as IEEE-754 does (x/0 is ±Infinity, 0/0 NaN) or as its "
                         "by-zero setting says (ieee754,by-zero=error): not with --division")
    if args.division != "total" and "by-zero" in dict(args.arithmetic.settings):
        raise UsageError("--division and the arithmetic's by-zero setting say the same thing: say it once")
    if args.ulps and arithmetic != "ieee754":
        raise UsageError("--ulps is for --arithmetic ieee754")
    if args.integer_division != "trunc" and (arithmetic != "integer" or "rounding" in dict(args.arithmetic.settings)):
        raise UsageError("--integer-division is for --arithmetic integer (whose rounding setting says it too: say it once)")


def _check_campaign(args) -> None:
    """What the campaign options need of the run and of each other."""
    if args.exhaustive is not None and args.shards is not None:
        raise UsageError("--exhaustive lists every program: not with --shards")
    campaigning = args.exhaustive is not None or args.shards is not None or bool(args.cluster)
    if campaigning and args.printer is not None:
        raise UsageError("a campaign prints with goi's notations: not with --printer")
    campaign_options(args, campaigning, "--exhaustive, --shards or --cluster")


def _run(args) -> int:
    from ...oracle.output import report_json, summary_lines, write_out
    from ...oracle.protocols import split_command, unstartable
    from ...oracle.survey import Oracle
    from ...progress import PROGRESS, quiet
    from ..heap import loaded

    reading = apply_target(args)
    if args.impl is None:
        raise UsageError("say which implementation: --impl 'CMD …', or --target FILE.toml (docs/ORACLE.md)")
    try:
        command = split_command(args.impl)
    except ValueError as exc:
        raise UsageError(f"--impl: {exc}") from None
    if args.protocol == "lines" and any("{file}" in word for word in command):
        raise UsageError("--protocol lines sends programs on standard input: the command may not name {file}")
    config = _config(args, command, reading)
    why = unstartable(command)
    if why is not None:  # said now, not after the whole corpus has crashed one program at a time
        raise UsageError(f"--impl: {why}")
    if args.printer is not None:
        args.printer.timeout = args.timeout
        args.printer.start()  # its module imported now: an error in it is said before any program
    if args.replay is not None or args.replay_program is not None:
        return replay(args, config)
    if args.out:
        writable_directory("--out", args.out)  # before the run, not after it
    _check_campaign(args)

    def progress(stage: str, done: int, total: int) -> None:
        PROGRESS.tick(f"oracle {stage}", total)

    from ...oracle.notations import NotationError

    implied = config.notation_fragments - config.fragments
    if not args.json:
        say(f"oracle: {' '.join(command)} ("
            + (f"printer {args.printer.spec}" if args.printer is not None else f"{args.notation} notation")
            + (f", fragment {','.join(sorted(config.all_fragments - implied))}" if config.all_fragments - implied else "")
            + (f"; the notation implies {','.join(sorted(implied))}" if implied else "") + ")", sys.stderr)
    oracle = Oracle(config, progress, campaign_warn)
    try:
        with quiet(args.json), loaded():
            report = oracle.run()
    except NotationError as exc:  # a declaration that prints what it does not read back
        raise UsageError(str(exc)) from None
    except (ValueError, RuntimeError) as exc:
        if config.exhaustive is None and config.shards is None:
            raise
        raise UsageError(str(exc)) from None

    def replay_for(stem: str, text: str) -> str:
        if args.printer is not None and text in oracle.terms:  # the user's printer: replayed from the paper's notation, printed again
            from ...semantics.pretty import pretty

            return replay_command(args, stem, pretty(oracle.terms[text]), from_file=False)
        return replay_command(args, stem, text)

    payload = report_json(report, replay_for)
    payload["schema"] = schema("oracle")
    if args.out:
        write_out(args.out, report)
    if args.json:
        write_json(payload)
    else:
        for line in summary_lines(report, replay_for):
            say(line)
    if report.new_failures:
        return exitcodes.NOT_EQUIVALENT
    return exitcodes.SHORT if report.short_of_target or report.programs + report.corpus_run == 0 else exitcodes.OK


def apply_target(args):
    """`--target FILE.toml` (oracle/target.py): the options the file sets, where the command line
    did not set them itself (the command line wins); the answer's reading, or None. Which
    options came from the file is kept (`args.from_target`), so that a replay command gives
    the file again rather than its contents."""
    args.from_target = set()
    if args.target is None:
        return None
    from ...oracle.known import read_known
    from ...oracle.notations import NotationError, notation
    from ...oracle.target import TargetError, read_target
    from ...semantics.errors import GoiError

    try:
        target = read_target(args.target)
    except TargetError as exc:
        raise UsageError(f"--target {exc}") from None
    defaults = build_defaults()
    names = {"command": "impl", "fragment": "fragment"}
    for key, value in target.options.items():
        dest = names.get(key, key)
        if key == "fragment":
            args.fragment = (args.fragment or []) + [value]
        elif key == "known":
            args.known = (args.known or []) + value
        elif key == "arithmetic":
            if args.arithmetic.spec == "exact":
                args.arithmetic = arithmetic_spec(value)
        elif getattr(args, dest) == defaults.get(dest):
            setattr(args, dest, value)
        else:
            continue
        args.from_target.add(dest)
    if "notation" in target.options and "notation" in args.from_target:
        try:
            notation(args.notation)
        except NotationError as exc:
            raise UsageError(f"--target {exc}") from None
    if target.reading is not None and args.protocol != "oneshot":
        raise UsageError(f"--target {args.target}: its [answer] reads a plain command: not with --protocol lines")
    if "known" in args.from_target:
        try:
            read_known(args.known)
        except GoiError as exc:
            raise UsageError(f"--target {args.target}: known: {exc.message}") from None
    return target.reading


def build_defaults() -> dict:
    """Every option's default, as the parser has it."""
    parser = argparse.ArgumentParser(add_help=False)
    add_arguments(parser)
    return {action.dest: action.default for action in parser._actions}


def replay(args, config) -> int:
    """`--replay FILE` / `--replay-program TEXT`: the implementation on that one program, classified
    as the run that found it did (exit 1 if it still fails, 0 if it now agrees)."""
    from ...oracle.output import answer_text, expected_text
    from ...oracle.survey import AGREE, Oracle

    text = (read_text(args.replay_program, MAX_INPUT_BYTES) if args.replay_program is not None
            else read_file(args.replay, MAX_INPUT_BYTES)[0]).strip()
    oracle = Oracle(config)
    if config.printer is not None:  # the program in the paper's notation: the printer writes what is sent
        from ... import api

        printed = oracle.text_of(api.check(text).surface)
        if printed is None:
            raise UsageError("--printer cannot write this program")
        text = printed
    try:
        case = oracle.classify(text)
    finally:
        oracle.close()
    assert case is not None
    from ...oracle.classification import BEYOND

    if case.klass == BEYOND:
        raise UsageError(f"goi's own machine cannot finish this program within --max-nodes {config.max_nodes} "
                         f"(and {config.max_steps} transitions): nothing to compare with; raise --max-nodes")
    if args.json:
        write_json({"schema": "goi.oracle-case/1", **case.to_json()})
    else:
        say(f"{case.klass}: {case.text}")
        say(f"  expected: {expected_text(case)}")
        say(f"  got:      {answer_text(case.answer)}")
    return exitcodes.OK if case.klass == AGREE else exitcodes.NOT_EQUIVALENT


def replay_command(args, stem: str, text: str, from_file: bool = True) -> str:
    """The one-line command that replays a shrunk failure: its program file under --out, else its text
    (with --printer, always the text in the paper's notation, which the printer prints again)."""
    given = set() if args.target is None else args.from_target
    words = ["goi", "oracle"] + (["--target", args.target] if args.target is not None else [])
    if "impl" not in given:
        words += ["--impl", args.impl]
    if args.protocol != "oneshot" and "protocol" not in given:
        words += ["--protocol", args.protocol]
    if args.notation != "paper" and "notation" not in given:
        words += ["--notation", args.notation]
    if args.parenthesize != "minimal":
        words += ["--parenthesize", args.parenthesize]
    if args.printer is not None:
        words += ["--printer", args.printer.spec]
    if args.tolerance is not None and "tolerance" not in given:
        from ...oracle.output import decimal_text

        words += ["--tolerance", decimal_text(args.tolerance)]
    if args.division != "total" and "division" not in given:
        words += ["--division", args.division]
    if args.arithmetic.spec != "exact" and "arithmetic" not in given:
        words += ["--arithmetic", args.arithmetic.spec]
    if args.ulps and "ulps" not in given:
        words += ["--ulps", str(args.ulps)]
    if args.integer_division != "trunc" and "integer_division" not in given:
        words += ["--integer-division", args.integer_division]
    if args.ill_typed and "ill_typed" not in given:
        words.append("--ill-typed")
    if "timeout" not in given:
        words += ["--timeout", f"{args.timeout:g}"]
    if args.memory_mb is not None and "memory_mb" not in given:
        words += ["--memory-mb", str(args.memory_mb)]
    from ...semantics.machine import DEFAULT_MAX_NODES

    if args.max_nodes != DEFAULT_MAX_NODES and "max_nodes" not in given:
        words += ["--max-nodes", str(args.max_nodes)]
    words += ["--replay", os.path.join(args.out, stem + ".goi")] if args.out and from_file else ["--replay-program", text]
    return " ".join(shlex.quote(w) for w in words)


def add_arguments(p) -> None:
    from ...oracle.arithmetic import ARITHMETICS, SETTINGS
    from ...semantics.machine import DEFAULT_MAX_NODES

    from ...oracle.fragment import FRAGMENTS

    p.add_argument("--impl", metavar="'CMD …'",
                   help="the implementation's command; the program goes to its standard input, or to a file named where {file} appears")
    p.add_argument("--target", metavar="FILE.toml",
                   help="the implementation declared in one file: its command, protocol, notation, fragment, arithmetic, "
                        "timeouts, known bugs, and how a plain command answers (docs/ORACLE.md, Your first oracle run); "
                        "options given on the command line win")
    p.add_argument("--notation", type=notation_spec, default="paper", metavar="NAME|FILE",
                   help="how programs are printed for it: paper (default), visualiser, or a notation file "
                        "(TOML; docs/ORACLE.md, Notation files)")
    p.add_argument("--parenthesize", choices=["minimal", "all"], default="minimal",
                   help="all: every non-atomic operand, argument and body in parentheses (default minimal)")
    p.add_argument("--printer", type=printer, metavar="MODULE:FUNCTION",
                   help="your own printer: a Python function from goi's surface term to program text (docs/ORACLE.md)")
    p.add_argument("--fragment", type=fragments, action="append", metavar="F,…",
                   help="what it lacks: " + ", ".join(FRAGMENTS))
    p.add_argument("--tolerance", type=tolerance, metavar="REL",
                   help="relative tolerance for a floating-point implementation (default: exact)")
    p.add_argument("--arithmetic", type=arithmetic_spec, default=arithmetic_spec("exact"), metavar="NAME[,KEY=VALUE…]",
                   help="what it computes with: " + "; ".join(f"{a.name}: {a.description}" for a in ARITHMETICS.values())
                   + "; with settings: " + "; ".join(f"{name} " + ", ".join(
                       f"{k}={'|'.join(v) if v else 'N'}" for k, v in keys.items()) for name, keys in SETTINGS.items())
                   + " (default exact; docs/ORACLE.md, Arithmetic)")
    p.add_argument("--ulps", type=non_negative_int, default=0, metavar="N",
                   help="with --arithmetic ieee754: an answer within N doubles of goi's agrees (default 0: exactly)")
    p.add_argument("--integer-division", choices=["trunc", "floor"], default="trunc",
                   help="with --arithmetic integer: division rounds toward zero (C, OCaml) or down (Python's //)")
    p.add_argument("--timeout", type=positive_seconds, default=5.0, metavar="S", help="seconds per program (default 5)")
    p.add_argument("--memory-mb", type=positive_int, metavar="N", help="address-space limit of the implementation")
    p.add_argument("--max-nodes", type=positive_int, default=DEFAULT_MAX_NODES, metavar="N",
                   help=f"goi's own graph budget per program (default {DEFAULT_MAX_NODES}): a program goi's machine "
                        "cannot finish within it is skipped and counted, never sent")
    p.add_argument("--division", choices=["total", "strict"], default="total",
                   help="x/0 = 0, or undefined (then the implementation must report an error)")
    p.add_argument("--ill-typed", action="store_true", help="also send ill-typed programs: accepting one is a failure")
    p.add_argument("--profile", choices=list(BUDGETS), default="default",
                   help="programs and their depth: " + ", ".join(f"{k} {n} at {d}" for k, (n, d) in BUDGETS.items())
                   + " (default: default)")
    p.add_argument("--seed", type=int, default=0, metavar="N", help="the generation's seed (default 0)")
    p.add_argument("--max-programs", type=positive_int, metavar="N", help="generated programs (default: the profile's)")
    p.add_argument("--jobs", type=positive_int, default=1, metavar="N", help="implementation calls in parallel (default 1)")
    p.add_argument("--protocol", choices=["oneshot", "lines"], default="oneshot",
                   help="one process per program (default), or one persistent process per job answering JSON lines")
    p.add_argument("--startup-timeout", type=positive_seconds, default=30.0, metavar="S",
                   help="lines: seconds for a (re)started implementation to answer its warm-up program 0 (default 30)")
    p.add_argument("--shrink-calls", type=positive_int, default=2000, metavar="N",
                   help="implementation calls to shrink each bucket of failures (default 2000)")
    p.add_argument("--shrink-seconds", type=positive_seconds, default=None, metavar="S",
                   help="also bound each bucket's shrinking in seconds (default: no bound)")
    p.add_argument("--exhaustive", type=positive_int, metavar="N",
                   help="every program of size ≤ N (in size order) instead of a random survey (docs/CAMPAIGNS.md)")
    p.add_argument("--shards", type=positive_int, metavar="K",
                   help="divide the survey into K shards, a seed each (default 8 with --cluster); each bucket reduced once")
    add_campaign_arguments(p, "index ranges of programs with --exhaustive, else seeds")
    p.add_argument("--known", metavar="FILE", action="append",
                   help="buckets set aside: counted and reported as known, never shrunk — a goi oracle --json or "
                        "--out of an earlier run, or a file of signatures or programs, a line each (docs/ORACLE.md)")
    p.add_argument("--no-corpus", action="store_true", help="skip the example programs of tests/programs")
    p.add_argument("--no-database", action="store_true", help="keep no failures in .hypothesis/oracle")
    p.add_argument("--out", metavar="DIR", help="write each bucket's shrunk failure as DIR/CLASS.goi and DIR/CLASS.json "
                   "(CLASS-2.goi, … for a class's further buckets)")
    p.add_argument("--json", action="store_true", help="print one JSON object (UTF-8)")
    again = p.add_mutually_exclusive_group()
    again.add_argument("--replay", metavar="FILE", help="run the implementation on this one program and classify it")
    again.add_argument("--replay-program", metavar="TEXT", help="the same for a program given as text")


COMMAND = command("oracle", order=70, help="test another implementation against the machine (docs/ORACLE.md)",
                  add_arguments=add_arguments, run=run)
