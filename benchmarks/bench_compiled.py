"""The machine's hot modules compiled (Cython, pure-Python mode: the same .py files, no
annotations added) against the same modules interpreted, in one sitting (issue 53, item 3).
Not a test: it asserts nothing of speed; it exits 1 if the two builds disagree on any
program, and refuses to compare a side that does not run the code it names.

    python benchmarks/bench_compiled.py [--runs N] [--rounds K] [--cpu C] [--generated M]

Needs Cython and a C compiler (`pip install cython`; gcc and the Python headers). The working
tree is built as a wheel and installed twice in a temporary folder, without dependencies; in
the second copy the modules of HOT are compiled in place, so that their extension modules
shadow the .py files beside them. Each side is then probed in its own process, pinned to one
CPU (`taskset`, when there is one), alternately for K rounds:

- each side first proves what it runs: every module of HOT is an extension module on the
  compiled side and a .py file on the interpreted side, imported from that side's folder;
- bench_machine's families (largest size): the best CPU time of N runs; the ratio per
  transition (interpreted / compiled: above 1, the compiled build is faster);
- agreement: the families, the 20 corpus programs and the first M programs of each size
  1..6 of the enumeration (`goi.enumerate`), each run once on both sides, compared by
  status, value, transitions and rule counts.

Adopting a compiled build (the issue) needs at least 2x per transition with the same
transitions and values everywhere; benchmarks/README.md records the measurement and the
decision.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_compare import install  # noqa: E402  (the working tree as a wheel in a folder)

# The modules a transition runs through: the machine's loop, the graph and its token, the
# values, every rule module and its registry, and the translation (a run's set-up).
HOT = ("machine", "graph", "token", "values", "translate", "rules.registry", "rules.surgery", "rules.passes",
       "rules.compute", "rules.open_box", "rules.deep", "rules.closed_box")

BUILD = r'''
import sys
from setuptools import Extension, setup
from Cython.Build import cythonize
names = sys.argv[1:]
extensions = [Extension(f"goi.semantics.{n}", [f"goi/semantics/{n.replace('.', '/')}.py"]) for n in names]
setup(name="goi-compiled-probe", packages=[], py_modules=[],
      ext_modules=cythonize(extensions, language_level=3, nthreads=2, quiet=True),
      script_args=["build_ext", "--inplace", "--build-temp", "build"])
'''

PROBE = r'''
import importlib, os, sys, time
site, compiled, runs, generated = os.path.realpath(sys.argv[1]), sys.argv[2] == "1", int(sys.argv[3]), int(sys.argv[4])
hot = sys.argv[5].split(",")
import goi
wrong = []
for name in hot:
    module = importlib.import_module(f"goi.semantics.{name}")
    where = os.path.realpath(module.__file__)
    if not where.startswith(site + os.sep) or where.endswith(".py") == compiled:
        wrong.append(where)
if wrong:
    print(repr({"wrong-code": wrong}))
    sys.exit(0)
from bench_machine import FAMILIES
from goi.enumerate import Enumeration
from goi.corpus import __path__ as corpus_path

def seen(result):
    return (result.status, repr(result.value), result.transitions, tuple(sorted(result.rules.items())))

out, agreement = {}, {}
for name, (make, sizes) in FAMILIES.items():
    judgement = goi.check(make(sizes[-1]))
    best = float("inf")
    for _ in range(runs):
        execution = goi.prepare(judgement)
        start = time.process_time()
        result = execution.run(50_000_000)
        best = min(best, time.process_time() - start)
    out[name] = {"seconds": best, "transitions": result.transitions}
    agreement[f"family {name}"] = seen(result)
for path in sorted(p for folder in corpus_path for p in __import__("pathlib").Path(folder).glob("*/*.goi")):
    agreement[f"corpus {path.parent.name}/{path.name}"] = seen(goi.run(goi.check(path.read_text())))
enumeration = Enumeration()
for size in range(1, 7):
    for index in range(min(generated, enumeration.count(size))):
        agreement[f"generated size {size} #{index}"] = seen(goi.run(enumeration.program(size, index)))
print(repr({"times": out, "agreement": agreement}))
'''


def compile_hot(site: Path) -> None:
    """Compile HOT in place inside an installed copy: each module's extension beside its .py."""
    done = subprocess.run([sys.executable, "-c", BUILD, *HOT], cwd=str(site), capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench_compiled: compiling failed (Cython and a C compiler are needed: pip install cython):\n"
                         f"{done.stderr[-3000:]}")
    shutil.rmtree(site / "build", ignore_errors=True)


def probe(site: Path, compiled: bool, runs: int, generated: int, cpu: int, cwd: Path) -> dict:
    pin = ["taskset", "-c", str(cpu)] if shutil.which("taskset") else []
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([*pin, sys.executable, "-c", PROBE, str(site), "1" if compiled else "0", str(runs),
                           str(generated), ",".join(HOT)], env=env, capture_output=True, text=True, cwd=str(cwd))
    if done.returncode != 0:
        raise SystemExit(f"bench_compiled: the probe of {site} failed:\n{done.stderr[-2000:]}")
    found = eval(done.stdout)  # our own probe's repr of a dict
    if "wrong-code" in found:
        side = "compiled" if compiled else "interpreted"
        raise SystemExit(f"bench_compiled: the {side} side imported {found['wrong-code']}, not its own "
                         f"{'extension modules' if compiled else '.py files'}; nothing compared")
    return found


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10, help="runs per family and round (default 10)")
    ap.add_argument("--rounds", type=int, default=3, help="alternations of the two builds (default 3)")
    ap.add_argument("--cpu", type=int, default=0, help="the CPU to pin to (default 0)")
    ap.add_argument("--generated", type=int, default=200, help="programs of each size 1..6 compared (default 200)")
    args = ap.parse_args()
    if importlib.util.find_spec("Cython") is None:
        raise SystemExit("bench_compiled: Cython is not installed (pip install cython)")
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        cwd = tmp_path / "bench" / "benchmarks"  # a copy of the benchmarks: its parent holds no goi folder
        shutil.copytree(HERE, cwd)
        sites = {"interpreted": install(None, tmp_path / "interpreted"), "compiled": install(None, tmp_path / "compiled")}
        compile_hot(sites["compiled"])
        best: dict = {"interpreted": {}, "compiled": {}}
        agreement: dict = {}
        for _ in range(args.rounds):
            for side in ("interpreted", "compiled"):
                found = probe(sites[side], side == "compiled", args.runs, args.generated, args.cpu, cwd)
                agreement.setdefault(side, found["agreement"])
                for name, figure in found["times"].items():
                    if name not in best[side] or figure["seconds"] < best[side][name]["seconds"]:
                        best[side][name] = figure
    print(f"compiled: {', '.join(HOT)} (Cython, pure-Python mode); CPU time, the best of "
          f"{args.runs} runs x {args.rounds} rounds")
    print(f"{'':<20}{'interpreted ms':>16}{'compiled ms':>13}{'transitions':>13}{'speed-up per transition':>26}")
    total = {"interpreted": 0.0, "compiled": 0.0}
    for name, i in best["interpreted"].items():
        c = best["compiled"][name]
        speed = (i["seconds"] / i["transitions"]) / (c["seconds"] / c["transitions"])
        total["interpreted"] += i["seconds"]
        total["compiled"] += c["seconds"]
        print(f"{name:<20}{i['seconds'] * 1e3:>16.2f}{c['seconds'] * 1e3:>13.2f}{c['transitions']:>13}{speed:>26.2f}")
    print(f"{'families, summed':<20}{total['interpreted'] * 1e3:>16.2f}{total['compiled'] * 1e3:>13.2f}{'':>13}"
          f"{total['interpreted'] / total['compiled']:>26.2f}")
    differing = [k for k, v in agreement["interpreted"].items() if agreement["compiled"].get(k) != v]
    print(f"agreement: {len(agreement['interpreted'])} programs (families, corpus, generated) run on both builds; "
          f"{len(differing)} differ in status, value, transitions or rule counts")
    for name in differing[:20]:
        print(f"  {name}: interpreted {agreement['interpreted'][name][:3]}, compiled {agreement['compiled'].get(name, ('missing',))[:3]}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
