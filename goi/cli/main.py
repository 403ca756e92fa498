"""The `goi` command's entry point: the parser built from the declared commands
(goi.cli.commands), the deep stack, and one place where every error becomes an exit code
and a message (or the one JSON object under --json)."""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from typing import Optional

from ..semantics.errors import TOO_DEEP, BudgetError, GoiError
from . import exitcodes
from .arguments import ArgumentParser, add_program_arguments
from .commands import module_names, named, registry
from .errors import Sourced, UsageError
from .io import Output, error_payload, read_program, say, silence_stderr, unmade_on_failure, write_json

EXIT_CODES_HELP = (
    "exit codes: 0 ok/final/equivalent, 1 not equivalent, 2 usage error, 3 bad input, 4 stuck or invariant "
    "failure, 5 step budget, 6 undefined (division by zero, strict), 7 not comparable, 8 undecided, 65 not this "
    "campaign's checkpoint, 69 cluster unavailable, 70 internal error, 73 file already there, 74 i/o error, "
    "130 interrupted"
)


class _Version(argparse.Action):
    """`--version`: the installed version, read (importlib.metadata) only when asked for."""

    def __call__(self, parser, namespace, values, option_string=None):
        from ..version import __version__

        parser._print_message(f"goi {__version__}\n", sys.stdout)  # as argparse's own version action
        parser.exit()


def build_parser(only: Optional[str] = None, alone: bool = False) -> ArgumentParser:
    """The `goi` parser. With `only`, only that command's options are set up (the others are
    listed, with their help line): a command's set-up imports what its options name (the
    property profiles, the oracle's fragments), and `goi run` needs none of it. With `alone`
    as well, the others are not even listed, so their modules are not imported: a parser for
    a command line that names `only` and is right (a wrong one is told with every command)."""
    parser = ArgumentParser(prog="goi", description="Reference oracle for the abductive calculus (see docs/CLI.md).",
                            epilog=EXIT_CODES_HELP)
    parser.add_argument("--version", action=_Version, nargs=0, help="show goi's version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=ArgumentParser)
    commands = {only: named(only)} if alone and only else registry()
    for name, declared in commands.items():
        p = sub.add_parser(name, help=declared.help)
        if only is None or name == only:
            if declared.takes_program:
                add_program_arguments(p)
            declared.add_arguments(p)
        p.set_defaults(command_of=declared)
    return parser


def _command_of(argv: list[str]) -> Optional[str]:
    """The first word that names a command. A command lives in the module of its name, so the
    words are first looked up among the modules, which imports only the command's own."""
    modules = set(module_names())
    for word in argv:
        if word in modules and named(word, modules) is not None:
            return word
    names = registry()  # no command named (`goi --help`), or one that broke the naming rule
    for word in argv:
        if word in names:
            return word
    return None


def main(argv: Optional[list[str]] = None) -> int:
    """The `goi` command. It runs on a deep stack (semantics.stack): nesting in the tens of
    thousands works, and beyond it a `limit` error (exit 3), never a crash. Exact numbers are
    printed whatever their length."""
    from ..semantics.digits import any_digits
    from ..semantics.stack import with_deep_stack

    argv = list(sys.argv[1:] if argv is None else argv)
    # Hypothesis loads every installed plugin when first imported (trio's, with pytest: a third
    # of `goi props`' start-up); goi's draws use none. HYPOTHESIS_NO_PLUGINS= (empty) loads them.
    os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")
    if sys.stdout is None:  # started with its standard output closed (`goi run … >&-`)
        if sys.stderr is not None:
            sys.stderr.write("goi: io error: standard output is closed: nowhere to write the result\n")
        return exitcodes.BAD_INPUT

    def work() -> int:
        with any_digits():
            return _main(argv)

    return with_deep_stack(work)


def program() -> int:
    """The `goi` program (pyproject's script, `python -m goi`): `main` on the process's own
    arguments, then the interpreter's exit is spared walking what is left (goi.cli.heap)."""
    from .heap import leaving

    try:
        return main()
    finally:  # --help and --version leave by SystemExit
        leaving()


def _main(argv: list[str]) -> int:
    out = Output()

    def report(args, command: Optional[str], error: dict, text: Optional[str]) -> None:
        out.error(command, error, text, args is not None and getattr(args, "json", False))

    wants_json = "--json" in argv
    command = _command_of(argv)
    args = None
    source, name = None, "goi"  # until a program is read, an error is the command's own ("goi: io error: …")
    try:
        try:
            try:  # alone: the command comes first (`goi --help run` lists every command)
                args = build_parser(command or "", alone=argv[:1] == [command]).parse_args(argv)
            except UsageError:
                if not command:
                    raise
                args = build_parser(command).parse_args(argv)  # told as before, with every command
            if args.command != command:  # another word than the first command name chose it: all set up
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
        if args.command_of.takes_program:
            source, name = read_program(args)
        with unmade_on_failure():
            return args.command_of.run(args, source, out)
    except Sourced as exc:
        code = exitcodes.BUDGET if isinstance(exc.error, BudgetError) else exitcodes.BAD_INPUT
        report(args, command, exc.to_json(), exc.render())
        return code
    except GoiError as exc:
        if hasattr(exc, "exit") and hasattr(exitcodes, exc.exit):  # a campaign's fault (goi/campaigns/faults.py)
            report(args, command, exc.to_json(), f"goi: {exc.kind} error: {exc.message}")
            return getattr(exitcodes, exc.exit)
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
        from ..semantics.stack import interrupt_taken

        interrupt_taken()
        report(args, command, {"kind": "interrupted", "message": "interrupted", "line": None, "column": None}, "goi: interrupted")
        return exitcodes.INTERRUPTED
    except Exception as exc:  # a bug in goi, not bad input: say so, keep the evidence
        report(args, command, {"kind": "internal", "message": repr(exc), "line": None, "column": None}, None)
        say("goi: internal error (a bug in goi; please report it with the input):", sys.stderr)
        try:
            traceback.print_exc()
        except (BrokenPipeError, ValueError):
            silence_stderr()
        return exitcodes.INTERNAL
