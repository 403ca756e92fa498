"""Before and after, in one sitting: the machine's benchmark families and the start-up
figures of two versions of goi (two git revisions), each built as a wheel and installed in
its own folder, run alternately on one pinned CPU. Not a test: it asserts nothing.

    python benchmarks/bench_compare.py BEFORE [AFTER]     (git revisions; AFTER: the working tree)
        [--runs N] [--rounds K] [--cpu C] [--view M]

For each family (bench_machine.FAMILIES, largest size) and for start-up (bench_startup's
let chains, from a judgement) it reports the best CPU time of N runs, the best over K rounds
of each version, after/before, each family's transitions on both sides and the ratio per
transition. Each side must import its own code: a revision of the older layout, whose
packages sit at the top level (d0dc9f3: `semantics`, no `goi`), is run through its own
`semantics.typecheck`, `translate` and `Machine`; a side whose package is not the one
installed in its folder (an editable install answering) is refused (`fingerprint`), since
the code would be compared with itself. A family a revision cannot read or run is said, not
compared. CPU time, not wall: on a shared machine wall times vary by a factor of two from
one moment to the next; the best of many runs pinned to one CPU (`taskset`, when there is
one) is what is compared. With --view M, each round also times M runs of `goi view` of the
authors' gradient-descent example (the whole command, its pictures by pygraphviz) per version.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = r'''
import os, sys, time
sys.path.insert(0, sys.argv[1])
site, layout = os.path.realpath(sys.argv[3]), sys.argv[4]
if layout == "goi":
    import goi as package
else:  # an older layout: the packages at the top level (d0dc9f3: semantics, generators, ...)
    import semantics as package
if not os.path.realpath(package.__file__).startswith(site + os.sep):  # another goi (an editable install) answered
    print(repr({"not-from-site": package.__file__}))
    sys.exit(0)
from bench_machine import FAMILIES, let_chain
if layout == "goi":
    def prepared(text):
        judgement = package.check(text)
        def run():
            execution = package.prepare(judgement)
            start = time.process_time()
            result = execution.run(50_000_000)
            return time.process_time() - start, result.transitions, result.status
        return run
    def start_up(text):
        package.run(package.check(text))
else:
    sys.setrecursionlimit(100_000)  # as that revision's own benchmarks/bench_machine.py did
    from semantics.machine import Machine, run_program
    from semantics.translate import translate
    from semantics.typecheck import check_program
    from semantics.values import RationalField
    def prepared(text):
        judgement = check_program(text)
        def run():
            field = RationalField()
            machine = Machine(translate(judgement, field), field)
            start = time.process_time()
            outcome = machine.run(50_000_000)
            return time.process_time() - start, outcome.steps, outcome.status
        return run
    def start_up(text):
        run_program(text)
runs = int(sys.argv[2])
out = {"layout": layout}
for name, (make, sizes) in FAMILIES.items():
    try:
        run = prepared(make(sizes[-1]))
    except Exception as exc:  # a family this revision cannot read (syntax added later)
        out[name] = {"error": f"{type(exc).__name__}: {exc}"[:200]}
        continue
    best, transitions, status = float("inf"), 0, ""
    for _ in range(runs):
        seconds, transitions, status = run()
        best = min(best, seconds)
    out[name] = {"seconds": best, "transitions": transitions} if status == "final" else {"error": f"status {status}"}
for n in (10, 40):
    text, best = let_chain(n), float("inf")
    for _ in range(runs * 4):
        start = time.process_time()
        start_up(text)
        best = min(best, time.process_time() - start)
    out[f"start-up, let chain {n}"] = {"seconds": best}
print(repr(out))
'''


def install(revision: str | None, into: Path) -> Path:
    """A wheel of `revision` (None: the working tree) installed, without dependencies, in a folder."""
    source = into / "src"
    if revision is not None:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(source), revision], check=True)
    else:  # the working tree's files, copied: a build in the checkout would leave build/ there, whose
        # stale modules (a file deleted since) a later wheel of the checkout could still take
        listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                check=True, capture_output=True).stdout.decode().split("\0")
        for name in filter(None, listed):
            if (ROOT / name).is_file():
                (source / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / name, source / name)
    wheels, site = into / "wheel", into / "site"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(source)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site),
                    *map(str, wheels.glob("*.whl"))], check=True)
    if layout(site) == "semantics":  # the older layout's wheel lists its packages but not their subpackages
        for package in ("semantics", "generators", "properties", "reports"):  # (d0dc9f3: no semantics.rules):
            if (source / package).is_dir():  # its own tree's packages, whole
                shutil.rmtree(site / package, ignore_errors=True)
                shutil.copytree(source / package, site / package)
    if revision is not None:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(source)], check=True)
    return site


def measure(site: Path, benchmarks: Path, runs: int, cpu: int) -> dict:
    pin = ["taskset", "-c", str(cpu)] if shutil.which("taskset") else []
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([*pin, sys.executable, "-c", PROBE, str(benchmarks), str(runs), str(site), layout(site)], env=env,
                          capture_output=True, text=True, cwd=str(benchmarks.parent))
    if done.returncode != 0:
        raise SystemExit(f"bench_compare: the probe of {site} failed:\n{done.stderr[-2000:]}")
    out = done.stdout
    found = eval(out)  # our own probe's repr of a dict
    if "not-from-site" in found:
        raise SystemExit(f"bench_compare: the code measured is not the revision installed in {site}: `import goi` "
                         f"found {found['not-from-site']} (that revision has no goi package of its own?); "
                         "nothing compared")
    return found


def layout(site: Path) -> str:
    """The package a version's folder holds: `goi`, or (the older layout) `semantics`."""
    return "goi" if (site / "goi").is_dir() else "semantics"



def fingerprint(site: Path, cwd: Path) -> str:
    """Where this version's PYTHONPATH imports goi from (a revision of the older layout, with its
    packages at the top level: `semantics`); SystemExit unless it is the version's own folder
    (a revision without a package of its own would be answered by whatever goi is installed:
    the code compared with itself)."""
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run([sys.executable, "-c", f"import {layout(site)}; print({layout(site)}.__file__)"], env=env,
                           capture_output=True,
                           text=True, cwd=str(cwd)).stdout.strip()
    if not os.path.realpath(where).startswith(os.path.realpath(site) + os.sep):
        raise SystemExit(f"bench_compare: the package with {site} first on the path is {where or 'nothing'}, "
                         "not that revision's own code; nothing compared")
    return where


GRADIENT = ROOT / "tests" / "programs" / "visualiser" / "gradient_descent_in_calculus.goi"


def view(site: Path, cwd: Path, runs: int, cpu: int) -> float:
    """The best wall time of `runs` runs of `goi view` of gradient descent by this version."""
    pin = ["taskset", "-c", str(cpu)] if shutil.which("taskset") else []
    env = {**os.environ, "PYTHONPATH": str(site)}
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([*pin, sys.executable, "-m", "goi", "view", str(GRADIENT), "-o", str(cwd / "view.html")], env=env,
                       check=True, capture_output=True, cwd=str(cwd))
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("before")
    ap.add_argument("after", nargs="?")
    ap.add_argument("--runs", type=int, default=15, help="runs per family and round (default 15; 0: none)")
    ap.add_argument("--rounds", type=int, default=3, help="alternations of the two versions (default 3)")
    ap.add_argument("--cpu", type=int, default=0, help="the CPU to pin to (default 0)")
    ap.add_argument("--view", type=int, default=0, metavar="M", help="also time M runs of goi view of gradient descent a round")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        benchmarks = tmp_path / "bench" / "benchmarks"  # a copy: its parent holds no `goi` folder
        shutil.copytree(ROOT / "benchmarks", benchmarks)
        sites = {"before": install(args.before, tmp_path / "before"), "after": install(args.after, tmp_path / "after")}
        for site in sites.values():
            fingerprint(site, benchmarks.parent)  # each side runs its own code, or nothing is compared
        best: dict = {"before": {}, "after": {}}
        layouts = {}
        for _ in range(args.rounds):
            for version in ("before", "after"):
                times = measure(sites[version], benchmarks, args.runs, args.cpu) if args.runs else {}
                layouts[version] = times.pop("layout", "goi")
                if args.view:
                    times["goi view, gradient descent"] = {"seconds": view(sites[version], benchmarks.parent, args.view,
                                                                           args.cpu)}
                for name, figure in times.items():
                    kept = best[version].get(name)
                    if kept is None or "error" not in figure and ("error" in kept or figure["seconds"] < kept["seconds"]):
                        best[version][name] = figure
    print(f"layouts: before {layouts.get('before')}, after {layouts.get('after')}; "
          "CPU time of each run (the best of all rounds), transitions of its last run")
    print(f"{'':<28}{'before ms':>11}{'after ms':>11}{'after/before':>14}{'transitions':>22}{'per transition':>16}")
    summed = {"before": 0.0, "after": 0.0}
    for name in best["before"]:
        b, a = best["before"][name], best["after"].get(name, {"error": "missing"})
        if "error" in b or "error" in a:
            print(f"{name:<28}  not compared: {b.get('error') or a.get('error')}")
            continue
        line = f"{name:<28}{b['seconds'] * 1e3:>11.2f}{a['seconds'] * 1e3:>11.2f}{a['seconds'] / b['seconds']:>14.3f}"
        if "transitions" in b:
            per = (a["seconds"] / a["transitions"]) / (b["seconds"] / b["transitions"])
            line += f"{b['transitions']:>11} → {a['transitions']:<8}{per:>16.3f}"
            summed["before"] += b["seconds"]
            summed["after"] += a["seconds"]
        print(line)
    if summed["before"]:
        print(f"{'families, summed':<28}{summed['before'] * 1e3:>11.2f}{summed['after'] * 1e3:>11.2f}"
              f"{summed['after'] / summed['before']:>14.3f}")


if __name__ == "__main__":
    main()
