"""A benchmark that cannot fail is the same defect as a test that cannot fail (issue 52): a
comparison with another revision checks that each side imports that revision's own code, and
refuses otherwise. Nothing here is timed."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def bench_compare():
    spec = importlib.util.spec_from_file_location("bench_compare", ROOT / "benchmarks" / "bench_compare.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_baseline_without_its_own_goi_is_refused(tmp_path):
    """A 'revision' whose folder has no goi package: `import goi` finds the goi installed here
    instead, and the comparison refuses to measure it."""
    empty = tmp_path / "site"
    empty.mkdir()
    with pytest.raises(SystemExit) as refused:
        bench_compare().fingerprint(empty, tmp_path)
    assert "not that revision's own code" in str(refused.value)


def test_a_baseline_with_its_own_goi_is_measured(tmp_path):
    """A folder that holds a goi package of its own is what `import goi` finds: accepted."""
    site = tmp_path / "site"
    (site / "goi").mkdir(parents=True)
    (site / "goi" / "__init__.py").write_text("", encoding="utf-8")
    where = bench_compare().fingerprint(site, tmp_path)
    assert where.startswith(str(site)) and sys.executable


def test_the_compiled_build_is_refused_when_it_runs_the_interpreted_modules(tmp_path):
    """bench_compiled.py (issue 53, item 3): a side said to be compiled whose hot modules are
    the .py files (a build that did not happen, or an extension not found) is refused, not
    measured as if compiled; the interpreted side running those same files is accepted."""
    spec = importlib.util.spec_from_file_location("bench_compiled", ROOT / "benchmarks" / "bench_compiled.py")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    cwd = tmp_path / "bench" / "benchmarks"
    cwd.parent.mkdir(parents=True)
    shutil.copytree(ROOT / "benchmarks", cwd)
    had_build = (ROOT / "build").exists()
    site = module.install(None, tmp_path / "interpreted")
    assert (ROOT / "build").exists() == had_build  # built from a copy: no build/ folder left in the checkout
    with pytest.raises(SystemExit) as refused:
        module.probe(site, True, 1, 0, 0, cwd)
    assert "not its own extension modules" in str(refused.value) and "nothing compared" in str(refused.value)
    found = module.probe(site, False, 1, 0, 0, cwd)  # one run of each family, no generated program
    families = {k: v for k, v in found["agreement"].items() if k.startswith("family ")}
    assert len(families) >= 7 and all(status == "final" for status, *_ in families.values())


def bench_startup():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        spec = importlib.util.spec_from_file_location("bench_startup", ROOT / "benchmarks" / "bench_startup.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return module


def test_the_startup_bench_runs_its_commands_from_cached_bytecode(tmp_path, monkeypatch):
    """bench_startup measures a start as a user has it, from bytecode compiled once, even where
    PYTHONDONTWRITEBYTECODE is set (as in some sandboxes, where an editable checkout's modules
    would otherwise be compiled at every start): a child started in its environment leaves
    the machine's bytecode in the cache; one started with --compile-each-start leaves none."""
    import subprocess

    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    bench = bench_startup()
    probe = [sys.executable, "-c", "import goi.semantics.machine as m, sys; print(m.__file__)"]
    cache = tmp_path / "bytecode"
    machine = subprocess.run(probe, env=bench.child_environment(str(cache)), capture_output=True, text=True,
                             check=True).stdout.strip()
    compiled = list(cache.rglob(Path(machine).stem + ".*.pyc"))
    assert compiled and all(Path(machine).parent.name in str(p.parent) for p in compiled), sorted(cache.rglob("*"))
    unwritten = bench.child_environment(None)
    assert unwritten["PYTHONDONTWRITEBYTECODE"] == "1" and "PYTHONPYCACHEPREFIX" not in unwritten


def test_the_startup_comparison_refuses_a_tree_that_is_not_the_code_it_runs(tmp_path):
    """`bench_startup.py --against DIR`: a folder with no goi of its own would run this
    checkout's code on both sides, a ratio of 1 that measured nothing; it is refused."""
    bench = bench_startup()
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit) as refused:
        bench.against(tmp_path / "empty", 1, 1, bench.child_environment(str(tmp_path / "bytecode")))
    assert "refused: the other side imports" in str(refused.value)
