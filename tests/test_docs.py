"""Every `console` example in README.md and docs/*.md is run and its output compared, so
no documented example can go stale.

A block is a sequence of `$ goi …` commands, each followed by its expected output (standard
output, then standard error). An expected JSON object is
compared as JSON: a value written "…" matches anything (for timings); in text, durations
(`9.1 s`, `0.5 s`) are compared as durations, not as their figures. Commands run from the
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
        assert SECONDS.sub("T s", got) == SECONDS.sub("T s", want)


SECONDS = re.compile(r"\b\d+(?:\.\d+)? s\b")  # a duration: the only part of a transcript that varies


def _synopsis() -> dict:
    """docs/CLI.md's synopsis block: command -> its lines (a command may have several forms)."""
    text = (ROOT / "docs/CLI.md").read_text(encoding="utf-8")
    block = text.split("```\n", 2)[1]
    out: dict = {}
    command = None
    shared: dict = {}  # a named group of options (CAMPAIGN: …), spelled out once below the commands
    for line in block.splitlines():
        if line.startswith("goi "):
            command = line.split()[1]
        elif line[:1].isupper() and ":" in line:
            command = None
            name, _, rest = line.partition(":")
            shared[name] = rest
            continue
        if command is not None:
            out.setdefault(command, []).append(line)
    for name, rest in shared.items():  # a command that names the group takes its options
        for lines in out.values():
            if any(f"[{name}]" in line for line in lines):
                lines.append(rest)
    return out


def test_the_cli_synopsis_names_every_option_of_every_command():
    from goi.cli import build_parser

    synopsis = _synopsis()
    parser = build_parser()
    commands = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices
    assert set(commands) <= set(synopsis), set(commands) - set(synopsis)
    for name, sub in commands.items():
        text = " ".join(synopsis[name])
        for action in sub._actions:
            longs = [o for o in action.option_strings if o.startswith("--") and o not in ("--help", "--max-input-bytes")]
            for option in longs:
                assert option in text, f"goi {name}: {option} is missing from docs/CLI.md's synopsis"


def test_the_synopsis_forms_of_equiv_terms_work(tmp_path, capsys):
    t0, t1 = tmp_path / "t0.goi", tmp_path / "t1.goi"
    t0.write_text("λx:F. x * {2}", encoding="utf-8")
    t1.write_text("λx:F. {2} * x", encoding="utf-8")
    from goi.cli.exitcodes import UNDECIDED  # no separating context: not a proof, so undecided

    assert main(["equiv", "--terms", str(t0), str(t1), "--examples", "20"]) == UNDECIDED
    assert main(["equiv", "--terms", "-e", "λx:F. x * {2}", "-e", "λx:F. {2} * x", "--examples", "20"]) == UNDECIDED
    out, err = capsys.readouterr()
    assert "io error" not in err and out.count("NO SEPARATING CONTEXT FOUND in 20 contexts") == 2


def test_no_doc_points_outside_the_repository():
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        assert "../shared" not in text and "[Note]" not in text, doc.name
    rec = (ROOT / "docs/RECONSTRUCTION.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"^## (\d+)\.", rec, re.M))
    cited = set(re.findall(r"\[Rec §(\d+)\]", (ROOT / "docs/RULES.md").read_text(encoding="utf-8")))
    assert cited and cited <= sections, cited - sections


def test_the_reports_doc_counts_the_properties_there_are():
    from goi.properties.suite import names

    text = (ROOT / "docs/REPORTS.md").read_text(encoding="utf-8")
    counts = re.findall(r"a `ci` report \((\d+) properties", text)
    assert counts and all(int(n) == len(names()) for n in counts), (counts, len(names()))


def test_the_docs_lists_are_derived_from_the_registries():
    """docs/RULES.md's table of rules, INVARIANTS.md's of checks and REPORTS.md's of
    properties are generated from the declarations (python -m goi.doclists)."""
    from goi import doclists

    assert doclists.stale() == []
    for name, (doc, make) in doclists.BLOCKS.items():
        table = make()
        assert table in (ROOT / doc).read_text(encoding="utf-8")
        assert table.count("\n") >= 3, name


def test_every_rule_is_drawn_before_and_after():
    """Every rule has its picture, before and after in one layout (reports/rule_pictures.py),
    linked from docs/RULES.md (issues 24 and 33)."""
    from goi.semantics.rules import load_all

    pictures = ROOT / "docs" / "rules"
    undrawn = set()
    for rule_id in load_all():
        picture = pictures / f"{rule_id}.svg"
        if not picture.is_file():
            undrawn.add(rule_id)
            continue
        svg = picture.read_text(encoding="utf-8")
        assert svg.lstrip().startswith("<svg"), picture
        assert "before" in svg and "after" in svg, f"{picture}: before and after in one picture"
        assert f"rules/{rule_id}.svg" in (ROOT / "docs/RULES.md").read_text(encoding="utf-8")
    assert undrawn == set(), f"no pictures of {sorted(undrawn)}: python -m goi.reports.rule_pictures"
