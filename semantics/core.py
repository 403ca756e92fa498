"""Typed core terms: the output of the type checker, the input of the translation.

The core is the paper's grammar exactly,
    t ::= x | λx^T.t | t t | p | t $ t | {p} | A^T'_a(f,x).t
with sugar removed (`let x = t in u` is `(λx.u) t`; `let f @ p = t in u` is
`(A(f,p).u) t`), every node carrying its type (no inference variables), every
binder its type, every operation its resolved primitive of Σ or Σ^iter (with
the name a of its vector space), every decoupling its unique name a, and every
provisional constant its index in the parameter vector p⃗.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Optional

from .syntax import Pos, preorder
from .types import Type

# Σ: the field's operations and the vector-space operations, by resolved name.
# name: (symbol, left operand kind, right operand kind, result kind); kinds:
# "F" the field, "V" the vector space V_a of the operation.
SIGMA = {
    "add": ("+", "F", "F", "F"),
    "sub": ("-", "F", "F", "F"),
    "mul": ("×", "F", "F", "F"),
    "div": ("/", "F", "F", "F"),
    "vadd": ("+", "V", "V", "V"),
    "smul": ("×", "F", "V", "V"),
    "dot": ("•", "V", "V", "F"),
}
# Σ^iter: f +^L_a v with f : V_a -> V_a; f ×^L_a v with f : V_a -> F.
SIGMA_ITER = {
    "iadd": ("+^L", "V", "V"),
    "imul": ("×^L", "F", "V"),
}


class Core:
    type: Type
    pos: Optional[Pos]


def _pos():
    return field(default=None, compare=False, repr=False)


@dataclass(eq=False)
class CVar(Core):
    """A variable, with its type."""

    name: str
    type: Type
    pos: Optional[Pos] = _pos()


@dataclass(eq=False)
class CLam(Core):
    """λx:T. t, with its type."""

    var: str
    var_type: Type
    body: Core
    type: Type
    pos: Optional[Pos] = _pos()


@dataclass(eq=False)
class CApp(Core):
    """An application t u, with its type."""

    fun: Core
    arg: Core
    type: Type
    pos: Optional[Pos] = _pos()


@dataclass(eq=False)
class CConst(Core):
    """A definitive scalar constant, with its type (F)."""

    value: Fraction
    type: Type
    pos: Optional[Pos] = _pos()


@dataclass(eq=False)
class CProv(Core):
    """A provisional constant {p}, with its place in the parameter vector."""

    value: Fraction
    index: int  # position in the parameter vector p⃗ of the whole judgement
    type: Type
    pos: Optional[Pos] = _pos()


@dataclass(eq=False)
class COp(Core):
    """t1 $ t2 with $ in Σ; `name` is a for vector operations, None for field ones."""

    op: str
    name: Optional[str]
    left: Core
    right: Core
    type: Type
    pos: Optional[Pos] = _pos()


@dataclass(eq=False)
class CIter(Core):
    """f $ v with $ in Σ^iter (iadd: +^L_a, imul: ×^L_a)."""

    op: str
    name: str
    fun: Core
    vec: Core
    type: Type
    pos: Optional[Pos] = _pos()


@dataclass(eq=False)
class CDecouple(Core):
    """A^{T'}_a(f,x).t : T' -> T, with f : V_a -> T' and x : V_a."""

    name: str
    f: str
    x: str
    model_type: Type
    body: Core
    type: Type
    pos: Optional[Pos] = _pos()


def children(t: Core) -> tuple[Core, ...]:
    if isinstance(t, (CVar, CConst, CProv)):
        return ()
    if isinstance(t, CLam):
        return (t.body,)
    if isinstance(t, CApp):
        return (t.fun, t.arg)
    if isinstance(t, COp):
        return (t.left, t.right)
    if isinstance(t, CIter):
        return (t.fun, t.vec)
    if isinstance(t, CDecouple):
        return (t.body,)
    raise TypeError(f"not a core term: {t!r}")


def walk(t: Core):
    """All nodes, pre-order, left to right."""
    return preorder(t, children)


# each node type's children, left to right (as `children` gives them)
_CHILD_FIELDS = {CLam: ("body",), CApp: ("fun", "arg"), COp: ("left", "right"), CIter: ("fun", "vec"),
                 CDecouple: ("body",)}


def provisionals(t: Core) -> list[CProv]:
    """The provisional constants in the order of the judgement's p⃗ (the pre-order of `walk`,
    by the node types' fields: asked for every program a campaign types)."""
    found, stack = [], [t]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is CProv:
            found.append(node)
        else:
            fields = _CHILD_FIELDS.get(kind)
            if fields is None and kind not in (CVar, CConst):
                raise TypeError(f"not a core term: {node!r}")
            stack.extend(getattr(node, f) for f in reversed(fields or ()))
    return found


def show_core(t: Core) -> str:
    """A compact rendering of a core term (paper notation, fully parenthesised)."""
    if isinstance(t, CVar):
        return t.name
    if isinstance(t, CLam):
        return f"(λ{t.var}:{t.var_type}. {show_core(t.body)})"
    if isinstance(t, CApp):
        return f"({show_core(t.fun)} {show_core(t.arg)})"
    if isinstance(t, CConst):
        return str(t.value)
    if isinstance(t, CProv):
        return "{" + str(t.value) + "}"
    if isinstance(t, COp):
        sym = SIGMA[t.op][0] + (f"_{t.name}" if t.name else "")
        return f"({show_core(t.left)} {sym} {show_core(t.right)})"
    if isinstance(t, CIter):
        return f"({show_core(t.fun)} {SIGMA_ITER[t.op][0]}_{t.name} {show_core(t.vec)})"
    if isinstance(t, CDecouple):
        return f"(A^{t.model_type}_{t.name}({t.f},{t.x}). {show_core(t.body)})"
    raise TypeError(f"not a core term: {t!r}")
