"""The share of a survey spent on a known bucket (issue 51, item 6; not a test: the figures are in
benchmarks/README.md). tests/oracle_mocks/crash_on_unused.py crashes on any program with a binder
nobody uses — most generated programs — and computes a product of two constants as their sum. Its
crash is set aside with --known (a program that shows it, as a user would write it); each seed's
default survey is run and the programs that still went to the known bucket are counted. Run it
from the checkout to measure (a baseline: the same script in that revision's worktree, with that
revision's goi imported — it prints which file it imported).

    python benchmarks/bench_known.py [--seeds 5] [--programs 300]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--programs", type=int, default=300)
    args = parser.parse_args()
    import goi.oracle.survey as survey
    from goi.oracle import Oracle, OracleConfig
    from goi.oracle.known import read_known

    print(f"goi from {survey.__file__}")
    known = Path(tempfile.mkdtemp()) / "known.txt"
    known.write_text("let x = 1 in 0\n", encoding="utf-8")
    mock = [sys.executable, str(ROOT / "tests" / "oracle_mocks" / "crash_on_unused.py"), "--lines"]
    shares = []
    for seed in range(args.seeds):
        report = Oracle(OracleConfig(command=mock, protocol="lines", max_programs=args.programs, max_depth=5, seed=seed,
                                     database=None, corpus=False, jobs=2, known=read_known([str(known)]))).run()
        spent = sum(report.known.values())
        shares.append(spent / max(1, report.programs))
        print(f"seed {seed}: {spent} of {report.programs} programs on the known bucket ({shares[-1]:.0%}); "
              f"new buckets: {list(report.shrunk)}")
    print(f"median share on the known bucket: {statistics.median(shares):.0%} (min {min(shares):.0%}, max {max(shares):.0%})")


if __name__ == "__main__":
    main()
