"""The example programs (tests/programs/, installed as the data package goi.corpus): oracle
mode runs them first, the playground's menu and the rule catalogue's pictures draw on them."""

from __future__ import annotations


def corpus_files() -> list:
    """The example programs (tests/programs/, installed as the data package goi.corpus), as
    (origin, text), in a stable order."""
    from importlib import resources

    try:
        root = resources.files("goi.corpus")
    except ModuleNotFoundError:
        return []
    out = []
    for folder in sorted((d for d in root.iterdir() if d.is_dir()), key=lambda d: d.name):
        for item in sorted((f for f in folder.iterdir() if f.name.endswith(".goi")), key=lambda f: f.name):
            out.append((f"{folder.name}/{item.name}", item.read_text(encoding="utf-8")))
    return out


def corpus_titles() -> dict:
    """Each example's title (tests/programs/titles.toml), by its origin without `.goi`."""
    import tomllib
    from importlib import resources

    try:
        text = resources.files("goi.corpus").joinpath("titles.toml").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return {}
    return {k: v for k, v in tomllib.loads(text).items() if isinstance(v, str)}
