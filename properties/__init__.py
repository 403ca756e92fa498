"""The paper's theorems as executable properties, each a function (term, config) that
returns the run's outcome or raises a Finding (a BudgetFinding when the step budget ran out).

    soundness               Theorem 6.1
    invariants              every check of docs/INVARIANTS.md after every transition
    determinism             Props. A.1, A.2, Cor. A.3 (orders, strategies, name permutations)
    gc_bisimulation         Prop. 7.6
    agreement               the second-opinion evaluator (properties.reference)
    parameter_preservation  the ¡-constants never change; replacing them acts as expected
    split_contractions      graphs with split contractions behave as the program (takes a graph)
"""

from .agreement import agreement
from .contractions import split_contractions
from .determinism import determinism
from .gc_bisimulation import gc_bisimulation
from .invariants import invariants
from .parameters import parameter_preservation
from .runner import BudgetFinding, Finding
from .soundness import soundness

PROPERTIES = {
    "soundness": soundness,
    "invariants": invariants,
    "determinism": determinism,
    "gc": gc_bisimulation,
    "agreement": agreement,
    "parameters": parameter_preservation,
}

__all__ = ["PROPERTIES", "Finding", "BudgetFinding", "split_contractions", *PROPERTIES]
