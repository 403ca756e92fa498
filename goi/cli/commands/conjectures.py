"""`goi conjectures [LAW ...] [--profile ci|dev|deep] [--json]`: the catalogue of laws and
conjectures put to the test (docs/CONJECTURES.md)."""

from __future__ import annotations

from .. import exitcodes
from ..errors import UsageError
from ..io import say, schema, write_json
from . import command


def add_arguments(p) -> None:
    from ...properties.profiles import PROFILES

    p.add_argument("laws", nargs="*", metavar="LAW", help="laws to test (default: all)")
    p.add_argument("--profile", choices=PROFILES, default="ci", help="how many instances and contexts (default ci)")
    p.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the instances and contexts (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object (UTF-8)")


def run(args, _source, out) -> int:
    from ...properties import conjectures

    names = args.laws or list(conjectures.LAWS)
    unknown = [n for n in names if n not in conjectures.LAWS]
    if unknown:
        raise UsageError(f"unknown laws {', '.join(unknown)}; known: {', '.join(conjectures.LAWS)}")

    def show(row) -> None:
        if not args.json:
            say(conjectures.format_row(row))

    from ...properties.progress import quiet

    if not args.json:
        say(conjectures.HEADER)
    with quiet(args.json):
        rows = conjectures.sweep(names, args.profile, seed=args.seed, on_row=show)
    if args.json:
        write_json({"schema": schema("conjectures"), "profile": args.profile, "seed": args.seed,
                    "laws": [r.to_json() for r in rows]})
    surprises = [r for r in rows if r.surprising]
    if not args.json and surprises:
        say(f"{len(surprises)} law(s) did not meet their expected status: {', '.join(r.law for r in surprises)}")
    return exitcodes.NOT_EQUIVALENT if surprises else exitcodes.OK


COMMAND = command("conjectures", order=60, help="put the catalogue of laws and conjectures to the test (docs/CONJECTURES.md)",
                  add_arguments=add_arguments, run=run)
