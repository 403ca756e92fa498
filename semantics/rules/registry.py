"""Rules as values: `Rule`, the declaring decorators (which make a function's rule and keep
it on the function, registering nothing), and `RuleSet`, an immutable set of rules with the
dispatch tables built from it (semantics.rules says how a rule is declared, and builds the
default set from the rule modules). The rule modules import this module, never the
package, so that declaring a rule makes no import circle."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Iterable, Optional

from ..graph import VAR
from ..token import NONE_FLAG, UP

PASS, REWRITE, GC = "pass", "rewrite", "gc"
KINDS = (PASS, REWRITE, GC)
DECOUPLING = "decoupling"  # the feature of the decoupling rule, which tools look for (goi run --dot, coverage)


@dataclass(frozen=True)
class Rule:
    """One rule of the catalogue. `apply(machine, *redex)` is its effect; the rest says when
    it applies and what it is. Its docstring is its catalogue entry: a summary line, then
    the entry docs/RULES.md shows (what it rewrites, the token before and after, and its
    source in the paper or "our decision" and why)."""

    id: str
    kind: str  # PASS, REWRITE (machine transitions) or GC (the collector's rules)
    apply: Callable
    summary: str  # the first line of the effect's docstring
    flag: Any = None  # the rewriting flag it fires under (□ for a pass; "$1" for $1(n); None for gc)
    site: str = ""  # rewrites: the kind of place its `match` is tried at (see `sites`)
    on: tuple = ()  # rewrites: the node kinds at that place it applies to (() for a place without a node)
    match: Optional[Callable] = None  # rewrites and gc: match(machine, *place) -> redex tuple or None
    at: tuple = ()  # passes: (node kinds, direction, port): the token arriving at such a node
    guard: Optional[Callable] = None  # passes: guard(machine) on the stacks
    changes_graph: bool = True  # False: never touches the graph (every pass; rewrites that only lower a flag)
    administrative: bool = False  # a pass the garbage-collected run need not mirror (Prop. GC bisimulation)
    sets_flag: Any = None  # the rewriting flag it raises, if any ("?" starts a ?-phase, "!" ends it)
    # it computes with the field on values of the computation stack: the one place a run may
    # depend on the constants' values (a strict division by zero ends it `undefined`, a number
    # too long for --max-digits ends it `budget`); no rule's match, guard or place reads a value
    # (properties/parametricity.py checks it)
    reads_values: bool = False
    feature: str = ""  # the construct a run exercises when it fires (rule coverage)
    removes_box: bool = False  # gc: removes a box (the collector protects the token's boxes from it)
    entry: str = ""  # the catalogue entry: the docstring after its summary line

    @property
    def is_pass(self) -> bool:
        return self.kind == PASS

    @property
    def source(self) -> str:
        """The paragraph of the entry that gives the rule's source, from "Source:" on (or the
        one that says "our decision"); "" if none does."""
        for paragraph in self.entry.split("\n\n"):
            flat = " ".join(paragraph.split())
            at = flat.find("Source:")
            if at >= 0:
                return flat[at:]
            if "our decision" in flat:
                return flat
        return ""


def _declare(fn: Callable, rule_id: str, kind: str, **attributes) -> Callable:
    """The rule, made a value and kept on its function (`fn.rule`); a RuleSet collects it."""
    if kind not in KINDS:
        raise ValueError(f"rule {rule_id}: kind {kind!r} is not one of {KINDS}")
    summary, _, entry = inspect.cleandoc(fn.__doc__ or "").partition("\n\n")
    fn.rule = Rule(rule_id, kind, fn, summary.split("\n")[0], entry=entry.strip(), **attributes)  # type: ignore[attr-defined]
    return fn


def pass_rule(rule_id: str, kinds: Iterable[str], direction: str, port, guard: Optional[Callable] = None, **attributes):
    """Declare `fn(machine, node, port)` as the pass `rule_id`: the token going `direction`
    arrives at a node of one of `kinds` through `port`, and `guard(machine)` holds."""

    def register(fn):
        return _declare(fn, rule_id, PASS, flag=NONE_FLAG, at=(tuple(kinds), direction, port), guard=guard,
                        changes_graph=False, **attributes)

    return register


def rewrite(rule_id: str, flag, site: str, match: Callable, on: Iterable[str] = (), changes_graph: bool = True,
            **attributes):
    """Declare `fn(machine, *redex)` as the rewrite `rule_id`: under the rewriting `flag`, at
    each place of kind `site` the flag's site function yields whose node is of one of the
    kinds `on` (any place of that site when `on` is empty), `match(machine, *place)` gives
    the redex (or None)."""

    def register(fn):
        return _declare(fn, rule_id, REWRITE, flag=flag, site=site, on=tuple(on), match=match,
                        changes_graph=changes_graph, **attributes)

    return register


def gc_rule(rule_id: str, match: Callable, **attributes):
    """Declare `fn(machine, *redex)` as a garbage-collection rule: `match(node)` gives its
    redex at a node with no input (the collector's places), or None."""

    def register(fn):
        return _declare(fn, rule_id, GC, match=match, **attributes)

    return register


def sites(flag, many: bool = False):
    """Declare `fn(machine)` as the site function of `flag`. A place is (site kind, node
    kind, place) — the node kind of the place's node, None for a place without one. With
    `many` (the ?-phase, where the strategy chooses), `fn` returns an iterable of the places
    (a generator, so that the default strategy's search stops at the first) in the order in
    which redexes are listed (the default strategy takes the first); otherwise it returns the
    one place there is, or None, and the rules of that place exclude each other (outside a
    ?-phase there is no choice: at most one rule matches)."""

    def register(fn):
        fn.sites_of = (*getattr(fn, "sites_of", ()), (flag, many))  # type: ignore[attr-defined]
        return fn

    return register


def flag_key(flag):
    """The flag as rules declare it: $1(n) is declared as "$1"."""
    return flag[0] if isinstance(flag, tuple) else flag


class RuleSet(Mapping):
    """A semantics' rules as a value, in the style of a PLT Redex reduction relation: the
    rules in declaration order (which orders the matches of one site), each flag's site
    function, and the dispatch tables built from them once. Immutable: a variant is a new
    RuleSet (`replace`, `add`, `remove`, `with_sites`), and a machine runs the one it is given
    (`Machine(graph, rules=...)`).

        variant = DEFAULT.replace("rw.beta", apply=my_beta)   # another effect, the same redex
        Machine(graph, rules=variant)
    """

    __slots__ = ("_rules", "_sites", "_passes", "_rewrites", "_sorted", "_except", "_featured")

    def __init__(self, rules: Iterable[Rule], site_functions: Optional[dict] = None):
        ordered: dict[str, Rule] = {}
        for rule in rules:
            if rule.id in ordered:
                raise ValueError(f"rule {rule.id} declared twice")
            ordered[rule.id] = rule
        setattr_ = object.__setattr__  # a RuleSet is immutable: set here once
        # plain dicts inside (the dispatch reads them at every step), never changed after
        # this; outside, the Mapping's read-only methods and views
        setattr_(self, "_rules", ordered)
        setattr_(self, "_sites", dict(site_functions or {}))  # flag -> (site function, many)
        # passes: (node kind, direction, port) -> [(guard, rule id)]; port is "in" for any
        # input, "var" for a λ's bound-variable link, 0/1 for outputs
        passes: dict[tuple, list[tuple]] = {}
        # rewrites: flag -> site kind -> node kind (None: no node) -> [rule id]
        by_site: dict[Any, dict[str, dict[Optional[str], list[str]]]] = {}
        for rule in ordered.values():
            if rule.kind == PASS:
                kinds, direction, port = rule.at
                for kind in kinds:
                    passes.setdefault((kind, direction, port), []).append((rule.guard, rule.id))
            elif rule.kind == REWRITE:
                table = by_site.setdefault(rule.flag, {}).setdefault(rule.site, {})
                for kind in rule.on or (None,):
                    table.setdefault(kind, []).append(rule.id)
        setattr_(self, "_passes", {key: tuple(entries) for key, entries in passes.items()})
        # what `redexes` reads at every rewrite: flag -> (site function, many, (site kind, node
        # kind) -> ((rule id, match), ...)), one lookup a level, each match beside its ID
        setattr_(self, "_rewrites", {
            flag: (fn, many, {(site, kind): tuple((rid, ordered[rid].match) for rid in ids)
                              for site, kinds in by_site.get(flag, {}).items() for kind, ids in kinds.items()})
            for flag, (fn, many) in self._sites.items()})
        setattr_(self, "_sorted", tuple(sorted(ordered)))  # the IDs sorted, once: a run's report lists them so
        setattr_(self, "_except", {})  # kind -> sorted_except(kind), filled when first asked
        setattr_(self, "_featured", {})  # feature -> the IDs with_feature gives, filled when first asked

    def __setattr__(self, name, value):
        raise AttributeError("a RuleSet is immutable: make a variant with replace, add, remove or with_sites")

    @classmethod
    def of_modules(cls, modules: Iterable[Any]) -> "RuleSet":
        """The rules and site functions the modules declare, in module order and, within a
        module, in the order of declaration."""
        rules, site_functions = [], {}
        for module in modules:
            for value in vars(module).values():
                if not callable(value) or getattr(value, "__module__", None) != module.__name__:
                    continue  # imported from elsewhere: declared there
                if isinstance(getattr(value, "rule", None), Rule):
                    rules.append(value.rule)
                for flag, many in getattr(value, "sites_of", ()):
                    if flag in site_functions:
                        raise ValueError(f"sites of flag {flag!r} declared twice")
                    site_functions[flag] = (value, many)
        return cls(rules, site_functions)

    # ---- the rules, as a read-only mapping by ID (Mapping gives get, keys, items, values, in)
    def __getitem__(self, rule_id: str) -> Rule:
        return self._rules[rule_id]

    def __iter__(self):
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)

    __eq__ = object.__eq__  # a value with its own identity: a rule set equals only itself
    __hash__ = object.__hash__

    @property
    def by_id(self) -> dict:
        """The rules by ID as the plain dict inside, which the machine subscripts at every
        transition (a view or a method call would cost it more): never changed by the rule
        set, and not to be changed by its reader (a variant is a new RuleSet)."""
        return self._rules

    @property
    def site_functions(self):
        """flag -> (site function, many), read-only."""
        return MappingProxyType(self._sites)

    def __repr__(self) -> str:
        return f"RuleSet({len(self._rules)} rules)"

    # ---- variants
    def replace(self, rule_id: str, **fields) -> "RuleSet":
        """The same rules but `rule_id`, whose declared fields (`apply`, `match`, `guard`,
        attributes) are replaced; it keeps its place in the order."""
        if rule_id not in self._rules:
            raise KeyError(f"no rule {rule_id} to replace")
        changed = dataclasses.replace(self._rules[rule_id], **fields)
        return RuleSet((changed if r.id == rule_id else r for r in self._rules.values()), self._sites)

    def add(self, rule, after: Optional[str] = None) -> "RuleSet":
        """The rules and one more (a Rule, or a function declared with a rule decorator), last
        or right after the rule `after` (which orders it among the matches of its site)."""
        rule = getattr(rule, "rule", rule)
        if not isinstance(rule, Rule):
            raise TypeError("add takes a Rule or a function declared with pass_rule, rewrite or gc_rule")
        rules = list(self._rules.values())
        if after is None:
            rules.append(rule)
        else:
            rules.insert([r.id for r in rules].index(after) + 1, rule)
        return RuleSet(rules, self._sites)

    def remove(self, rule_id: str) -> "RuleSet":
        if rule_id not in self._rules:
            raise KeyError(f"no rule {rule_id} to remove")
        return RuleSet((r for r in self._rules.values() if r.id != rule_id), self._sites)

    def with_sites(self, flag, fn: Callable, many: bool = False) -> "RuleSet":
        """The same rules, with `fn` as the site function of `flag` (see `sites`)."""
        return RuleSet(self._rules.values(), {**self._sites, flag: (fn, many)})

    # ---- asking about rules (instead of naming them)
    def of_kind(self, kind: str) -> list[str]:
        """The IDs of the rules of one kind, sorted."""
        return [r for r in self._sorted if self._rules[r].kind == kind]

    def sorted_except(self, kind: str) -> tuple[str, ...]:
        """The IDs of the rules of every other kind, sorted (asked after every run: kept)."""
        ids = self._except.get(kind)
        if ids is None:
            ids = self._except[kind] = tuple(r for r in self._sorted if self._rules[r].kind != kind)
        return ids

    def with_feature(self, feature: str) -> list[str]:
        """The IDs of the rules exercising `feature`, in declared order (asked after every run
        of a property: kept)."""
        ids = self._featured.get(feature)
        if ids is None:
            ids = self._featured[feature] = tuple(r for r, rule in self._rules.items() if rule.feature == feature)
        return list(ids)

    # ---- dispatch: what the machine asks at each step
    def redexes(self, machine, limit: int = 0) -> list[tuple[str, tuple]]:
        """The rewrites enabled now, as (rule id, redex), in declared order (at most `limit`
        with a limit): each place the flag's site function yields, each rule of that site."""
        flag = machine.token.flag
        declared = self._rewrites.get(flag[0] if type(flag) is tuple else flag)
        if declared is None:
            return []
        site_fn, many, table = declared
        if not many:  # one place, rules that exclude each other: the first match is the transition
            found_place = site_fn(machine)
            if found_place is None:
                return []
            site, kind, place = found_place
            for rule_id, match in table.get((site, kind), ()):
                redex = match(machine, *place)
                if redex is not None:
                    return [(rule_id, redex)]
            return []
        found: list[tuple[str, tuple]] = []
        for site, kind, place in site_fn(machine):
            matches = table.get((site, kind))
            if matches is None:
                continue
            for rule_id, match in matches:
                redex = match(machine, *place)
                if redex is not None:
                    found.append((rule_id, redex))
                    if len(found) == limit:
                        return found
        return found

    def pass_candidate(self, machine):
        """The pass transition possible now, as (rule id, (node, port)), or None."""
        tok = machine.token
        link = tok.position
        if tok.direction == UP:
            node, port = link.dst, link.dst_port
            key_port = "var" if port == VAR else "in"
        else:
            node, port = link.src, link.src_port
            key_port = port
        if node is None:
            return None
        for guard, rule_id in self._passes.get((node.kind, tok.direction, key_port), ()):
            if guard is None or guard(machine):
                return rule_id, (node, port)
        return None

    def gc_candidate(self, node):
        """The garbage-collection redex whose X0/rotC_0 is `node`, if any: (rule id, redex),
        in declared order."""
        for rule in self._rules.values():
            if rule.kind == GC:
                redex = rule.match(node)
                if redex is not None:
                    return rule.id, redex
        return None
