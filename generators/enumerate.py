"""Every well-typed closed program by size: exact counts, the i-th program of size n
(docs/CAMPAIGNS.md).

Where the Hypothesis strategies (generators/typed.py) draw programs at random, this module
lists them all, in the style of Feat (Duregård et al. 2012) and Redex's `generate-term #:i-th`:
`count(n)` is the number of programs of size n (an exact integer), `program(n, i)` the i-th of
them (0 ≤ i < count(n)), and i ↦ program(n, i) a bijection onto those programs, so work splits
into index ranges and a uniform random program of a size is `program(n, randrange(count(n)))`.

**Size** is the number of term constructors: every variable, constant, λ, application, let,
operator, decoupling and decoupling value counts 1 (binders' names and annotations nothing).

**Each program once up to alpha-equivalence**: binders are named by their depth — a λ or
`let` binding the k-th variable in scope binds `xk`; a decoupling at depth k binds `fk` and
`p(k+1)` and names its vector `aj` (the j-th vector name in scope) — so alpha-equivalent
programs are the same program, and no name is ever shadowed.

**What is listed** (Space): terms typed by construction, as the random generator types them:

- leaves: a variable in scope of the wanted type; a definitive constant (`Space.constants`,
  default 0, 1, -1/2) or a provisional one (`Space.provisionals`, default {1}, {-1/2}) of type F;
- at any type: an application `t u` and `let x : A = u in t`, A one of the *argument types* F,
  F → F and V_a for each vector name a in scope; `let f @_a p : T' = m in t`, T' one of the
  *model types* F and F → F;
- at F: `+ - * /` on scalars, `•` on vectors; at V_a: `⊞ ⊠`, `+^L` and `*^L`; at A → B: `λx : A. t`,
  and the decoupling value `A_a(f, p) : A. t` when A is a model type.

The vector operations are listed in their explicit form (`⊞ ⊠`), not as the overloaded `+` and
`*` (the same programs written otherwise). The fragment switches are the oracle's
(`iterated`, `division`, `vector_ops`, `decoupling_values`, `decoupling`, `signed`: without a
sign, no negative provisional constant; `operators`: the scalar operators listed); the
constants are `constants` and `provisionals` (none: no provisional constant at all).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from bisect import bisect_right
from functools import lru_cache
from typing import Iterator, Optional

from goi.semantics import syntax as S
from goi.semantics.errors import BudgetError, whole_number
from goi.semantics.types import Arrow, F, Type, Vec

FF = Arrow(F, F)


@dataclass(frozen=True)
class Space:
    """What is enumerated: the constants and the fragment (module docstring)."""

    constants: tuple = (Fraction(0), Fraction(1), Fraction(-1, 2))
    provisionals: tuple = (Fraction(1), Fraction(-1, 2))
    iterated: bool = True
    division: bool = True
    vector_ops: bool = True
    decoupling_values: bool = True
    decoupling: bool = True
    signed: bool = True
    operators: tuple = ("+", "-", "*", "/")  # the scalar operators listed (with `division`: / too)
    order: int = 1  # the argument types' order: 1 — F, F → F (and V_a); 2 — also (F → F) → F and F → F → F

    def __post_init__(self) -> None:
        """Each field checked: constants are exact (Fraction or int), flags are booleans, the
        operators are scalar operators, the order 1 or 2 (a TypeError or ValueError naming it)."""
        for name in ("constants", "provisionals"):
            values = getattr(self, name)
            if not isinstance(values, tuple):
                raise TypeError(f"Space.{name} is a tuple of exact constants, not {type(values).__name__}")
            for v in values:
                if isinstance(v, bool) or not isinstance(v, (Fraction, int)):
                    raise TypeError(f"Space.{name} holds {v!r}: each constant an exact rational (Fraction or int)")
            object.__setattr__(self, name, tuple(Fraction(v) for v in values))
        for name in ("iterated", "division", "vector_ops", "decoupling_values", "decoupling", "signed"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"Space.{name} is True or False, not {getattr(self, name)!r}")
        if not isinstance(self.operators, tuple) or not set(self.operators) <= {"+", "-", "*", "/"}:
            raise ValueError(f"Space.operators is a tuple of '+', '-', '*', '/', not {self.operators!r}")
        if self.order not in (1, 2) or isinstance(self.order, bool):
            raise ValueError(f"Space.order is 1 or 2, not {self.order!r}")

    def provisional_constants(self) -> tuple:
        return tuple(c for c in self.provisionals if self.signed or c >= 0)

    def describe(self, shapes: bool = False) -> str:
        """The space in words (what an exhaustive verdict covers): the constructs, the
        annotation types, the constants — or, for shapes, one placeholder of each kind."""
        constructs = ["variables", "λ", "application", "let"]
        if self.decoupling:
            constructs.append("let-decoupling" + (" and decoupling values" if self.decoupling_values else ""))
        ops = [op for op in ("+", "-", "*", "/") if op in self.operators and (op != "/" or self.division)]
        if self.vector_ops:
            ops += ["•", "⊞", "⊠"] + (["+^L", "*^L"] if self.iterated else [])
        constructs.append(" ".join(ops))
        if shapes:
            constants = ("a placeholder for any rational constant" if self.constants else "no definitive constant") + (
                ", one for any provisional constant" + ("" if self.signed else " ≥ 0")
                if self.provisional_constants() else ", no provisional constant")
        else:
            shown = [_show(c) for c in self.constants] + ["{" + _show(c) + "}" for c in self.provisional_constants()]
            constants = "the constants " + ", ".join(shown) if shown else "no constant"
        types = "F, F → F" + (", (F → F) → F, F → F → F" if self.order >= 2 else "")
        return (f"closed programs of type F built from {', '.join(constructs)}; λ, let and argument types {types} "
                f"and V_a, models F and F → F; {constants}")


Context = tuple  # ((name, type), …): the variables in scope, outermost first
Names = tuple  # the vector names in scope


ARG_TYPES = {1: (F, FF), 2: (F, FF, Arrow(FF, F), Arrow(F, FF))}  # by the space's `order`


def arg_types(names: Names, order: int = 1) -> list[Type]:
    """The types of an application's argument and of a `let`'s bound term."""
    return [*ARG_TYPES[order], *(Vec(a) for a in names)]


MODEL_TYPES = (F, FF)


def _show(c: Fraction) -> str:
    return str(c.numerator) if c.denominator == 1 else f"{c.numerator}/{c.denominator}"


def splits(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """The sizes of `parts` children (each ≥ 1) adding up to `total`, in a fixed order."""
    if parts == 1:
        if total >= 1:
            yield (total,)
        return
    for first in range(1, total - parts + 2):
        for rest in splits(total - first, parts - 1):
            yield (first,) + rest


MAX_TABLE = 250_000  # counts kept (context, type, size): past this, counting stops (TooLarge)
BLOCK_TABLES = 20_000  # unranking's block tables kept (the most recently used): a bounded cache


class TooLarge(BudgetError):
    """Counting would take more than the enumeration's table budget: the size is beyond what
    can be listed (or even counted) here."""

    def __init__(self, message: str):
        super().__init__(message, limit="enumeration")


_whole = whole_number  # semantics/errors.py


class Enumeration:
    """The programs of one Space, by size (module docstring). Counting is bounded: a size
    whose count needs more than `max_table` table entries raises TooLarge at once (with the
    default space, sizes up to 15 are counted; size 15 has 120,240,712,289,227 programs)."""

    def __init__(self, space: Space = Space(), max_table: int = MAX_TABLE):
        if not isinstance(space, Space):
            raise TypeError(f"space must be a goi.enumerate.Space, not {type(space).__name__}")
        if space.order not in ARG_TYPES:
            raise ValueError(f"the space's order is one of {', '.join(map(str, ARG_TYPES))}, not {space.order!r}")
        self.space = space
        self.max_table = _whole("max_table", max_table, 1)
        self._entries = 0
        self._count = lru_cache(maxsize=None)(self._count_uncached)
        self._blocks = lru_cache(maxsize=BLOCK_TABLES)(self._blocks_uncached)  # (ctx, names, type, size) -> blocks

    # ---- the public face --------------------------------------------------------------
    def count(self, n: int) -> int:
        """How many closed programs of type F have size n (TooLarge past the table budget)."""
        _whole("n", n)
        if n < 1:
            return 0
        if n <= self.max_table:
            try:
                return self._count((), (), F, n)
            except TooLarge:
                pass
        raise TooLarge(f"size {n} is beyond reach: counting its programs takes more than the enumeration's "
                       f"table budget ({self.max_table:,} entries)")

    def count_upto(self, n: int) -> int:
        return sum(self.count(k) for k in range(1, _whole("n", n) + 1))

    def program(self, n: int, i: int) -> S.Term:
        """The i-th closed program of type F of size n (0 ≤ i < count(n))."""
        total = self.count(n)
        _whole("i", i)
        if not i < total:
            raise IndexError(f"no program {i} of size {n}: there are {total:,}")
        return self._unrank((), (), F, n, i)

    def programs(self, n: int, start: int = 0, stop: Optional[int] = None) -> Iterator[S.Term]:
        """The programs of size n with index in [start, stop), in index order."""
        total = self.count(n)
        _whole("start", start)
        stop = total if stop is None else min(_whole("stop", stop), total)
        return self._programs(n, start, stop)

    def _programs(self, n: int, start: int, stop: int) -> Iterator[S.Term]:
        for i in range(start, stop):
            yield self._unrank((), (), F, n, i)

    def count_terms(self, context: Context, type_: Type, n: int) -> int:
        """How many terms t of size n with context ⊢ t : type_ (context: ((name, type), …))."""
        return self._count(tuple(context), (), type_, _whole("n", n)) if n >= 1 else 0

    def terms(self, context: Context, type_: Type, n: int) -> Iterator[S.Term]:
        """Every term t of size n with context ⊢ t : type_, in index order (open terms: the
        metavariables of a law, a context's body with its hole as a variable)."""
        context = tuple(context)
        for i in range(self.count_terms(context, type_, n)):
            yield self._unrank(context, (), type_, n, i)

    def upto(self, n: int) -> Iterator[tuple[int, int, S.Term]]:
        """(size, index, program) for every program of size ≤ n, smallest first."""
        for size in range(1, n + 1):
            for i, term in enumerate(self.programs(size)):
                yield size, i, term

    # ---- the productions ----------------------------------------------------------------
    def _shapes(self, ctx: Context, names: Names, t: Type, n: int):
        """The ways to build a term of type t and size n: (build, [(ctx, names, type) of each
        child]) for n ≥ 2, in a fixed order; (leaf term, []) for n == 1."""
        sp = self.space
        if n == 1:
            for x, ty in ctx:
                if ty == t:
                    yield (lambda x=x: S.Var(x)), []
            if t == F:
                for c in sp.constants:
                    yield (lambda c=c: S.Const(c)), []
                for c in sp.provisional_constants():
                    yield (lambda c=c: S.Prov(c)), []
            return
        k = len(ctx)
        x = f"x{k}"
        for a in arg_types(names, sp.order):
            yield (lambda f, u: S.App(f, u)), [(ctx, names, Arrow(a, t)), (ctx, names, a)]
        for a in arg_types(names, sp.order):
            yield (lambda u, body, a=a, x=x: S.Let(x, a, u, body)), [(ctx, names, a), (ctx + ((x, a),), names, t)]
        if sp.decoupling:
            vec = f"a{len(names)}"
            f, p = f"f{k}", f"p{k + 1}"
            for m in MODEL_TYPES:
                inner = ctx + ((f, Arrow(Vec(vec), m)), (p, Vec(vec)))
                yield ((lambda model, body, m=m, vec=vec, f=f, p=p: S.LetDecouple(f, p, vec, m, model, body)),
                       [(ctx, names, m), (inner, names + (vec,), t)])
        if t == F:
            for op in [op for op in ("+", "-", "*", "/") if op in sp.operators and (op != "/" or sp.division)]:
                yield (lambda l, r, op=op: S.BinOp(op, l, r)), [(ctx, names, F), (ctx, names, F)]
            if sp.vector_ops:
                for a in names:
                    yield (lambda l, r: S.BinOp("•", l, r)), [(ctx, names, Vec(a)), (ctx, names, Vec(a))]
        elif isinstance(t, Vec):
            if sp.vector_ops:
                yield (lambda l, r: S.BinOp("⊞", l, r)), [(ctx, names, t), (ctx, names, t)]
                yield (lambda l, r: S.BinOp("⊠", l, r)), [(ctx, names, F), (ctx, names, t)]
                if sp.iterated:
                    yield (lambda g, v: S.BinOp("+^L", g, v)), [(ctx, names, Arrow(t, t)), (ctx, names, t)]
                    yield (lambda g, v: S.BinOp("*^L", g, v)), [(ctx, names, Arrow(t, F)), (ctx, names, t)]
        elif isinstance(t, Arrow):
            yield (lambda body, x=x, a=t.dom: S.Lam(x, a, body)), [(ctx + ((x, t.dom),), names, t.cod)]
            if sp.decoupling and sp.decoupling_values and t.dom in MODEL_TYPES:
                vec = f"a{len(names)}"
                f, p = f"f{k}", f"p{k + 1}"
                inner = ctx + ((f, Arrow(Vec(vec), t.dom)), (p, Vec(vec)))
                yield ((lambda body, vec=vec, f=f, p=p, m=t.dom: S.Decouple(f, p, vec, m, body)),
                       [(inner, names + (vec,), t.cod)])


    def _count_uncached(self, ctx: Context, names: Names, t: Type, n: int) -> int:
        self._entries += 1
        if self._entries > self.max_table:
            self._entries -= 1
            raise TooLarge(f"terms of size {n}: beyond the table budget ({self.max_table:,} entries)")
        total = 0
        for _build, children in self._shapes(ctx, names, t, n):
            if not children:
                total += 1
                continue
            for sizes in splits(n - 1, len(children)):
                product = 1
                for (c, ns, ty), size in zip(children, sizes):
                    product *= self._count(c, ns, ty, size)
                    if not product:
                        break
                total += product
        return total

    def _unrank(self, ctx: Context, names: Names, t: Type, n: int, i: int) -> S.Term:
        starts, blocks = self._blocks(ctx, names, t, n)
        b = bisect_right(starts, i) - 1
        if b < 0 or i >= starts[b] + blocks[b][3]:
            raise AssertionError(f"index past the programs of type {t} and size {n}")
        build, children, counts, _ = blocks[b]
        i -= starts[b]
        parts = []
        for (c, ns, ty, size), k in zip(reversed(children), reversed(counts)):
            i, j = divmod(i, k)
            parts.append(self._unrank(c, ns, ty, size, j))
        return build(*reversed(parts))

    def _blocks_uncached(self, ctx: Context, names: Names, t: Type, n: int) -> tuple[list, list]:
        """The terms of type t and size n in index order, as blocks: one per production and
        split of the size among its children, with the index it starts at — (starts, [(build,
        [(ctx, names, type, size) of each child], their counts, the block's count)]); empty
        blocks left out. Unranking an index is then a bisection, not a walk of every
        production before it."""
        starts, blocks, at = [], [], 0
        for build, children in self._shapes(ctx, names, t, n):
            if not children:
                starts.append(at)
                blocks.append((build, (), (), 1))
                at += 1
                continue
            for sizes in splits(n - 1, len(children)):
                counts = tuple(self._count(c, ns, ty, size) for (c, ns, ty), size in zip(children, sizes))
                product = 1
                for k in counts:
                    product *= k
                if product:
                    starts.append(at)
                    blocks.append((build, tuple((c, ns, ty, size) for (c, ns, ty), size in zip(children, sizes)),
                                   counts, product))
                    at += product
        return starts, blocks


size = S.size  # the size of a term: its constructors (module docstring)
