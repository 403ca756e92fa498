"""The `goi` command: the oracle's command-line interface.

    goi parse     FILE | -e TEXT [--json]   the normalised program
    goi typecheck FILE | -e TEXT [--json]   the judgement A | Γ | p⃗ ⊢ t : T

FILE may be `-` for standard input. Bad input never shows a traceback: it is
reported (with line and column) and the command exits with BAD_INPUT (3).
With --json exactly one JSON object is printed on standard output, on success
and on error alike. See docs/CLI.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback

from . import exitcodes
from .errors import GoiError, ReadError


def _read_program(args) -> tuple[str, str]:
    if args.expr is not None:
        return args.expr, "<-e>"
    if args.file is None:
        raise ReadError("no program given: name a FILE (or - for standard input), or use -e TEXT")
    if args.file == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        with open(args.file, encoding="utf-8") as handle:
            return handle.read(), args.file
    except UnicodeDecodeError as exc:
        raise ReadError(f"cannot read {args.file}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise ReadError(f"cannot read {args.file}: {exc.strerror}") from None


def _emit(args, payload: dict, text: str) -> None:
    if args.json:
        print(json.dumps(payload, ensure_ascii=False))
    else:
        print(text)


def cmd_parse(args, source: str) -> int:
    from .parser import parse
    from .pretty import pretty
    from .serialize import term_to_json

    term = parse(source)
    program = pretty(term)
    _emit(args, {"status": "ok", "program": program, "ast": term_to_json(term)}, program)
    return exitcodes.OK


def cmd_typecheck(args, source: str) -> int:
    from .parser import parse
    from .pretty import pretty
    from .typecheck import show_fraction, typecheck

    judgement = typecheck(parse(source), source=source)
    payload = {
        "status": "ok",
        "judgement": str(judgement),
        "program": pretty(judgement.surface),
        "type": str(judgement.type),
        "parameters": [show_fraction(p) for p in judgement.params],
        "decouplings": list(judgement.decouplings),
    }
    _emit(args, payload, str(judgement))
    return exitcodes.OK


def _add_program_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", metavar="FILE", help="program file (- for standard input)")
    parser.add_argument("-e", dest="expr", metavar="TEXT", help="program text given on the command line")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="goi",
        description="Reference oracle for the abductive calculus (see docs/CLI.md).",
        epilog="exit codes: 0 ok, 2 usage error, 3 bad input (read, parse or type error), 70 internal error",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p_parse = sub.add_parser("parse", help="parse a program and print it normalised")
    _add_program_arguments(p_parse)
    p_parse.set_defaults(run=cmd_parse)
    p_type = sub.add_parser("typecheck", help="type-check a program and print its judgement")
    _add_program_arguments(p_type)
    p_type.set_defaults(run=cmd_typecheck)
    return parser


def main(argv: list[str] | None = None) -> int:
    # The front end recurses over the term; deep programs (long operator chains)
    # need more than Python's default 1000 frames. Beyond this, a clear error.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    args = build_parser().parse_args(argv)
    if args.expr is not None and args.file is not None:
        build_parser().error("give either FILE or -e TEXT, not both")
    source, name = None, ("<-e>" if args.expr is not None else (args.file or "<input>"))
    try:
        source, name = _read_program(args)
        return args.run(args, source)
    except GoiError as exc:
        if args.json:
            print(json.dumps({"status": "error", "error": exc.to_json()}, ensure_ascii=False))
        else:
            print(exc.render(source, name), file=sys.stderr)
        return exitcodes.BAD_INPUT
    except RecursionError:
        message = "the program is nested too deeply for this implementation"
        if args.json:
            print(json.dumps({"status": "error", "error": {"kind": "limit", "message": message, "line": None, "column": None}}))
        else:
            print(f"goi: {message}", file=sys.stderr)
        return exitcodes.BAD_INPUT
    except Exception as exc:  # a bug in goi, not bad input: say so, keep the evidence
        if args.json:
            print(json.dumps({"status": "error", "error": {"kind": "internal", "message": repr(exc), "line": None, "column": None}}))
        print("goi: internal error (a bug in goi; please report it with the input):", file=sys.stderr)
        traceback.print_exc()
        return exitcodes.INTERNAL


if __name__ == "__main__":
    sys.exit(main())
