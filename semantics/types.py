"""Types of the abductive calculus: `T ::= F | V_a | T -> T`.

`Meta` is an inference variable used only inside the type checker; the typed
terms it returns contain none.
"""

from __future__ import annotations

from dataclasses import dataclass


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


@dataclass(frozen=True)
class Arrow(Type):
    dom: Type
    cod: Type

    def __str__(self) -> str:
        return show_type(self)


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
        return names_of(t.dom) | names_of(t.cod)
    return frozenset()


def is_ground(t: Type) -> bool:
    return isinstance(t, (Field, Vec))


def rename(t: Type, mapping: dict[str, str]) -> Type:
    """Apply a renaming of names to a type."""
    if isinstance(t, Vec):
        return Vec(mapping.get(t.name, t.name))
    if isinstance(t, Arrow):
        return Arrow(rename(t.dom, mapping), rename(t.cod, mapping))
    return t
