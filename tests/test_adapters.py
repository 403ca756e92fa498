"""ORACLE.md's worked adapters, run exactly as the document writes them: a Node.js interpreter
behind a persistent adapter, and a native compiler (C, through the system's compiler) behind
a one-shot one, both pointed at with the ML-like notation file. Each run is clean; each
implementation's planted bug is found; the native adapter tells a refusal from a failure."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
from pathlib import Path

import pytest

from goi.cli import exitcodes
from goi.cli.main import main

ROOT = Path(__file__).parent.parent
DOC = (ROOT / "docs" / "ORACLE.md").read_text(encoding="utf-8")
SECTION = DOC[DOC.index("## Worked adapters"):DOC.index("## The mock implementations (tests)")]
COMMANDS = re.findall(r"^goi oracle .*$", SECTION, flags=re.M)
NEEDS = {"node": "node (installed by .ci/run with npm)", "python3": "python3", "cc": "a C compiler (gcc, .ci/run)"}


def command(which: str) -> list[str]:
    (line,) = [c for c in COMMANDS if which in c]
    return shlex.split(line)[1:]


@pytest.fixture(autouse=True)
def at_the_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # the document's paths are relative to a checkout's root
    for tool in ("node", "cc"):
        if not shutil.which(tool):  # as the browser tests: a failure in CI, which installs it
            if os.environ.get("CI"):
                pytest.fail(f"{NEEDS[tool]} is needed by the worked adapters")
            pytest.skip(f"{NEEDS[tool]} is not installed here (CI installs it)")


def run(args: list[str], capsys, *extra: str) -> tuple[int, dict]:
    code = main([*args, "--no-database", "--json", *extra])
    return code, json.loads(capsys.readouterr().out)


def test_the_document_shows_two_adapters():
    assert len(COMMANDS) == 2
    assert "--notation docs/examples/notations/ml.toml" in COMMANDS[0] and "--notation" in COMMANDS[1]


@pytest.mark.parametrize("which", ["node/adapter.js", "native/adapter.py"])
def test_a_worked_adapter_run_as_written_is_clean(which, capsys):
    code, data = run(command(which), capsys, "--jobs", "2")
    assert code == exitcodes.OK, data["buckets"]
    assert data["counts"]["agree"] == data["programs"] >= 60 and data["skipped"] == 0
    assert data["counts"]["rejects-valid"] == 0


def test_the_node_interpreters_planted_bug_is_found(capsys, monkeypatch):
    monkeypatch.setenv("MINI_ML_BUG", "sub-reversed")
    code, data = run(command("node/adapter.js"), capsys, "--max-programs", "30", "--shrink-calls", "50")
    assert code == exitcodes.NOT_EQUIVALENT
    assert any(b["class"] == "wrong-value" for b in data["buckets"])
    replay = [*command("node/adapter.js"), "--replay-program", "0 - 1"]
    assert main(replay) == exitcodes.NOT_EQUIVALENT
    monkeypatch.delenv("MINI_ML_BUG")
    assert main(replay) == exitcodes.OK


@pytest.mark.parametrize("program, bug, expected", [
    ("( 0 - 3 ) / 2", None, exitcodes.OK),
    ("( 0 - 3 ) / 2", "floor", exitcodes.NOT_EQUIVALENT),  # the document's planted bug: -2, not -1
    ("1 / 0", None, exitcodes.OK),  # the executable stops on it; goi expects undefined (--division strict)
    ("let f x = x * 2 in f", None, exitcodes.OK),  # a function's value
])
def test_the_native_adapter_answers_as_the_document_says(program, bug, expected, monkeypatch, capsys):
    if bug:
        monkeypatch.setenv("MLC_BUG", bug)
    assert main([*command("native/adapter.py"), "--replay-program", program, "--json"]) == expected
    assert json.loads(capsys.readouterr().out)["class"] == ("agree" if expected == exitcodes.OK else "wrong-value")


def test_the_native_adapter_tells_a_refusal_from_a_crash(tmp_path):
    """A program its compiler does not read is rejected; a compiler that crashes is an error."""
    import subprocess
    import sys

    adapter = ROOT / "docs" / "examples" / "adapters" / "native" / "adapter.py"
    bad = tmp_path / "bad.ml"
    bad.write_text("fun -> 1")
    out = json.loads(subprocess.run([sys.executable, str(adapter), str(bad)], capture_output=True, text=True).stdout)
    assert out["rejected"].startswith("syntax error")
    good = tmp_path / "good.ml"
    good.write_text("1 + 2")
    env = {**os.environ, "PATH": str(tmp_path)}  # no C compiler on the path: the compiler fails
    out = json.loads(subprocess.run([sys.executable, str(adapter), str(good)], capture_output=True, text=True,
                                    env=env).stdout)
    assert "error" in out and out["error"].startswith("compiler crashed")


# ---- your first oracle run (ORACLE.md): a target file, no adapter code ----------------------------

FIRST = DOC[DOC.index("## Your first oracle run"):DOC.index("## The protocol")]


def first_run_command() -> list[str]:
    (line,) = re.findall(r"^goi oracle --target .*$", FIRST, flags=re.M)
    return shlex.split(line)[1:]


def test_the_first_run_shows_the_target_file_as_it_is():
    shown = FIRST.split("```toml\n", 1)[1].split("```", 1)[0]
    real = (ROOT / "docs" / "examples" / "targets" / "mini-ml.toml").read_text(encoding="utf-8")
    assert shown.strip() in real  # the file, less its opening comment


def test_the_first_oracle_run_is_clean_and_finds_the_planted_bug_as_one_defect(capsys, monkeypatch):
    code, data = run(first_run_command(), capsys, "--jobs", "2")
    assert code == exitcodes.OK, data["buckets"]
    assert data["counts"]["agree"] == data["programs"] >= 60 and data["counts"]["rejects-valid"] == 0
    monkeypatch.setenv("MINI_ML_BUG", "sub-reversed")
    code, data = run(first_run_command(), capsys, "--jobs", "2")
    assert code == exitcodes.NOT_EQUIVALENT and data["defects"] == 1, [b["program"] for b in data["buckets"]]
    first = data["buckets"][0]
    assert first["program"] == "0 - 1" and first["implementation"]["value"] == "1"
    assert first["replay"] == "goi oracle --target docs/examples/targets/mini-ml.toml --replay-program '0 - 1'"
    assert all(b["another_program_of"] == first["signature"] for b in data["buckets"][1:])
