"""Programs per CPU-second of `goi props` exhaustive campaigns, this tree against another
(issue 53, item 4; not a test: figures, and a refusal when the comparison would not be one).

    python benchmarks/bench_props_rate.py --against DIR [--rounds 2] [--only every-check,all]

DIR is a checkout of the baseline (a git worktree: `git worktree add --detach DIR REV`). Each
command runs as a child process `python -m goi …` in each tree's own directory with that tree
first on PYTHONPATH, alternately (round by round, side by side), and its CPU time (user and
system, `getrusage` of the children) divides the programs its JSON says it checked. CPU, not
wall: the machine may be loaded (the figures then hold only as ratios). Refused, before any
figure: a side that does not import its own `goi` (the comparison would be of one code with
itself). Said after the figures, with exit status 1: a command whose verdicts (each property's
held, undecided and failed counts) differ between the sides.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
from pathlib import Path

from bench_startup import child_environment

HERE = Path(__file__).resolve().parent.parent

COMMANDS = {
    "every-check": ["props", "soundness", "invariants", "determinism", "gc", "--exhaustive", "5", "--concrete",
                    "--profile", "deep", "--json"],
    "all": ["props", "--exhaustive", "5", "--concrete", "--json"],
    "soundness": ["props", "soundness", "--exhaustive", "6", "--concrete", "--json"],
}


def environment(tree: Path) -> dict:
    """bench_startup's children's environment (bytecode cached), `tree` first on PYTHONPATH."""
    return {**child_environment("/tmp/goi-bench-pyc"), "PYTHONPATH": str(tree)}


def own_code(tree: Path) -> bool:
    """Does `python -m goi` run in `tree` import the goi of `tree`?"""
    probe = subprocess.run([sys.executable, "-c", "import goi; print(goi.__file__)"], cwd=tree,
                           env=environment(tree), capture_output=True, text=True)
    return probe.returncode == 0 and Path(probe.stdout.strip()).resolve().is_relative_to(tree.resolve())


def timed(tree: Path, command: list) -> tuple[float, int, tuple]:
    """(CPU seconds, programs, verdicts) of one run of `python -m goi command` in `tree`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "goi", *command], cwd=tree, env=environment(tree),
                          capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{tree}: goi {' '.join(command)} exited {done.returncode}: {done.stderr[-2000:]}")
    report = json.loads(done.stdout)["exhaustive"]
    failed: dict = {}
    for f in report["failures"]:
        failed[f["property"]] = failed.get(f["property"], 0) + 1
    verdicts = tuple(sorted((p, report["held"][p], report["undecided"][p], failed.get(p, 0)) for p in report["held"]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, report["programs"], verdicts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, type=Path, help="a checkout of the baseline")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--only", default="every-check,all", help=f"of {', '.join(COMMANDS)}")
    args = parser.parse_args()
    sides = {"baseline": args.against, "this tree": HERE}
    for name, tree in sides.items():
        if not own_code(tree):
            raise SystemExit(f"refused: {name} ({tree}) does not import its own goi")
    names = args.only.split(",")
    unknown = [n for n in names if n not in COMMANDS]
    if unknown:
        raise SystemExit(f"unknown command(s) {', '.join(unknown)}; known: {', '.join(COMMANDS)}")
    rates: dict = {}
    verdicts: dict = {}
    for r in range(args.rounds):
        for name in names:
            for side, tree in sides.items():
                cpu, programs, verdict = timed(tree, COMMANDS[name])
                rates.setdefault((name, side), []).append(programs / cpu)
                verdicts.setdefault(name, {}).setdefault(side, set()).add(verdict)
                print(f"round {r + 1}  {name:12} {side:10} {programs:,} programs  {cpu:8.1f} CPU-s  "
                      f"{programs / cpu:8.1f} programs/CPU-s", flush=True)
    print("\n| command | baseline | this tree | ratio (pairwise) |\n|---|---:|---:|---:|")
    for name in names:
        base, this = rates[(name, "baseline")], rates[(name, "this tree")]
        ratios = ", ".join(f"{b:.2f}" for b in (t / a for a, t in zip(base, this)))
        print(f"| `goi {' '.join(COMMANDS[name])}` | {statistics.median(base):.1f} | {statistics.median(this):.1f} | {ratios} |")
    differ = [name for name, by_side in verdicts.items() if len(set().union(*by_side.values())) != 1]
    if differ:
        print(f"\nthe verdicts differ between the sides (or between rounds) for: {', '.join(differ)}")
        return 1
    print("\nevery verdict the same on both sides, in every round")
    return 0


if __name__ == "__main__":
    sys.exit(main())
