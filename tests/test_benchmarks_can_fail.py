"""A benchmark that cannot fail is the same defect as a test that cannot fail (issue 52): a
comparison with another revision checks that each side imports that revision's own code, and
refuses otherwise. Nothing here is timed."""

from __future__ import annotations

import importlib.util
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
