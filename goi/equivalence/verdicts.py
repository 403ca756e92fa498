"""The decision's verdicts and the undefined outcome: plain names, importable without z3 (a
module that only compares a verdict, or declares a property that decides when run, loads
the solver only when it decides)."""

EQUIVALENT = "equivalent"
NOT_EQUIVALENT = "not equivalent"
NOT_COMPARABLE = "not comparable"
UNKNOWN = "unknown"

UNDEFINED = "undefined"  # an outcome: the run divided by zero (strict division)
