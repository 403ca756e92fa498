"""A second-opinion evaluator for the abductive calculus — for tests only, never the machine.

A direct, environment-based call-by-value interpreter of typed core terms, written
independently of the graph machine, so that the two can be compared.

How decoupling is modelled without graphs:
- Numbers are symbolic expressions over *parameter references* (one per provisional
  constant, by its index in p⃗), so a value remembers which constants it was made from;
  `{p}` evaluates to its reference, definitive constants are folded eagerly.
- The parameters of a model are its *footprint*: the provisional constants of the model
  term, plus the footprints of the values bound to its free variables (each binding
  carries the footprint of the term it was bound to). This is what the machine's model
  box reaches through its ¿-doors: its own constants (even discarded ones, as in
  `(λx.0){1}`) and those of the boxes it absorbed for its free variables.
- `A(f,x).t` applied to a model m with footprint k_1 < … < k_n binds x to the vector of the
  constants' current values (definitive: a later decoupling does not see them) and f to a
  function that, applied to v, substitutes v_i for k_i throughout m (in its expression, or in
  a closure's environment and provisional constants). Both f and x have empty footprints.
- Substituted constants are no longer provisional (the machine makes the decoupled model
  definitive, rotD → D), but each slot now holds a projection of f's *argument*, whose own
  provisional constants it carries: in the machine, projection plugs copies of the whole
  argument box, ¿-doors included, into the slots. So a substituted slot contributes the
  argument's footprint, not its old constant, to any later decoupling. (Both facts were
  found by the properties comparing this evaluator with the machine.)
- The order of the parameters (here: by index) need not be the machine's: the calculus
  only has vector operations invariant under permutations of the basis, and arithmetic is
  exact, so final values agree whatever the order.
Division by zero is total (x/0 = 0), the machine's default.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from goi.semantics import core as C


# ---- symbolic numbers ------------------------------------------------------------

@dataclass(frozen=True)
class Ref:
    index: int


@dataclass(frozen=True)
class Op:
    op: str
    left: object
    right: object


def _arith(op, x, y):
    if op == "add":
        return x + y
    if op == "sub":
        return x - y
    if op == "mul":
        return x * y
    if op == "div":
        return Fraction(0) if y == 0 else x / y
    raise ValueError(op)


def num(op, x, y):
    """x op y on expressions, folded when both are known constants."""
    if isinstance(x, Fraction) and isinstance(y, Fraction):
        return _arith(op, x, y)
    return Op(op, x, y)


def evaluate(e, params: list[Fraction]) -> Fraction:
    if isinstance(e, Fraction):
        return e
    if isinstance(e, Ref):
        return params[e.index]
    return _arith(e.op, evaluate(e.left, params), evaluate(e.right, params))


def subst_expr(e, sigma: dict[int, object]):
    if isinstance(e, Ref):
        return sigma.get(e.index, e)
    if isinstance(e, Op):
        return num(e.op, subst_expr(e.left, sigma), subst_expr(e.right, sigma))
    return e


# ---- values ----------------------------------------------------------------------

@dataclass(frozen=True)
class Closure:
    var: str
    body: C.Core
    env: dict  # var -> (value, footprint)
    prov: dict  # provisional index -> (expression, footprint) once substituted (default: itself)


@dataclass(frozen=True)
class DecouplingFun:
    """The value of A(f,x).t: applying it decouples its argument."""

    node: C.CDecouple
    env: dict
    prov: dict


@dataclass(frozen=True)
class Decoupled:
    """The f of a decoupling: λv. model[k_i := v_i]."""

    model: object
    refs: tuple[int, ...]


def _refoot(fp: frozenset, gone: frozenset, carried: frozenset) -> frozenset:
    """A footprint after substituting `gone`: those constants leave, the argument's come in."""
    return (fp - gone) | carried if fp & gone else fp


def _subst_scope(env: dict, prov: dict, sigma: dict[int, object], carried: frozenset) -> tuple[dict, dict]:
    gone = frozenset(sigma)
    new_env = {k: (subst_value(val, sigma, carried), _refoot(fp, gone, carried)) for k, (val, fp) in env.items()}
    new_prov = {k: (subst_expr(e, sigma), _refoot(fp, gone, carried)) for k, (e, fp) in prov.items()}
    for k, e in sigma.items():
        new_prov.setdefault(k, (e, carried))
    return new_env, new_prov


def subst_value(v, sigma: dict[int, object], carried: frozenset = frozenset()):
    """Substitute sigma (constant index -> expression) in a value; the substituted slots
    carry the footprint `carried` (that of the vector they were projected from)."""
    if not sigma:
        return v
    if isinstance(v, tuple):
        return tuple(subst_expr(x, sigma) for x in v)
    if isinstance(v, Closure):
        return Closure(v.var, v.body, *_subst_scope(v.env, v.prov, sigma, carried))
    if isinstance(v, DecouplingFun):
        return DecouplingFun(v.node, *_subst_scope(v.env, v.prov, sigma, carried))
    if isinstance(v, Decoupled):
        # its own parameters are replaced when it is applied, not now
        inner = {k: e for k, e in sigma.items() if k not in v.refs}
        return Decoupled(subst_value(v.model, inner, carried), v.refs)
    return subst_expr(v, sigma)


# ---- the evaluator -----------------------------------------------------------------

def free_vars(t: C.Core) -> set[str]:
    if isinstance(t, C.CVar):
        return {t.name}
    if isinstance(t, C.CLam):
        return free_vars(t.body) - {t.var}
    if isinstance(t, C.CDecouple):
        return free_vars(t.body) - {t.f, t.x}
    out: set[str] = set()
    for child in C.children(t):
        out |= free_vars(child)
    return out


def footprint(t: C.Core, env: dict, prov: dict) -> frozenset[int]:
    """The parameters a box of t reaches: t's own constants still provisional in this scope,
    the footprints carried by those a decoupling substituted, its free variables' footprints."""
    own: set[int] = set()
    for p in C.provisionals(t):
        if p.index in prov:
            own |= prov[p.index][1]
        else:
            own.add(p.index)
    for name in free_vars(t):
        own |= env[name][1]
    return frozenset(own)


class Reference:
    def __init__(self, params: list[Fraction]):
        self.params = params
        self.decouplings = 0
        self.deep_decouplings = 0  # models reaching constants beyond their own (free variables, slots)

    def eval(self, t: C.Core, env: dict, prov: dict):
        if isinstance(t, C.CVar):
            return env[t.name][0]
        if isinstance(t, C.CConst):
            return Fraction(t.value)
        if isinstance(t, C.CProv):
            return prov[t.index][0] if t.index in prov else Ref(t.index)
        if isinstance(t, C.CLam):
            return Closure(t.var, t.body, env, prov)
        if isinstance(t, C.CDecouple):
            return DecouplingFun(t, env, prov)
        if isinstance(t, C.CApp):
            arg = self.eval(t.arg, env, prov)
            fun = self.eval(t.fun, env, prov)
            fp = footprint(t.arg, env, prov)
            if isinstance(fun, DecouplingFun):
                self.decouplings += 1
                own = {p.index for p in C.provisionals(t.arg) if p.index not in prov}
                if fp - own:
                    self.deep_decouplings += 1
            return self.apply(fun, arg, fp)
        if isinstance(t, C.COp):
            right = self.eval(t.right, env, prov)
            left = self.eval(t.left, env, prov)
            return self.sigma(t.op, left, right)
        if isinstance(t, C.CIter):
            vec = self.eval(t.vec, env, prov)
            fun = self.eval(t.fun, env, prov)
            n = len(vec)
            step = "vadd" if t.op == "iadd" else "smul"
            acc = vec
            for i in reversed(range(n)):  # f(e_0) $ (f(e_1) $ (… $ v))
                e_i = tuple(Fraction(int(j == i)) for j in range(n))
                acc = self.sigma(step, self.apply(fun, e_i, frozenset()), acc)
            return acc
        raise TypeError(f"not a core term: {t!r}")

    def apply(self, fun, arg, arg_footprint):
        if isinstance(fun, Closure):
            return self.eval(fun.body, {**fun.env, fun.var: (arg, arg_footprint)}, fun.prov)
        if isinstance(fun, Decoupled):
            assert len(arg) == len(fun.refs), "a decoupled model applied to a vector of the wrong size"
            return subst_value(fun.model, dict(zip(fun.refs, arg)), arg_footprint)
        if isinstance(fun, DecouplingFun):
            node = fun.node
            refs = tuple(sorted(arg_footprint))
            f = Decoupled(arg, refs)
            x = tuple(self.params[k] for k in refs)
            env = {**fun.env, node.f: (f, frozenset()), node.x: (x, frozenset())}
            return self.eval(node.body, env, fun.prov)
        raise TypeError(f"applying a non-function {fun!r}")

    def sigma(self, op, x, y):
        if op in ("add", "sub", "mul", "div"):
            return num(op, x, y)
        if op == "vadd":
            return tuple(num("add", a, b) for a, b in zip(x, y))
        if op == "smul":
            return tuple(num("mul", x, b) for b in y)
        if op == "dot":
            total = Fraction(0)
            for a, b in zip(x, y):
                total = num("add", total, num("mul", a, b))
            return total
        raise ValueError(op)


def deep_decouplings(judgement) -> int:
    """How many decouplings (of this run) reach constants beyond their model's own."""
    ref = Reference(list(judgement.params))
    ref.eval(judgement.term, {}, {})
    return ref.deep_decouplings


def reference_value(judgement, params: Optional[list[Fraction]] = None):
    """The value of a closed program: an exact rational, or "λ" for a function."""
    params = list(judgement.params) if params is None else list(params)
    value = Reference(params).eval(judgement.term, {}, {})
    if isinstance(value, (Closure, DecouplingFun, Decoupled)):
        return "λ"
    return evaluate(value, params)
