"""`goi props [PROPERTY ...] [--profile P] [--examples N] [--seed N] [--replay BLOB] [--json]`:
the property suite (the tests pytest runs) on generated programs, with rule coverage.

`goi props [PROPERTY ...] --exhaustive N [--concrete] [--cluster local|ADDRESS] [--checkpoint FILE] [--resume]`:
every property that takes a program, on every *shape* of size ≤ N — a program with its
constants left open, run once at generic values (generators/shapes.py) — or, with
`--concrete`, on every program over the enumeration's fixed constants (generators/enumerate.py,
properties/campaign.py); `--index SIZE:I` replays one of them. The summary states the space."""

from __future__ import annotations

import sys

from .. import exitcodes
from ..arguments import (add_campaign_arguments, campaign_warn, check_campaign_arguments,
                         integer, positive_int, properties_to_run)
from ..errors import UsageError
from ..io import say, schema, write_json
from . import command


def add_arguments(p) -> None:
    from ...properties.profiles import PROFILES

    p.add_argument("names", nargs="*", metavar="PROPERTY",
                   help="properties to run, by name (default: all; docs/REPORTS.md lists them)")
    p.add_argument("--profile", choices=PROFILES, default="dev", help="size of terms and thoroughness of checks (default dev)")
    p.add_argument("--examples", type=positive_int, metavar="N", help="examples per property (default: the profile's)")
    p.add_argument("--seed", type=integer, metavar="N", help="seed Hypothesis with N (the same examples for the same N)")
    p.add_argument("--replay", metavar="BLOB", help="replay one failure: the blob a failing run printed (one PROPERTY)")
    p.add_argument("--json", action="store_true", help="print one JSON object (UTF-8)")
    p.add_argument("--exhaustive", type=positive_int, metavar="N",
                   help="every shape of size ≤ N (a program with its constants left open, run at generic values: "
                        "a verdict for any rational constants where the property reads no value) instead of random "
                        "programs (docs/CAMPAIGNS.md)")
    p.add_argument("--order", type=int, choices=(1, 2), default=1,
                   help="with --exhaustive: the argument types' order: 1 — F, F → F and V_a (default); "
                        "2 — also (F → F) → F and F → F → F")
    p.add_argument("--concrete", action="store_true",
                   help="with --exhaustive: every program over the fixed constants 0, 1, -1/2, {1}, {-1/2} instead of shapes")
    p.add_argument("--index", type=program_index, metavar="SIZE:I", help="with --exhaustive: only the I-th program of size SIZE")
    add_campaign_arguments(p, "index ranges of programs, or seeds")
    p.add_argument("--shards", type=positive_int, metavar="K",
                   help="a random run divided into K shards, one seed each (default 8 with --cluster): the examples "
                        "are shared among them, each distinct failure shrunk once (docs/CAMPAIGNS.md)")


def program_index(text: str) -> tuple[int, int]:
    import argparse

    size, sep, index = text.partition(":")
    try:
        if sep and int(size) >= 1 and int(index) >= 0:
            return int(size), int(index)
    except ValueError:
        pass
    raise argparse.ArgumentTypeError(f"{text!r} is not SIZE:I (for example 7:1234)")


def run(args, _source, out) -> int:
    """Run the property suite (the tests pytest runs) on generated programs, with coverage."""
    import contextlib

    from ...properties import coverage, driver
    from ...progress import quiet

    names = properties_to_run(args.names)
    if (args.concrete or args.order != 1) and args.exhaustive is None and args.index is None:
        raise UsageError("--concrete and --order are for --exhaustive and --index")
    if args.exhaustive is not None or args.index is not None:
        return exhaustive(args, names)
    if args.cluster is not None or args.shards is not None:
        return random_campaign(args, names)
    if args.checkpoint is not None:
        raise UsageError("--checkpoint is for campaigns (--exhaustive, --cluster or --shards)")
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

    # Hypothesis and the properties may print; under --json only the one object goes to stdout.
    to_stderr = contextlib.redirect_stdout(sys.stderr) if args.json else contextlib.nullcontext()
    with quiet(args.json), to_stderr, coverage.recording() as recorder:
        results, interrupted = driver.run_suite(names, args.profile, args.examples, args.seed, args.replay, on_result=show)
    summary = recorder.summary()
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


def random_campaign(args, names) -> int:
    """`--cluster` / `--shards K` without --exhaustive: the random suite divided into K shards
    (one seed each, the examples shared among them), run on Dask or here, merged; each
    distinct failure shrunk once, from the lowest seed that found it."""
    import math

    from ...properties import driver
    from ...properties.campaign import RandomPropsWork, distinct_failures
    from ...campaigns.runner import MAX_ESTIMATE, MAX_PROGRAMS, Campaign, check_division, seed_shards
    from ...properties.profiles import config
    from ...progress import quiet

    if args.replay is not None:
        raise UsageError("--replay replays one failure: not with --cluster or --shards")
    check_campaign_arguments(args)
    count = args.shards or 8
    total = args.examples or config(args.profile).examples
    check_division(count, "--shards", most=total, of=f"the {total:,} examples to share")
    per_shard = max(1, math.ceil(total / count))
    first_seed = args.seed or 0
    shards = seed_shards(first_seed, count)
    work = RandomPropsWork(tuple(names), args.profile, per_shard)
    campaign = Campaign("props campaign", shards, work, per_shard * count * len(names),
                        {"command": "props", "properties": list(names), "profile": args.profile,
                         "examples": per_shard, "seeds": [first_seed, first_seed + count]},
                        cluster=args.cluster, checkpoint=args.checkpoint, resume=args.resume,
                        limit=args.max_campaign or MAX_PROGRAMS, warn=campaign_warn, wait=args.cluster_wait,
                        max_estimate=None if args.max_campaign else MAX_ESTIMATE)
    with quiet(args.json):
        results = campaign.run()
    distinct = distinct_failures(results.values())
    shrunk = []
    with quiet(args.json):
        for failure in distinct:  # each distinct failure shrunk once, here, from its seed
            again = driver.run_property(failure["property"], args.profile, per_shard, failure["seed"])
            shrunk.append({**failure, "shrunk": again.to_json()})
    properties = {}
    for name in names:
        runs = sum(r["properties"][name]["runs"] for r in results.values() if name in r["properties"])
        seconds = sum(r["properties"][name]["seconds"] for r in results.values() if name in r["properties"])
        mine = [f for f in shrunk if f["property"] == name]
        status = ("failed" if any(f["status"] == "failed" for f in mine) else "budget" if mine else "passed")
        properties[name] = {"status": status, "runs": runs, "seconds": round(seconds, 3), "distinct_failures": len(mine)}
    if args.json:
        write_json({"schema": schema("props"), "status": "done", "profile": args.profile, "seed": first_seed,
                    "examples": total, "properties": {}, "not_run": [], "coverage": None,
                    "campaign": {"shards": count, "examples_per_shard": per_shard, "cluster": args.cluster,
                                 "seeds": [first_seed, first_seed + count - 1], "properties": properties,
                                 "failures": shrunk, "cpu_seconds": campaign.cpu.to_json()}})
    else:
        say(f"{count} shards (seeds {first_seed}–{first_seed + count - 1}, {per_shard} examples each)"
            + (f" on {args.cluster}" if args.cluster else ""))
        for name, p in properties.items():
            say(f"{name:<14} {p['status']:<11} {p['runs']:>6} runs  {p['seconds']:7.2f}s")
        for f in shrunk:
            s = f["shrunk"]
            say(f"  [{f['property']}] found from {f['count']} seed(s), first seed {f['seed']}; shrunk once:")
            say("    " + (s.get("finding") or f.get("finding") or "").replace("\n", "\n    "))
            if s.get("replay"):
                say(f"    replay: {s['replay']}")
    if any(p["status"] == "failed" for p in properties.values()):
        return exitcodes.STUCK
    if any(p["status"] == "budget" for p in properties.values()):
        return exitcodes.BUDGET
    return exitcodes.OK


def exhaustive(args, names) -> int:
    """`--exhaustive N`: every program of size ≤ N, every property that takes one; the bound
    and the count in the summary, the smallest counterexample first."""
    import dataclasses

    from ...generators.enumerate import Enumeration, Space
    from ...properties.campaign import PropsWork, covers, exhaustive_properties, merge
    from ...campaigns.runner import (MAX_ESTIMATE, MAX_PROGRAMS, Campaign, default_cluster, exhaustive_counts,
                                     exhaustive_shards, index_shard, sample_of, space_fields)
    from ...progress import quiet

    chosen = exhaustive_properties(names)
    left_out = [n for n in names if n not in chosen]
    if args.names and left_out:
        raise UsageError(f"--exhaustive checks properties that take a program alone; not: {', '.join(left_out)}")
    if args.examples is not None or args.seed is not None or args.replay is not None:
        raise UsageError("--exhaustive lists every program: --examples, --seed and --replay are for random runs")
    check_campaign_arguments(args)
    from ...generators.shapes import shape_space
    from ...properties.suite import registry

    concrete = Space(order=args.order)
    shapes = not args.concrete
    unit = "shape" if shapes else "program"  # what the campaign lists, in its messages
    space = shape_space(concrete) if shapes else concrete
    enumeration = Enumeration(space)
    work = PropsWork(tuple(chosen), args.profile, dataclasses.asdict(space), shapes)
    limit = args.max_campaign or MAX_PROGRAMS
    if args.index is not None:
        size, index = args.index
        if args.exhaustive is not None and size > args.exhaustive:
            raise UsageError(f"--index {size}:{index} is past --exhaustive {args.exhaustive}")
        shards = [index_shard(enumeration, size, index, unit)]
        bound = None
    else:
        bound = args.exhaustive
        shards = exhaustive_shards(exhaustive_counts(enumeration, bound, limit))
    total = sum(s.stop - s.start for s in shards)
    cluster = default_cluster(args.cluster, total)
    if cluster != args.cluster and not args.json:
        say(f"{total:,} programs: run on a Dask LocalCluster, one worker per core (--cluster to choose)")
    campaign = Campaign("exhaustive", shards, work, total,
                        {"command": "props", "properties": chosen, "profile": args.profile, "bound": bound,
                         "space": space_fields(space), "shapes": shapes,
                         "shards": [s.key for s in shards] if bound is None else len(shards)},
                        cluster=cluster, checkpoint=args.checkpoint, resume=args.resume, limit=limit,
                        sample=sample_of(shards), warn=campaign_warn, wait=args.cluster_wait,
                        unit=unit + "s", max_estimate=None if args.max_campaign else MAX_ESTIMATE)
    with quiet(args.json):
        results = campaign.run()
    merged = merge((results[s.key] for s in shards), chosen)
    first = merged["failures"][0] if merged["failures"] else None
    replay = first and f"goi props {first['property']} --profile {args.profile} --index {first['size']}:{first['index']}"
    status = {n: ("failed" if any(f["property"] == n for f in merged["failures"]) else
                  "budget" if merged["undecided"][n] else "held") for n in chosen}
    props = registry()
    covering = {n: covers(props[n], shapes) for n in chosen}
    over_constants = _programs_over_constants(concrete, bound) if shapes and bound is not None else None
    if args.json:
        write_json({"schema": schema("props"), "status": "done", "profile": args.profile, "seed": None, "examples": None,
                    "properties": {}, "not_run": [], "coverage": None,
                    "exhaustive": {"bound": bound, "index": list(args.index) if args.index else None,
                                   "shapes": shapes, "space": space.describe(shapes), "covers": covering,
                                   "programs_over_constants": over_constants,
                                   "programs": merged["programs"], "of": total, "status": status,
                                   "held": merged["held"], "undecided": merged["undecided"],
                                   "failures": merged["failures"], "first": first, "replay": replay,
                                   "cluster": cluster, "shards": len(shards),
                                   "cpu_seconds": campaign.cpu.to_json()}})
    else:
        what = (f"all {merged['programs']:,} {unit}s of size ≤ {bound}" if bound is not None
                else f"{unit} {args.index[0]}:{args.index[1]}")
        _say_exhaustive(merged, what, space.describe(shapes), bound, over_constants,
                        {n: f"{n:<14} {status[n]:<7} on {what}" + (f", for {covering[n]}" if shapes else "") for n in chosen},
                        replay)
    return exitcodes.STUCK if first is not None else exitcodes.BUDGET if any(merged["undecided"].values()) else exitcodes.OK


def _say_exhaustive(merged: dict, what: str, space: str, bound, over_constants, lines: dict, replay) -> None:
    """An exhaustive run's summary: the space, each property's verdict line (`lines`), the
    first counterexample and its replay."""
    say(f"space: {space}")
    if over_constants is not None:
        say(f"  ({merged['programs']:,} shapes of size ≤ {bound} stand for the {over_constants:,} programs over the "
            f"constants of --concrete, and for every other choice of constants)")
    for n, line in lines.items():
        if merged["undecided"][n]:
            line += f" ({merged['undecided'][n]} stopped by a budget: not decided)"
        say(line)
    first = merged["failures"][0] if merged["failures"] else None
    if first is not None:
        say(f"first counterexample (size {first['size']}, index {first['index']}): [{first['property']}] {first['message']}")
        say(f"  program: {first['program']}")
        say(f"  replay:  {replay}")


def _programs_over_constants(space, bound: int):
    """How many programs over the space's fixed constants the shapes of size ≤ bound stand
    for (None if they cannot be counted)."""
    from ...generators.enumerate import Enumeration, TooLarge

    try:
        return Enumeration(space).count_upto(bound)
    except TooLarge:
        return None


COMMAND = command("props", order=40, help="check the paper's theorems on generated programs (Hypothesis)",
                  add_arguments=add_arguments, run=run)
