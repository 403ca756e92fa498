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
from ..arguments import (add_campaign_arguments, campaign_options, campaign_warn, integer, positive_int,
                         properties_to_run)
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
    from ..heap import loaded

    names = properties_to_run(args.names)
    if (args.concrete or args.order != 1) and args.exhaustive is None and args.index is None:
        raise UsageError("--concrete and --order are for --exhaustive and --index")
    if args.exhaustive is not None or args.index is not None:
        return exhaustive(args, names)
    if args.cluster is not None or args.shards is not None:
        return random_campaign(args, names)
    campaign_options(args, False, CAMPAIGNS)
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
    with quiet(args.json), to_stderr, coverage.recording() as recorder, loaded():
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
    """`--cluster` / `--shards K` without --exhaustive: the campaign kind goi.properties:random."""
    from ...campaigns.kinds import run as run_campaign
    from ...properties.campaign import RandomRequest
    from ...properties.profiles import config
    from ...progress import quiet

    if args.replay is not None:
        raise UsageError("--replay replays one failure: not with --cluster or --shards")
    options = campaign_options(args, True, CAMPAIGNS)
    count, first_seed = args.shards or 8, args.seed or 0
    request = RandomRequest(tuple(names), args.profile, args.examples or config(args.profile).examples, count, first_seed)
    with quiet(args.json):
        outcome = run_campaign("goi.properties:random", request, options, warn=campaign_warn)
    merged = outcome.merged
    properties, shrunk, per_shard = merged["properties"], merged["failures"], merged["examples_per_shard"]
    if args.json:
        write_json({"schema": schema("props"), "status": "done", "profile": args.profile, "seed": first_seed,
                    "examples": request.examples, "properties": {}, "not_run": [], "coverage": None,
                    "campaign": {"shards": count, "examples_per_shard": per_shard, "cluster": args.cluster,
                                 "seeds": [first_seed, first_seed + count - 1], "properties": properties,
                                 "failures": shrunk, "cpu_seconds": outcome.cpu.to_json()}})
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


CAMPAIGNS = "--exhaustive, --cluster or --shards"  # what makes `goi props` a campaign


def exhaustive(args, names) -> int:
    """`--exhaustive N`: the campaign kind goi.properties:exhaustive; the bound and the count
    in the summary, the smallest counterexample first."""
    from ...campaigns.kinds import run as run_campaign
    from ...properties.campaign import ExhaustiveRequest, exhaustive_properties
    from ...progress import quiet

    chosen = exhaustive_properties(names)
    left_out = [n for n in names if n not in chosen]
    if args.names and left_out:
        raise UsageError(f"--exhaustive checks properties that take a program alone; not: {', '.join(left_out)}")
    if args.examples is not None or args.seed is not None or args.replay is not None:
        raise UsageError("--exhaustive lists every program: --examples, --seed and --replay are for random runs")
    options = campaign_options(args, True, CAMPAIGNS)
    if args.index is not None and args.exhaustive is not None and args.index[0] > args.exhaustive:
        raise UsageError(f"--index {args.index[0]}:{args.index[1]} is past --exhaustive {args.exhaustive}")
    request = ExhaustiveRequest(tuple(chosen), args.profile, args.exhaustive if args.index is None else None,
                                args.index, args.order, args.concrete)
    with quiet(args.json):
        outcome = run_campaign("goi.properties:exhaustive", request, options, warn=campaign_warn)
    m = outcome.merged
    unit = "shape" if m["shapes"] else "program"
    if args.json:
        write_json({"schema": schema("props"), "status": "done", "profile": args.profile, "seed": None, "examples": None,
                    "properties": {}, "not_run": [], "coverage": None,
                    "exhaustive": {"bound": m["bound"], "index": list(args.index) if args.index else None,
                                   **{k: m[k] for k in ("shapes", "space", "covers", "programs_over_constants",
                                                        "programs", "of", "status", "held", "undecided",
                                                        "failures", "first", "replay")},
                                   "cluster": outcome.cluster, "shards": len(outcome.plan.shards),
                                   "cpu_seconds": outcome.cpu.to_json()}})
    else:
        what = (f"all {m['programs']:,} {unit}s of size ≤ {m['bound']}" if m["bound"] is not None
                else f"{unit} {args.index[0]}:{args.index[1]}")
        _say_exhaustive(m, what, {n: f"{n:<14} {m['status'][n]:<7} on {what}" + (f", for {m['covers'][n]}" if m["shapes"] else "")
                                  for n in chosen})
    if m["first"] is not None:
        return exitcodes.STUCK
    return exitcodes.BUDGET if any(m["undecided"].values()) else exitcodes.OK


def _say_exhaustive(merged: dict, what: str, lines: dict) -> None:
    """An exhaustive run's summary: the space, each property's verdict line (`lines`), the
    first counterexample and its replay."""
    say(f"space: {merged['space']}")
    if merged["programs_over_constants"] is not None:
        say(f"  ({merged['programs']:,} shapes of size ≤ {merged['bound']} stand for the "
            f"{merged['programs_over_constants']:,} programs over the constants of --concrete, and for every other "
            "choice of constants)")
    for n, line in lines.items():
        if merged["undecided"][n]:
            line += f" ({merged['undecided'][n]} stopped by a budget: not decided)"
        say(line)
    first = merged["first"]
    if first is not None:
        say(f"first counterexample (size {first['size']}, index {first['index']}): [{first['property']}] {first['message']}")
        say(f"  program: {first['program']}")
        say(f"  replay:  {merged['replay']}")


COMMAND = command("props", order=40, help="check the paper's theorems on generated programs (Hypothesis)",
                  add_arguments=add_arguments, run=run)
