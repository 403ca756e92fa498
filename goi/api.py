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

from typing import Optional

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
    _deep,  # noqa: F401  (the CLI parses --terms on the deep stack)
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


def view(program: Program, output: Optional[str] = None, *, max_steps: int = DEFAULT_MAX_STEPS,
         max_frames: Optional[int] = None, max_recorded_steps: Optional[int] = None, **options) -> str:
    """The step-through page of a run (`goi view`): self-contained HTML text, also written
    to `output` if given. Options as `run`'s; at most `max_frames` pictures of the graph
    (default 60) and `max_recorded_steps` steps recorded in full (default 50,000: the rest
    counted by rule and shown on the timeline). Needs the `reports` extra (Graphviz through
    pygraphviz)."""
    from .reports.view import DEFAULT_MAX_FRAMES, DEFAULT_MAX_RECORDED_STEPS, record, to_html

    text = program if isinstance(program, str) else ""  # the spans point into program text only
    rec = record(judge(program), max_steps, DEFAULT_MAX_FRAMES if max_frames is None else max_frames, text=text,
                 max_recorded_steps=DEFAULT_MAX_RECORDED_STEPS if max_recorded_steps is None else max_recorded_steps,
                 **options)
    page = to_html(rec)
    if output is not None:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(page)
    return page


__all__ = ["DEFAULT_MAX_DIGITS", "DEFAULT_MAX_NODES", "DEFAULT_MAX_STEPS", "Division", "Execution", "Judgement",
           "Program", "Result", "Step", "Value", "check", "equivalent", "judge", "plain_value", "prepare", "run",
           "symbolic_run", "view"]
