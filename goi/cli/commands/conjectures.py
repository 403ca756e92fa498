"""`goi conjectures [LAW ...] [--profile ci|dev|deep] [--json]`: the catalogue of laws and
conjectures put to the test (docs/CONJECTURES.md); `--exhaustive N [--context-size M]`: on every
instance up to size N, in every context up to size M (docs/CAMPAIGNS.md)."""

from __future__ import annotations

from .. import exitcodes
from ..arguments import add_campaign_arguments, campaign_options, campaign_warn, positive_int
from ..errors import UsageError
from ..io import say, schema, write_json
from . import command


def add_arguments(p) -> None:
    from ...properties.profiles import PROFILES

    p.add_argument("laws", nargs="*", metavar="LAW", help="laws to test (default: all)")
    p.add_argument("--profile", choices=PROFILES, default="ci", help="how many instances and contexts (default ci)")
    p.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the instances and contexts (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object (UTF-8)")
    p.add_argument("--exhaustive", type=positive_int, metavar="N",
                   help="every instance whose metavariables add up to size ≤ N, smallest first (docs/CAMPAIGNS.md)")
    p.add_argument("--context-size", type=positive_int, metavar="M",
                   help="with --exhaustive: contexts up to size M for the context laws (default 3)")
    add_campaign_arguments(p, "with --exhaustive, a part of a law's instances each")
    p.add_argument("--parts", type=positive_int, metavar="K",
                   help="with --exhaustive: each law's instances in K shards (default 1, or twice the cores with --cluster)")


def run(args, _source, out) -> int:
    from ...laws import conjectures

    names = args.laws or list(conjectures.LAWS)
    unknown = [n for n in names if n not in conjectures.LAWS]
    if unknown:
        raise UsageError(f"unknown laws {', '.join(unknown)}; known: {', '.join(conjectures.LAWS)}")

    def show(row) -> None:
        if not args.json:
            say(conjectures.format_row(row))

    from ...progress import quiet

    for option in ("context_size", "parts"):
        if getattr(args, option) is not None and args.exhaustive is None:
            raise UsageError(f"--{option.replace('_', '-')} is for --exhaustive runs")
    options = campaign_options(args, args.exhaustive is not None, "--exhaustive")
    exhaustive = None
    if args.exhaustive is not None:
        exhaustive = {"bound": args.exhaustive, "context_size": args.context_size or 3}
    if not args.json:
        if exhaustive:
            say(f"every instance up to size {exhaustive['bound']}, in every context up to size "
                f"{exhaustive['context_size']}, smallest first:")
        say(conjectures.HEADER)
    with quiet(args.json):
        if exhaustive:
            rows = exhaustive_rows(args, names, exhaustive, options, show)
        else:
            rows = conjectures.sweep(names, args.profile, seed=args.seed, on_row=show)
    if args.json:
        write_json({"schema": schema("conjectures"), "profile": args.profile, "seed": args.seed,
                    "laws": [r.to_json() for r in rows], "exhaustive": exhaustive})
    surprises, untested = [r for r in rows if r.surprising], [r for r in rows if r.untested]
    if not args.json and surprises:
        say(f"{len(surprises)} law(s) did not meet their expected status: {', '.join(r.law for r in surprises)}")
    if not args.json and untested:
        say(f"{len(untested)} law(s) not tested, no instance decided"
            + (f" up to size {exhaustive['bound']}" if exhaustive else "") + f": {', '.join(r.law for r in untested)}")
    return exitcodes.NOT_EQUIVALENT if surprises else exitcodes.SHORT if untested else exitcodes.OK


def exhaustive_rows(args, names, exhaustive: dict, options, show) -> list:
    """The campaign kind goi.laws:exhaustive (goi/laws/campaign.py); the rows in the catalogue's order."""
    from ...campaigns.kinds import run as run_campaign
    from ...laws.campaign import LawsRequest

    request = LawsRequest(tuple(names), exhaustive["bound"], exhaustive["context_size"], args.profile, args.parts)
    rows = run_campaign("goi.laws:exhaustive", request, options, warn=campaign_warn).merged
    for row in rows:
        show(row)
    return rows


COMMAND = command("conjectures", order=60, help="put the catalogue of laws and conjectures to the test (docs/CONJECTURES.md)",
                  add_arguments=add_arguments, run=run)
