"""The rule catalogue is the rules' own declarations: every rule's docstring holds its entry,
citing its source, and docs/RULES.md shows exactly those entries, under one heading per rule
(generated: python -m goi.doclists; tests/test_docs.py checks the blocks are current)."""

import re
from pathlib import Path

from goi.semantics.rules import load_all

ROOT = Path(__file__).parent.parent


def test_the_catalogue_has_a_heading_for_every_rule_and_no_other():
    documented = re.findall(r"^### `([a-z0-9.]+)`", (ROOT / "docs/RULES.md").read_text(encoding="utf-8"), re.M)
    assert len(documented) == len(set(documented)), "a rule with two entries"
    assert set(documented) == set(load_all())


def test_every_entry_cites_its_source():
    for rule in load_all().values():
        assert rule.entry, f"{rule.id}: its docstring has no catalogue entry after the summary line"
        assert rule.source, f"{rule.id}: its entry cites no source (Source: …, or our decision)"
        assert rule.source in " ".join(rule.entry.split())


def test_every_rule_has_a_summary():
    for rule in load_all().values():
        assert rule.summary and "\n" not in rule.summary, rule.id
        assert rule.kind in ("pass", "rewrite", "gc")


# ---- a rule is declared whole, in one place ------------------------------------------------

SOURCES = ["semantics", "goi", "properties", "reports", "generators", "benchmarks"]


def _string_constants(path: Path):
    import ast

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_no_rule_is_named_outside_the_rules_package():
    """Code outside semantics/rules/ asks a rule's declared attributes (changes_graph,
    administrative, sets_flag, feature, …), never compares with its ID."""
    ids = set(load_all())
    rules_dir = ROOT / "semantics" / "rules"
    named = [f"{path.relative_to(ROOT)}:{line}: {value}"
             for folder in SOURCES for path in sorted((ROOT / folder).rglob("*.py"))
             if rules_dir not in path.parents
             for line, value in _string_constants(path) if value in ids]
    assert named == []


def test_every_rewrite_declares_its_redex_and_every_pass_its_node():
    from goi.semantics.rules import DEFAULT, PASS, REWRITE, flag_key

    for rule in load_all().values():
        if rule.kind == PASS:
            kinds, direction, port = rule.at
            assert kinds and direction in ("↑", "↓"), rule.id
            assert rule.changes_graph is False, rule.id
        elif rule.kind == REWRITE:
            assert rule.match is not None and rule.site, rule.id
            assert flag_key(rule.flag) in DEFAULT.site_functions, f"{rule.id}: no site function for its flag {rule.flag}"
        else:
            assert rule.match is not None, rule.id


def test_the_machine_has_no_rule_dispatch_of_its_own():
    """The machine finds transitions through the registry's tables only: it imports no rule module."""
    import ast

    tree = ast.parse((ROOT / "semantics" / "machine.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module == "rules"
                for alias in node.names}
    assert imported.isdisjoint({"passes", "compute", "open_box", "deep", "closed_box", "gc"}), imported
