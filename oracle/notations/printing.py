"""Writing a lowered term (lowering.py) in a notation: each construct by its template, a
subterm in parentheses exactly where the notation's reading needs them (or, with
parenthesize = "all", wherever it is not an atom). The levels are those of the grammar
reading.py builds from the same declaration, loosest first:

  BINDER (forms that end in a subterm: λ, let, …) < each infix precedence, low to high
  < APPLICATION (juxtaposition; forms that end in an atom) < ATOM (names, numbers,
  parenthesised terms, forms closed at both ends)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Optional

from goi.semantics import syntax as S
from goi.semantics.types import Arrow, Field, Vec

from .declaration import BY_SURFACE, Notation
from .lowering import digits, letters
from .template import ends_with_literal, fill as _fill, holes, starts_with_literal

BINDER = 0


@dataclass(frozen=True)
class Shape:
    """A form's level and the level each of its subterm holes needs."""

    level: int
    needs: dict  # hole -> level


class Levels:
    """The precedence levels of a notation (shared by printing and reading)."""

    def __init__(self, notation: Notation):
        self.notation = notation
        precedences = sorted({op.precedence for op in notation.operators.values() if op.precedence is not None})
        self.of_precedence = {p: i + 1 for i, p in enumerate(precedences)}
        self.application = len(precedences) + 1
        self.atom = len(precedences) + 2

    def shape(self, parts, kind: str, precedence: Optional[int] = None, assoc: str = "left") -> Shape:
        """The level of a form written by `parts`, and what its holes need."""
        term_holes = [h for h in holes(parts) if h.name in ("body", "bound", "fun", "arg", "left", "right")]
        needs = {h.name: (self.atom if h.atom else BINDER) for h in term_holes}
        if kind == "application" and not starts_with_literal(parts):  # juxtaposition
            needs["fun"] = self.atom if parts[0].atom else self.application
            needs["arg"] = self.atom
            return Shape(self.application, needs)
        if precedence is not None:  # infix
            level = self.of_precedence[precedence]
            first, last = term_holes[0].name, term_holes[-1].name
            loose, tight = level, level + 1
            needs[first] = self.atom if term_holes[0].atom else (loose if assoc == "left" else tight)
            needs[last] = self.atom if term_holes[-1].atom else (loose if assoc == "right" else tight)
            return Shape(level, needs)
        if ends_with_literal(parts):
            return Shape(self.atom, needs)
        last = parts[-1]
        return Shape(self.application if last.atom else BINDER, needs)

    @cached_property
    def forms(self) -> dict:
        return {key: self.shape(parts, key) for key, parts in self.notation.forms.items()}

    @cached_property
    def operators(self) -> dict:
        return {m: self.shape(op.parts, "operator", op.precedence, op.assoc) for m, op in self.notation.operators.items()}


class Printer:
    def __init__(self, notation: Notation, levels: Levels, everything: bool = False):
        self.notation = notation
        self.levels = levels
        self.everything = everything or notation.parenthesize == "all"
        self.used: set[str] = set()

    def print(self, term: S.Term) -> str:
        self.used = {x for t in S.walk(term) for x in _names(t)}
        return self.show(term, BINDER)

    def fresh(self, stem: str) -> str:
        new, i = stem, 0
        while new in self.used or new in self.notation.reserved:
            new, i = stem + letters(i), i + 1
        self.used.add(new)
        return new

    def wrap(self, text: str, level: int, needed: int) -> str:
        if level < needed:
            left, right = self.notation.parentheses
            return f"{left}{text}{right}"
        return text

    def sub(self, t: S.Term, needed: int) -> str:
        return self.show(t, self.levels.atom if self.everything and needed < self.levels.atom else needed)

    def show(self, t: S.Term, needed: int) -> str:
        n, lv = self.notation, self.levels
        if isinstance(t, S.Var):
            return t.name
        if isinstance(t, S.Const):
            if t.value < 0:
                return _fill(n.constants["negative"], {"n": digits(n, -t.value)})
            return digits(n, t.value)
        if isinstance(t, S.Prov):
            key = "negative_provisional" if t.value < 0 else "provisional"
            return _fill(n.constants[key], {"n": digits(n, abs(t.value))})
        if isinstance(t, S.App):
            return self.form("application", {"fun": t.fun, "arg": t.arg}, {}, needed)
        if isinstance(t, S.BinOp):
            meaning = BY_SURFACE[t.op]
            if meaning not in n.operators:  # written like an overloaded one (vadd like add)
                meaning = next(m for m, s in n.surface.items() if s == t.op)
            op, shape = n.operators[meaning], lv.operators[meaning]
            values = {"left": self.sub(t.left, shape.needs["left"]), "right": self.sub(t.right, shape.needs["right"])}
            for hole in holes(op.parts):
                if hole.name not in values:
                    values[hole.name] = self.fresh(hole.name)
            return self.wrap(_fill(op.parts, values), shape.level, needed)
        if isinstance(t, S.Lam):
            return self.form("lambda", {"body": t.body}, {"x": t.var, "type": self.type(t.annot)}, needed)
        if isinstance(t, S.Let):
            if t.annot is None and isinstance(t.bound, S.Lam) and "let_function" in n.forms:
                params, bound = [], t.bound
                while isinstance(bound, S.Lam):
                    params.append(self.parameter(bound))
                    bound = bound.body
                return self.form("let_function", {"bound": bound, "body": t.body},
                                 {"x": t.var, "params": " ".join(params)}, needed)
            return self.form("let", {"bound": t.bound, "body": t.body}, {"x": t.var, "type": self.type(t.annot)}, needed)
        if isinstance(t, S.Decouple):
            return self.form("decouple", {"body": t.body},
                             {"f": t.f, "p": t.x, "name": t.name, "type": self.type(t.annot)}, needed)
        if isinstance(t, S.LetDecouple):
            return self.form("let_decouple", {"bound": t.bound, "body": t.body},
                             {"f": t.f, "p": t.x, "name": t.name, "type": self.type(t.annot)}, needed)
        raise TypeError(f"not a term: {t!r}")

    def parameter(self, lam: S.Lam) -> str:
        if lam.annot is not None and "parameter_typed" in self.notation.forms:
            return _fill(self.notation.forms["parameter_typed"], {"x": lam.var, "type": self.type(lam.annot)})
        return _fill(self.notation.forms["parameter"], {"x": lam.var})

    def form(self, key: str, subterms: dict, values: dict, needed: int) -> str:
        shape = self.levels.forms[key]
        values = dict(values)
        for hole, sub in subterms.items():
            values[hole] = self.sub(sub, shape.needs[hole])
        return self.wrap(_fill(self.notation.forms[key], values), shape.level, needed)

    def type(self, ty) -> Optional[str]:
        if ty is None or not self.notation.typed:
            return None
        types = self.notation.types
        if isinstance(ty, Field):
            return _fill(types["field"], {})
        if isinstance(ty, Vec):
            return _fill(types["vector"], {"name": ty.name})
        if isinstance(ty, Arrow):
            dom = self.type(ty.dom)
            if isinstance(ty.dom, Arrow):
                dom = self.wrap(dom, 0, 1)
            return _fill(types["arrow"], {"from": dom, "to": self.type(ty.cod)})
        raise TypeError(f"not a type of a program: {ty!r}")


def _names(t: S.Term):
    if isinstance(t, S.Var):
        return (t.name,)
    if isinstance(t, (S.Lam, S.Let)):
        return (t.var,)
    if isinstance(t, (S.Decouple, S.LetDecouple)):
        return (t.f, t.x)
    return ()
