"""docs/RULES.md and the code agree: the same rule IDs, each with its source."""

import re
from pathlib import Path

from goi.semantics.rules import load_all

CATALOGUE = Path(__file__).parent.parent / "docs" / "RULES.md"


def catalogue_entries() -> dict[str, str]:
    text = CATALOGUE.read_text(encoding="utf-8")
    entries = {}
    parts = re.split(r"^### `([a-z0-9.]+)`\s*$", text, flags=re.M)
    for rule_id, body in zip(parts[1::2], parts[2::2]):
        assert rule_id not in entries, f"{rule_id} twice in the catalogue"
        entries[rule_id] = body
    return entries


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
