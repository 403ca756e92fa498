"""`goi props [PROPERTY ...] [--profile P] [--examples N] [--seed N] [--replay BLOB] [--json]`:
the property suite (the tests pytest runs) on generated programs, with rule coverage."""

from __future__ import annotations

import sys

from .. import exitcodes
from ..arguments import properties_to_run, integer, positive_int
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


def run(args, _source, out) -> int:
    """Run the property suite (the tests pytest runs) on generated programs, with coverage."""
    import contextlib

    from ...properties import coverage, driver
    from ...properties.progress import quiet

    names = properties_to_run(args.names)
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


COMMAND = command("props", order=40, help="check the paper's theorems on generated programs (Hypothesis)",
                  add_arguments=add_arguments, run=run)
