"""Term equivalence (the paper's Def. "Term equivalence") by context search.

Two terms of one type are equivalent iff C[t0] and C[t1] are equivalent programs for every
context C[ ] of type F. No finite search proves that, so the search only refutes: Hypothesis
draws contexts (goi.generators.typed.contexts: let contexts, abductive decoupling contexts
`let f @ p = □ in …` whose body uses f and p, under operations and applications), each
C[t0] vs C[t1] is decided by goi.equivalence, and the first context that separates
them — NOT_EQUIVALENT (a replayed q⃗) or NOT_COMPARABLE (parameter vectors that no
permutation matches, which decoupling observes) — is shrunk by Hypothesis to a minimal one.
No refutation is reported as "none found in N contexts", never as equivalence.

An open term is closed over its declared context Γ = x1:T1, …, xk:Tk as λx1…λxk. t: a
context for the closure can apply it to any arguments, so it can do all that a context
binding x1 … xk can.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional, Sequence

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis.errors import NoSuchExample, Unsatisfiable

from goi import api
from goi.generators.typed import contexts
from goi.semantics import syntax as S
from goi.semantics.errors import GoiError
from goi.semantics.pretty import pretty
from goi.semantics.types import Type, Vec

from goi import equivalence  # the decision (z3) is loaded when first used: equivalence.program_equivalence
from goi.equivalence import NOT_COMPARABLE, NOT_EQUIVALENT, UNKNOWN, Deadline
from goi.equivalence.deadline import DEFAULT_WORK, Budget

if TYPE_CHECKING:
    from goi.equivalence import Verdict

REFUTED = "refuted"
NONE_FOUND = "none found"

HOLE = S.Var("□")


def show_context(plug) -> str:
    return pretty(plug(HOLE))


def close(term: S.Term, context: Sequence[tuple[str, Type]]) -> S.Term:
    """λx1:T1. … λxk:Tk. term."""
    for name, type_ in reversed(list(context)):
        term = S.Lam(name, type_, term)
    return term


@dataclass
class ContextSearch:
    verdict: str  # REFUTED or NONE_FOUND
    type: Type
    contexts: int = 0  # contexts decided before the first refutation (or in all)
    unknown: int = 0  # contexts whose program check was UNKNOWN
    skipped: int = 0  # contexts in which a plugged program did not type-check
    context: Optional[str] = None  # the shrunk separating context, □ its hole
    programs: Optional[tuple[str, str]] = None
    program_verdict: Optional[Verdict] = None
    shrink_steps: int = 0
    seconds: float = 0.0
    examples: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    timed_out: bool = False  # the time budget ended the search, or the shrinking of the context found, early

    def to_json(self) -> dict:
        return {
            "verdict": self.verdict,
            "type": str(self.type),
            "contexts": self.contexts,
            "examples": self.examples,
            "unknown": self.unknown,
            "skipped": self.skipped,
            "context": self.context,
            "programs": list(self.programs) if self.programs else None,
            "program_verdict": self.program_verdict.to_json() if self.program_verdict else None,
            "context_kinds": self.kinds,
            "timed_out": self.timed_out,
            "seconds": round(self.seconds, 6),
        }


def term_equivalence(term0: S.Term, term1: S.Term, *, context: Sequence[tuple[str, Type]] = (), examples: int = 100,
                     division: str = "total", timeout: Budget = DEFAULT_WORK, seed: Optional[int] = 0, max_depth: int = 3,
                     deadline: Optional[Deadline] = None) -> ContextSearch:
    """Search up to `examples` contexts for one that separates two terms (module docstring).
    `timeout` (or `deadline`) bounds the whole search: every program check takes what is
    left of it, and the search stops when it is spent (`timed_out`)."""
    started = time.perf_counter()
    deadline = deadline or Deadline.of(timeout)
    closed0, closed1 = close(term0, context), close(term1, context)
    j0, j1 = api.judge(closed0), api.judge(closed1)
    if j0.type != j1.type:
        raise GoiError(f"the terms have different types, {j0.type} and {j1.type}: no context takes both")
    if _mentions_vector(j0.type):
        raise GoiError(f"terms of type {j0.type} mention a vector type; contexts for them are not generated")
    search = ContextSearch(NONE_FOUND, j0.type)
    counting = [True]
    separating: dict[str, Verdict] = {}  # each separating context's verdict, by its text

    def separates(drawn) -> bool:
        plug, kind = drawn
        if deadline.expired():
            search.timed_out = True
            raise _OutOfTime  # Hypothesis would go on drawing (and shrinking) its examples
        try:
            p0, p1 = plug(closed0), plug(closed1)
            api.judge(p0)
            api.judge(p1)
        except GoiError:
            if counting[0]:
                search.skipped += 1
            return False
        verdict = equivalence.program_equivalence(p0, p1, division=division, deadline=deadline)
        if counting[0]:
            search.contexts += 1
            search.kinds[kind] = search.kinds.get(kind, 0) + 1
            if verdict.verdict == UNKNOWN:
                search.unknown += 1
        else:
            search.shrink_steps += 1
        if verdict.verdict in (NOT_EQUIVALENT, NOT_COMPARABLE):
            counting[0] = False
            separating[show_context(plug)] = verdict
            smallest[:] = [plug]  # the shrinker only tries smaller contexts
            return True
        return False

    smallest: list = []
    try:
        plug, _kind = find(
            contexts(j0.type, max_depth=max_depth),
            separates,
            settings=settings(max_examples=examples, deadline=None, database=None,
                              report_multiple_bugs=False,  # stop at the first: Hypothesis' 10 s rule never reached
                              derandomize=seed is None,
                              phases=[Phase.generate, Phase.shrink],
                              suppress_health_check=list(HealthCheck)),
            random=None if seed is None else random.Random(seed),
        )
    except _OutOfTime:
        if not smallest:
            return _ended(search, started)
        plug = smallest[0]  # shrinking was cut short: the smallest separating context so far
    except (NoSuchExample, Unsatisfiable):
        return _ended(search, started)
    # find returns the minimal separating context: its verdict was kept when it was decided
    search.verdict = REFUTED
    search.context = show_context(plug)
    search.programs = (pretty(plug(closed0)), pretty(plug(closed1)))
    search.program_verdict = separating[search.context]
    return _ended(search, started)


class _OutOfTime(Exception):
    """The search's time budget is spent: ends Hypothesis' find at once."""


def _ended(search: ContextSearch, started: float) -> ContextSearch:
    search.seconds = time.perf_counter() - started
    search.examples = search.contexts + search.skipped
    return search


def _mentions_vector(t: Type) -> bool:
    if isinstance(t, Vec):
        return True
    return any(_mentions_vector(c) for c in getattr(t, "__dict__", {}).values() if isinstance(c, Type))
