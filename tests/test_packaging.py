"""The real artefact: a wheel built from this tree, installed into a fresh virtual
environment (no editable install, no source tree on the path), must give a working `goi`
command and `import goi` — the checks an editable install cannot make."""

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """Built from a copy of the tree without what builds and runs leave behind (setuptools
    would otherwise reuse a stale build/ and the wheel could hold files the tree no longer has)."""
    out = tmp_path_factory.mktemp("wheel")
    source = tmp_path_factory.mktemp("source") / "goi"
    leftovers = shutil.ignore_patterns("build", "dist", ".venv", ".git", "*.egg-info", ".hypothesis", ".pytest_cache", "__pycache__")
    shutil.copytree(ROOT, source, ignore=leftovers)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)],
                   check=True, capture_output=True, timeout=600)
    (built,) = out.glob("goi_abductive-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel (and its dependencies) installed; returns its bin/."""
    env = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=True).create(env)
    pip = subprocess.run([str(env / "bin/python"), "-m", "pip", "install", "-q", str(wheel)], capture_output=True, text=True, timeout=900)
    assert pip.returncode == 0, pip.stderr[-2000:]
    return env / "bin"


def test_the_wheel_holds_one_top_level_package_with_every_subpackage(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names} == {"goi", wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1] + ".dist-info"}
    for folder in (ROOT / "semantics", ROOT / "generators", ROOT / "properties", ROOT / "reports"):
        for module in folder.rglob("*.py"):
            assert f"goi/{module.relative_to(ROOT)}" in names, module
    assert {"goi/py.typed", "goi/semantics/grammar.lark", "goi/__main__.py"} <= set(names)
    templates = {f"goi/{p.relative_to(ROOT)}" for p in (ROOT / "reports" / "templates").rglob("*") if p.is_file()}
    assert "goi/reports/templates/stepper/view.js" in templates and templates <= set(names)  # the pages' templates
    corpus = {f"goi/corpus/{p.relative_to(ROOT / 'tests/programs')}" for p in (ROOT / "tests/programs").glob("*/*.goi")}
    assert corpus and corpus <= set(names)  # goi oracle's example programs ship as data
    assert not any(n.startswith("goi/docs/") for n in names)  # the rule catalogue is the rules' docstrings


def run_in(bin_dir: Path, tmp_path: Path, *argv: str) -> subprocess.CompletedProcess:
    # from a directory with no source tree in it, so only the installed package can be imported
    return subprocess.run([str(bin_dir / argv[0]), *argv[1:]], capture_output=True, text=True, cwd=tmp_path, timeout=600)


def test_the_installed_command_runs_an_example_with_every_check(installed, tmp_path):
    example = ROOT / "tests/programs/paper/meta_learning.goi"
    proc = run_in(installed, tmp_path, "goi", "run", "--check", "all", str(example))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("value: ") and "checks passed" in proc.stdout


def test_the_installed_command_runs_the_properties(installed, tmp_path):
    proc = run_in(installed, tmp_path, "goi", "props", "--profile", "ci", "--examples", "20")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    from goi.properties.suite import names

    assert proc.stdout.count(" passed ") == len(names()) == 11


def test_the_installed_oracle_has_its_corpus(installed, tmp_path):
    code = "from goi.oracle import corpus_files; print(len(corpus_files()))"
    proc = run_in(installed, tmp_path, "python", "-c", code)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout) == len(list((ROOT / "tests/programs").glob("*/*.goi")))


def test_the_installed_package_has_the_rule_catalogue(installed, tmp_path):
    code = "from goi.semantics.rules import DEFAULT; print(all(r.entry and r.source for r in DEFAULT.values()))"
    proc = run_in(installed, tmp_path, "python", "-c", code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "True"


def test_the_installed_command_decides_an_equivalence_with_z3(installed, tmp_path):
    proc = run_in(installed, tmp_path, "goi", "equiv", "-e", "{1} * {1}", "-e", "{1} + {1}")
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith("NOT EQUIVALENT") and "--params 0, 1 gives 0" in proc.stdout


def test_import_goi_from_another_directory(installed, tmp_path):
    code = (
        "import goi, goi.semantics.rules, goi.semantics.checks, goi.properties, goi.reports, goi.strategies; "
        "print(goi.__file__); print(goi.run('let f @ p = {1} * {2} in f p').value)"
    )
    proc = run_in(installed, tmp_path, "python", "-c", code)
    assert proc.returncode == 0, proc.stderr
    path, value = proc.stdout.split()
    assert "site-packages" in path and value == "2"
    assert run_in(installed, tmp_path, "python", "-m", "goi", "--version").stdout.startswith("goi ")


def test_the_public_modules_type_check(installed, tmp_path):
    """mypy on the installed package (PEP 561: goi ships py.typed); the command is in docs/API.md."""
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--python-executable", str(installed / "python"), "--no-incremental",
         "-m", "goi", "-m", "goi.api", "-m", "goi.strategies", "-m", "goi.cli"],
        capture_output=True, text=True, cwd=tmp_path, timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:]


# ---- from the checkout itself ------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent

WITHOUT_INSTALL = r'''
import sys
# as if goi were never installed: no editable-install finder, the checkout first on the path
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in (type(f).__module__ + repr(f)).lower()]
sys.path.insert(0, sys.argv[1])
import goi, goi.cli
from goi.oracle import corpus_files
print(goi.semantics.__file__, goi.run("(λx. x + x) {1}").value, len(corpus_files()) > 0)
'''


def test_import_goi_works_from_a_checkout_never_installed(tmp_path):
    proc = subprocess.run([sys.executable, "-c", WITHOUT_INSTALL, str(ROOT)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    path, value, corpus = proc.stdout.split()
    assert Path(path) == ROOT / "semantics" / "__init__.py" and value == "2" and corpus == "True"


def test_mypy_runs_on_the_checkout():
    proc = subprocess.run([str(ROOT / ".ci" / "mypy-checkout")], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "no issues found" in proc.stdout


def test_a_source_archive_without_git_runs_the_tests_that_read_the_checkout(tmp_path):
    """An unpacked source archive has no .git: a report then says its commit is unknown (it
    does not leave the cell blank), and the tests that read the tree or a report's
    environment pass there as in a checkout. GIT_CEILING_DIRECTORIES keeps git from finding
    a repository above the copy."""
    source = tmp_path / "goi-src"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", ".hypothesis",
                                                                 ".pytest_cache", "__pycache__"))
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONPATH", None)
    report = subprocess.run([sys.executable, "-m", "goi", "report", "--properties", "soundness", "--examples", "2",
                             "--out", str(tmp_path / "report")], cwd=source, env=env, capture_output=True, text=True,
                            timeout=600)
    assert report.returncode == 0, report.stderr[-2000:]
    import json

    data = json.loads((tmp_path / "report" / "report.json").read_text(encoding="utf-8"))
    assert data["environment"]["commit"] is None  # the copy's goi ran (the checkout's would have found .git)
    assert "unknown (not run from a git checkout)" in (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                            "tests/test_reports.py", "tests/test_docs.py"], cwd=source, env=env, capture_output=True,
                           text=True, timeout=900)
    assert tests.returncode == 0, tests.stdout[-3000:]
