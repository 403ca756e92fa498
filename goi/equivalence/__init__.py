"""Program equivalence decided with z3 (the paper's Def. "Program equivalence"): symbolic
runs of the same machine (goi.semantics.symbolic), a z3 query for a point where the two
differ (solver), the witness replayed by the exact machine, all within one budget of
z3's work (or time): deadline. goi.api's `equivalent` and `symbolic_run` are this package's entry points.

    programs   the decision: program_equivalence, symbolic_run, Verdict
    solver     symbolic values to z3, the query, rational witnesses
    deadline   one budget (z3's work, or time) shared by the runs, the queries and the replays
    verdicts   the verdicts' names (no z3)
"""

from .deadline import DEFAULT_WORK, Deadline, Work
from .verdicts import EQUIVALENT, NOT_COMPARABLE, NOT_EQUIVALENT, UNDEFINED, UNKNOWN

_FROM_PROGRAMS = ("Verdict", "program_equivalence", "symbolic_run")


def __getattr__(name: str):
    """The decision's names, loaded when first asked for: z3 is imported only by what decides
    (a command's argument set-up reads the budget's default without it)."""
    if name in _FROM_PROGRAMS:
        from . import programs

        return getattr(programs, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["DEFAULT_WORK", "Deadline", "Work", "EQUIVALENT", "NOT_COMPARABLE", "NOT_EQUIVALENT", "UNDEFINED", "UNKNOWN",
           *_FROM_PROGRAMS]
