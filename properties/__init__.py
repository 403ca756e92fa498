"""The paper's theorems as executable properties, each a function (term, config) that
returns the run's outcome or raises a Finding (a BudgetFinding when the step budget ran out).
Every declared property, by the name `goi props` knows it (tests/test_package_lists.py holds
this list to the registry):

    soundness      Theorem 6.1: a run ends in a value of its type, never stuck
    invariants     every check of docs/INVARIANTS.md after every transition
    determinism    Props. A.1, A.2, Cor. A.3 (orders, strategies, name permutations)
    gc             Prop. 7.6: collecting garbage changes nothing observable
    agreement      the second-opinion evaluator (properties.reference)
    parameters     the ¡-constants never change; replacing them acts as expected
    parametricity  other constants, the same rules at the same places (shapes)
    contractions   graphs with split contractions behave as the program (takes a graph)
    symbolic       a symbolic run (z3's field) agrees with the exact run at a point
    equivalence    a program is never refuted equivalent to itself
    incremental    the incremental checks give the whole-graph checks' verdicts

Each is declared once, on its check (properties.registry says how; its Hypothesis test is
derived from the declaration); `PROPERTIES` maps every declared name to its check.
"""

from .agreement import agreement
from .contractions import split_contractions
from .determinism import determinism
from .gc_bisimulation import gc_bisimulation
from .invariants import invariants
from .parameters import parameter_preservation
from .runner import BudgetFinding, Finding
from .soundness import soundness



def __getattr__(name: str):
    # PROPERTIES: every declared property's check, by name (properties.registry); computed on
    # first use, since the declarations import Hypothesis and the generators
    if name == "PROPERTIES":
        from .suite import registry

        return {n: p.check for n, p in registry().items()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["PROPERTIES", "Finding", "BudgetFinding", "agreement", "determinism", "gc_bisimulation", "invariants",
           "parameter_preservation", "soundness", "split_contractions"]
