"""`goi conjectures [LAW ...] [--profile ci|dev|deep] [--json]`: the catalogue of laws and
conjectures put to the test (docs/CONJECTURES.md); `--exhaustive N [--context-size M]`: on every
instance up to size N, in every context up to size M (docs/CAMPAIGNS.md)."""

from __future__ import annotations

import os

from .. import exitcodes
from ..arguments import add_campaign_arguments, campaign_warn, check_campaign_arguments, positive_int
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

    for option in ("context_size", "cluster", "checkpoint", "parts"):
        if getattr(args, option) is not None and args.exhaustive is None:
            raise UsageError(f"--{option.replace('_', '-')} is for --exhaustive runs")
    check_campaign_arguments(args)
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
            rows = exhaustive_rows(args, names, exhaustive, show)
        else:
            rows = conjectures.sweep(names, args.profile, seed=args.seed, on_row=show)
    if args.json:
        write_json({"schema": schema("conjectures"), "profile": args.profile, "seed": args.seed,
                    "laws": [r.to_json() for r in rows], "exhaustive": exhaustive})
    surprises = [r for r in rows if r.surprising]
    if not args.json and surprises:
        say(f"{len(surprises)} law(s) did not meet their expected status: {', '.join(r.law for r in surprises)}")
    return exitcodes.NOT_EQUIVALENT if surprises else exitcodes.OK


def exhaustive_rows(args, names, exhaustive: dict, show) -> list:
    """Each law a shard of one campaign (goi/laws/campaign.py): here, on a LocalCluster or a
    scheduler, checkpointed; the rows in the catalogue's order."""
    from ...laws import conjectures
    from ...laws.campaign import LawWork, law_shards
    from ...campaigns.runner import MAX_PROGRAMS, Campaign, check_division
    from ...laws.exhaustive import merge_parts

    budget = conjectures.BUDGETS.get(args.profile, conjectures.BUDGETS["dev"])
    parts = args.parts or (2 * (os.cpu_count() or 1) if args.cluster else 1)
    limit = args.max_campaign or MAX_PROGRAMS
    checks = checks_up_to(names, exhaustive["bound"], exhaustive["context_size"], limit)
    check_division(parts, "--parts", most=max(1, min(checks.values())), of="the instances of the smallest law")
    shards = law_shards(names, parts)
    work = LawWork(exhaustive["bound"], exhaustive["context_size"], budget.timeout, parts)
    campaign = Campaign("conjectures", shards, work, sum(checks.values()),
                        {"command": "conjectures", "laws": list(names), "parts": parts, **exhaustive},
                        cluster=args.cluster, checkpoint=args.checkpoint, resume=args.resume, limit=limit,
                        warn=campaign_warn, wait=args.cluster_wait)
    results = campaign.run(progress=lambda *_: None)
    rows = []
    for name in names:
        pieces = []
        for shard in shards:
            if shard.label.partition("#")[0] == name:
                data = results[shard.key]["row"]
                pieces.append(conjectures.Row(data["law"], data["statement"], data["expected"], data["verdict"],
                                              data["instances"], data["proven"], data["unknown"], data["skipped"],
                                              data["counterexample"], data["seconds"], data["paper"]))
        rows.append(merge_parts(pieces))
        show(rows[-1])
    return rows


def checks_up_to(names, bound: int, context_size: int, limit: int) -> dict:
    """law -> at most how many instance-in-context checks it takes, refused (before any work)
    past `limit` in all or past what can be counted."""
    from ...generators.enumerate import Enumeration, TooLarge
    from ...laws.conjectures import LAWS
    from ...laws.exhaustive import context_count, instance_bound
    from ...campaigns.faults import CampaignTooLarge

    enum = Enumeration()
    out = {}
    try:
        for name in names:
            law = LAWS[name]
            contexts = context_count(enum, law.type, context_size) if law.level == "context" else 1
            out[name] = instance_bound(law, enum, bound) * contexts
            if sum(out.values()) > limit:
                raise CampaignTooLarge(f"--exhaustive {bound:,} --context-size {context_size:,}: more than {limit:,} "
                                       f"instance-in-context checks ({sum(out.values()):,} up to law {name}); "
                                       "--max-campaign N allows a larger campaign")
    except TooLarge:
        raise CampaignTooLarge(f"--exhaustive {bound:,} --context-size {context_size:,}: beyond reach (the terms of "
                               "that size cannot even be counted)") from None
    return out


COMMAND = command("conjectures", order=60, help="put the catalogue of laws and conjectures to the test (docs/CONJECTURES.md)",
                  add_arguments=add_arguments, run=run)
