"""What `--check all` costs against the bare machine (issue 10's targets: exhaustive ≤ 10×,
sampled ≤ 3×), on the gradient-descent example and on benchmark families at three sizes.
Best of `--repeat` runs each (checked runs too); ratios only, never asserted.

    python benchmarks/bench_overhead.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import goi  # noqa: E402
from bench_machine import deep_decoupling, let_chain, wide_closure  # noqa: E402

EXAMPLE = Path(__file__).parent.parent / "tests/programs/visualiser/gradient_descent_in_calculus.goi"
CASES = [("gradient descent", EXAMPLE.read_text(encoding="utf-8"))]
CASES += [(f"let chain {n}", let_chain(n)) for n in (8, 16, 32)]
CASES += [(f"deep decoupling {n}", deep_decoupling(n)) for n in (4, 8, 16)]
CASES += [(f"wide closure {n}", wide_closure(n)) for n in (16, 32, 64)]


def best(judgement, repeat: int, **options) -> tuple[float, goi.Result]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = goi.run(judgement, max_steps=10_000_000, **options)
        times.append(time.perf_counter() - start)
    assert result is not None and result.status == "final", result and result.reason
    return min(times), result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"{'program':<22}{'steps':>8}{'bare ms':>9}{'sampled':>10}{'exhaustive':>12}   slowest checks (exhaustive, s)")
    for name, text in CASES:
        j = goi.check(text)
        bare, r = best(j, args.repeat)
        sampled, _ = best(j, args.repeat, checks=["all"], check_mode="sampled")
        exhaustive, rx = best(j, args.repeat, checks=["all"], check_mode="exhaustive")
        top = ", ".join(f"{k} {v:.2f}" for k, v in sorted(rx.check_seconds.items(), key=lambda kv: -kv[1])[:3])
        print(f"{name:<22}{r.transitions:>8}{bare * 1e3:>9.1f}{sampled / bare:>9.0f}x{exhaustive / bare:>11.0f}x   {top}", flush=True)


if __name__ == "__main__":
    main()
