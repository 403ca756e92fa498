"""The property registry: each of the paper's theorems (and each second opinion) declared
once, on the factory of its Hypothesis test in properties.suite:

    @declare("soundness", order=10, statement="Theorem 6.1", check=soundness)
    def _soundness(config):
        '''A program's run ends in a final state with a value of its type.'''
        @given(programs(max_depth=config.max_depth))
        def soundness_property(term): …
        return soundness_property

The declarations are in properties.suite, which also gives the lookups (`registry()`,
`names()`, `select()`, `build()`). From the declarations follow pytest's tests (tests/test_properties.py), `goi props` and
`goi report` (their names, order and the error for an unknown one), the API's
`goi.properties.PROPERTIES` and the docs' list (docs/REPORTS.md, checked by a test).
Each factory's test is its own function: Hypothesis keys its example database by the
test's source, so `goi props soundness` and pytest share their failures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Property:
    name: str
    order: int  # its place in the suite
    statement: str  # what of the paper it checks ("Theorem 6.1", "Prop. 7.6", "second opinion")
    summary: str  # the factory's docstring, first line
    check: Callable  # the property on one example: check(term, config, …) raises a Finding
    build: Callable  # build(config) -> the Hypothesis test (no settings applied)


DECLARED: dict[str, Property] = {}


class UnknownProperty(ValueError):
    pass


def declare(name: str, order: int, statement: str, check: Callable):
    def register(factory):
        if name in DECLARED:
            raise ValueError(f"property {name} declared twice")
        summary = (factory.__doc__ or "").strip().splitlines()
        if not summary:
            raise TypeError(f"property {name}: its factory has no docstring (its summary)")
        DECLARED[name] = Property(name, order, statement, summary[0], check, factory)
        return factory

    return register
