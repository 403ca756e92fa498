"""`goi oracle`: test another implementation against the machine (docs/ORACLE.md).

    goi oracle --impl 'CMD …' [--protocol oneshot|lines] [--notation paper|visualiser] [--fragment F,…]
               [--tolerance REL] [--timeout S] [--startup-timeout S] [--memory-mb N] [--ill-typed]
               [--profile P] [--seed N] [--max-programs N] [--jobs N] [--shrink-calls N]
               [--shrink-seconds S] [--exhaustive N | --shards K] [--cluster local|ADDRESS] [--checkpoint FILE] [--resume]
               [--out DIR] [--json] [--replay FILE | --replay-program TEXT]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from collections import Counter
from fractions import Fraction

from .. import exitcodes
from ..arguments import MAX_INPUT_BYTES, add_campaign_arguments, positive_int, positive_seconds
from ..io import read_file, read_text, say, schema, writable_directory, write_json
from . import command
from ...semantics.show import to_text as _show
from ...semantics.errors import ReadError
from ..errors import UsageError

BUDGETS = {"ci": (60, 4), "default": (300, 5), "dev": (1500, 5), "deep": (5000, 6)}  # programs, term depth


def fragments(text: str) -> frozenset:
    from ...properties.oracle import FRAGMENTS

    names = frozenset(f.strip() for f in text.split(",") if f.strip())
    unknown = sorted(names - set(FRAGMENTS))
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown fragment(s) {', '.join(unknown) or '(none)'}; known: {', '.join(FRAGMENTS)}")
    return names


def printer(text: str):
    """`--printer module:function`: a Python function from our surface term to program text
    (the module is imported from the current directory or the path)."""
    import importlib

    module_name, sep, function = text.partition(":")
    if not sep or not module_name or not function:
        raise argparse.ArgumentTypeError(f"{text!r} is not module:function (for example myprinter:show)")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # the user's module: any error in it is theirs, reported as usage
        raise argparse.ArgumentTypeError(f"cannot import {module_name}: {type(exc).__name__}: {exc}") from None
    found = getattr(module, function, None)
    if not callable(found):
        raise argparse.ArgumentTypeError(f"{module_name} has no function {function}")
    found.spec = text  # type: ignore[attr-defined]
    return found


def tolerance(text: str) -> Fraction:
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number (write 1e-9 or 0.000001)") from None
    if value < 0:
        raise argparse.ArgumentTypeError("a tolerance is not negative")
    return value


def run(args, _source, out) -> int:
    from ...properties.external import split_command
    from ...properties.oracle import Oracle, OracleConfig
    from ...properties.progress import PROGRESS, quiet

    try:
        command = split_command(args.impl)
    except ValueError as exc:
        raise UsageError(f"--impl: {exc}") from None
    if args.protocol == "lines" and any("{file}" in word for word in command):
        raise UsageError("--protocol lines sends programs on standard input: the command may not name {file}")
    programs, depth = BUDGETS[args.profile]
    chosen = frozenset().union(*(args.fragment or [frozenset()]))
    config = OracleConfig(
        command=command, notation=args.notation, fragments=chosen, tolerance=args.tolerance, timeout=args.timeout,
        memory_mb=args.memory_mb, division=args.division, ill_typed=args.ill_typed,
        max_programs=args.max_programs or programs, max_depth=depth, seed=args.seed, jobs=args.jobs,
        protocol=args.protocol, startup_timeout=args.startup_timeout,
        shrink_calls=args.shrink_calls, shrink_seconds=args.shrink_seconds, corpus=not args.no_corpus,
        parenthesize=args.parenthesize, printer=args.printer, exhaustive=args.exhaustive, cluster=args.cluster,
        shards=args.shards if args.shards is not None or args.cluster is None or args.exhaustive is not None else 8,
        checkpoint=args.checkpoint, resume=args.resume,
        database=None if args.no_database else os.path.join(".hypothesis", "oracle"),
    )
    if args.replay is not None or args.replay_program is not None:
        return replay(args, config)
    if args.out:
        writable_directory("--out", args.out)  # before the run, not after it
    if args.exhaustive is None and args.shards is None and (args.checkpoint or args.resume):
        raise UsageError("--checkpoint and --resume are for campaigns (--exhaustive, --shards or --cluster)")
    if args.exhaustive is not None and args.shards is not None:
        raise UsageError("--exhaustive lists every program: not with --shards")
    if (args.exhaustive is not None or args.shards is not None or args.cluster) and args.printer is not None:
        raise UsageError("a campaign prints with goi's notations: not with --printer")
    if args.resume and args.checkpoint is None:
        raise UsageError("--resume needs --checkpoint FILE")

    def progress(stage: str, done: int, total: int) -> None:
        PROGRESS.tick(f"oracle {stage}", total)

    if not args.json:
        say(f"oracle: {' '.join(command)} ({args.notation} notation"
            + (f", fragment {','.join(sorted(config.all_fragments))}" if config.all_fragments else "") + ")", sys.stderr)
    oracle = Oracle(config, progress)
    try:
        with quiet(args.json):
            report = oracle.run()
    except (ValueError, RuntimeError) as exc:
        if config.exhaustive is None and config.shards is None:
            raise
        raise UsageError(str(exc)) from None

    def replay_for(stem: str, text: str) -> str:
        if text in oracle.terms:  # the user's printer: replayed from the paper's notation, printed again
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
    return exitcodes.NOT_EQUIVALENT if report.failures else exitcodes.OK


def replay(args, config) -> int:
    """`--replay FILE` / `--replay-program TEXT`: the implementation on that one program, classified
    as the run that found it did (exit 1 if it still fails, 0 if it now agrees)."""
    from ...properties.oracle import AGREE, Oracle

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
    if args.json:
        write_json({"schema": "goi.oracle-case/1", **case.to_json()})
    else:
        say(f"{case.klass}: {case.text}")
        say(f"  expected: {_expected(case)}")
        say(f"  got:      {_answer(case.answer)}")
    return exitcodes.OK if case.klass == AGREE else exitcodes.NOT_EQUIVALENT


def replay_command(args, stem: str, text: str, from_file: bool = True) -> str:
    """The one-line command that replays a shrunk failure: its program file under --out, else its text
    (with --printer, always the text in the paper's notation, which the printer prints again)."""
    words = ["goi", "oracle", "--impl", args.impl]
    if args.protocol != "oneshot":
        words += ["--protocol", args.protocol]
    if args.notation != "paper":
        words += ["--notation", args.notation]
    if args.parenthesize != "minimal":
        words += ["--parenthesize", args.parenthesize]
    if args.printer is not None:
        words += ["--printer", args.printer.spec]
    if args.tolerance is not None:
        words += ["--tolerance", str(args.tolerance)]
    if args.division != "total":
        words += ["--division", args.division]
    if args.ill_typed:
        words.append("--ill-typed")
    words += ["--timeout", f"{args.timeout:g}"]
    if args.memory_mb is not None:
        words += ["--memory-mb", str(args.memory_mb)]
    words += ["--replay", os.path.join(args.out, stem + ".goi")] if args.out and from_file else ["--replay-program", text]
    return " ".join(shlex.quote(w) for w in words)


def stems(report) -> dict:
    """Each bucket's file stem under --out: its class, numbered from the class's second bucket
    on (implementation-error, implementation-error-2, …), in the report's order."""
    out, per_class = {}, Counter()
    for sig, s in report.shrunk.items():
        klass = s.case.klass
        per_class[klass] += 1
        out[sig] = klass if per_class[klass] == 1 else f"{klass}-{per_class[klass]}"
    return out


def report_json(report, replay_for=None) -> dict:
    c = report.config
    names = stems(report)
    return {
        "implementation": c.command,
        "notation": c.notation,
        "parenthesize": c.parenthesize,
        "printer": getattr(c.printer, "spec", None) if c.printer is not None else None,
        "fragments": sorted(c.all_fragments),
        "tolerance": None if c.tolerance is None else str(c.tolerance),
        "division": c.division,
        "ill_typed": c.ill_typed,
        "seed": c.seed,
        "search": sorted(c.search),
        "programs": report.programs,
        "skipped": report.skipped,
        "duplicates": report.duplicates,
        "counts": report.counts,
        "corpus": {"run": report.corpus_run, "skipped": report.corpus_skipped,
                   "failures": [case.to_json() for case in report.corpus]},
        "buckets": [{**s.to_json(), "file": names[sig], "replay": replay_for(names[sig], s.case.text) if replay_for else ""}
                    for sig, s in report.shrunk.items()],
        "messages": {k: [{"message": m, "count": n} for m, n in top] for k, top in messages(report).items()},
        "protocol": c.protocol,
        "seconds": round(report.seconds, 3),
        "survey_seconds": round(report.survey_seconds, 3),
        "exhaustive": report.exhaustive,
        "shards": c.shards,
    }


MESSAGES_SHOWN = 3


def messages(report) -> dict:
    """Per failure class of the survey, its most frequent implementation messages (first line,
    numbers folded to N, so that one cause counts once) with their counts."""
    import re

    from ...properties.oracle import FAILURES

    counts: dict = {}
    for case in report.cases:
        if case.klass in FAILURES and case.answer is not None and case.answer.message:
            first = case.answer.message.strip().splitlines()[0][:160]
            counts.setdefault(case.klass, Counter())[re.sub(r"\d+", "N", first)] += 1
    return {k: c.most_common(MESSAGES_SHOWN) for k, c in counts.items()}


def notation_hints(report) -> list[str]:
    """The hint that the notation may be wrong, for each bucket that looks like the
    implementation's parser rejecting our text (a rejection, or an error speaking of parsing)
    and fills a quarter of the survey — never for the implementation's own errors."""
    from ...properties.signatures import looks_like_parser

    lines = []
    for sig, s in report.shrunk.items():
        if looks_like_parser(sig) and s.count >= 0.25 * max(1, report.programs):
            lines.append(f"  {s.count} of {report.programs} programs fail as '{sig}': if it is the implementation's "
                         "parser, the notation is not what it reads (--notation, docs/ORACLE.md, Notations)")
    return lines


def summary_lines(report, replay_for=None) -> list[str]:
    from ...properties.oracle import CLASSES, PRINTER_WARNING

    if report.exhaustive is not None:
        e = report.exhaustive
        first = (f"all {e['of']:,} programs of size ≤ {e['bound']} ({e['programs']:,} sent, {report.skipped} not "
                 f"expressible in the notation; docs/CAMPAIGNS.md)" if e["programs"] + report.skipped == e["of"] else
                 f"{e['programs']:,} of the {e['of']:,} programs of size ≤ {e['bound']}")
    else:
        first = (f"{report.programs} generated programs ({report.skipped} more drawn but not expressible in the notation, "
                 f"{report.duplicates} repeats not sent again)")
        if report.config.shards is not None:
            first += f" in {report.config.shards} shards (seeds {report.config.seed}–{report.config.seed + report.config.shards - 1})"
    lines = [first + f", {report.corpus_run} corpus programs ({report.corpus_skipped} not expressible or outside the "
             f"fragment), {report.seconds:.1f} s"]
    lines.append("  " + ", ".join(f"{k} {report.counts[k]}" for k in CLASSES))
    if report.config.printer is not None and report.skipped_share > PRINTER_WARNING:
        lines.append(f"  warning: the printer could not write {report.skipped_share:.0%} of the programs drawn: what it "
                     "refuses is never tested (raise Inexpressible only for what the implementation cannot read)")
    lines += notation_hints(report)
    for case in report.corpus:
        lines.append(f"corpus {case.origin}: {case.klass}: expected {_expected(case)}, got {_answer(case.answer)}")
    if report.shrunk:
        lines.append(f"{len(report.shrunk)} distinct failure{'s' if len(report.shrunk) > 1 else ''} (buckets by "
                     + ("signature, each with its smallest program):" if report.exhaustive is not None else
                        "signature, each shrunk on its own):"))
    names = stems(report)
    for n, (sig, s) in enumerate(report.shrunk.items(), 1):
        case = s.case
        where = (f"{s.count} of the survey, the first after {s.found_after} programs and {s.find_seconds:.1f} s"
                 if s.found_after >= 0 else "kept in the example database from an earlier run")
        if report.exhaustive is not None:
            where = f"{s.count} of the programs; the smallest is the first in size order: {case.origin}"
            how = "not shrunk: none smaller fails so"
        elif report.config.shards is not None:
            where = f"{s.count} of the shards' programs, the first from {s.first.origin if s.first else '?'}"
            how = (f"reduced once in {s.shrink_seconds:.1f} s with {s.calls} calls; "
                   + ("1-minimal" if s.complete else "shrink budget reached: not known to be minimal"))
        elif sig != s.signature:
            where = (f"another member of bucket {sig.rpartition(' #')[0]!r} ({s.count} programs), the "
                     f"{s.found_after + 1}th of the survey, reduced on its own: perhaps another bug")
            how = ("1-minimal" if s.complete else "shrink budget reached: not known to be minimal")
        elif not s.shrunk:
            how = "not shrunk: more buckets than the run shrinks"
        else:
            how = (f"shrunk in {s.shrink_seconds:.1f} s with {s.calls} calls; "
                   + ("1-minimal" if s.complete else "shrink budget reached: not known to be minimal"))
        lines += [
            f"[{n}] {sig.upper() if ': ' not in sig else sig.partition(': ')[0].upper() + ': ' + sig.partition(': ')[2]}",
            f"  ({where}; {how})",
            f"  program:  {case.text}",
            f"  expected: {_expected(case)}",
            f"  got:      {_answer(case.answer)}",
        ]
        if replay_for is not None:
            lines.append(f"  replay:   {replay_for(names[sig], case.text)}")
    if not report.failures:
        lines.append("no disagreement found")
    return lines


def _expected(case) -> str:
    """Our outcome: a value with the transitions that gave it, or the rejection of an ill-typed program."""
    if isinstance(case.expected, str) and case.expected.startswith("ill-typed"):
        return f"a rejection ({case.expected})"
    top = sorted(((n, r) for r, n in case.rules.items() if n), reverse=True)[:5]
    return (f"{_show(case.expected)} ({case.transitions} transitions: " + ", ".join(f"{r} {n}" for n, r in top) + ")")


def _answer(answer) -> str:
    from ...properties.signatures import exception_line

    if answer is None:
        return "-"
    if answer.kind == "value":
        return _show(answer.value)
    named = exception_line(answer.stderr or "") if answer.kind == "crash" else None
    if named and named not in answer.message:
        return f"{answer.kind}: {answer.message} ({named})"
    return f"{answer.kind}: {answer.message}" if answer.message else answer.kind


def write_out(directory: str, report) -> None:
    """Each bucket's shrunk failure (and each corpus failure) as a standalone program and its
    expectation, in `directory` (made and tried by cmd_oracle before the run): CLASS.goi for a
    class's first bucket, CLASS-2.goi for its second, and so on (stems)."""
    names = stems(report)
    items = [(names[sig], s.case, {"signature": sig, "count": s.count}) for sig, s in report.shrunk.items()]
    items += [(f"corpus-{case.origin.replace('/', '-').removesuffix('.goi')}", case, {}) for case in report.corpus]
    for stem, case, extra in items:
        meta = {**case.to_json(), **extra, "schema": "goi.oracle-case/1"}
        _write(os.path.join(directory, stem + ".goi"), case.text + "\n")
        _write(os.path.join(directory, stem + ".json"), json.dumps(meta, ensure_ascii=False, indent=2) + "\n")


def _write(path: str, text: str) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        raise ReadError(f"--out: cannot write {path}: {exc.strerror}") from None
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)


def add_arguments(p) -> None:
    from ...properties.oracle import FRAGMENTS

    p.add_argument("--impl", required=True, metavar="'CMD …'",
                   help="the implementation's command; the program goes to its standard input, or to a file named where {file} appears")
    p.add_argument("--notation", choices=["paper", "visualiser"], default="paper", help="how programs are printed for it")
    p.add_argument("--parenthesize", choices=["minimal", "all"], default="minimal",
                   help="all: every non-atomic operand, argument and body in parentheses (default minimal)")
    p.add_argument("--printer", type=printer, metavar="MODULE:FUNCTION",
                   help="your own printer: a Python function from goi's surface term to program text (docs/ORACLE.md)")
    p.add_argument("--fragment", type=fragments, action="append", metavar="F,…",
                   help="what it lacks: " + ", ".join(FRAGMENTS))
    p.add_argument("--tolerance", type=tolerance, metavar="REL",
                   help="relative tolerance for a floating-point implementation (default: exact)")
    p.add_argument("--timeout", type=positive_seconds, default=5.0, metavar="S", help="seconds per program (default 5)")
    p.add_argument("--memory-mb", type=positive_int, metavar="N", help="address-space limit of the implementation")
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
