"""goi's public API (docs/API.md): the execution pipeline (goi.execution) and the
equivalence decision (goi.equivalence), one import for the CLI, the properties, the reports
and the benchmarks.

    >>> import goi
    >>> goi.check("let f @ p = {1} * {2} in f p").params
    (Fraction(1, 1), Fraction(2, 1))
    >>> goi.run("(λx. x + x) {1}").value
    Fraction(2, 1)
"""

from __future__ import annotations

from .execution import (
    DEFAULT_MAX_DIGITS,
    DEFAULT_MAX_NODES,
    DEFAULT_MAX_STEPS,
    Division,
    Execution,
    Judgement,
    Program,
    Result,
    Step,
    Value,
    check,
    judge,
    plain_value,
    prepare,
    run,
)


def symbolic_run(program: Program, *, division: Division = "total", max_steps: int = DEFAULT_MAX_STEPS,
                 max_nodes: int = DEFAULT_MAX_NODES):
    """Run a closed program once on the symbolic field (semantics/symbolic.py): the same
    machine, each provisional constant a parameter q_i (in p⃗ order). The result's `value` is
    an expression (its `at(q⃗)` reads it at a point); see docs/CONJECTURES.md."""
    from .equivalence import symbolic_run as run_symbolic

    return run_symbolic(program, division=division, max_steps=max_steps, max_nodes=max_nodes)


def equivalent(program0: Program, program1: Program, *, division: Division = "total", timeout: float = 10.0,
               max_permutations: int = 720):
    """Decide the paper's Def. "Program equivalence" for two closed programs of type F with z3:
    a Verdict whose `verdict` is "equivalent" (with the proving `permutation`), "not
    equivalent" (with `refutations`, each a witness q⃗ the exact machine replayed), "not
    comparable" or "unknown" (never reported as equivalent). See docs/CONJECTURES.md."""
    from .equivalence import program_equivalence

    return program_equivalence(program0, program1, division=division, timeout=timeout, max_permutations=max_permutations)


__all__ = ["DEFAULT_MAX_DIGITS", "DEFAULT_MAX_NODES", "DEFAULT_MAX_STEPS", "Division", "Execution", "Judgement",
           "Program", "Result", "Step", "Value", "check", "equivalent", "judge", "plain_value", "prepare", "run",
           "symbolic_run"]
