"""`goi typecheck FILE | -e TEXT [--json]`: the judgement A | Γ | p⃗ ⊢ t : T."""

from __future__ import annotations

from .. import exitcodes
from ..io import say, schema, write_json
from . import command


def add_arguments(parser) -> None:
    """Only the program's arguments."""


def run(args, source: str, out) -> int:
    from ... import api
    from ...semantics.pretty import pretty
    from ...semantics.show import scalar

    judgement = api.check(source, max_characters=args.max_input_bytes)
    assert judgement.surface is not None  # check() keeps the parsed term
    if args.json:
        write_json({
            "schema": schema("typecheck"),
            "status": "ok",
            "judgement": str(judgement),
            "program": pretty(judgement.surface),
            "type": str(judgement.type),
            "parameters": [scalar(p) for p in judgement.params],
            "decouplings": list(judgement.decouplings),
        })
    else:
        say(str(judgement))
    return exitcodes.OK


COMMAND = command("typecheck", order=20, help="type-check a program and print its judgement", takes_program=True,
                  add_arguments=add_arguments, run=run)
