"""The bare machine on small programs: `goi.run` on let chains of 5–40 lets, from the
program's text and from an already checked judgement (best of `--repeat` runs each; what a
run costs when start-up and per-transition dispatch dominate). Never asserted.

    python benchmarks/bench_startup.py [--repeat 100]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import goi  # noqa: E402
from bench_machine import let_chain  # noqa: E402


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=100)
    args = ap.parse_args()
    for n in (5, 10, 20, 40):
        text = let_chain(n)
        judgement = goi.check(text)
        transitions = goi.run(judgement).transitions
        from_text = best(lambda: goi.run(text), args.repeat)
        from_judgement = best(lambda: goi.run(judgement), args.repeat)
        print(f"let chain {n}: {transitions} transitions, from text {from_text * 1e3:.2f} ms, "
              f"from a judgement {from_judgement * 1e3:.2f} ms ({from_judgement / transitions * 1e6:.2f} µs per transition)")


if __name__ == "__main__":
    main()
