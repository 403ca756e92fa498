"""Start-up, and the bare machine on small programs. Never asserted.

A process: `goi run -e 1` (and `goi typecheck -e 1`, `goi --help`) started afresh, against a
bare `python -c pass` and the project's own Node.js harness answering `1`
(benchmarks/zoo/visualiser.js, when `node` is there: an interpreter the project wrote in the
visualiser's notation for the bug-finding zoo, not the authors' visualiser, which is not on
this machine): the best and the median wall time and
CPU time (user + system of the child) of `--processes` starts each, and the ratio to Node.js
(issue 41's target: ≤ 150 ms wall and ≤ 2× the harness), with the modules `goi run -e 1`
loads.

Each command starts as it does for a user, from cached bytecode: an installed package's
modules are compiled when pip installs it, a checkout's on their first import. Where
PYTHONDONTWRITEBYTECODE is set (some sandboxes and CI images set it), an editable checkout's
modules would be compiled from source at every start, which is not what a user's start
costs (about 0.4 of `goi run -e 1`'s CPU on this machine, issue 53). So the children run
with their bytecode cached in a temporary PYTHONPYCACHEPREFIX, after one start that is not
counted; `--compile-each-start` measures the other way. The line before the table says which.

In one process: `goi.run` on let chains of 5–40 lets, from the program's text and from an
already checked judgement (best of `--repeat` runs each; what a run costs when start-up and
per-transition dispatch dominate).

    python benchmarks/bench_startup.py [--repeat 100] [--processes 20] [--compile-each-start]
    python benchmarks/bench_startup.py --against DIR [--installed] [--rounds 3] [--processes 10]

`--against DIR` compares with another revision's source tree (a `git worktree` of it), run by
PYTHONPATH with this interpreter and its libraries: the goi commands' starts, interleaved
round by round, median CPU of each side and their ratio. Each side must import its own code
(the machine module's file is under DIR for the other side, not under it for this one), or
the comparison is refused. With `--installed`, each side is first installed as a user's
`pip install` installs it (not editable: a copy of the tree built into a folder of its own)
and both run on a plain virtual environment that reaches this interpreter's libraries by a
path line: an editable install's finder (a .pth file that imports pathlib at every start) is
then in neither side's start, and a side that still goes through one is refused.

CPU is the children's user + system time from getrusage (microseconds; os.times counts in
10 ms ticks).
"""

from __future__ import annotations

import argparse
import os
import resource
import site
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import goi  # noqa: E402
from bench_machine import let_chain  # noqa: E402


# the Node.js row: benchmarks/zoo/visualiser.js, the project's own interpreter (not the authors' visualiser)
HARNESS = "node zoo/visualiser.js (1): the project's own harness"


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def child_environment(cache: str | None) -> dict:
    """The children's environment: bytecode cached under `cache`, or (None) as this
    environment has it but with PYTHONDONTWRITEBYTECODE set, so that a module with no
    bytecode beside it (an editable checkout's) is compiled at every start."""
    if cache is None:
        return {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": cache}


def one_start(command: list, stdin: str, env: dict) -> tuple[float, float]:
    """(wall, CPU) in seconds of one start, from a neutral directory; a command that fails
    stops the bench (a failure's time is not a start's)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)  # microseconds (os.times counts 10 ms ticks)
    start = time.perf_counter()
    subprocess.run(command, input=stdin, capture_output=True, text=True, check=True, env=env,
                   cwd=tempfile.gettempdir())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def started(command: list, stdin: str, n: int, env: dict) -> tuple[float, float, float, float]:
    """(best wall, median wall, best CPU, median CPU) in seconds of `n` fresh starts, after one
    start that is not counted (it writes the bytecode and goi's parser tables)."""
    one_start(command, stdin, env)
    walls, cpus = zip(*(one_start(command, stdin, env) for _ in range(n)))
    return min(walls), statistics.median(walls), min(cpus), statistics.median(cpus)


def rows_of(root: Path, python: str = sys.executable) -> list:
    rows = [("python -c pass", [python, "-c", "pass"], ""),
            ("goi run -e 1", [python, "-m", "goi", "run", "-e", "1"], ""),
            ("goi typecheck -e 1", [python, "-m", "goi", "typecheck", "-e", "1"], ""),
            ("goi --help", [python, "-m", "goi", "--help"], ""),
            # a command's fixed cost: its set-up and one example (issue 53: Hypothesis' plugins, z3 left out)
            ("goi props soundness --examples 1", [python, "-m", "goi", "props", "soundness", "--examples", "1",
                                                  "--profile", "ci"], ""),
            ("goi equiv (two programs)", [python, "-m", "goi", "equiv", "-e", "2 * {1}", "-e", "{1} * 2"], "")]
    if shutil.which("node"):
        rows.append((HARNESS, ["node", str(root / "benchmarks" / "zoo" / "visualiser.js")], "1"))
    return rows


def processes(n: int, env: dict) -> None:
    rows = rows_of(Path(__file__).resolve().parent.parent)
    figures = {}
    print(f"| process ({n} starts) | best wall ms | median wall ms | best CPU ms | median CPU ms |")
    print("|---|---|---|---|---|")
    for name, command, stdin in rows:
        figures[name] = started(command, stdin, n, env)
        print(f"| {name} | " + " | ".join(f"{v * 1e3:.0f}" for v in figures[name]) + " |")
    node = figures.get(HARNESS)
    if node:
        goi_run = figures["goi run -e 1"]
        print(f"goi run -e 1 / Node.js: median wall {goi_run[1] / node[1]:.2f}×, median CPU {goi_run[3] / max(node[3], 1e-9):.2f}×")
    probe = "import sys; from goi.cli import main; main(['run', '-e', '1']); print(len(sys.modules), file=sys.stderr)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    print(f"modules loaded by goi run -e 1: {done.stderr.strip().splitlines()[-1]}")


def machine_file(env: dict, python: str = sys.executable) -> str:
    probe = ("import sys, goi.semantics.machine as m; print(m.__file__); "
             "print(any(name.startswith('__editable__') for name in sys.modules))")
    done = subprocess.run([python, "-c", probe], env=env, capture_output=True, text=True, check=True,
                          cwd=tempfile.gettempdir()).stdout.split()
    return done[0] if done[1] == "False" else f"{done[0]} (through an editable install's finder)"


def as_installed(tree: Path, work: Path, name: str) -> Path:
    """`tree` installed as a user installs goi (`pip install`, no editable finder) into a folder
    of its own under `work`; its dependencies are this interpreter's. pip builds from a copy:
    it would write build/ and an .egg-info into the tree it is given."""
    source, into = work / f"{name}-source", work / name
    shutil.copytree(tree, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "__pycache__",
                                                                  "node_modules", "dist"))
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(into), str(source)],
                   check=True, cwd=tempfile.gettempdir())
    return into


def plain_interpreter(work: Path) -> str:
    """A virtual environment of this interpreter whose site-packages reach this one's libraries
    by a path line (so an editable install's .pth, which imports its finder and pathlib at every
    start, is not run): the interpreter a `pip install goi` gives, with its libraries."""
    import venv

    folder = work / "venv"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(folder)
    python = str(folder / "bin" / "python")
    inner = subprocess.run([python, "-c", "import site; print(site.getsitepackages()[0])"], capture_output=True,
                           text=True, check=True).stdout.strip()
    Path(inner, "goi-bench-libraries.pth").write_text("\n".join(site.getsitepackages()) + "\n", encoding="utf-8")
    return python


def against(other: Path, rounds: int, n: int, env: dict, installed: bool = False) -> None:
    """This tree's goi commands against `other`'s, interleaved; refused unless each side runs its
    own. `installed`: each side pip-installed (not editable) and run by a plain interpreter."""
    this_tree = Path(__file__).resolve().parent.parent
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="goi-installed-") as work:
        sides = {"other": {**env, "PYTHONPATH": str(other)}, "this": {k: v for k, v in env.items() if k != "PYTHONPATH"}}
        homes = {"other": other.resolve(), "this": this_tree}
        if installed:
            python = plain_interpreter(Path(work))
            for side, tree in list(homes.items()):
                homes[side] = as_installed(tree, Path(work), side).resolve()
                sides[side] = {**env, "PYTHONPATH": str(homes[side])}
        for side, side_env in sides.items():
            found = machine_file(side_env, python)
            where = Path(found.split(" (")[0]).resolve()
            theirs = side == "this" and where.is_relative_to(other.resolve())
            if not where.is_relative_to(homes[side]) or theirs or (installed and "editable" in found):
                sys.exit(f"refused: the {side} side imports {found}, not its own (installed) code")
            print(f"{side}: {found}")
        _interleaved(other, [row for row in rows_of(this_tree, python) if row[0] != HARNESS], sides, rounds, n)


def _interleaved(other: Path, rows: list, sides: dict, rounds: int, n: int) -> None:
    cpus: dict = {(side, name): [] for side in sides for name, _c, _s in rows}
    for side_env in sides.values():  # one uncounted start each: bytecode and parser tables written
        for _name, command, stdin in rows:
            one_start(command, stdin, side_env)
    for _ in range(rounds):
        for name, command, stdin in rows:
            for side, side_env in sides.items():
                cpus[(side, name)] += [one_start(command, stdin, side_env)[1] for _ in range(n)]
    print(f"| process ({rounds} rounds of {n} starts, interleaved) | {other.name} median CPU ms | this median CPU ms | ratio |")
    print("|---|---:|---:|---:|")
    for name, _c, _s in rows:
        a, b = statistics.median(cpus[("other", name)]), statistics.median(cpus[("this", name)])
        print(f"| {name} | {a * 1e3:.0f} | {b * 1e3:.0f} | {b / max(a, 1e-9):.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=100)
    ap.add_argument("--processes", type=int, default=20, help="fresh starts of each command")
    ap.add_argument("--compile-each-start", action="store_true",
                    help="no bytecode cache: every module without bytecode is compiled at each start")
    ap.add_argument("--against", type=Path, metavar="DIR", help="another revision's source tree (a git worktree)")
    ap.add_argument("--rounds", type=int, default=3, help="with --against: interleaved rounds")
    ap.add_argument("--installed", action="store_true",
                    help="with --against: each side pip-installed (not editable) into a temporary folder and run by "
                         "a plain virtual environment reaching this interpreter's libraries, as a user's install runs")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="goi-bytecode-") as cache:
        env = child_environment(None if args.compile_each_start else cache)
        print("bytecode: " + ("compiled at every start (--compile-each-start)" if args.compile_each_start
                              else "cached (a temporary PYTHONPYCACHEPREFIX, one uncounted start per command)"))
        if args.against is not None:
            against(args.against, args.rounds, args.processes, env, args.installed)
            return
        processes(args.processes, env)
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
