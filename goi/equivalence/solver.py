"""z3 on symbolic values: expressions to z3 terms, the difference query, small witnesses.

Every query is quantifier-free nonlinear real arithmetic: + − × over z3 Reals, and a
quotient as If(y = 0, 0, x / y) (no uninterpreted function), which z3's nlsat decides.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Sequence

import z3

from goi.semantics.symbolic import Expr, arithmetic, fold

from .deadline import PIN_WORK, Deadline


def real(v: Fraction, ctx: z3.Context) -> z3.ArithRef:
    """An exact rational as a z3 real."""
    return z3.RealVal(f"{v.numerator}/{v.denominator}", ctx)


class Converter:
    """Expressions to z3 terms over given z3 variables, each DAG node converted once."""

    def __init__(self, variables: Sequence[z3.ArithRef], ctx: z3.Context):
        self.variables = list(variables)
        self.ctx = ctx
        self.zero = z3.RealVal(0, ctx)
        self.memo: dict[int, z3.ArithRef] = {}

    def __call__(self, root: Expr) -> z3.ArithRef:
        (term,) = fold([root], self.constant, self.variables.__getitem__, self.combine, self.memo)
        return term

    def constant(self, v: Fraction) -> z3.ArithRef:
        return real(v, self.ctx)

    def combine(self, op: str, a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
        return arithmetic(op, a, b, self._quotient)

    def _quotient(self, a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
        return z3.If(b == self.zero, self.zero, a / b)


@dataclass
class Side:
    """One program's symbolic outcome: its value (None when undefined everywhere) and the
    denominators that make it undefined where one is 0 (strict division)."""

    value: Optional[Expr]
    denominators: Sequence[Expr]


@dataclass
class Answer:
    status: str  # "unsat" (no difference), "sat" (a model), "unknown"
    reason: str
    seconds: float
    model: Optional[list] = None  # per variable: a Fraction, an algebraic z3 value, or None (free)


# The reason z3 gives for a check it ended on SIGINT: during a check z3 takes SIGINT itself (its
# `ctrl_c` parameter, on by default), so Python never raises KeyboardInterrupt for it; goi raises
# it, or a Ctrl-C would end one query as "unknown" and the next would start.
INTERRUPTED = "interrupted from keyboard"

SMALL_VALUES = [Fraction(v) for v in (0, 1, -1, 2, -2, 3, -3)] + [Fraction(1, 2), Fraction(-1, 2)]


def differ_query(left: Side, right: Side, n: int, right_to_left: Sequence[int], deadline: Deadline) -> Answer:
    """Is there q⃗ ∈ Fⁿ at which left(q⃗) and right(σ q⃗) differ? (σ: the right program's j-th
    parameter is the left's right_to_left[j].) Differ means: one undefined and the other
    not, or both defined with different values. A sat answer comes with a witness made
    small where possible: each variable in turn is pinned to 0, 1, −1, 2, … if the formula
    stays satisfiable (as Alive2 minimises its counterexamples). Every check z3 makes is
    bounded by what is left of `deadline`, in time and in z3's resource units."""
    started = time.perf_counter()
    ctx = z3.Context()
    q = [z3.Real(f"q{i}", ctx) for i in range(n)]
    convert_left = Converter(q, ctx)
    convert_right = Converter([q[i] for i in right_to_left], ctx)
    false = z3.BoolVal(False, ctx)

    def undefined(side: Side, convert: Converter):
        if side.value is None:
            return z3.BoolVal(True, ctx)
        conditions = [convert(d) == convert.zero for d in side.denominators]
        return z3.Or(*conditions) if conditions else false

    def check(pinning: bool = False):
        """One z3 check within what is left of the budget; a pin's try gets at most 2 s of a
        time budget, or PIN_WORK units of a work budget (the same try at any load)."""
        milliseconds = deadline.z3_milliseconds()
        if milliseconds is not None:
            solver.set("timeout", min(2000, milliseconds) if pinning else milliseconds)
        solver.set("rlimit", deadline.z3_rlimit(PIN_WORK if pinning and deadline.work is not None else None))
        before = _rlimit_count(solver)
        try:
            verdict = solver.check()
        finally:
            deadline.spend(_rlimit_count(solver) - before)
        if verdict == z3.unknown and solver.reason_unknown() == INTERRUPTED:
            raise KeyboardInterrupt  # the user's Ctrl-C, which z3 took: stop the decision, not just this check
        return verdict

    u0, u1 = undefined(left, convert_left), undefined(right, convert_right)
    if left.value is None or right.value is None:
        values_differ = false
    else:
        values_differ = convert_left(left.value) != convert_right(right.value)
    differ = z3.Or(u0 != u1, z3.And(z3.Not(u0), z3.Not(u1), values_differ))
    solver = z3.Solver(ctx=ctx)
    solver.add(differ)
    verdict = check()
    if verdict == z3.unsat:
        return Answer("unsat", "no q⃗ makes them differ", time.perf_counter() - started)
    if verdict != z3.sat:
        return Answer("unknown", _unknown(solver, deadline), time.perf_counter() - started)
    # Minimise: pin variables to small values while the formula stays satisfiable.
    pinned: dict[int, Fraction] = {}
    for i in range(n):
        for v in SMALL_VALUES:
            if deadline.expired():
                break
            solver.push()
            solver.add(q[i] == real(v, ctx))
            if check(pinning=True) == z3.sat:
                pinned[i] = v
                break
            solver.pop()
    if check() != z3.sat:  # every push kept was sat: only the budget can lose the model
        return Answer("unknown", _unknown(solver, deadline), time.perf_counter() - started)
    model = solver.model()
    values: list = []
    for i in range(n):
        if i in pinned:
            values.append(pinned[i])
            continue
        value = model.eval(q[i], model_completion=False)
        if z3.is_rational_value(value):
            values.append(Fraction(value.numerator_as_long(), value.denominator_as_long()))
        elif z3.is_algebraic_value(value):
            values.append(value)
        else:
            values.append(None)  # the formula does not constrain it
    return Answer("sat", "z3 found q⃗", time.perf_counter() - started, values)


def _rlimit_count(solver: z3.Solver) -> int:
    """z3's resource counter so far (cumulative over the solver's checks)."""
    try:
        return int(solver.statistics().get_key_value("rlimit count"))
    except (z3.Z3Exception, KeyError, ValueError):
        return 0


def _unknown(solver: z3.Solver, deadline: Deadline) -> str:
    reason = solver.reason_unknown()
    if reason in ("timeout", "canceled", "max. resource limit exceeded"):
        return f"z3 stopped: {reason} ({deadline.reason()})" if deadline.expired() else f"z3 stopped: {reason}"
    return f"z3: {reason}"


def rational_candidates(model: list, tries: int = 6) -> list[list[Fraction]]:
    """Rational points to replay: the model itself when all rational; for an algebraic
    value, rational approximations of growing precision (a difference that holds on an
    open set survives them; one that holds only at an irrational point does not, and is
    then not reported)."""
    if all(not z3.is_algebraic_value(v) for v in model if v is not None):
        return [[Fraction(0) if v is None else v for v in model]]
    points = []
    for precision in range(1, tries + 1):
        point = []
        for v in model:
            if v is None:
                point.append(Fraction(0))
            elif isinstance(v, Fraction):
                point.append(v)
            else:
                approx = v.approx(precision * 3)
                point.append(Fraction(approx.numerator_as_long(), approx.denominator_as_long()))
        points.append(point)
    return points
