"""Oracle mode's throughput (issue 12): programs per second against the correct mock
implementation (tests/oracle_mocks/correct.py: a Python process per program that imports
goi and runs the machine), with --jobs 1 and 2. Never asserted.

    python benchmarks/bench_oracle.py [--programs 60]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from goi.properties.oracle import Oracle, OracleConfig

MOCK = Path(__file__).resolve().parent.parent / "tests/oracle_mocks/correct.py"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--programs", type=int, default=60)
    args = ap.parse_args()
    start = time.perf_counter()
    import subprocess

    for _ in range(5):
        subprocess.run([sys.executable, str(MOCK)], input="1 + 2", capture_output=True, text=True, check=True)
    per_call = (time.perf_counter() - start) / 5
    print(f"one call of the mock on `1 + 2`: {per_call * 1e3:.0f} ms (process start, import goi, parse, run)")
    for jobs in (1, 2):
        oracle = Oracle(OracleConfig(command=[sys.executable, str(MOCK)], max_programs=args.programs, jobs=jobs,
                                     database=None, corpus=False))
        report = oracle.run()
        assert report.failures == 0
        print(f"--jobs {jobs}: {report.programs} programs in {report.survey_seconds:.1f} s: "
              f"{report.programs / report.survey_seconds:.1f} programs/s ({oracle.calls} implementation calls)")


if __name__ == "__main__":
    main()
