"""A program's *shape*: the program with its constants' values left open (issue 42).

The machine routes the token by the graph's shape; values only flow on the computation
stack, and only the rules declared `reads_values` compute with them (semantics.rules). So a
program's transitions are the same whatever its constants are — a fact checked by the
property `parametricity` (properties/parametricity.py) — and one run of a shape speaks for
every choice of rational constants, up to what the field itself may do with a value: under
`strict` division a zero divisor ends the run `undefined`, and a number longer than
`--max-digits` ends it `budget`.

- `constants_of(term)`: its definitive and its provisional constants' values, each in
  pre-order (left to right);
- `instantiate(term, definitive, provisional)`: the same program with those values instead;
- `ASSIGNMENTS`: named families of values put to a shape by the property (generic, zero,
  one, negative, large, tiny, mixed); `assigned(term, "generic")` is the program a shape's one
  run uses;
- `shape_space(space)`: a Space's shapes (one placeholder constant of each kind).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Callable, Sequence

from goi.semantics import syntax as S

# distinct, of both signs, none 0 or ±1, no two with a simple relation: a run at these values
# meets no zero divisor unless the divisor is zero whatever the constants are
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97)


def generic(i: int) -> Fraction:
    """The i-th generic value: ±p/q for two distinct primes (then larger numerators)."""
    p, q = _PRIMES[(2 * i + 1) % len(_PRIMES)], _PRIMES[(2 * i) % len(_PRIMES)]
    value = Fraction(p + (2 * i // len(_PRIMES)) * 101, q)
    return value if i % 2 == 0 else -value


ASSIGNMENTS: dict[str, Callable[[int], Fraction]] = {
    "generic": generic,
    "zero": lambda i: Fraction(0),  # every divisor a constant can be is zero
    "one": lambda i: Fraction(1),
    "negative": lambda i: Fraction(-(i + 2)),
    "large": lambda i: Fraction(10**12 + i),
    "tiny": lambda i: Fraction(1, 10**12 + i),
    "mixed": lambda i: (Fraction(0), Fraction(-1), Fraction(10**9 + i), Fraction(1, 10**9 + i), Fraction(1, 2))[i % 5],
}


PLACEHOLDER = Fraction(0)  # a shape's constants, before `instantiate` gives them values


def shape_space(space):
    """The shapes of a Space (generators.enumerate): its programs with one placeholder
    definitive and one placeholder provisional constant (where it has any of each kind)."""
    return dataclasses.replace(space, constants=(PLACEHOLDER,) if space.constants else (),
                               provisionals=(PLACEHOLDER,) if space.provisional_constants() else ())


def constants_of(term: S.Term) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """The values of the definitive and of the provisional constants, each in pre-order."""
    nodes = list(S.walk(term))
    return (tuple(t.value for t in nodes if type(t) is S.Const), tuple(t.value for t in nodes if type(t) is S.Prov))


def instantiate(term: S.Term, definitive: Sequence[Fraction], provisional: Sequence[Fraction]) -> S.Term:
    """The term with its definitive and provisional constants' values replaced, in
    pre-order (as `constants_of` lists them)."""
    defs, provs = iter(definitive), iter(provisional)

    def rebuild(t: S.Term) -> S.Term:
        if type(t) is S.Const:
            return dataclasses.replace(t, value=next(defs))
        if type(t) is S.Prov:
            return dataclasses.replace(t, value=next(provs))
        fields = S.CHILD_FIELDS.get(type(t))
        if not fields:
            return t
        return dataclasses.replace(t, **{f: rebuild(getattr(t, f)) for f in fields})

    out = rebuild(term)
    if next(defs, None) is not None or next(provs, None) is not None:
        raise ValueError("more values than the term has constants")
    return out


def assigned(term: S.Term, family: str, offset: int = 0) -> S.Term:
    """The term with every constant taken from one family of ASSIGNMENTS (the k-th constant,
    definitive ones first, gets value k + offset)."""
    make = ASSIGNMENTS[family]
    defs, provs = constants_of(term)
    return instantiate(term, [make(offset + k) for k in range(len(defs))],
                       [make(offset + len(defs) + k) for k in range(len(provs))])
