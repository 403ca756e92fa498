"""The property suite: every property declared in this package (properties.registry says how:
one declaration, on its check), the same for pytest (tests/test_properties.py) and
`goi props`. `build(name, config)` gives the Hypothesis test of a property for a profile's
configuration; settings (examples, seed, database) are applied by the caller.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterable

from .registry import Property, UnknownProperty


@lru_cache(maxsize=1)
def _declared() -> tuple[Property, ...]:
    """The properties the modules of this package declare (each module is imported: adding a
    property is declaring it on its check, in its module; goi/declarations.py), in the
    suite's order."""
    from goi.declarations import declared

    return tuple(sorted(declared(__package__, "property", Property).values(), key=lambda p: p.order))


def registry() -> dict[str, Property]:
    """Every property, by name, in the suite's order."""
    return {p.name: p for p in _declared()}


def names() -> tuple[str, ...]:
    return tuple(registry())


def select(chosen: Iterable[str]) -> list[str]:
    """The properties named (all when none is), or UnknownProperty naming the unknown ones."""
    known = names()
    chosen = list(chosen) or list(known)
    unknown = [n for n in chosen if n not in known]
    if unknown:
        raise UnknownProperty(f"unknown properties {', '.join(unknown)}; known: {', '.join(known)}")
    return chosen


def build(name: str, config) -> Callable:
    """The Hypothesis test of property `name` under `config` (no settings applied)."""
    return registry()[name].build(config)
