"""How Hypothesis shows a generated term in a failure: as the program it is, `parse('…')`
of its text (which also rebuilds it), never as nested constructors.

Hypothesis asks an object's `_repr_pretty_` before the printers of how it was built (which
would show `Const(value=…)`), so the generators — the layer whose output Hypothesis shows —
give surface terms that method when they are imported; the syntax module itself stays free
of printing (semantics.pretty imports it, not the other way round)."""

from __future__ import annotations

from goi.semantics import syntax as S
from goi.semantics.pretty import pretty


def show_as_program(term: S.Term, printer, cycle: bool) -> None:
    try:
        text = pretty(term)
    except ValueError:  # a constant with no decimal literal (1/3): the constructors, then
        printer.text(repr(term))
        return
    printer.text(f"parse({text!r})")


S.Term._repr_pretty_ = show_as_program  # type: ignore[attr-defined]
