"""What an implementation lacks, as one value (`--fragment`, a notation's declaration, an
arithmetic: docs/ORACLE.md, Fragments).

Each fragment name is one declared `Lack`: what it says, and how to tell that a program uses
what it leaves out. A `Fragment` is the set of lacks in force; it answers the three questions
the oracle asks of one:

- `draw(search, signed)`: the settings of the well-typed generator (generators/typed.py) that
  leave the lacks out of the draw;
- `uses(term, operators)`: the lacks a program uses (a corpus program, a reducer's candidate,
  a rewritten member: what no generator setting removed is never sent);
- `operators`, `annotations`: what the printer and the reducer may write.

A new fragment is one more `Lack` in LACKS (and, if the draw can leave it out, one setting in
`draw`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Optional

from goi.semantics import syntax as S

OPERATORS = {"no-plus": "+", "no-minus": "-", "no-times": "*", "no-division": "/"}
VECTOR_OPERATORS = ("⊞", "⊠", "•")
VECTOR_MEANINGS = frozenset({"vadd", "smul", "dot"})  # the checker's name for an overloaded operator's vector use


@dataclass(frozen=True)
class Lack:
    """One fragment name: what it leaves out, and whether a program uses that (`used(nodes,
    term, operators)`: the program's nodes, the program, the checker's operator meanings or
    None)."""

    name: str
    description: str
    used: Callable


def _weakened(nodes, term, operators) -> bool:
    from goi.generators.typed import weakenings

    return weakenings(term) > 0


def _vector_ops(nodes, term, operators) -> bool:
    return any(isinstance(n, S.BinOp) and (n.op in VECTOR_OPERATORS or (operators or {}).get(id(n)) in VECTOR_MEANINGS)
               for n in nodes)


def _operator(op: str) -> Callable:
    return lambda nodes, term, operators: any(isinstance(n, S.BinOp) and n.op == op for n in nodes)


def _annotated(nodes, term, operators) -> bool:
    """Whether a program writes an annotation (the printer drops them under no-annotations, so
    a program is never refused for one)."""
    return False


LACKS = {lack.name: lack for lack in (
    Lack("no-iterated", "no iterated operations (+^L, *^L)",
         lambda nodes, term, ops: any(isinstance(n, S.BinOp) and n.op in S.ITERATED for n in nodes)),
    Lack("no-division", "no division", _operator("/")),
    Lack("no-vector-ops", "no ⊞ ⊠ • in source (a decoupled p is only applied: f p)", _vector_ops),
    Lack("no-decoupling-values", "no decoupling value A(f,x). t (let f @ p = t in u stays)",
         lambda nodes, term, ops: any(isinstance(n, S.Decouple) for n in nodes)),
    Lack("no-annotations", "no type annotations and no decoupling names", _annotated),
    Lack("no-decoupling", "no decoupling at all",
         lambda nodes, term, ops: any(isinstance(n, (S.Decouple, S.LetDecouple)) for n in nodes)),
    Lack("no-provisional", "no provisional constant {c} at all, hence no decoupling: the λ, let and arithmetic of any DGoIM",
         lambda nodes, term, ops: any(isinstance(n, (S.Prov, S.Decouple, S.LetDecouple)) for n in nodes)),
    Lack("integers", "integer constants only (no 0.5 written)",
         lambda nodes, term, ops: any(isinstance(n, (S.Const, S.Prov)) and n.value.denominator != 1 for n in nodes)),
    Lack("non-negative", "no negative constant written (-3 is written 0 - 3 by the program, if at all)",
         lambda nodes, term, ops: any(isinstance(n, (S.Const, S.Prov)) and n.value < 0 for n in nodes)),
    Lack("no-weakening", "no binder nobody uses (an unused let, λ parameter or decoupled f or p): the weakening an "
                         "implementation may lack", _weakened),
    Lack("no-negative-provisional", "no negative provisional constant {-c} (definitive negative constants stay)",
         lambda nodes, term, ops: any(isinstance(n, S.Prov) and n.value < 0 for n in nodes)),
    Lack("no-plus", "no +", _operator("+")),
    Lack("no-minus", "no -", _operator("-")),
    Lack("no-times", "no *", _operator("*")),
)}
FRAGMENTS = {name: lack.description for name, lack in LACKS.items()}  # name -> what it says (help, docs)


class FragmentError(ValueError):
    """A fragment name that is not one: the message names it and what there is."""


@dataclass(frozen=True)
class Fragment:
    """The lacks in force (names of LACKS)."""

    names: frozenset = frozenset()

    @classmethod
    def of(cls, names: Iterable[str]) -> "Fragment":
        names = frozenset(names)
        unknown = sorted(names - set(LACKS))
        if unknown:
            raise FragmentError(f"unknown fragment(s) {', '.join(unknown)}; known: {', '.join(LACKS)}")
        return cls(names)

    def __contains__(self, name: str) -> bool:
        return name in self.names

    @property
    def operators(self) -> tuple:
        """The arithmetic operators it has (+ - * / less those it lacks)."""
        return tuple(op for name, op in OPERATORS.items() if name not in self.names)

    @property
    def annotations(self) -> bool:
        return "no-annotations" not in self.names

    def draw(self, search: frozenset = frozenset(), signed: bool = True) -> dict:
        """The well-typed generator's settings (generators.typed.programs) that leave its lacks
        out, with the search's techniques in use; `signed`: negative provisional constants can
        be written (a notation may not write them)."""
        has = lambda name: name not in self.names  # noqa: E731
        return dict(iterated=has("no-iterated"), division=has("no-division"), vector_ops=has("no-vector-ops"),
                    decoupling_values=has("no-decoupling-values"),
                    decoupling=has("no-decoupling") and has("no-provisional"), provisional=has("no-provisional"),
                    integers="integers" in self.names, non_negative="non-negative" in self.names,
                    weakening=has("no-weakening"), operators=self.operators,
                    sharing="sharing" in search, swarm="swarm" in search, scopes="scopes" in search,
                    signed=signed and has("no-negative-provisional"))

    def uses(self, term: S.Term, operators: Optional[dict] = None) -> frozenset:
        """The lacks in force that the program uses (`operators`: the checker's meaning of each
        operator node, when it is typed; an ill-typed program's operators are as written)."""
        if not self.names:  # the common case, on every program printed: no walk
            return frozenset()
        nodes = list(S.walk(term))
        return frozenset(name for name in sorted(self.names) if LACKS[name].used(nodes, term, operators))

    def excludes(self, term: S.Term, operators: Optional[dict] = None) -> bool:
        """Whether the program uses anything the fragment leaves out: then it is never sent."""
        return bool(self.uses(term, operators))
