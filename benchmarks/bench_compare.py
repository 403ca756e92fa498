"""Before and after, in one sitting: the machine's benchmark families and the start-up
figures of two versions of goi (two git revisions), each built as a wheel and installed in
its own folder, run alternately on one pinned CPU. Not a test: it asserts nothing.

    python benchmarks/bench_compare.py BEFORE [AFTER]     (git revisions; AFTER: the working tree)
        [--runs N] [--rounds K] [--cpu C] [--view M]

For each family (bench_machine.FAMILIES, largest size) and for start-up (bench_startup's
let chains, from a judgement) it reports the best time of N runs, the best over K rounds
of each version, and after/before. Each side must import its own code: a revision whose wheel
has no `goi` package (an older layout) would be answered by whatever goi is installed, and
the code compared with itself — refused (`fingerprint`). On a shared machine times vary by a factor of two from
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
import goi
site = os.path.realpath(sys.argv[3])
if not os.path.realpath(goi.__file__).startswith(site + os.sep):  # another goi (an editable install) answered
    print(repr({"not-from-site": goi.__file__}))
    sys.exit(0)
from bench_machine import FAMILIES, let_chain
runs = int(sys.argv[2])
out = {}
for name, (make, sizes) in FAMILIES.items():
    j = goi.check(make(sizes[-1]))
    best = float("inf")
    for _ in range(runs):
        execution = goi.prepare(j)
        start = time.perf_counter()
        execution.run(50_000_000)
        best = min(best, time.perf_counter() - start)
    out[name] = best
for n in (10, 40):
    j = goi.check(let_chain(n))
    best = float("inf")
    for _ in range(runs * 4):
        start = time.perf_counter()
        goi.run(j)
        best = min(best, time.perf_counter() - start)
    out[f"start-up, let chain {n}"] = best
print(repr(out))
'''


def install(revision: str | None, into: Path) -> Path:
    """A wheel of `revision` (None: the working tree) installed, without dependencies, in a folder."""
    source = ROOT
    if revision is not None:
        source = into / "src"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(source), revision], check=True)
    wheels, site = into / "wheel", into / "site"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(source)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site),
                    *map(str, wheels.glob("*.whl"))], check=True)
    if revision is not None:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(source)], check=True)
    return site


def measure(site: Path, benchmarks: Path, runs: int, cpu: int) -> dict:
    pin = ["taskset", "-c", str(cpu)] if shutil.which("taskset") else []
    env = {**os.environ, "PYTHONPATH": str(site)}
    out = subprocess.run([*pin, sys.executable, "-c", PROBE, str(benchmarks), str(runs), str(site)], env=env,
                         check=True, capture_output=True, text=True, cwd=str(benchmarks.parent)).stdout
    found = eval(out)  # our own probe's repr of a dict
    if "not-from-site" in found:
        raise SystemExit(f"bench_compare: the code measured is not the revision installed in {site}: `import goi` "
                         f"found {found['not-from-site']} (that revision has no goi package of its own?); "
                         "nothing compared")
    return found


def fingerprint(site: Path, cwd: Path) -> str:
    """Where `python -m goi` imports goi from with this version's PYTHONPATH; SystemExit unless
    it is the version's own folder (a revision without a `goi` package would be answered by
    whatever goi is installed: the code compared with itself)."""
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run([sys.executable, "-c", "import goi; print(goi.__file__)"], env=env, capture_output=True,
                           text=True, cwd=str(cwd)).stdout.strip()
    if not os.path.realpath(where).startswith(os.path.realpath(site) + os.sep):
        raise SystemExit(f"bench_compare: `import goi` with {site} first on the path gives {where or 'nothing'}, "
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
        for _ in range(args.rounds):
            for version in ("before", "after"):
                times = measure(sites[version], benchmarks, args.runs, args.cpu) if args.runs else {}
                if args.view:
                    times["goi view, gradient descent"] = view(sites[version], benchmarks.parent, args.view, args.cpu)
                for name, seconds in times.items():
                    best[version][name] = min(best[version].get(name, float("inf")), seconds)
    print(f"{'':<24}{'before ms':>11}{'after ms':>11}{'after/before':>14}")
    for name in best["before"]:
        b, a = best["before"][name], best["after"][name]
        print(f"{name:<24}{b * 1e3:>11.2f}{a * 1e3:>11.2f}{a / b:>14.3f}")
    families = [n for n in best["before"] if not n.startswith(("start-up", "goi view"))]
    if not families:
        return
    total_b = sum(best["before"][n] for n in families)
    total_a = sum(best["after"][n] for n in families)
    print(f"{'families, summed':<24}{total_b * 1e3:>11.2f}{total_a * 1e3:>11.2f}{total_a / total_b:>14.3f}")


if __name__ == "__main__":
    main()
