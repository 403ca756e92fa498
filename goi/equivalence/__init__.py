"""Program equivalence decided with z3 (the paper's Def. "Program equivalence"): symbolic
runs of the same machine (goi.semantics.symbolic), a z3 query for a point where the two
differ (solver), the witness replayed by the exact machine, all within one time budget
(deadline). goi.api's `equivalent` and `symbolic_run` are this package's entry points.

    programs   the decision: program_equivalence, symbolic_run, Verdict
    solver     symbolic values to z3, the query, rational witnesses
    deadline   one time budget shared by the runs, the queries and the replays
"""

from .deadline import Deadline
from .programs import (
    EQUIVALENT,
    NOT_COMPARABLE,
    NOT_EQUIVALENT,
    UNDEFINED,
    UNKNOWN,
    Verdict,
    program_equivalence,
    symbolic_run,
)

__all__ = ["Deadline", "EQUIVALENT", "NOT_COMPARABLE", "NOT_EQUIVALENT", "UNDEFINED", "UNKNOWN", "Verdict",
           "program_equivalence", "symbolic_run"]
