"""Overhead of each invariant check, per transition, on the benchmark programs.

Not a test. Run:  python benchmarks/bench_checks.py [--mode exhaustive|sampled|full] [--sizes 16,64]

For each program and each check alone, reports microseconds per transition of the run with
that check, and the overhead factor against the run with no check.

Times are CPU time of this process (`time.process_time`, the machine's deep-stack thread
included), not wall time, which load moves far more (issue 53, item 7).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_machine import FAMILIES  # noqa: E402
import goi  # noqa: E402
from goi.semantics.checks import registry  # noqa: E402


def timed(judgement, checks, mode):
    execution = goi.prepare(judgement, checks=checks, check_mode=mode, determinism_paths=8)
    start = time.process_time()
    outcome = execution.run(10_000_000)
    return outcome, time.process_time() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="exhaustive", choices=["exhaustive", "sampled", "full"])
    ap.add_argument("--sizes", default="16,64", help="the size n of each family's program")
    args = ap.parse_args()
    sys.setrecursionlimit(100_000)
    names = list(registry())
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"mode: {args.mode}; microseconds per transition (overhead factor against no check)")
    print(f"{'program':<22}{'steps':>7}{'none':>8}" + "".join(f"{n:>16}" for n in names))
    for family, (make, _sizes) in FAMILIES.items():
        for n in sizes:
            judgement = goi.check(make(n))
            base, t0 = timed(judgement, [], args.mode)
            per0 = 1e6 * t0 / base.transitions
            row = f"{family + ' ' + str(n):<22}{base.transitions:>7}{per0:>8.1f}"
            for name in names:
                outcome, t = timed(judgement, [name], args.mode)
                assert outcome.status == "final", (family, n, name, outcome.reason)
                per = 1e6 * t / outcome.transitions
                row += f"{per:>9.1f} ({per / per0:>4.0f}x)"
            print(row, flush=True)


if __name__ == "__main__":
    main()
