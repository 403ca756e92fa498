"""`goi parse FILE | -e TEXT [--json]`: the program, normalised (and its syntax tree)."""

from __future__ import annotations

from .. import exitcodes
from ..io import say, schema, write_json
from . import command


def add_arguments(parser) -> None:
    """Only the program's arguments."""


def run(args, source: str, out) -> int:
    from ...semantics.parser import parse
    from ...semantics.pretty import pretty
    from ...semantics.serialize import term_to_json

    term = parse(source)
    program = pretty(term)
    if args.json:
        write_json({"schema": schema("parse"), "status": "ok", "program": program, "ast": term_to_json(term)})
    else:
        say(program)
    return exitcodes.OK


COMMAND = command("parse", order=10, help="parse a program and print it normalised", takes_program=True,
                  add_arguments=add_arguments, run=run)
