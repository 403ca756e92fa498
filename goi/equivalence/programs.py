"""Program equivalence (the paper's Def. "Program equivalence"), decided with z3 on symbolic
runs of the machine, every refutation replayed on the exact machine.

Two closed programs of type F, with parameter vectors p⃗0 and p⃗1, are equivalent iff p⃗1 is
a permutation σ of p⃗0 and, for every q⃗ ∈ Fⁿ, the graph of program 0 with q⃗ under its
¡-nodes and that of program 1 with σ q⃗ under its own reach the same final value (or, under
strict division, are both undefined). Verdicts:

- EQUIVALENT: for some σ consistent with the values, z3 proves no q⃗ separates them;
- NOT_EQUIVALENT: for every such σ, z3 found a q⃗ and the exact machine, run with `params`
  q⃗ and σ q⃗, really gives different outcomes (both are reported);
- NOT_COMPARABLE: the parameter vectors are not permutations of each other, or a program
  is not of type F (the definition compares programs, closed terms of type F);
- UNKNOWN: a timeout, too many permutations, a budget, or a witness that no rational near
  it reproduces. Never reported as equivalent.

Control never depends on values (only division does, through the policy), so the one
symbolic run of each program stands for its runs at every q⃗; `check_symbolic` (a property)
compares it with exact runs at random points.
"""

from __future__ import annotations

import itertools
import math
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Optional, Sequence, Union

from goi import execution
from goi.semantics.symbolic import Expr, SymbolicField, evaluate_all, show
from goi.semantics.types import F

from .deadline import DEFAULT_WORK, Budget, Deadline
from .solver import Side, differ_query, rational_candidates

from .verdicts import EQUIVALENT, NOT_COMPARABLE, NOT_EQUIVALENT, UNDEFINED, UNKNOWN  # noqa: F401 (this module's names too)

Outcome = Union[Fraction, str]  # a value, or UNDEFINED


class Inconsistency(AssertionError):
    """The symbolic value at q⃗ differs from the exact run at q⃗: a bug in goi, never a verdict."""


@dataclass
class SymbolicRun:
    """One program run on the symbolic field."""

    judgement: execution.Judgement
    status: str  # final | undefined | budget | stuck
    value: object  # an Expr (type F), a tuple of them, "λ", or None
    denominators: tuple[Expr, ...]
    transitions: int
    nodes: int  # distinct expressions built
    reason: str = ""
    limit: str = ""  # for budget: which one ("time": the decision's deadline)

    @property
    def side(self) -> Side:
        return Side(self.value if self.status == "final" else None, self.denominators)

    def at(self, point: Sequence[Fraction]) -> Outcome:
        """The outcome at q⃗ = point, read off the expressions (type F)."""
        if self.status == "undefined":
            return UNDEFINED
        assert isinstance(self.value, Expr)
        values = evaluate_all([self.value, *self.denominators], point)
        if any(d == 0 for d in values[1:]):
            return UNDEFINED
        return values[0]

    def text(self) -> str:
        if self.status == "undefined":
            return "undefined"
        if isinstance(self.value, Expr):
            return show(self.value, limit=2000)
        return str(self.value)


def symbolic_run(program: execution.Program, *, division: str = "total", max_steps: int = execution.DEFAULT_MAX_STEPS,
                 max_nodes: int = execution.DEFAULT_MAX_NODES, stop: Optional[Callable[[], Optional[str]]] = None) -> SymbolicRun:
    """Run a closed program on the symbolic field: its value as an expression over q0 … q(n-1),
    the values of its provisional constants in p⃗ order. (`stop` as for Machine.run.)"""
    symbolic = SymbolicField(division)
    prepared = execution.prepare(program, field=symbolic, division=division, max_nodes=max_nodes)
    outcome = prepared.machine.run(max_steps, stop=stop)
    value = outcome.value
    if outcome.status == "final" and not isinstance(value, (Expr, tuple)):
        value = "λ"
    return SymbolicRun(prepared.judgement, outcome.status, value if outcome.status == "final" else None,
                       tuple(symbolic.denominators), outcome.steps, symbolic.nodes, outcome.reason, outcome.limit)


def exact_outcome(program: execution.Program, point: Sequence[Fraction], division: str,
                  stop: Optional[Callable[[], Optional[str]]] = None) -> tuple[str, Optional[Outcome]]:
    """The exact machine's outcome with params = point: ("final"/"undefined", value) or
    (other status, None)."""
    result = execution.prepare(program, params=point, division=division).run(stop=stop)
    if result.status == "final":
        assert isinstance(result.value, Fraction)
        return "final", result.value
    if result.status == "undefined":
        return "undefined", UNDEFINED
    return result.status, None


# ---- permutations ------------------------------------------------------------------------

def consistent_permutations(left: Sequence[Fraction], right: Sequence[Fraction]):
    """Every σ with right[j] = left[σ[j]] (σ as a list: the right program's j-th parameter
    is the left's σ[j]), and how many there are; None when the vectors are not permutations
    of each other."""
    if sorted(left) != sorted(right):
        return None, 0
    positions: dict[Fraction, list[int]] = defaultdict(list)
    for i, v in enumerate(left):
        positions[v].append(i)
    slots: dict[Fraction, list[int]] = defaultdict(list)
    for j, v in enumerate(right):
        slots[v].append(j)
    values = list(positions)
    count = math.prod(math.factorial(len(positions[v])) for v in values)

    def generate():
        """Lazily, as an odometer over each value's permutations: nothing is built before it
        is tried (itertools.product would build every permutation of every group first —
        11! of them for eleven equal constants)."""
        wheels = [itertools.permutations(positions[v]) for v in values]
        current = [next(w) for w in wheels]
        sigma = [0] * len(right)
        while True:
            for v, assigned in zip(values, current):
                for j, i in zip(slots[v], assigned):
                    sigma[j] = i
            yield list(sigma)
            k = len(wheels) - 1
            while k >= 0:
                step = next(wheels[k], None)
                if step is not None:
                    current[k] = step
                    break
                wheels[k] = itertools.permutations(positions[values[k]])  # this wheel starts again
                current[k] = next(wheels[k])
                k -= 1
            if k < 0:
                return

    return generate(), count


# ---- the verdict -------------------------------------------------------------------------

@dataclass
class Refutation:
    permutation: list[int]
    witness: list[Fraction]  # q⃗ for the left program; the right one gets σ q⃗
    left: Outcome
    right: Outcome

    def to_json(self) -> dict:
        return {"permutation": self.permutation, "witness": [str(v) for v in self.witness],
                "values": [str(self.left), str(self.right)]}


@dataclass
class Verdict:
    verdict: str
    reason: str
    division: str
    parameters: tuple[tuple[Fraction, ...], tuple[Fraction, ...]] = ((), ())
    symbolic: Optional[tuple[str, str]] = None  # the two values as text, once run
    permutation: Optional[list[int]] = None  # the proving σ (EQUIVALENT)
    refutations: list[Refutation] = field(default_factory=list)  # NOT_EQUIVALENT: one per σ
    permutations: int = 0  # consistent permutations in all
    tried: int = 0  # permutations decided or attempted
    solver_seconds: float = 0.0
    seconds: float = 0.0

    @property
    def witness(self) -> Optional[Refutation]:
        return self.refutations[0] if self.refutations else None

    def to_json(self) -> dict:
        w = self.witness
        return {
            "verdict": self.verdict,
            "reason": self.reason,
            "division": self.division,
            "parameters": [[str(v) for v in p] for p in self.parameters],
            "symbolic": list(self.symbolic) if self.symbolic else None,
            "permutation": self.permutation,
            "witness": [str(v) for v in w.witness] if w else None,
            "values": [str(w.left), str(w.right)] if w else None,
            "refutations": [r.to_json() for r in self.refutations],
            "permutations": self.permutations,
            "tried": self.tried,
            "solver_seconds": round(self.solver_seconds, 6),
            "seconds": round(self.seconds, 6),
        }


def _replay(program0, program1, run0: SymbolicRun, run1: SymbolicRun, sigma: Sequence[int], point: Sequence[Fraction],
            division: str, deadline: Deadline) -> Optional[tuple[Outcome, Outcome]]:
    """Both programs on the exact machine at q⃗ and σ q⃗; each also read off its symbolic
    value, which must agree (else Inconsistency). None when a run could not finish."""
    moved = [point[i] for i in sigma]
    status0, exact0 = exact_outcome(run0.judgement, point, division, deadline.stop)
    status1, exact1 = exact_outcome(run1.judgement, moved, division, deadline.stop)
    for status, exact, run, at in ((status0, exact0, run0, point), (status1, exact1, run1, moved)):
        if exact is None:
            return None
        symbolic = run.at(at)
        if symbolic != exact:
            raise Inconsistency(
                f"the symbolic run says {symbolic} at q⃗ = ({', '.join(map(str, at))}) but the exact machine says {exact}"
            )
    assert exact0 is not None and exact1 is not None
    return exact0, exact1


def program_equivalence(program0: execution.Program, program1: execution.Program, *, division: str = "total", timeout: Budget = DEFAULT_WORK,
                        max_permutations: int = 720, max_steps: int = execution.DEFAULT_MAX_STEPS,
                        max_nodes: int = execution.DEFAULT_MAX_NODES, deadline: Optional[Deadline] = None) -> Verdict:
    """Decide Def. "Program equivalence" for two closed programs (module docstring).
    `timeout` bounds the whole decision: both symbolic runs, every z3 query (in time and in
    z3's resource units), the minimisation of witnesses and their exact replays; or
    `deadline`, shared with a caller deciding more than one pair (goi equiv --terms)."""
    started = time.perf_counter()
    deadline = deadline or Deadline.of(timeout)
    j0, j1 = execution.judge(program0), execution.judge(program1)
    verdict = Verdict(UNKNOWN, "", division, (tuple(j0.params), tuple(j1.params)))

    def done(kind: str, reason: str) -> Verdict:
        verdict.verdict, verdict.reason = kind, reason
        verdict.seconds = time.perf_counter() - started
        return verdict

    for which, j in (("first", j0), ("second", j1)):
        if j.type != F:
            return done(NOT_COMPARABLE, f"the {which} program has type {j.type}; program equivalence compares programs "
                                        "of type F (compare terms of other types in contexts: --terms)")
    sigmas, count = consistent_permutations(j0.params, j1.params)
    verdict.permutations = count
    if sigmas is None:
        show_params = lambda p: "(" + ", ".join(map(str, p)) + ")"  # noqa: E731
        return done(NOT_COMPARABLE, f"the parameter vectors {show_params(j0.params)} and {show_params(j1.params)} are not "
                                    "permutations of each other (decoupling observes the difference)")
    runs = []
    for which, j in (("first", j0), ("second", j1)):
        run = symbolic_run(j, division=division, max_steps=max_steps, max_nodes=max_nodes, stop=deadline.stop)
        if run.limit == "time":
            return done(UNKNOWN, f"timeout: {deadline.reason()} during the {which} program's symbolic run "
                                 f"(after {run.transitions} transitions)")
        runs.append(run)
    run0, run1 = runs
    verdict.symbolic = (run0.text(), run1.text())
    for which, run in (("first", run0), ("second", run1)):
        if run.status not in ("final", "undefined"):
            return done(UNKNOWN, f"the {which} program's symbolic run ended {run.status}: {run.reason}")
    n = len(j0.params)
    unknowns: list[str] = []
    for sigma in itertools.islice(sigmas, min(max_permutations, sys.maxsize)):
        if deadline.expired():
            break
        verdict.tried += 1
        answer = differ_query(run0.side, run1.side, n, sigma, deadline)
        verdict.solver_seconds += answer.seconds
        if answer.status == "unsat":
            verdict.permutation = list(sigma)
            verdict.refutations = []
            return done(EQUIVALENT, f"z3 proved that no q⃗ ∈ F^{n} separates them" + (f" (permutation {list(sigma)})" if n > 1 else ""))
        if answer.status == "unknown":
            unknowns.append(answer.reason)
            continue
        assert answer.model is not None
        for point in rational_candidates(answer.model):
            replayed = _replay(program0, program1, run0, run1, sigma, point, division, deadline)
            if replayed is not None and replayed[0] != replayed[1]:
                verdict.refutations.append(Refutation(list(sigma), point, replayed[0], replayed[1]))
                break
            if deadline.expired():
                unknowns.append(f"{deadline.reason()} while replaying z3's witness on the exact machine")
                break
        else:
            unknowns.append("z3's witness is irrational and no rational near it separates the programs")
    tried = f"{verdict.tried} of the {count} permutations consistent with the values" if count > 1 else ""
    if deadline.expired() and verdict.tried < count:
        unknowns.append(f"timeout: {deadline.reason()}" + (f"; {tried} were tried" if tried else ""))
    if unknowns:
        return done(UNKNOWN, "; ".join(dict.fromkeys(unknowns)))
    if verdict.tried < count:
        return done(UNKNOWN, f"{count} permutations are consistent with the values; only {verdict.tried} were tried "
                             f"(--max-permutations {max_permutations})")
    return done(NOT_EQUIVALENT, "a q⃗ separates them under every permutation, replayed on the exact machine"
                if count > 1 else "a q⃗ separates them, replayed on the exact machine")
