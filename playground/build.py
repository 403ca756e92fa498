"""Build the browser playground: a folder of static files that any web server serves
(docs/PLAYGROUND.md).

    python playground/build.py -o site        # then: python -m http.server -d site

It installs the runtime from playground/package-lock.json (`npm ci` in a scratch folder:
Pyodide and viz.js),
builds goi's wheel from this checkout and downloads the pinned wheels of
playground/requirements.txt (with their hashes), saves an interpreter with them imported
(playground/snapshot.mjs, under Node.js), and writes the page: goi view's stepper
(reports/view.py's markup, script and style, the same code as goi view's pages) beside the
playground's editor (playground/src/). At run time the page loads nothing from elsewhere.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MARK = ".goi-playground"  # a folder this script built (and may empty to build again)
PYODIDE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", "package.json")
VIZ = ("dist/viz.js", "package.json", "LICENSE")
GROUPS = {"paper": "the paper's examples", "visualiser": "the authors' visualiser's examples"}


class BuildError(Exception):
    pass


def _run(command: list, cwd: Path) -> None:
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        raise BuildError(f"{' '.join(command)} failed (exit {done.returncode}):\n{done.stdout[-4000:]}")


def _fresh(out: Path) -> None:
    if out.exists():
        if not out.is_dir() or (any(out.iterdir()) and not (out / MARK).exists()):
            raise BuildError(f"{out}: exists and is not a playground this script built; choose another -o")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / MARK).write_text("built by playground/build.py\n", encoding="utf-8")


def runtime(out: Path, work: Path, npm: str = "npm") -> None:
    """Pyodide and viz.js installed from the lockfile (in `work`, a scratch folder: builds
    running side by side never share a node_modules), copied under vendor/."""
    if shutil.which(npm) is None:
        raise BuildError("npm is needed to install the playground's runtime (Node.js's npm)")
    for name in ("package.json", "package-lock.json"):
        shutil.copy2(HERE / name, work / name)
    _run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], work)
    modules = work / "node_modules"
    for names, package, folder in ((PYODIDE, "pyodide", "pyodide"), (VIZ, "@viz-js/viz", "viz")):
        target = out / "vendor" / folder
        target.mkdir(parents=True, exist_ok=True)
        for name in names:
            source = modules / package / name
            if source.exists():
                shutil.copy2(source, target / Path(name).name)
            elif name not in ("LICENSE",):
                raise BuildError(f"{source}: missing from the installed {package}")


LEFTOVERS = shutil.ignore_patterns("build", "dist", ".venv", ".git", "*.egg-info", ".hypothesis", ".pytest_cache",
                                   "__pycache__", "node_modules", "site")


def wheels(out: Path, work: Path) -> list:
    """goi's wheel, built from a copy of this checkout (without what builds and runs leave
    behind: setuptools would reuse a stale build/), and the pinned wheels it needs to run."""
    target = out / "wheels"
    target.mkdir(parents=True, exist_ok=True)
    source = work / "goi"
    shutil.copytree(ROOT, source, ignore=LEFTOVERS)
    _run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(target)], work)
    _run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "--require-hashes",
          "-r", str(HERE / "requirements.txt"), "-d", str(target)], work)
    names = sorted(p.name for p in target.glob("*.whl"))
    (target / "manifest.json").write_text(json.dumps({"wheels": names}, indent=1) + "\n", encoding="utf-8")
    return names


SNAPSHOT = "python.snapshot.gz"  # under wheels/: goi's interpreter, started and warmed at build time


def snapshot(out: Path, work: Path, node: str = "node") -> str:
    """CPython in WebAssembly started under Node.js with goi's wheels imported and warmed,
    its memory saved (playground/snapshot.mjs, run where `runtime` installed Pyodide): the
    worker restores it instead of starting CPython and importing goi in the browser, which
    was most of the time to ready. Listed in wheels/manifest.json."""
    if shutil.which(node) is None:
        raise BuildError("Node.js is needed to build the playground's interpreter snapshot")
    shutil.copy2(HERE / "snapshot.mjs", work / "snapshot.mjs")
    target = out / "wheels"
    _run([node, "snapshot.mjs", str(target), str(target / SNAPSHOT)], work)
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    manifest["snapshot"] = SNAPSHOT
    (target / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return SNAPSHOT


def page(out: Path) -> None:
    """index.html (the editor around goi view's stepper), view.js and view.css (goi view's
    script and style), the playground's own script, style and worker, and site.json."""
    sys.path.insert(0, str(ROOT))
    from goi.reports import playground, view
    from goi.semantics.checks import registry

    index = (HERE / "src" / "index.html").read_text(encoding="utf-8")
    for part in ("nav", "pane", "side"):
        index = index.replace(f"<!-- goi:{part} -->", view.stepper(f"{part}.html"))
    (out / "index.html").write_text(index, encoding="utf-8")
    for name in ("view.js", "view.css"):
        (out / name).write_text(view.stepper(name), encoding="utf-8")
    for name in ("playground.js", "playground.css", "worker.mjs"):
        shutil.copy2(HERE / "src" / name, out / name)
    defaults = {name: default for name, (_kind, default) in playground.OPTIONS.items()}
    site = {"examples": playground.examples(), "groups": GROUPS, "checks": list(registry()), "defaults": defaults}
    (out / "site.json").write_text(json.dumps(site, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def build(out: Path) -> dict:
    """Build the site in `out`; returns its files' sizes."""
    _fresh(out)
    with tempfile.TemporaryDirectory(prefix="goi-playground-") as scratch:
        runtime(out, Path(scratch))
        wheels(out, Path(scratch))
        snapshot(out, Path(scratch))
    page(out)
    return {str(p.relative_to(out)): p.stat().st_size for p in sorted(out.rglob("*")) if p.is_file()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", default="site", help="the folder to write (default: site)")
    args = parser.parse_args(argv)
    try:
        sizes = build(Path(args.output).resolve())
    except BuildError as exc:
        print(f"playground/build.py: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # a folder that cannot be written (read-only, full, gone): said, not a traceback
        where = exc.filename or args.output
        print(f"playground/build.py: {where}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("playground/build.py: interrupted", file=sys.stderr)
        return 130
    print(f"{args.output}: {len(sizes)} files, {sum(sizes.values()) / 1e6:.1f} MB; serve it with "
          f"python -m http.server -d {args.output} --bind 127.0.0.1")
    return 0


if __name__ == "__main__":
    sys.exit(main())
