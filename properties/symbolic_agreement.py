"""The symbolic field agrees with the exact one, and equivalence never refutes what it should
not (goi/equivalence/ rests on both).

- `symbolic_agreement`: one symbolic run of a program stands for its exact runs at every q⃗:
  its value read at a point equals the exact run with `params` = that point (both division
  policies: under strict, undefined exactly where a recorded denominator is 0), and, since
  control never depends on values, a defined run makes the same transitions with the same
  rules at every point.
- `self_equivalence`: a program is never refuted against itself, nor against a copy with one
  sum or product re-associated ((a $ b) $ c ↦ a $ (b $ c)) — both are proved when z3 answers.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional, Sequence

from goi import api
from goi.semantics import syntax as S
from goi.semantics.pretty import pretty
from goi.semantics.types import F
from goi.generators.typed import programs

from goi import equivalence  # the decision (z3) is loaded when first used: equivalence.symbolic_run
from goi.equivalence import DEFAULT_WORK, EQUIVALENT, NOT_COMPARABLE, NOT_EQUIVALENT, UNDEFINED
from hypothesis import strategies as st

from .coverage import record, started
from .examples import programs_of
from .registry import declare
from .runner import BudgetFinding, Finding


# points q⃗: 0 and ±1 often (a denominator vanishing at a point is what strict division is about)
rationals = st.one_of(st.sampled_from([Fraction(0), Fraction(1), Fraction(-1)]),
                      st.builds(Fraction, st.integers(-20, 20), st.integers(1, 6)))


@declare("symbolic", order=80, statement="the symbolic field (z3) against exact runs",
         examples=lambda config: programs_of(config, division=st.sampled_from(["total", "strict"])))
def symbolic(term, config, division: str, data) -> None:
    """A symbolic run evaluated at a point agrees with the exact run at that point."""
    n = len(api.judge(term).params)
    symbolic_agreement(term, config, data.draw(st.lists(rationals, min_size=n, max_size=n), label="q⃗"), division)


def symbolic_agreement(term, config, point: Sequence[Fraction], division: str) -> None:
    judgement = api.judge(term)
    if len(point) != len(judgement.params):
        raise ValueError(f"{len(point)} values for {len(judgement.params)} parameters")
    symbolic = equivalence.symbolic_run(judgement, division=division, max_steps=config.max_steps)
    execution = api.prepare(judgement, params=point, division=division)
    started(execution, config.max_steps)
    exact = execution.run(config.max_steps)
    record(exact)
    if "budget" in (symbolic.status, exact.status):
        raise BudgetFinding("symbolic", "a budget was reached", _text(term))
    where = f"q⃗ = ({', '.join(map(str, point))}), division {division}"
    if symbolic.status == "undefined":
        if exact.status != "undefined":
            raise Finding("symbolic", f"undefined everywhere symbolically, but the exact run at {where} is {exact.status}",
                          _text(term))
        return
    if symbolic.status != "final":
        raise Finding("symbolic", f"the symbolic run ended {symbolic.status}: {symbolic.reason}", _text(term))
    read = symbolic.at(point) if judgement.type == F else None
    got = UNDEFINED if exact.status == "undefined" else exact.value
    if read is not None and read != got:
        raise Finding("symbolic", f"at {where} the symbolic value {symbolic.text()} reads {read}, the exact run gives {got}",
                      _text(term))
    if exact.status == "final" and (exact.transitions != symbolic.transitions):
        raise Finding("symbolic", f"at {where} the exact run made {exact.transitions} transitions, the symbolic run "
                                  f"{symbolic.transitions}: control depended on a value", _text(term))


def _text(term) -> str:
    return term if isinstance(term, str) else pretty(term)


def reassociate(t: S.Term) -> Optional[S.Term]:
    """t with its first (a $ b) $ c, $ ∈ {+, *}, made a $ (b $ c) (None if there is none)."""
    if isinstance(t, S.BinOp) and t.op in ("+", "*") and isinstance(t.left, S.BinOp) and t.left.op == t.op:
        return S.BinOp(t.op, t.left.left, S.BinOp(t.op, t.left.right, t.right))
    for i, child in enumerate(S.subterms(t)):
        changed = reassociate(child)
        if changed is not None:
            return S.with_child(t, i, changed)
    return None


@declare("equivalence", order=90, statement="program equivalence (z3)",
         examples=lambda config: programs_of(config, other=programs(max_depth=config.max_depth)))
def self_equivalence(term, config, other: Optional[S.Term] = None, timeout=None) -> str:
    """A program is never refuted equivalent to itself (nor to a renaming of it).

    term vs itself, vs its first re-association if it has one, and, given another program
    u, (term + u) + term vs term + (u + term)."""
    execution = api.prepare(term)
    started(execution, config.max_steps)
    record(execution.run(config.max_steps))  # counted as the suite's runs, with its rules
    pairs = [(term, term)]
    inner = reassociate(term)
    if inner is not None:
        pairs.append((term, inner))
    if other is not None:
        left = S.BinOp("+", S.BinOp("+", term, other), term)
        pairs.append((left, reassociate(left)))
    verdicts = []
    for a, b in pairs:
        v = equivalence.program_equivalence(a, b, timeout=DEFAULT_WORK if timeout is None else timeout, max_steps=config.max_steps)
        if v.verdict in (NOT_EQUIVALENT, NOT_COMPARABLE):
            raise Finding("equivalence", f"{pretty(a)} refuted against {pretty(b)}: {v.verdict}, {v.reason}", _text(term))
        verdicts.append(v.verdict)
    return EQUIVALENT if all(v == EQUIVALENT for v in verdicts) else verdicts[-1]
