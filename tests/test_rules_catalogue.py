"""docs/RULES.md and the code agree: the same rule IDs, each with its source."""

from pathlib import Path

from goi.catalogue import entries as catalogue_entries  # docs/RULES.md, as goi view reads it (goi.docs)
from goi.semantics.rules import load_all


def test_catalogue_and_registry_have_the_same_ids():
    registered = set(load_all())
    documented = set(catalogue_entries())
    assert registered - documented == set(), "rules the machine can fire but the catalogue lacks"
    assert documented - registered == set(), "catalogue entries no rule implements"


def test_every_entry_cites_its_source():
    for rule_id, body in catalogue_entries().items():
        assert "Source:" in body or "our decision" in body, rule_id


def test_every_rule_has_a_summary():
    for rule in load_all().values():
        assert rule.summary, rule.id
        assert rule.kind in ("pass", "rewrite", "gc")


# ---- a rule is declared whole, in one place ------------------------------------------------

ROOT = Path(__file__).parent.parent
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
