"""How quickly, and how completely, oracle mode finds the bugs of a zoo of implementations
(issue 31; not a test: the table it prints is in benchmarks/README.md).

Each implementation of the zoo (benchmarks/zoo/, and the mocks of tests/oracle_mocks/) has
one or two planted bugs, each switched on by name (GOI_BUGS). For each implementation and seed,
`goi oracle` runs at its default settings (the default profile: 300 programs at depth 5, the
default shrink budget; no corpus, so that only the search is measured) with all its bugs on.
Each bucket's program (shrunk, or with --no-shrink its first) is then put to the same
implementation with one bug on at a time: the bugs under which it still fails with the bucket's
signature *explain* the bucket. A bug is found when a
bucket is explained by it; it has its own bucket when a bucket is explained by it alone. A bucket
no bug explains is a false alarm. Reported per bug: found in how many seeds, with its own bucket in how
many, in how many it is counted as exactly one defect (the buckets the report counts as
defects that it alone explains; a bucket listed as another program of an earlier defect is not
one), the median programs and seconds until its first bucket's first program, the median
length of the shrunk program. The summary also counts the further minimal programs (`#k`)
whose bug is their bucket's own: one defect shown twice; of them, those listed as "perhaps another
bug" (the report's claim that is wrong), the rest said to be the same defect as a bucket. And
the merges that hide a bug: a bucket said to be the same defect as another bug's bucket.

    python benchmarks/bench_bugfinding.py [--seeds 5] [--jobs 2] [--only NAME,…]
        [--search fit,swarm,…|none] [--no-shrink] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ZOO = ROOT / "benchmarks" / "zoo"
MOCKS = ROOT / "tests" / "oracle_mocks"


@dataclass
class Implementation:
    name: str
    command: list
    bugs: list  # the planted bugs' names (GOI_BUGS); one bug: the file has only that one
    options: dict = field(default_factory=dict)  # OracleConfig fields
    language: str = "Python"
    selectable: bool = True  # False: a one-bug mock of the tests, always on


def py(path: Path) -> list:
    return [sys.executable, str(path), "--lines"]


IMPLEMENTATIONS = [
    Implementation("crash_on_subtraction", py(MOCKS / "crash_on_subtraction.py"), ["subtraction-crash"], selectable=False),
    Implementation("reject_dot", py(MOCKS / "reject_dot.py"), ["dot-rejected"], selectable=False),
    Implementation("loop_on_iteration", py(MOCKS / "loop_on_iteration.py"), ["iteration-loop"], {"timeout": 1.0},
                   selectable=False),
    Implementation("duplicate_shared_constant", py(MOCKS / "duplicate_shared_constant.py"), ["shared-constant-duplicated"],
                   selectable=False),
    Implementation("float_arithmetic", py(MOCKS / "float_arithmetic.py"), ["float-rounding"], selectable=False),
    Implementation("accept_ill_typed", py(MOCKS / "accept_ill_typed.py"), ["accepts-ill-typed"], {"ill_typed": True},
                   selectable=False),
    Implementation("two_errors", py(ZOO / "two_errors.py"), ["sub-error", "mul-error"]),
    Implementation("visualiser.js", ["node", str(ZOO / "visualiser.js"), "--lines"], ["modified-model", "odd-fold"],
                   {"notation": "visualiser", "tolerance": Fraction(1, 10**9), "timeout": 1.0}, language="JavaScript"),
    Implementation("goi_mutant", py(ZOO / "goi_mutant.py"), ["sub-swapped", "fold-left"]),
    Implementation("sharing_in_decoupling", py(ZOO / "sharing_in_decoupling.py"), ["outer-constant-split", "function-twice"]),
    Implementation("float_division", py(ZOO / "float_division.py"), ["div-zero"], {"tolerance": Fraction(1, 10**9)}),
    Implementation("signs_and_strict", py(ZOO / "signs_and_strict.py"), ["negative-provisional", "strict-division"]),
    # issue 40: other families, aimed at with a notation file and an arithmetic (no Python of goi's)
    Implementation("pcf.js", ["node", str(ZOO / "pcf.js")], ["plus-crash", "stuck-contraction", "deep-capture"],
                   {"notation": str(ZOO / "pcf.toml"), "arithmetic": "ieee754"}, language="JavaScript"),
    Implementation("intml", py(ZOO / "intml.py"), ["sub-right-assoc", "params-reversed"],
                   {"notation": str(ROOT / "docs" / "examples" / "notations" / "ml.toml"), "arithmetic": "integer",
                    "division": "strict"}),
    Implementation("operations", py(ZOO / "operations.py"), ["stuck-copy", "stack-wrap"],
                   {"notation": str(ROOT / "docs" / "examples" / "notations" / "operations.toml")}),
    # issue 51: bugs in sharing and weakening, as real DGoIM implementations have them (S-expressions)
    Implementation("sexp.js", ["node", str(ZOO / "sexp.js")], ["wide-contraction", "copied-capture"],
                   {"notation": str(ZOO / "sexp.toml"), "arithmetic": "ieee754"}, language="JavaScript"),
]


def config(impl: Implementation, seed: int, search, shrink: bool):
    from goi.cli.commands.oracle import BUDGETS
    from goi.oracle import OracleConfig

    programs, depth = BUDGETS["default"]
    options = dict(command=impl.command, protocol="lines", seed=seed, max_programs=programs, max_depth=depth,
                   database=None, corpus=False, **impl.options)
    if search is not None:
        options["search"] = frozenset(search)
    if not shrink:
        options["shrink_calls"] = 1  # the bucket's first program stands for it
    return OracleConfig(**options)


def one(job):
    """One implementation and seed: the run, then each bucket's explanation by single bugs."""
    impl, seed, search, shrink = job
    from goi.oracle import AGREE, Oracle

    os.environ.pop("GOI_BUGS", None)
    started = time.perf_counter()
    report = Oracle(config(impl, seed, search, shrink)).run()
    seconds = time.perf_counter() - started
    buckets = []
    for sig, s in report.shrunk.items():
        text = s.case.text if shrink else (s.first or s.case).text
        explained = []
        for bug in impl.bugs:
            if not impl.selectable:
                explained.append(bug)
                continue
            os.environ["GOI_BUGS"] = bug
            oracle = Oracle(config(impl, seed, search, shrink))
            try:
                case = oracle.classify(text)
            finally:
                oracle.close()
            if case is not None and case.klass != AGREE and case.signature == _base(sig):
                explained.append(bug)  # this bug alone gives this very failure
        os.environ.pop("GOI_BUGS", None)
        buckets.append({"signature": sig, "program": text, "count": s.count, "found_after": s.found_after,
                        "find_seconds": round(s.find_seconds, 2), "complete": s.complete, "explained_by": explained,
                        # what the report counts: a defect of its own, or another program of one
                        "defect": sig in report.defects, "another_program_of": s.same_defect_as or (
                            s.signature if sig != s.signature else None),
                        "same_defect_as": s.same_defect_as})  # None: listed as "perhaps another bug" (a #k) or a defect
    false_alarms = [b for b in buckets if not b["explained_by"]]  # a bucket no planted bug explains
    return {"implementation": impl.name, "seed": seed, "seconds": round(seconds, 1), "programs": report.programs,
            "skipped": report.skipped, "duplicates": report.duplicates, "buckets": buckets,
            "false_alarms": len(false_alarms), "refused": report.counts.get("rejects-valid", 0),
            "same_bug_extras": len(_same_bug_extras(buckets)),
            "said_another_bug": len([b for b in _same_bug_extras(buckets) if b["same_defect_as"] is None]),
            "wrong_merges": len(_wrong_merges(buckets))}


def _same_bug_extras(buckets: list) -> list:
    """The further minimal programs listed for a bucket (`SIGNATURE #k`, "perhaps another bug")
    whose planted bug is the bucket's own: one defect shown as two, which "one bucket per
    defect" rules out (issue 51). A bucket listed as another program of an earlier defect is
    not one: the report already says it is the same defect."""
    by_signature = {b["signature"]: b for b in buckets}
    out = []
    for b in buckets:
        root = by_signature.get(_base(b["signature"])) if _base(b["signature"]) != b["signature"] else None
        if root is not None and len(b["explained_by"]) == 1 and b["explained_by"] == root["explained_by"]:
            out.append(b)
    return out


def _wrong_merges(buckets: list) -> list:
    """The buckets (and #k) the report says are the same defect as another bucket whose planted
    bug is not theirs: a second bug hidden behind a first (a merge that must not happen)."""
    by_signature = {b["signature"]: b for b in buckets}
    out = []
    for b in buckets:
        into = by_signature.get(b.get("same_defect_as") or "")
        if into is not None and b["explained_by"] and not set(b["explained_by"]) & set(into["explained_by"]):
            out.append(b)
    return out


def _base(signature: str) -> str:
    """A bucket's signature without the number of another member of the catch-all (" #2")."""
    head, sep, tail = signature.rpartition(" #")
    return head if sep and tail.isdigit() else signature


def per_bug(results: list, impls: list) -> list:
    rows = []
    for impl in impls:
        runs = [r for r in results if r["implementation"] == impl.name]
        for bug in impl.bugs:
            found, alone, programs, seconds, sizes, defects = 0, 0, [], [], [], []
            for r in runs:
                mine = [b for b in r["buckets"] if bug in b["explained_by"]]
                if not mine:
                    continue
                found += 1
                # the defects the report counts that this bug alone explains (1: counted once)
                defects.append(sum(1 for b in mine if b.get("defect", True) and b["explained_by"] == [bug]))
                alone += any(b["explained_by"] == [bug] for b in mine)
                first = min(mine, key=lambda b: b["found_after"])
                programs.append(first["found_after"] + 1)
                seconds.append(first["find_seconds"])
                sizes.append(min(len(b["program"]) for b in mine))
            rows.append({"implementation": impl.name, "language": impl.language, "bug": bug, "seeds": len(runs),
                         "found": found, "own_bucket": alone,
                         "median_programs": statistics.median(programs) if programs else None,
                         "median_seconds": statistics.median(seconds) if seconds else None,
                         "median_shrunk_chars": statistics.median(sizes) if sizes else None,
                         "counted_once": sum(1 for n in defects if n == 1), "most_defects": max(defects, default=0)})
    return rows


def table(rows: list, results: list) -> str:
    lines = ["| implementation | bug | found (seeds) | own bucket | counted as one defect | median programs to find | "
             "median s to find | median shrunk size (chars) |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        fmt = lambda v: "—" if v is None else (f"{v:g}" if isinstance(v, (int, float)) else str(v))  # noqa: E731
        most = f" (up to {r['most_defects']})" if r["most_defects"] > 1 else ""
        lines.append(f"| {r['implementation']} ({r['language']}) | {r['bug']} | {r['found']}/{r['seeds']} | "
                     f"{r['own_bucket']}/{r['seeds']} | {r['counted_once']}/{r['found']}{most} | "
                     f"{fmt(r['median_programs'])} | {fmt(r['median_seconds'])} | "
                     f"{fmt(r['median_shrunk_chars'])} |")
    total = sum(r["seeds"] for r in rows)
    found = sum(r["found"] for r in rows)
    alone = sum(r["own_bucket"] for r in rows)
    skipped = sum(r["skipped"] for r in results)
    drawn = sum(r["programs"] + r["skipped"] + r["duplicates"] for r in results)
    alarms = sum(r["false_alarms"] for r in results)
    refused = sum(r["refused"] for r in results)
    sent = sum(r["programs"] for r in results)
    slowest = max((r["seconds"] for r in results), default=0)
    once = sum(r["counted_once"] for r in rows)
    extras = sum(r.get("same_bug_extras", 0) for r in results)
    said = sum(r.get("said_another_bug", 0) for r in results)
    merges = sum(r.get("wrong_merges", 0) for r in results)
    lines.append(f"\n{len(rows)} bugs × seeds: {found}/{total} found, {alone}/{total} in a bucket of their own, "
                 f"{once}/{found} counted as exactly one defect; {extras} further minimal programs (#k) "
                 f"whose bug is their bucket's ({said} of them listed as perhaps another bug, the rest said to be "
                 f"the same defect); {merges} buckets said to be the same defect as another bug's (a bug hidden); "
                 f"{alarms} false alarms (buckets no planted bug explains); {refused} of {sent} programs refused by "
                 f"the implementation; {skipped} of {drawn} draws not expressible; "
                 f"{sum(r['seconds'] for r in results):.0f} s of runs, the longest {slowest:.0f} s")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2, help="runs in parallel (processes)")
    parser.add_argument("--only", help="implementations, comma-separated")
    parser.add_argument("--search", help="the search's techniques (default: all of SEARCH); none: none of them")
    parser.add_argument("--no-shrink", action="store_true", help="no shrinking: each bucket's first program explains it")
    parser.add_argument("--json", help="also write the runs and the table's rows to this file")
    args = parser.parse_args()
    impls = [i for i in IMPLEMENTATIONS if not args.only or i.name in args.only.split(",")]
    search = None if args.search is None else ([] if args.search == "none" else args.search.split(","))
    jobs = [(impl, seed, search, not args.no_shrink) for impl in impls for seed in range(args.seeds)]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(one, jobs))
    rows = per_bug(results, impls)
    print(table(rows, results))
    print(f"wall clock {time.perf_counter() - started:.0f} s with {args.jobs} processes; search "
          f"{'all' if search is None else ','.join(search) or 'none'}; {'no shrink' if args.no_shrink else 'shrunk'}")
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": results, "bugs": rows}, indent=1, default=str) + "\n")


if __name__ == "__main__":
    main()
