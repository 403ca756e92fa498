"""What `--check all` costs against the bare machine (issue 10's targets: exhaustive ≤ 10×,
sampled ≤ 3×, check cost per transition flat as runs grow), on the gradient-descent example
and on benchmark families at three sizes. Best of `--repeat` runs each (checked runs too);
ratios only, never asserted. `--full` adds the whole-graph reference (check mode full).

    python benchmarks/bench_overhead.py [--repeat 3] [--full] [--json out.json]

Per family, the fitted exponent k of the check cost per transition against the run's length
(least squares of log(checked − bare)/transitions on log transitions over the three sizes):
k ≈ 0 is a flat cost per transition, k ≈ 1 a quadratic run.

Times are CPU time of this process (`time.process_time`, the machine's deep-stack thread
included), not wall time, which load moves far more (issue 53, item 7).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import goi  # noqa: E402
from bench_machine import church, copies, deep_decoupling, let_chain, wide_closure  # noqa: E402

EXAMPLE = Path(__file__).parent.parent / "tests/programs/visualiser/gradient_descent_in_calculus.goi"
FAMILIES = [
    ("let chain", let_chain, (8, 16, 32)),
    ("church", church, (8, 16, 32)),
    ("copies", copies, (8, 16, 32)),
    ("deep decoupling", deep_decoupling, (4, 8, 16)),
    ("wide closure", wide_closure, (16, 32, 64)),
]


def best(judgement, repeat: int, **options) -> tuple[float, goi.Result]:
    times, result = [], None
    for _ in range(repeat):
        start = time.process_time()
        result = goi.run(judgement, max_steps=10_000_000, **options)
        times.append(time.process_time() - start)
    assert result is not None and result.status == "final", result and result.reason
    return min(times), result


def slope(xs, ys) -> float:
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def measure(name: str, text: str, args) -> dict:
    j = goi.check(text)
    bare, r = best(j, args.repeat)
    row = {"program": name, "transitions": r.transitions, "bare_ms": bare * 1e3}
    modes = ["sampled", "exhaustive"] + (["full"] if args.full else [])
    for mode in modes:
        t, rx = best(j, args.repeat, checks=["all"], check_mode=mode)
        row[mode] = t / bare
        row[f"{mode}_us_per_transition"] = (t - bare) / r.transitions * 1e6
        if mode == "exhaustive":
            row["slowest"] = sorted(rx.check_seconds.items(), key=lambda kv: -kv[1])[:3]
    cols = "".join(f"{row[m]:>10.1f}x" for m in modes)
    top = ", ".join(f"{k} {v:.3f}" for k, v in row["slowest"])
    print(f"{name:<22}{r.transitions:>8}{bare * 1e3:>9.1f}{cols}   {top}", flush=True)
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--full", action="store_true", help="also the whole-graph reference (check mode full)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    modes = ["sampled", "exhaustive"] + (["full"] if args.full else [])
    print(f"{'program':<22}{'steps':>8}{'bare ms':>9}" + "".join(f"{m:>11}" for m in modes) + "   slowest checks (exhaustive, s)")
    rows = [measure("gradient descent", EXAMPLE.read_text(encoding="utf-8"), args)]
    exponents = {}
    for family, make, sizes in FAMILIES:
        family_rows = [measure(f"{family} {n}", make(n), args) for n in sizes]
        rows += family_rows
        xs = [row["transitions"] for row in family_rows]
        exponents[family] = {m: slope(xs, [max(row[f"{m}_us_per_transition"], 1e-3) for row in family_rows]) for m in modes}
    print("\nfitted exponent k of the check cost per transition against the run's length:")
    for family, ks in exponents.items():
        print(f"  {family:<18}" + "  ".join(f"{m} {k:+.2f}" for m, k in ks.items()))
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "exponents": exponents}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
