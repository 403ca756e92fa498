"""What `--check all` would cost under other check policies: the data for choosing them
(issue 10's ratio targets: exhaustive ≤ 10×, sampled ≤ 3×). Not a test; ratios only.

    python benchmarks/bench_policy.py [--repeat 3] [--json out.json]

For each program and each check mode (exhaustive, sampled), the time of a run from a checked
judgement (translation included, as `bench_overhead.py` times it) as a multiple of the bare
run's, best of `--repeat`:
- `paths N`: every check, the determinism check exploring at most N orders per ?-phase
  (and N random ones beyond; the default policy is N = 24, the CI profile's 4);
- `no determinism`: the nine other checks;
- `no reruns`: every check but `alpha` and `gc`, the two that run the program again;
- `no determinism, no reruns`: what the checks of the graph and the token cost alone.
Each column but the first is a policy the project does not use by default: it shows what
giving up a part of `--check all` would buy, so that the choice can be made on figures.

Times are CPU time of this process (`time.process_time`, the machine's deep-stack thread
included), not wall time, which load moves far more (issue 53, item 7).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import goi  # noqa: E402
from goi.semantics.checks import registry  # noqa: E402
from bench_determinism import PROGRAMS as DETERMINISM_PROGRAMS  # noqa: E402
from bench_machine import church, let_chain  # noqa: E402

# bench_determinism's programs, and two small ones (where start-up counts most)
PROGRAMS = [("let chain 8", lambda: let_chain(8)), ("church 8", lambda: church(8)), *DETERMINISM_PROGRAMS]
ALL = list(registry())
POLICIES = [
    ("paths 24", ALL, 24),
    ("paths 4", ALL, 4),
    ("paths 1", ALL, 1),
    ("no determinism", [c for c in ALL if c != "determinism"], 24),
    ("no reruns", [c for c in ALL if c not in ("alpha", "gc")], 24),
    ("no determinism, no reruns", [c for c in ALL if c not in ("determinism", "alpha", "gc")], 24),
]


def best(judgement, repeat: int, **options) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()  # as `goi.run`: the translation too, as bench_overhead times it
        outcome = goi.prepare(judgement, **options).run(10_000_000)
        times.append(time.process_time() - start)
        assert outcome.status == "final", outcome.reason
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json")
    args = ap.parse_args()
    rows = []
    print(f"{'program':<20}{'mode':<12}" + "".join(f"{name:>28}" for name, _c, _p in POLICIES))
    for name, make in PROGRAMS:
        judgement = goi.check(make())
        bare = best(judgement, args.repeat * 2)
        for mode in ("exhaustive", "sampled"):
            row = {"program": name, "mode": mode, "bare_ms": bare * 1e3}
            for policy, checks, paths in POLICIES:
                row[policy] = best(judgement, args.repeat, checks=checks, check_mode=mode, determinism_paths=paths) / bare
            rows.append(row)
            print(f"{name:<20}{mode:<12}" + "".join(f"{row[p]:>27.1f}×" for p, _c, _n in POLICIES), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
