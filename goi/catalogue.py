"""The rule catalogue, docs/RULES.md (installed as the data package `goi.docs`): each rule's
entry as written there, and the part of it that names its source (a paper passage, or "our
decision" and why). `goi view` shows both beside the rule of each step; the tests check that
the catalogue and the registry have the same rules."""

from __future__ import annotations

import re
from functools import lru_cache

_ENTRY = re.compile(r"^### `([a-z0-9.]+)`[ \t]*\n(.*?)(?=^#|\Z)", re.M | re.S)


@lru_cache(maxsize=1)
def entries() -> dict[str, str]:
    """Rule id -> its entry's text (up to the next heading); {} when the catalogue is not
    installed."""
    from importlib import resources

    try:
        text = resources.files("goi.docs").joinpath("RULES.md").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return {}
    found: dict[str, str] = {}
    for match in _ENTRY.finditer(text):
        rule_id, body = match.group(1), match.group(2).strip()
        if rule_id in found:
            raise ValueError(f"docs/RULES.md: {rule_id} has two entries")
        found[rule_id] = body
    return found


def source(entry: str) -> str:
    """The paragraph of an entry that gives its source, from "Source:" on (or the one that
    says "our decision"); "" if none does."""
    for paragraph in entry.split("\n\n"):
        flat = " ".join(paragraph.split())
        at = flat.find("Source:")
        if at >= 0:
            return flat[at:]
        if "our decision" in flat:
            return flat
    return ""
