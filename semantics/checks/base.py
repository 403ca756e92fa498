"""What every check is made of: the violation it raises, the `Check` and `GraphCheck` base
classes, the rewrite schedule of whole-graph checks (`Policy`), and the registry a check
marks by its declaration (`@declare`). Check modules import this module, never the package."""

from __future__ import annotations

from typing import Iterable, Optional

from ..rules import PASS


def declare(cls):
    """Declare a check: its class gives `name` (for --check), `order` (its place in `all`:
    a check may presuppose what an earlier one guarantees), `implements` (the paper's
    statements), `values` (whether its verdict reads the constants' values: "independent: why"
    or "compares: what" — a shape's run speaks for every value only for the independent ones;
    see docs/INVARIANTS.md, "Values") and a docstring whose first line is its summary (help,
    docs, reports)."""
    for attribute in ("name", "order", "implements", "values"):
        if attribute not in vars(cls):
            raise TypeError(f"check {cls.__name__} declares no {attribute}")
    if not (cls.__doc__ or "").strip():
        raise TypeError(f"check {cls.__name__} has no docstring (its summary)")
    if not cls.values.startswith(("independent: ", "compares: ")):
        raise TypeError(f"check {cls.__name__}: values is 'independent: why' or 'compares: what', not {cls.values!r}")
    cls.declared = True  # a CheckSet collects it from its module (semantics.checks); nothing is registered here
    return cls


def value_independent(cls) -> bool:
    """Does the check's verdict hold for every value of the constants when it holds for one?"""
    return cls.values.startswith("independent: ")


def summary(cls) -> str:
    return (cls.__doc__ or "").strip().splitlines()[0]


class InvariantViolation(Exception):
    def __init__(self, check: str, message: str, nodes: Iterable = (), rule: Optional[str] = None, step: Optional[int] = None):
        super().__init__(message)
        self.check = check
        self.message = message
        self.nodes = list(nodes)
        self.rule = rule
        self.step = step

    def describe(self) -> str:
        where = f"after step {self.step} ({self.rule})" if self.rule else f"at step {self.step} (initial state)"
        nodes = ", ".join(repr(n) for n in self.nodes[:8])
        more = f" (+{len(self.nodes) - 8} more)" if len(self.nodes) > 8 else ""
        return f"invariant '{self.check}' violated {where}: {self.message}" + (f" [nodes: {nodes}{more}]" if nodes else "")

    def to_json(self) -> dict:
        return {
            "check": self.check,
            "message": self.message,
            "rule": self.rule,
            "step": self.step,
            "nodes": [repr(n) for n in self.nodes],
        }


class Check:
    """Base class: override `initial`, `after` (per transition) and/or `at_end`. A check whose
    `after` has nothing to do after pass transitions says so (`on_passes = False`): the
    Monitor then does not call it for them."""

    name = "?"
    on_passes = True

    def initial(self, machine) -> None:
        """Called once on the initial state."""

    def after(self, machine, rule_id: str, redex: tuple) -> None:
        """Called after each transition."""

    def at_end(self, machine, outcome) -> None:
        """Called when the run ends (any outcome but a violation)."""

    def fail(self, message: str, nodes: Iterable = ()) -> InvariantViolation:
        return InvariantViolation(self.name, message, nodes)


def changes_graph(rules, rule_id: str) -> bool:
    """Can this transition change the graph? (A rule's declared attribute in the machine's
    RuleSet `rules`: never for a pass, nor for the rewrites that only lower a flag.)"""
    return rules[rule_id].changes_graph


def is_pass(rules, rule_id: str) -> bool:
    return rules[rule_id].kind == PASS


MODES = ("exhaustive", "full", "sampled")


class Policy:
    """When a whole-graph condition is checked. Pass transitions only move the token (their
    functions never touch the graph), so only rewrites are checked.
    - "exhaustive": after every rewrite — also those meant only to lower a flag (rw.op.keep,
      box.close, copy.pass), so that a rule changing the graph when it should not is caught —
      and at the end of the run; *incrementally*: only what the graph's journal says the
      rewrite touched is re-examined (semantics.journal), with the verdicts of `full`.
    - "full": the same schedule, every condition recomputed on the whole graph: O(graph) per
      rewrite, quadratic over a run. The reference the incremental checks are tested against.
    - "sampled": after the graph-changing rewrites numbered 1..64, then at powers of two
      (128, 256, …), and at the end of the run, re-examining everything touched since the
      last look. A broken invariant that persists is still found, later than its step.
    """

    def __init__(self, mode: str = "exhaustive"):
        if mode not in MODES:
            raise ValueError(f"check mode {mode!r}: one of {', '.join(MODES)}")
        self.mode = mode
        self.count = 0

    def due(self, rules, rule_id: str) -> bool:
        """Is the check due after the transition `rule_id` (of the RuleSet `rules`)?"""
        if is_pass(rules, rule_id):
            return False
        if self.mode != "sampled":
            return True
        if not changes_graph(rules, rule_id):
            return False
        self.count += 1
        k = self.count
        return k <= 64 or (k & (k - 1)) == 0


class GraphCheck(Check):
    """A check of a property of the whole graph: run on the initial state, after rewrites
    (on the Policy's schedule) and on the last state; the first problem found is raised.

    A subclass gives `problems(machine)` (the whole graph) and may give
    `problems_touched(machine, journal)`, the incremental form: the problems among what the
    journal says changed since the last look, given that the state looked at then had none.
    Every check ran on a state without problems (else the run stopped there), so that
    premise always holds; `full` mode, and a journal that says `everything`, use `problems`."""

    options = ("check_mode",)
    on_passes = False  # passes never change the graph (Policy.due)
    # problems_touched reads the check's own journal; a check whose index keeps a journal
    # of its own (checks.incremental: names, graph, validity) says False, and is passed None
    reads_journal = True

    def __init__(self, check_mode: str = "exhaustive"):
        self.policy = Policy(check_mode)
        self.seen: tuple = (None, -1)  # (graph, version) last checked
        self.journal = None
        # decided once (it is asked after every rewrite): has an incremental form, not mode full
        self.incremental = check_mode != "full" and type(self).problems_touched is not GraphCheck.problems_touched

    def problems(self, machine) -> list[tuple[str, list]]:
        """(message, nodes) for every problem of the current graph."""
        raise NotImplementedError

    def problems_touched(self, machine, journal) -> list[tuple[str, list]]:
        """The incremental form of `problems` (optional)."""
        raise NotImplementedError

    def start_incremental(self, machine) -> None:
        """Build what `problems_touched` keeps up to date (the whole graph, once)."""

    def initial(self, machine) -> None:
        self.check(machine)

    def after(self, machine, rule_id, redex) -> None:
        if self.policy.due(machine.rules, rule_id):
            graph = machine.graph
            if (graph, graph.version) == self.seen:
                return  # no surgery since the last check (a flag-only rewrite): same verdict
            self.check(machine)

    def at_end(self, machine, outcome) -> None:
        try:
            self.check(machine)  # the last state, whatever the schedule
        finally:
            if self.journal is not None:
                self.journal.detach(machine.graph)

    def check(self, machine) -> None:
        graph = machine.graph
        if not self.incremental:
            problems = self.problems(machine)
        elif self.seen[0] is graph and not (self.journal is not None and self.journal.gather().everything):
            problems = self.problems_touched(machine, self.journal)
            if self.journal is not None:
                self.journal.clear()
        else:  # the first look at this graph: the whole of it, and a journal from now on
            from ..journal import Journal

            if self.journal is not None and self.seen[0] is not None:
                self.journal.detach(self.seen[0])
            problems = self.problems(machine)
            if not problems:
                self.start_incremental(machine)
            self.journal = Journal() if self.reads_journal else None
            if self.journal is not None:
                self.journal.attach(graph)
        self.seen = (graph, graph.version)
        if problems:
            if len(problems) > 1:  # the one told first must not depend on the order of a set
                problems = sorted(problems, key=_problem_key)
            message, nodes = problems[0]
            more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
            raise self.fail(message + more, nodes)


def _problem_key(problem: tuple) -> tuple:
    """Problems in a fixed order: by the ids of their elements (ids are handed out in order,
    the same in every run of a program), then by message. The sets they are found in iterate
    in an order of memory addresses, which differs from one run to the next."""
    message, nodes = problem
    return tuple(sorted((0, x.id, "") if hasattr(x, "id") else (1, 0, repr(x)) for x in nodes)), message
