"""Surface syntax of the abductive calculus: the AST the parser builds.

Every node keeps its source position (`pos`), which takes no part in equality:
two ASTs are equal when they are the same program, whatever the layout, the
notation (paper or visualiser) or the sugar for binders they were written in.

The AST keeps exactly the distinctions that matter for typing:
- `+` and `*` are the paper's overloaded operators (resolved by type);
  `⊞` and `⊠` are the visualiser's explicitly vectorial ones;
- `•`, `dot`, `⊡`, `\\sq.` are one operator (dot product);
- `let f @ p = t in u` and `let (f,p) = abs t in u` are one construct;
- `λx y. t` is `λx. λy. t`, and `let f x y = t in u` is `let f = λx. λy. t in u`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace as _replace
from fractions import Fraction
from typing import Optional

from .types import Type


@dataclass(frozen=True, slots=True)
class Pos:
    """A source span: 1-based line and column of its start and end, and offsets."""

    line: int
    column: int
    end_line: int
    end_column: int
    start: int
    end: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


def _pos() -> Optional[Pos]:
    return field(default=None, compare=False, repr=False)


# Operators, by what they mean (their key), not by how they were written.
# key: (printed symbol, precedence level, description)
ADDITIVE = 1
MULTIPLICATIVE = 2

OPERATORS = {
    "+": ("+", ADDITIVE, "addition (scalar or vector, by type)"),
    "-": ("-", ADDITIVE, "scalar subtraction"),
    "⊞": ("⊞", ADDITIVE, "vector addition"),
    "+^L": ("+^L", ADDITIVE, "left-iterated vector addition"),
    "*": ("*", MULTIPLICATIVE, "multiplication (scalar, or scalar times vector, by type)"),
    "/": ("/", MULTIPLICATIVE, "scalar division"),
    "•": ("•", MULTIPLICATIVE, "dot product"),
    "⊠": ("⊠", MULTIPLICATIVE, "scalar multiplication of a vector"),
    "*^L": ("*^L", MULTIPLICATIVE, "left-iterated scalar multiplication"),
}

ITERATED = frozenset({"+^L", "*^L"})


class Term:
    """Base class of surface terms."""

    __slots__ = ()  # each term's fields are slots: a program of n characters is a tree of ~n/3 terms
    pos: Optional[Pos]


@dataclass(frozen=True, slots=True)
class Var(Term):
    """A variable."""

    name: str
    pos: Optional[Pos] = _pos()


@dataclass(frozen=True, slots=True)
class Lam(Term):
    """`λx:T. t` (`annot` T, or None when left to inference)."""

    var: str
    annot: Optional[Type]
    body: Term
    pos: Optional[Pos] = _pos()


@dataclass(frozen=True, slots=True)
class App(Term):
    """An application `t u`."""

    fun: Term
    arg: Term
    pos: Optional[Pos] = _pos()


@dataclass(frozen=True, slots=True)
class Const(Term):
    """A definitive scalar constant (an element of the field, exact)."""

    value: Fraction
    pos: Optional[Pos] = _pos()


@dataclass(frozen=True, slots=True)
class Prov(Term):
    """A provisional constant `{p}`."""

    value: Fraction
    pos: Optional[Pos] = _pos()


@dataclass(frozen=True, slots=True)
class BinOp(Term):
    """An infix operation; `op` is a key of OPERATORS."""

    op: str
    left: Term
    right: Term
    pos: Optional[Pos] = _pos()


@dataclass(frozen=True, slots=True)
class Decouple(Term):
    """`A_a(f,x):T'. t` — `name` is the user's name for a (or None), `annot` T'."""

    f: str
    x: str
    name: Optional[str]
    annot: Optional[Type]
    body: Term
    pos: Optional[Pos] = _pos()


@dataclass(frozen=True, slots=True)
class Let(Term):
    """`let x : T = t in u`, which means `(λx:T. u) t`."""

    var: str
    annot: Optional[Type]
    bound: Term
    body: Term
    pos: Optional[Pos] = _pos()


@dataclass(frozen=True, slots=True)
class LetDecouple(Term):
    """`let f @_a p : T' = t in u`, which means `(A_a(f,p):T'. u) t`."""

    f: str
    x: str
    name: Optional[str]
    annot: Optional[Type]
    bound: Term
    body: Term
    pos: Optional[Pos] = _pos()


def subterms(term: Term):
    """The immediate subterms of a term, left to right."""
    if isinstance(term, (Var, Const, Prov)):
        return ()
    if isinstance(term, Lam):
        return (term.body,)
    if isinstance(term, App):
        return (term.fun, term.arg)
    if isinstance(term, BinOp):
        return (term.left, term.right)
    if isinstance(term, Decouple):
        return (term.body,)
    if isinstance(term, (Let, LetDecouple)):
        return (term.bound, term.body)
    raise TypeError(f"not a term: {term!r}")


def preorder(root, children):
    """Every node of a tree, the root first, in pre-order left to right (no recursion);
    `children(node)` gives a node's children in order. Serves surface and core terms."""
    todo = [root]
    while todo:
        node = todo.pop()
        yield node
        todo.extend(reversed(children(node)))


def walk(term: Term):
    """Every subterm, the term first, in pre-order left to right (no recursion)."""
    return preorder(term, subterms)


def size(term: Term) -> int:
    """Number of AST nodes."""
    return 1 + sum(size(s) for s in subterms(term))


CHILD_FIELDS = {Lam: ("body",), App: ("fun", "arg"), BinOp: ("left", "right"), Decouple: ("body",),
                Let: ("bound", "body"), LetDecouple: ("bound", "body")}


def with_child(term: Term, i: int, child: Term) -> Term:
    """The term with its i-th immediate subterm (as `subterms` lists them) replaced."""
    return _replace(term, **{CHILD_FIELDS[type(term)][i]: child})


def binds(term: Term) -> tuple[str, ...]:
    """The variables a binder binds in its body."""
    if isinstance(term, (Lam, Let)):
        return (term.var,)
    if isinstance(term, (Decouple, LetDecouple)):
        return (term.f, term.x)
    return ()


def free_variables(term: Term) -> set[str]:
    if isinstance(term, Var):
        return {term.name}
    out: set[str] = set()
    for i, child in enumerate(subterms(term)):
        inner = free_variables(child)
        if not (isinstance(term, (Let, LetDecouple)) and i == 0):  # a let's bound term is outside its binder
            inner -= set(binds(term))
        out |= inner
    return out


def substitute(term: Term, x: str, value: Term) -> Term:
    """term[value/x] for a *closed* value (nothing can be captured); a binder of x stops it."""
    if isinstance(term, Var):
        return value if term.name == x else term
    if isinstance(term, (Const, Prov)):
        return term
    children = list(subterms(term))
    for i, child in enumerate(children):
        shadowed = x in binds(term) and not (isinstance(term, (Let, LetDecouple)) and i == 0)
        if not shadowed:
            term = with_child(term, i, substitute(child, x, value))
    return term
