"""The dynamic GoI machine for the abductive calculus: runs a graph state to an outcome.

A run starts at Init(G) = (root, ↑, □, ★:□, □) and stops in one of:
- final:     Final(G, X) = (root, ↓, □, X:□, □) — the value X;
- stuck:     no rule applies to a non-final state (reported with the rule context);
- budget:    the step limit was reached;
- undefined: a division by zero under the strict division policy.

Every transition is one rule of semantics.rules, recorded by its ID. The only
choice is among enabled ?-rewrites, made by a strategy: FirstStrategy (the
default: a fixed deterministic order) or RandomStrategy(seed).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Optional

from . import graph as G
from .rules import DEFAULT, PASS, REWRITE, RuleSet, in_use
from . import show
from .token import DOWN, NONE_FLAG, Token
from .values import BudgetExceeded, RationalField, SizeMismatch, Undefined

DEFAULT_MAX_NODES = 250_000



class FirstStrategy:
    """Always the first enabled ?-rewrite in the order rules.redexes lists them."""

    name = "first"
    first_only = True  # the machine need not list the other options

    def choose(self, options):
        return options[0]


class RandomStrategy:
    """A uniformly random enabled ?-rewrite, from a seeded generator (reproducible)."""

    name = "random"
    first_only = False

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, options):
        return options[self.rng.randrange(len(options))]


@dataclass
class Step:
    """The state after one transition: its number and rule, then the token (position,
    direction, rewriting flag, computation stack and box stack, both stacks top first).
    Written by semantics.show (step_line, step_to_json)."""

    number: int
    rule: str
    position: int
    position_type: str
    direction: str  # "↑" or "↓"
    flag: str
    stack: tuple  # elements: markers, scalars, vectors (tuples); top first
    box_stack: tuple  # link ids; top first
    span: object = None  # the source span (syntax.Pos) of the term the token's link belongs to, if known

    def render(self, show_scalar=show.scalar) -> str:
        """One line of `goi run --trace` (semantics.show.step_line)."""
        return show.step_line(self, show_scalar)

    def to_json(self, show_scalar=show.scalar) -> dict:
        """One step of `goi run --json --trace` (semantics.show.step_to_json)."""
        return show.step_to_json(self, show_scalar)


def source_span(link: G.Link):
    """The source span of the term a link belongs to: its upper node's (a term's fragment is
    entered from below), else its lower node's; None for nodes no term made."""
    node = link.dst if link.dst is not None else link.src
    return None if node is None else node.span


STOP_EVERY = 256  # transitions between two questions to a run's `stop`


@dataclass
class Outcome:
    """How a run ended: its status, its value when final, its transitions counted by rule, and why it stopped."""

    status: str  # final | stuck | budget | undefined
    value: object = None  # the X of Final(G, X)
    steps: int = 0
    counts: Counter = field(default_factory=Counter)
    reason: str = ""
    limit: str = ""  # for budget: which one ("steps", "nodes", "digits"; "time" for a caller's stop)
    rules: RuleSet = DEFAULT  # the rules the run was made with (what kind each counted rule is)

    @property
    def passes(self) -> int:
        rules = self.rules.by_id  # the plain dict: asked after every run
        return sum(c for r, c in self.counts.items() if rules[r].kind == PASS)

    @property
    def rewrites(self) -> int:
        rules = self.rules.by_id
        return sum(c for r, c in self.counts.items() if rules[r].kind == REWRITE)


class Machine:
    """The token machine on `graph`, making the transitions of `rules` (a RuleSet: by
    default the paper's, semantics.rules.DEFAULT, or the one `semantics.rules.using` gives;
    a variant semantics is another RuleSet)."""

    def __init__(self, graph: G.Graph, field_=None, strategy=None, max_nodes: int = DEFAULT_MAX_NODES,
                 rules: Optional[RuleSet] = None):
        self.graph = graph
        self.rules = rules if rules is not None else in_use()
        # what every transition asks of the rule set, looked up once
        self._by_id = self.rules.by_id  # rule id -> Rule
        self._pass_candidate, self._redexes = self.rules.pass_candidate, self.rules.redexes
        self.field = field_ or RationalField()
        self.strategy = strategy or FirstStrategy()
        self._limit = 1 if getattr(self.strategy, "first_only", False) else 0  # redexes the strategy needs listed
        self.max_nodes = max_nodes
        self.token = Token(graph.root)
        self.steps = 0
        self.counts: Counter = Counter()
        self.last_rule: Optional[str] = None  # the rule of the last transition made (a report's "after step n (rule)")
        # Called as fn(machine, rule_id, redex) just before / just after each transition.
        self.before: list[Callable[["Machine", str, tuple], None]] = []
        self.after: list[Callable[["Machine", str, tuple], None]] = []
        # Extension slots, filled by what attaches itself (and read by the checks):
        self.collector = None  # the garbage collector (semantics.gc.Collector), if any
        self.monitor = None  # the invariant checks (semantics.checks.Monitor), if any
        self.indexes: dict = {}  # what the checks keep per machine, by name (semantics.checks.incremental)

    # ---- budgets -----------------------------------------------------------------
    def reserve(self, extra: int, what: str) -> None:
        """Called by a rule before it creates `extra` nodes (copies of a box, an unfolding):
        stop the run as `budget` before the graph outgrows --max-nodes, not after."""
        if len(self.graph.nodes) + extra > self.max_nodes:
            raise BudgetExceeded(
                "nodes", f"{what} would make the graph {len(self.graph.nodes) + extra} nodes (--max-nodes {self.max_nodes})"
            )

    # ---- state -----------------------------------------------------------------
    def is_final(self) -> bool:
        t = self.token
        return (
            t.position is self.graph.root
            and t.direction == DOWN
            and t.flag == NONE_FLAG
            and len(t.stack) == 1
            and not t.box_stack
        )

    def enabled(self, first_only: bool = False) -> list[tuple[str, tuple]]:
        """Every transition possible now (several only in a ?-phase; just the first with first_only)."""
        if self.token.flag == NONE_FLAG:
            found = self.rules.pass_candidate(self)
            return [] if found is None else [found]
        return self.rules.redexes(self, 1 if first_only else 0)

    def apply(self, rule_id: str, redex: tuple, span=None) -> None:
        """Make the transition `rule_id` at `redex`; the nodes its effect makes take `span`
        (the observers' — the collector's, the checks' trials — take none)."""
        for observer in self.before:
            observer(self, rule_id, redex)
        if span is None:
            self._by_id[rule_id].apply(self, *redex)
        else:
            graph = self.graph
            graph.span = span
            try:
                self._by_id[rule_id].apply(self, *redex)
            finally:
                graph.span = None
        self.steps += 1
        self.counts[rule_id] += 1
        self.last_rule = rule_id
        for observer in self.after:
            observer(self, rule_id, redex)

    def step(self) -> Optional[str]:
        """Make one transition; return its rule ID, or None if no rule applies."""
        if self.token.flag == NONE_FLAG:  # most transitions: a pass — `enabled`'s first case, without its one-item list
            found = self._pass_candidate(self)
            if found is None:
                return None
            self.apply(*found)
            return found[0]
        options = self._redexes(self, self._limit)  # `enabled`'s other case
        if not options:
            return None
        rule_id, redex = options[0] if len(options) == 1 else self.strategy.choose(options)
        # the nodes a rewrite makes come from its redex's node: they take its source span
        span = None
        for x in redex:  # the last node of the redex
            if type(x) is G.Node:
                span = x.span
        self.apply(rule_id, redex, span)
        return rule_id

    def describe(self) -> str:
        """The token state, for stuck reports and traces."""
        t = self.token
        node = t.position.dst if t.direction != DOWN else t.position.src
        at = "the graph's interface" if node is None else f"{G.label(node)}-node #{node.id}"
        return (
            f"token at ℓ{t.position.id} ({t.position.type}) going {t.direction} towards {at}, flag {show.flag(t.flag)}, "
            f"computation stack {show.stack(t.stack, self.field.show)}, box stack {show.box_stack(t.box_stack)}"
        )

    def snapshot(self, rule_id: str) -> Step:
        t = self.token
        return Step(
            self.steps,
            rule_id,
            t.position.id,
            str(t.position.type),
            t.direction,
            show.flag(t.flag),
            tuple(reversed(t.stack)),
            tuple(link.id for link in reversed(t.box_stack)),
            source_span(t.position),
        )

    # ---- running -----------------------------------------------------------------
    def run(self, max_steps: int = 1_000_000, trace: Optional[Callable[[Step], None]] = None,
            stop: Optional[Callable[[], Optional[str]]] = None) -> Outcome:
        """Run to an outcome. `stop`, asked every STOP_EVERY transitions, is the caller's own
        budget (`goi equiv`'s deadline): a reason it returns ends the run as a budget whose
        limit is "time"."""
        outcome = self._run(max_steps, trace, stop)
        outcome.rules = self.rules
        return outcome

    def _run(self, max_steps: int, trace, stop) -> Outcome:
        # read once, not at every transition: the graph and its node set are never replaced
        # during a run (its root is: read each time), nor are the budgets, the rule set's
        # tables and the counts
        graph, max_nodes, step = self.graph, self.max_nodes, self.step
        nodes, before, after, counts = graph.nodes, self.before, self.after, self.counts
        pass_candidate, redexes, by_id, limit = self._pass_candidate, self._redexes, self._by_id, self._limit
        Node = G.Node
        while True:
            t = self.token
            if t.direction == DOWN and t.position is graph.root and self.is_final():  # cheap tests first
                return Outcome("final", t.stack[0], self.steps, Counter(counts))
            steps = self.steps
            if steps >= max_steps:
                return Outcome("budget", None, steps, Counter(counts), f"step limit {max_steps} reached", "steps")
            if stop is not None and steps % STOP_EVERY == 0:
                reason = stop()
                if reason:
                    return Outcome("budget", None, steps, Counter(counts), reason, "time")
            if len(nodes) > max_nodes:
                return Outcome("budget", None, steps, Counter(counts),
                               f"the graph has {len(nodes)} nodes (--max-nodes {max_nodes})", "nodes")
            try:
                if before or after:  # observers (checks, the collector, a report): through `step` and `apply`
                    rule_id = step()
                # The bare machine: `step` and `apply` made here, without their two calls (a
                # measurable share of a transition; tests/test_machine.py checks the two ways
                # make the same run).
                elif t.flag == NONE_FLAG:
                    found = pass_candidate(self)
                    if found is None:
                        rule_id = None
                    else:
                        rule_id, redex = found
                        by_id[rule_id].apply(self, *redex)
                        self.steps += 1
                        counts[rule_id] += 1
                        self.last_rule = rule_id
                else:
                    options = redexes(self, limit)
                    if not options:
                        rule_id = None
                    else:
                        rule_id, redex = options[0] if len(options) == 1 else self.strategy.choose(options)
                        span = None
                        for x in redex:  # as `step`: the nodes a rewrite makes take its redex's last node's span
                            if type(x) is Node:
                                span = x.span
                        if span is None:
                            by_id[rule_id].apply(self, *redex)
                        else:
                            graph.span = span
                            try:
                                by_id[rule_id].apply(self, *redex)
                            finally:
                                graph.span = None
                        self.steps += 1
                        counts[rule_id] += 1
                        self.last_rule = rule_id
            except BudgetExceeded as exc:
                return Outcome("budget", None, self.steps, Counter(counts), str(exc), exc.limit)
            except Undefined as exc:
                return Outcome("undefined", None, self.steps, Counter(counts), f"{exc.what}: {exc}")
            except SizeMismatch as exc:
                return Outcome("stuck", None, self.steps, Counter(counts), f"{exc} ({self.describe()})")
            if rule_id is None:
                return Outcome("stuck", None, self.steps, Counter(counts), f"no rule applies: {self.describe()}")
            if trace is not None:
                trace(self.snapshot(rule_id))


def clone_machine(m: Machine, strategy=None) -> Machine:
    """An independent copy of a machine's state (graph, token), with a fresh history."""
    graph, _nodes, links = m.graph.clone()
    copy = Machine(graph, m.field, strategy or FirstStrategy(), m.max_nodes, m.rules)
    t = m.token
    copy.token = Token(links[t.position], t.direction, t.flag, list(t.stack), [links[l] for l in t.box_stack])
    copy.steps = m.steps
    copy.last_rule = m.last_rule
    return copy

