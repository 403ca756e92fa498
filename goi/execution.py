"""The one pipeline from a program to an outcome: parse → type-check → translate → run the
graph machine (with invariant checks and garbage collection when asked).

The CLI, the properties, the equivalence decision and the benchmarks all go through here,
by way of goi.api (docs/API.md):

    >>> import goi
    >>> goi.check("let f @ p = {1} * {2} in f p").params
    (Fraction(1, 1), Fraction(2, 1))
    >>> goi.run("(λx. x + x) {1}").value
    Fraction(2, 1)

`run` accepts program text, a surface term (goi.semantics.syntax) or a Judgement.
`prepare` gives the machine before it runs, for callers that attach observers (DOT output)
or want the final graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterable, Literal, Optional, Union

from .semantics import syntax as S
from .semantics.checks import CheckSet, InvariantViolation, Monitor, default_checks
from .semantics.machine import DEFAULT_MAX_NODES, FirstStrategy, Machine, Outcome, RandomStrategy, Step
from .semantics.rules import GC, RuleSet
from .semantics.token import Marker
from .semantics.translate import translate
from .semantics.typecheck import Judgement, NotAnnotated, typecheck, typecheck_annotated
from .semantics.types import Type
from .semantics.stack import deep
from .semantics.values import DEFAULT_MAX_DIGITS, RationalField
from .semantics.errors import BudgetError, TypeCheckError, whole_number

__all__ = [
    "DEFAULT_MAX_DIGITS",
    "DEFAULT_MAX_NODES",
    "DEFAULT_MAX_STEPS",
    "Execution",
    "Judgement",
    "Program",
    "Result",
    "Value",
    "check",
    "judge",
    "plain_value",
    "prepare",
    "run",
]

DEFAULT_MAX_STEPS = 1_000_000

Program = Union[str, S.Term, Judgement]
"""Program text, a parsed surface term, or a judgement from `check`."""

Value = Union[Fraction, tuple[Fraction, ...], str]
"""A final value: a scalar (exact Fraction), a vector (tuple of Fractions), or "λ" for a function."""

Division = Literal["total", "strict"]


def check(text: str, *, max_characters: Optional[int] = None) -> Judgement:
    """Parse and type-check a closed program: the judgement `A | Γ | p⃗ ⊢ t : T`.

    Raises goi.ParseError / goi.TypeCheckError (subclasses of goi.GoiError, with a message,
    line and column) on bad input, goi.LimitError when the program is nested deeper than
    Python's recursion limit allows (the `goi` command raises that limit).
    """
    from .semantics.parser import parse

    if not isinstance(text, str):
        raise TypeError(f"goi.check takes a program's text (str), not {type(text).__name__}; "
                        "a surface term or a judgement goes to goi.run or goi.judge")
    bound = MAX_TEXT_CHARACTERS if max_characters is None else whole_number("max_characters", max_characters, 1)
    if len(text) > bound:
        raise BudgetError(f"the program is {len(text):,} characters: goi.check reads at most {bound:,} "
                          "(max_characters; the command line's --max-input-bytes)", limit="input")
    return deep(lambda: typecheck(parse(text), source=text))


MAX_TEXT_CHARACTERS = 16 * 1024 * 1024  # goi.check's bound on a program's text (goi/files.py MAX_INPUT_BYTES)


_whole = whole_number  # semantics/errors.py


def exact(name: str, value) -> Fraction:
    """A value the user gives for the field: exact (Fraction, int, or text such as '1/10');
    a float is refused, since 0.1 is not one tenth."""
    if isinstance(value, Fraction) or (isinstance(value, int) and not isinstance(value, bool)):
        return Fraction(value)
    if isinstance(value, str):
        try:
            return Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{name} {value!r} is not an exact rational (write '3', '-0.5' or '1/3')") from None
    if isinstance(value, float):
        raise TypeError(f"{name} is the float {value!r}, which is not exact: give a Fraction, an int or text "
                        f"such as {str(value)!r}")
    raise TypeError(f"{name} must be an exact rational (Fraction, int or str), not {type(value).__name__}")


_LAST_JUDGED: tuple = (None, None)  # (surface term, its judgement): the last term typed


def judge(program: Program) -> Judgement:
    """The judgement of a program given as text, surface term or judgement. A surface term
    (immutable) typed by the call before is not typed again: the properties of a campaign
    run one term several times. A surface term annotated throughout (a program of the
    enumerator, typed by construction) has its types synthesised (typecheck_annotated: the
    same judgement, without inference); any other is inferred (typecheck), as is one whose
    synthesis fails, so that an error is the checker's."""
    global _LAST_JUDGED
    if isinstance(program, Judgement):
        return program
    if isinstance(program, str):
        return check(program)
    from .semantics.syntax import Term

    if not isinstance(program, Term):
        raise TypeError(f"a program is its text (str), a surface term (goi.semantics.syntax) or a judgement from "
                        f"goi.check, not {type(program).__name__}")
    last = _LAST_JUDGED
    if last[0] is program:
        return last[1]
    judgement = deep(_typed, program)
    _LAST_JUDGED = (program, judgement)
    return judgement


def _typed(term) -> Judgement:
    try:
        return typecheck_annotated(term)
    except (NotAnnotated, TypeCheckError):
        return typecheck(term)


@dataclass(frozen=True)
class Result:
    """The outcome of one run of the machine.

    status: "final" (the run reached Final(G, X)), "stuck" (no rule applies), "budget" (the
    step limit), "undefined" (division by zero under the strict policy) or "violation" (an
    invariant check failed; see `violation`).
    """

    status: str
    value: Optional[Value]
    type: Type
    parameters: tuple[Fraction, ...]
    transitions: int
    passes: int
    rewrites: int
    rules: dict[str, int]
    reason: Optional[str]
    limit: Optional[str]  # for "budget": which budget ("steps", "nodes", "digits")
    violation: Optional[InvariantViolation]
    gc: Optional[dict[str, int]]
    check_seconds: dict[str, float]
    judgement: Judgement = field(repr=False)
    machine: Machine = field(repr=False)
    check_runs: dict[str, int] = field(default_factory=dict)  # times each check was consulted

    @property
    def ok(self) -> bool:
        return self.status == "final"

    def _repr_html_(self) -> str:
        """The result as a notebook shows it (Jupyter calls this): the program, its outcome,
        value, type, parameters and transitions, and the rules that fired most; every text
        escaped (the program came in as data)."""
        from html import escape

        from .semantics.pretty import pretty
        from .semantics.show import scalar, to_text

        surface = self.judgement.surface
        program = self.judgement.source or (pretty(surface) if surface is not None else "")
        outcome = to_text(self.value) if self.status == "final" else f"{self.status}: {self.reason or ''}"
        fired = sorted(((n, r) for r, n in self.rules.items() if n), reverse=True)[:6]
        rows = [("program", f"<code>{escape(program)}</code>"), ("outcome", f"<b>{escape(outcome)}</b>"),
                ("type", escape(str(self.type))),
                ("parameters", escape(", ".join(scalar(p) for p in self.parameters) or "none")),
                ("transitions", f"{self.transitions:,} ({self.passes:,} passes, {self.rewrites:,} rewrites)"),
                ("rules fired most", escape(", ".join(f"{r} {n}" for n, r in fired)) or "none")]
        if self.violation is not None:
            rows.insert(2, ("violation", escape(self.violation.describe())))
        body = "".join(f"<tr><th style='text-align:left'>{k}</th><td style='text-align:left'>{v}</td></tr>" for k, v in rows)
        return f"<table class='goi-result'>{body}</table>"


def plain_value(x: object) -> Value:
    """A value off the computation stack as the API gives it: exact Fractions (an integer
    field's ints too); a field of doubles (semantics.values.IEEEField) gives its floats."""
    if isinstance(x, Marker):
        return x.symbol
    if isinstance(x, tuple):
        return tuple(plain_value(v) for v in x)  # type: ignore[misc]
    if isinstance(x, float):
        return x
    assert isinstance(x, (Fraction, int)) and not isinstance(x, bool), x
    return Fraction(x)


class Execution:
    """A program translated and loaded on a machine, not yet run.

    Besides `run`'s options: `stability_mode`/`determinism_paths` tune two checks, `graph`
    runs a given graph of the program instead of its translation, `field` replaces the
    exact-rational field (an object with the interface of semantics.values.RationalField),
    `rules` the paper's rules (a variant semantics: a semantics.rules.RuleSet) and
    `check_set` the checks `checks` are named from (a semantics.checks.CheckSet).

    Attributes: `judgement`, `machine` (its `graph`, `token`, `before`/`after` observer
    lists), `monitor` (None without checks), `collector` (None without gc), `parameters`,
    `settings` (the options as JSON, to make the run again).
    """

    def __init__(
        self,
        program: Program,
        *,
        params: Optional[Iterable[Union[Fraction, int, str]]] = None,
        division: Division = "total",
        strategy: Union[None, str, FirstStrategy, RandomStrategy] = None,
        seed: int = 0,
        checks: Iterable[str] = (),
        check_mode: str = "exhaustive",
        stability_mode: str = "sampled",
        determinism_paths: int = 24,
        gc: bool = False,
        graph=None,
        field=None,
        max_nodes: int = DEFAULT_MAX_NODES,
        max_digits: int = DEFAULT_MAX_DIGITS,
        rules: Optional[RuleSet] = None,
        check_set: Optional[CheckSet] = None,
    ):
        self.judgement = judge(program)
        graph_given = graph
        if isinstance(params, (str, bytes)) or (params is not None and not hasattr(params, "__iter__")):
            raise TypeError(f"params is a list of values, one per provisional constant, not {type(params).__name__}")
        values = None if params is None else tuple(exact(f"params[{i}]", p) for i, p in enumerate(params))
        if isinstance(checks, (str, bytes)):
            raise TypeError(f"checks is a list of names (['all'], ['validity', 'gc']), not the string {checks!r}")
        if division not in ("total", "strict") and field is None:
            raise ValueError(f"unknown division policy {division!r} (total or strict)")
        _whole("seed", seed, -(1 << 63))
        _whole("max_nodes", max_nodes, 1)
        _whole("max_digits", max_digits, 1)
        if not isinstance(gc, bool):
            raise TypeError(f"gc is True or False, not {type(gc).__name__}")
        if values is not None and len(values) != len(self.judgement.params):
            raise ValueError(
                f"params gives {len(values)} values, but the program has {len(self.judgement.params)} provisional constants"
            )
        self.parameters: tuple[Fraction, ...] = values if values is not None else tuple(self.judgement.params)
        self.field = field if field is not None else RationalField(division, max_digits)
        if strategy is None or strategy == "first":
            strategy = FirstStrategy()
        elif strategy == "random":
            strategy = RandomStrategy(seed)
        elif isinstance(strategy, str):
            raise ValueError(f"unknown strategy {strategy!r} (first or random)")
        elif not callable(getattr(strategy, "choose", None)):
            raise TypeError(f"strategy is 'first', 'random' or a strategy object (with a choose method), "
                            f"not {type(strategy).__name__}")
        self.strategy = strategy
        if graph is None:
            inputs = None if values is None else list(values)
            make_inputs = getattr(self.field, "inputs", None)
            if make_inputs is not None:  # the symbolic field puts its parameters under the ¡-nodes
                inputs = make_inputs(len(self.judgement.params))
            graph = deep(translate, self.judgement, self.field, inputs)
        self.machine = Machine(graph, self.field, strategy, max_nodes, rules)
        self.collector = None
        if gc:
            from .semantics.gc import Collector

            self.collector = Collector(self.machine)
        self.monitor: Optional[Monitor] = None
        names = list(checks)
        if names:
            self.monitor = Monitor(
                self.machine,
                (check_set or default_checks()).make(names, check_mode=check_mode, stability_mode=stability_mode,
                                                   determinism_paths=determinism_paths),
            )
        named = getattr(strategy, "name", None) in ("first", "random")
        # The options that make this run again (JSON; a report's counterexample keeps them, so
        # that its pages show the run that failed): `replayable` is False where a graph, a
        # field, rules, checks or a strategy were given as objects goi cannot name.
        self.settings = {
            "division": division, "params": None if values is None else [str(v) for v in values],
            "strategy": strategy.name if named else None, "seed": getattr(strategy, "seed", seed) if named else seed,
            "checks": names, "check_mode": check_mode, "stability_mode": stability_mode,
            "determinism_paths": determinism_paths, "gc": gc, "max_nodes": max_nodes, "max_digits": max_digits,
            "replayable": named and all(x is None for x in (graph_given, field, rules, check_set)),
        }

    def run(self, max_steps: int = DEFAULT_MAX_STEPS, trace: Optional[Callable[[Step], None]] = None,
            stop: Optional[Callable[[], Optional[str]]] = None) -> Result:
        """Run from the initial state to an outcome (at most `max_steps` transitions; `stop`,
        asked now and then, may end it as a budget "time" by returning a reason)."""
        _whole("max_steps", max_steps)
        m = self.machine
        outcome: Outcome = self.monitor.run(max_steps, trace, stop) if self.monitor else m.run(max_steps, trace, stop)
        counts = outcome.counts
        rules = dict.fromkeys(m.rules.sorted_except(GC), 0)  # every rule, in order; then the counts of those fired
        for r, n in counts.items():
            if r in rules:
                rules[r] = n
        gc = None
        if self.collector is not None:
            gc = {r: self.collector.counts.get(r, 0) for r in m.rules.of_kind(GC)}
        return Result(
            status=outcome.status,
            value=plain_value(outcome.value) if outcome.status == "final" else None,
            type=self.judgement.type,
            parameters=self.parameters,
            transitions=outcome.steps,
            passes=outcome.passes,
            rewrites=outcome.rewrites,
            rules=rules,
            reason=outcome.reason or None,
            limit=outcome.limit or None,
            violation=self.monitor.violation if self.monitor else None,
            gc=gc,
            check_seconds=dict(self.monitor.seconds) if self.monitor else {},
            judgement=self.judgement,
            machine=m,
            check_runs=dict(self.monitor.runs) if self.monitor else {},
        )


def prepare(program: Program, **options) -> Execution:
    """Load a program on a machine without running it (options as for `run`)."""
    return Execution(program, **options)


def run(program: Program, *, max_steps: int = DEFAULT_MAX_STEPS, trace: Optional[Callable[[Step], None]] = None,
        **options: Any) -> Result:
    """Run a closed program on the graph machine (`options` are Execution's, the same as
    `prepare`'s):

    - params: values replacing the provisional constants, in p⃗ order (the graph H ∘ (q⃗)‡);
    - division: "total" (x/0 = 0) or "strict" (division by zero ends the run `undefined`);
    - strategy: "first" (default), "random" (with `seed`), or a strategy object;
    - checks: invariant checks by name (docs/INVARIANTS.md), or ["all"]; check_mode
      "exhaustive" (after every rewrite, incrementally), "sampled", or "full" (the
      whole-graph reference);
    - gc: collect garbage between transitions;
    - max_steps, max_nodes, max_digits: the budgets (status "budget", `limit` naming the one
      reached): transitions, nodes in the graph (checked before a rule copies), and digits of
      any number the run computes (checked before the operation);
    - trace: called with a Step after every transition.
    """
    return Execution(program, **options).run(max_steps, trace)
