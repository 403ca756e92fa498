"""JSON forms of surface terms, for `goi parse --json` (stable, documented in docs/CLI.md)."""

from __future__ import annotations

from . import syntax as S
from .types import show_type


def _pos(term: S.Term) -> dict | None:
    p = term.pos
    if p is None:
        return None
    return {"line": p.line, "column": p.column, "end_line": p.end_line, "end_column": p.end_column}


def _type(t) -> str | None:
    return None if t is None else show_type(t)


def term_to_json(t: S.Term) -> dict:
    """A term as nested objects; every object has "node" and "pos"."""
    if isinstance(t, S.Var):
        data = {"node": "var", "name": t.name}
    elif isinstance(t, S.Const):
        data = {"node": "const", "value": str(t.value)}
    elif isinstance(t, S.Prov):
        data = {"node": "prov", "value": str(t.value)}
    elif isinstance(t, S.Lam):
        data = {"node": "lam", "var": t.var, "annot": _type(t.annot), "body": term_to_json(t.body)}
    elif isinstance(t, S.App):
        data = {"node": "app", "fun": term_to_json(t.fun), "arg": term_to_json(t.arg)}
    elif isinstance(t, S.BinOp):
        data = {"node": "op", "op": t.op, "left": term_to_json(t.left), "right": term_to_json(t.right)}
    elif isinstance(t, S.Decouple):
        data = {"node": "decouple", "f": t.f, "x": t.x, "name": t.name, "annot": _type(t.annot), "body": term_to_json(t.body)}
    elif isinstance(t, S.Let):
        data = {"node": "let", "var": t.var, "annot": _type(t.annot), "bound": term_to_json(t.bound), "body": term_to_json(t.body)}
    elif isinstance(t, S.LetDecouple):
        data = {
            "node": "let_decouple",
            "f": t.f,
            "x": t.x,
            "name": t.name,
            "annot": _type(t.annot),
            "bound": term_to_json(t.bound),
            "body": term_to_json(t.body),
        }
    else:
        raise TypeError(f"not a term: {t!r}")
    data["pos"] = _pos(t)
    return data
