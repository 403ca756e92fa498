"""What the determinism check does and what it costs, per program: the ?-phases with a choice
it explored, the orders it ran (each in a trial, from the phase's first choice to box.close),
how many phases had more than `determinism_paths` orders (then sampled), and the time per
order. Not a test; ratios and counts only.

    python benchmarks/bench_determinism.py [--paths 24] [--repeat 3] [--parts]

With `--parts`, also where an explored phase's time goes, in ms over the run: describing the
end states (compare.canonical_region), the orders' rewrites, listing the enabled rewrites at
each step (Machine.enabled, the machine's own steps included), the trials' bookkeeping
(Trial.touched, Trial.end). Timing the parts slows the checked runs a little (the bare
runs are timed before): the figures are for comparing the parts.

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
    ap.add_argument("--parts", action="store_true", help="also time the parts of the check")
    args = ap.parse_args()
    judgements = [(name, goi.check(make())) for name, make in PROGRAMS]
    bares = [min(_timed(lambda: goi.run(j, max_steps=10_000_000)) for _ in range(args.repeat)) for _n, j in judgements]
    parts = _time_parts() if args.parts else None  # after the bare runs, which it would slow
    print(f"{'program':<20}{'steps':>7}{'bare ms':>9}{'phases':>8}{'sampled':>9}{'orders':>8}{'check ms':>10}{'ms/order':>10}{'ratio':>8}")
    for (name, judgement), bare in zip(judgements, bares):
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
        if parts is not None:  # the totals of the last repetition
            print("    " + ", ".join(f"{part} {ms:.0f}" for part, ms in parts.take(args.repeat)), flush=True)


class _Parts:
    """Wall time spent in some functions, per name (wrapped in place for this process)."""

    def __init__(self):
        self.seconds: dict[str, list[float]] = {}

    def wrap(self, owner, attribute: str, part: str) -> None:
        function = getattr(owner, attribute)
        spent = self.seconds.setdefault(part, [])

        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent.append(time.perf_counter() - start)

        setattr(owner, attribute, timed)

    def take(self, runs: int) -> list[tuple[str, float]]:
        """ms per run of each part since the last take (the average over `runs` runs)."""
        out = [(part, sum(times) * 1e3 / runs) for part, times in self.seconds.items()]
        for times in self.seconds.values():
            times.clear()
        return sorted(out, key=lambda item: -item[1])


def _time_parts() -> _Parts:
    from goi.semantics import compare
    from goi.semantics.checks import determinism
    from goi.semantics.trial import Trial
    from goi.semantics.machine import Machine

    parts = _Parts()
    parts.wrap(compare, "canonical_region", "describing end states")
    parts.wrap(determinism.Determinism, "_apply", "rewrites")
    parts.wrap(Machine, "enabled", "listing enabled rewrites")
    parts.wrap(Trial, "touched", "touched in trial")
    parts.wrap(Trial, "end", "end of trial")
    return parts


def _timed(thunk) -> float:
    start = time.perf_counter()
    thunk()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
