"""Every `console` example in README.md and docs/*.md is run and its output compared, so
no documented example can go stale.

A block is a sequence of `$ goi …` commands, each followed by its expected output (standard
output, then standard error). An expected JSON object is
compared as JSON: a value written "…" matches anything (for timings). Commands run from the
repository's root, as a reader of a fresh clone would type them."""

import json
import re
import shlex
from pathlib import Path

import pytest

from goi.cli import main

ROOT = Path(__file__).parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"```console\n(.*?)```", re.S)


def examples():
    for doc in DOCS:
        for block in BLOCK.findall(doc.read_text(encoding="utf-8")):
            command, expected = None, []
            for line in block.splitlines():
                if line.startswith("$ "):
                    if command:
                        yield doc.name, command, expected
                    command, expected = line[2:], []
                else:
                    expected.append(line)
            if command:
                yield doc.name, command, expected


EXAMPLES = list(examples())


def matches(expected, got) -> bool:
    if expected == "…":
        return True
    if isinstance(expected, dict):
        return isinstance(got, dict) and expected.keys() == got.keys() and all(matches(expected[k], got[k]) for k in expected)
    if isinstance(expected, list):
        return isinstance(got, list) and len(expected) == len(got) and all(matches(e, g) for e, g in zip(expected, got))
    return expected == got


def test_there_are_examples():
    assert len(EXAMPLES) >= 10 and {"README.md", "CLI.md", "API.md"} <= {doc for doc, _, _ in EXAMPLES}


@pytest.mark.parametrize("doc,command,expected", EXAMPLES, ids=[f"{d}: {c[:50]}" for d, c, _ in EXAMPLES])
def test_documented_example(doc, command, expected, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)
    if argv[0] == "python":  # a Python example: python -c '…'
        assert argv[1] == "-c"
        exec(compile(argv[2], f"<{doc}>", "exec"), {})
    else:
        assert argv[0] == "goi", command
        main(argv[1:])
    out, err = capsys.readouterr()
    got = (out + err).rstrip("\n")
    want = "\n".join(expected).rstrip("\n")
    if want.startswith("{"):
        assert matches(json.loads(want), json.loads(got)), got
    else:
        assert got == want
