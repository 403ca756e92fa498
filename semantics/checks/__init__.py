"""The appendix's invariants as runtime checks (docs/INVARIANTS.md).

Each check is a small module with one job. A Monitor attaches the chosen checks to a
machine: per-transition checks run after every transition, run-level checks when the run
ends. A failed check raises InvariantViolation, which names the check, the rule ID of the
last transition, the step number, and the offending nodes.

    monitor = Monitor(machine, make_checks(["validity", "stability"]))
    outcome = monitor.run(max_steps)        # outcome.status == "violation" on a failure

`goi run --check validity,stability` / `--check all` does the same from the command line.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from types import MappingProxyType
from typing import Iterable, Optional

from .base import MODES, Check, GraphCheck, InvariantViolation, Policy, changes_graph, declare, is_pass, summary
from .monitor import Monitor


class CheckSet(Mapping):
    """The checks as a value: check classes by name, in the order of `all` (their `order`).
    Immutable: a variant is a new CheckSet (`replace`, `add`, `remove`), which a run is given
    (`goi.run(..., checks=[...], check_set=...)`)."""

    __slots__ = ("_checks",)

    def __init__(self, classes: Iterable[type]):
        by_name: dict[str, type] = {}
        for cls in sorted(classes, key=lambda c: c.order):
            if cls.name in by_name:
                raise ValueError(f"check {cls.name} declared twice")
            by_name[cls.name] = cls
        object.__setattr__(self, "_checks", MappingProxyType(by_name))  # immutable: set here once

    def __setattr__(self, name, value):
        raise AttributeError("a CheckSet is immutable: make a variant with replace, add or remove")

    @classmethod
    def of_modules(cls, modules: Iterable) -> "CheckSet":
        """The checks the modules declare (`@declare`)."""
        return cls(value for module in modules for value in vars(module).values()
                   if isinstance(value, type) and vars(value).get("declared") and value.__module__ == module.__name__)

    # the checks, as a read-only mapping by name (Mapping gives get, keys, items, values, in)
    def __getitem__(self, name: str) -> type:
        return self._checks[name]

    def __iter__(self):
        return iter(self._checks)

    def __len__(self) -> int:
        return len(self._checks)

    __eq__ = object.__eq__  # a value with its own identity, as a RuleSet
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"CheckSet({', '.join(self._checks)})"

    def replace(self, name: str, cls: type) -> "CheckSet":
        """The same checks, `name` made by the class `cls` instead (its own name kept)."""
        if name not in self._checks:
            raise KeyError(f"no check {name} to replace")
        return CheckSet(cls if n == name else c for n, c in self._checks.items())

    def add(self, cls: type) -> "CheckSet":
        return CheckSet([*self._checks.values(), cls])

    def remove(self, name: str) -> "CheckSet":
        return CheckSet(c for n, c in self._checks.items() if n != name)

    def make(self, names: Iterable[str], **options) -> list[Check]:
        """Checks by name ("all" for every one); options go to the checks that take them."""
        names = list(names)
        if "all" in names:
            names = list(self._checks)
        unknown = [n for n in names if n not in self._checks]
        if unknown:
            raise ValueError(f"unknown check(s) {', '.join(unknown)}; known: {', '.join(self._checks)}, all")
        checks = []
        for n in names:
            cls = self._checks[n]
            accepted = {k: v for k, v in options.items() if k in getattr(cls, "options", ())}
            checks.append(cls(**accepted))
        return checks


def _check_modules() -> list:
    """Every module of this package (a check declares itself with `@declare` in its own
    module), so adding a check is adding its module."""
    return [importlib.import_module(f"{__name__}.{info.name}") for info in pkgutil.iter_modules(__path__)]


_DEFAULT: list = []  # DEFAULT_CHECKS, once asked for


def default_checks() -> CheckSet:
    """The appendix's invariants (DEFAULT_CHECKS): the check modules are imported when a check
    is first asked for, not with the package (a run without checks never loads them)."""
    if not _DEFAULT:
        _DEFAULT.append(CheckSet.of_modules(_check_modules()))
    return _DEFAULT[0]


def __getattr__(name: str):
    if name == "DEFAULT_CHECKS":
        return default_checks()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def registry() -> dict[str, type]:
    """Every default check, by name, in the order of `all`."""
    return dict(default_checks().items())


def make_checks(names: Iterable[str], check_set: Optional[CheckSet] = None, **options) -> list[Check]:
    """Checks by name ("all" for every one) from `check_set` (the default checks if None);
    options go to the checks that take them."""
    return (check_set or default_checks()).make(names, **options)


__all__ = ["DEFAULT_CHECKS", "MODES", "Check", "CheckSet", "GraphCheck", "InvariantViolation", "Monitor", "Policy",
           "changes_graph", "declare", "default_checks", "is_pass", "make_checks", "registry", "summary"]
