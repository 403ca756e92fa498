"""Oracle mode's throughput: programs per second against the correct mock implementation
(tests/oracle_mocks/correct.py, which imports goi and runs the machine), with the one-shot
protocol (a Python process per program) and the persistent one (--protocol lines: one
process per job, answering JSON lines), --jobs 1 and 2; and where the time goes (our own
expected values against the implementation's answers, summed over the jobs). Never asserted.

    python benchmarks/bench_oracle.py [--programs 300] [--oneshot-programs 60]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from goi.oracle import Oracle, OracleConfig

MOCK = Path(__file__).resolve().parent.parent / "tests/oracle_mocks/correct.py"


def survey(protocol: str, jobs: int, programs: int) -> None:
    command = [sys.executable, str(MOCK)] + (["--lines"] if protocol == "lines" else [])
    oracle = Oracle(OracleConfig(command=command, protocol=protocol, max_programs=programs, jobs=jobs, database=None,
                                 corpus=False, max_depth=4))
    report = oracle.run()
    assert report.failures == 0, report.counts
    ours, theirs = oracle.seconds["ours"], oracle.seconds["implementation"]
    print(f"{protocol:<8} --jobs {jobs}: {report.programs} programs ({oracle.calls} calls) in {report.survey_seconds:5.1f} s: "
          f"{report.programs / report.survey_seconds:6.1f} programs/s; ours {ours:5.2f} s, implementation {theirs:5.2f} s "
          f"({1e3 * theirs / max(1, oracle.calls):.1f} ms a call)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--programs", type=int, default=300)
    ap.add_argument("--oneshot-programs", type=int, default=60)
    args = ap.parse_args()
    start = time.perf_counter()
    for _ in range(5):
        subprocess.run([sys.executable, str(MOCK)], input="1 + 2", capture_output=True, text=True, check=True)
    print(f"one one-shot call of the mock on `1 + 2`: {(time.perf_counter() - start) / 5 * 1e3:.0f} ms "
          "(process start, import goi, parse, run)")
    for jobs in (1, 2):
        survey("oneshot", jobs, args.oneshot_programs)
    for jobs in (1, 2):
        survey("lines", jobs, args.programs)


if __name__ == "__main__":
    main()
