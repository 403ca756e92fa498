"""goi — the reference oracle for the abductive calculus (docs/API.md).

    import goi

    judgement = goi.check("let f @ p = {1} * {2} in f p")   # A | Γ | p⃗ ⊢ t : T
    result = goi.run("(λx. x + x) {1}")                     # status, value, transitions, …
    goi.strategies.programs()                               # Hypothesis strategies
    goi.properties.soundness(term, config)                  # the paper's theorems
    goi.equivalent("{1} + {2}", "{2} + {1}").verdict        # program equivalence, with z3

Subpackages: goi.semantics (front end, graphs, rules, machine, checks), goi.generators,
goi.properties, goi.reports.
"""

from __future__ import annotations

from . import _checkout

_checkout.install()  # from a checkout never installed: goi.semantics & co. are the sibling folders

from typing import TYPE_CHECKING  # noqa: E402

from .semantics.errors import GoiError, LimitError, ParseError, ReadError, TypeCheckError  # noqa: E402

if TYPE_CHECKING:
    from .api import (
        DEFAULT_MAX_DIGITS,
        DEFAULT_MAX_NODES,
        DEFAULT_MAX_STEPS,
        Execution,
        Program,
        Result,
        Value,
        check,
        equivalent,
        prepare,
        run,
        symbolic_run,
    )
    from .semantics.checks import InvariantViolation
    from .semantics.typecheck import Judgement

# The public API (goi.api, and through it the machine, the rules and the checks' base) is
# imported on first use, so that `goi --help`, a command that only parses, or a wrapper that
# imports goi for its errors does not load the machine (about 90 ms).
_LAZY = {**{name: ".api" for name in ("DEFAULT_MAX_DIGITS", "DEFAULT_MAX_NODES", "DEFAULT_MAX_STEPS", "Execution",
                                        "Program", "Result", "Value", "check", "equivalent", "prepare", "run",
                                        "symbolic_run")},
         "InvariantViolation": ".semantics.checks", "Judgement": ".semantics.typecheck"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value  # found directly from now on
        return value
    # goi.strategies imports Hypothesis (0.15 s): loaded on first use, so `import goi` and
    # the `goi` command start fast (an implementation wrapper run once per program, say).
    if name in ("strategies", "enumerate"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    if name == "view":  # the reports layer (pictures need the reports extra): loaded on first use
        from .reports.view import view

        return view
    if name == "__version__":  # read from the installed metadata (importlib.metadata: 20 modules) when asked
        from .version import __version__

        return __version__
    raise AttributeError(f"module 'goi' has no attribute {name!r}")


__all__ = [
    "DEFAULT_MAX_DIGITS",
    "DEFAULT_MAX_NODES",
    "DEFAULT_MAX_STEPS",
    "Execution",
    "GoiError",
    "InvariantViolation",
    "LimitError",
    "Judgement",
    "ParseError",
    "Program",
    "ReadError",
    "Result",
    "TypeCheckError",
    "Value",
    "__version__",
    "check",
    "enumerate",
    "equivalent",
    "prepare",
    "run",
    "strategies",
    "symbolic_run",
    "view",
]
