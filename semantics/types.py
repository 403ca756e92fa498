"""Types of the abductive calculus: `T ::= F | V_a | T -> T`.

`Meta` is an inference variable used only inside the type checker; the typed
terms it returns contain none.
"""

from __future__ import annotations

from dataclasses import dataclass
from weakref import WeakValueDictionary


class Type:
    """Base class of types."""

    def __str__(self) -> str:
        return show_type(self)


@dataclass(frozen=True)
class Field(Type):
    """The field type F."""

    def __str__(self) -> str:
        return "F"


@dataclass(frozen=True)
class Vec(Type):
    """The vector type V_a, indexed by the name a."""

    name: str

    def __str__(self) -> str:
        return f"V_{self.name}"


@dataclass(frozen=True, init=False, eq=False)  # its own __new__, __init__, __eq__ and __hash__ (not made and dropped)
class Arrow(Type):
    """T -> T'. Arrows are hash-consed: one object per structure, with its hash, its names
    and whether it holds inference variables computed once. Types are DAGs that can be
    exponentially larger as trees (`(λx. x) (λx. x) … 1`), so nothing may walk them as trees."""

    dom: Type
    cod: Type

    def __new__(cls, dom: Type, cod: Type):
        key = (dom, cod)
        found = _ARROWS.get(key)
        if found is None:
            found = super().__new__(cls)
            object.__setattr__(found, "dom", dom)
            object.__setattr__(found, "cod", cod)
            object.__setattr__(found, "_hash", hash(("->", dom, cod)))
            object.__setattr__(found, "names", names_of(dom) | names_of(cod))
            object.__setattr__(found, "has_metas", has_metas(dom) or has_metas(cod))
            _ARROWS[key] = found
        return found

    def __init__(self, dom: Type, cod: Type):
        pass  # set once by __new__

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined]

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Arrow) or self._hash != other._hash:  # type: ignore[attr-defined]
            return False
        return self.dom == other.dom and self.cod == other.cod

    def __reduce__(self):
        return (Arrow, (self.dom, self.cod))

    def __str__(self) -> str:
        return show_type(self)


_ARROWS: "WeakValueDictionary[tuple[Type, Type], Arrow]" = WeakValueDictionary()


@dataclass(frozen=True)
class Meta(Type):
    """An unknown type during inference (printed ?n)."""

    id: int

    def __str__(self) -> str:
        return f"?{self.id}"


F = Field()


def show_type(t: Type) -> str:
    if isinstance(t, Arrow):
        dom = show_type(t.dom)
        if isinstance(t.dom, Arrow):
            dom = f"({dom})"
        return f"{dom} -> {show_type(t.cod)}"
    return str(t)


def names_of(t: Type) -> frozenset[str]:
    """The names a with V_a occurring in t (the support of t)."""
    if isinstance(t, Vec):
        return frozenset({t.name})
    if isinstance(t, Arrow):
        return t.names  # type: ignore[attr-defined]
    return frozenset()


def has_metas(t: Type) -> bool:
    """Does t contain an inference variable?"""
    if isinstance(t, Meta):
        return True
    if isinstance(t, Arrow):
        return t.has_metas  # type: ignore[attr-defined]
    return False


def rename(t: Type, mapping: dict[str, str]) -> Type:
    """Apply a renaming of names to a type."""
    if isinstance(t, Vec):
        return Vec(mapping.get(t.name, t.name))
    if isinstance(t, Arrow):
        return Arrow(rename(t.dom, mapping), rename(t.cod, mapping))
    return t
