"""What the determinism check does and what it costs, per program: the ?-phases with a choice
it explored, the orders it ran (each in a trial, from the phase's first choice to box.close),
how many phases had more than `determinism_paths` orders (then sampled), and the time per
order. Not a test; ratios and counts only.

    python benchmarks/bench_determinism.py [--paths 24] [--repeat 3]

Its cost is (orders run) × (rewrites of the phase after the first choice + size of the region
the order touched, described canonically): set by the policy's number of orders, not by the
bare machine's speed — see docs/INVARIANTS.md, "Incremental checks".
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import goi  # noqa: E402
from bench_machine import church, copies, deep_decoupling, let_chain, wide_closure  # noqa: E402

EXAMPLE = Path(__file__).parent.parent / "tests/programs/visualiser/gradient_descent_in_calculus.goi"
PROGRAMS = [
    ("gradient descent", lambda: EXAMPLE.read_text(encoding="utf-8")),
    ("let chain 32", lambda: let_chain(32)),
    ("church 32", lambda: church(32)),
    ("copies 32", lambda: copies(32)),
    ("deep decoupling 16", lambda: deep_decoupling(16)),
    ("wide closure 64", lambda: wide_closure(64)),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--paths", type=int, default=24)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"{'program':<20}{'steps':>7}{'bare ms':>9}{'phases':>8}{'sampled':>9}{'orders':>8}{'check ms':>10}{'ms/order':>10}{'ratio':>8}")
    for name, make in PROGRAMS:
        judgement = goi.check(make())
        bare = min(_timed(lambda: goi.run(judgement, max_steps=10_000_000)) for _ in range(args.repeat))
        best = None
        for _ in range(args.repeat):
            execution = goi.prepare(judgement, checks=["determinism"], determinism_paths=args.paths)
            result = execution.run(10_000_000)
            assert result.status == "final", result.reason
            seconds = result.check_seconds["determinism"]
            if best is None or seconds < best[0]:
                best = (seconds, execution.monitor.checks[0], result)
        seconds, check, result = best
        per_order = seconds / check.explored * 1e3 if check.explored else 0.0
        print(
            f"{name:<20}{result.transitions:>7}{bare * 1e3:>9.1f}{check.phases:>8}{check.sampled_phases:>9}"
            f"{check.explored:>8}{seconds * 1e3:>10.1f}{per_order:>10.2f}{(bare + seconds) / bare:>7.1f}x",
            flush=True,
        )


def _timed(thunk) -> float:
    start = time.perf_counter()
    thunk()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
