"""The rule registry: `Rule`, the declaring decorators and the dispatch tables built from
the declarations (semantics.rules says how a rule is declared). The rule modules import
this module, never the package, so that declaring a rule makes no import circle."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional

from ..graph import VAR
from ..token import NONE_FLAG, UP

PASS, REWRITE, GC = "pass", "rewrite", "gc"
KINDS = (PASS, REWRITE, GC)
DECOUPLING = "decoupling"  # the feature of the decoupling rule, which tools look for (goi run --dot, coverage)


@dataclass(frozen=True)
class Rule:
    """One rule of the catalogue. `apply(machine, *redex)` is its effect; the rest says when
    it applies and what it is."""

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
    feature: str = ""  # the construct a run exercises when it fires (rule coverage)
    removes_box: bool = False  # gc: removes a box (the collector protects the token's boxes from it)

    @property
    def is_pass(self) -> bool:
        return self.kind == PASS


REGISTRY: dict[str, Rule] = {}

# Dispatch tables, filled in declaration order:
# passes:   (node kind, direction, port) -> [(guard, rule id)]; port is "in" for any input,
#           "var" for a λ's bound-variable link, 0/1 for outputs
PASS_TABLE: dict[tuple, list[tuple]] = {}
# rewrites: flag -> site function; flag -> site kind -> node kind (None: no node) -> [rule id]
SITES: dict[Any, tuple[Callable, bool]] = {}  # (site function, many)
BY_SITE: dict[Any, dict[str, dict[Optional[str], list[str]]]] = {}


def _declare(fn: Callable, rule_id: str, kind: str, **attributes) -> Rule:
    if rule_id in REGISTRY:
        raise ValueError(f"rule {rule_id} registered twice")
    if kind not in KINDS:
        raise ValueError(f"rule {rule_id}: kind {kind!r} is not one of {KINDS}")
    summary = (fn.__doc__ or "").strip().splitlines()[0] if fn.__doc__ else ""
    declared = Rule(rule_id, kind, fn, summary, **attributes)
    REGISTRY[rule_id] = declared
    fn.rule = declared  # type: ignore[attr-defined]
    return declared


def pass_rule(rule_id: str, kinds: Iterable[str], direction: str, port, guard: Optional[Callable] = None, **attributes):
    """Declare `fn(machine, node, port)` as the pass `rule_id`: the token going `direction`
    arrives at a node of one of `kinds` through `port`, and `guard(machine)` holds."""

    def register(fn):
        kinds_ = tuple(kinds)
        _declare(fn, rule_id, PASS, flag=NONE_FLAG, at=(kinds_, direction, port), guard=guard,
                 changes_graph=False, **attributes)
        for kind in kinds_:
            PASS_TABLE.setdefault((kind, direction, port), []).append((guard, rule_id))
        return fn

    return register


def rewrite(rule_id: str, flag, site: str, match: Callable, on: Iterable[str] = (), changes_graph: bool = True,
            **attributes):
    """Declare `fn(machine, *redex)` as the rewrite `rule_id`: under the rewriting `flag`, at
    each place of kind `site` the flag's site function yields whose node is of one of the
    kinds `on` (any place of that site when `on` is empty), `match(machine, *place)` gives
    the redex (or None)."""

    def register(fn):
        kinds = tuple(on)
        _declare(fn, rule_id, REWRITE, flag=flag, site=site, on=kinds, match=match, changes_graph=changes_graph,
                 **attributes)
        table = BY_SITE.setdefault(flag, {}).setdefault(site, {})
        for kind in kinds or (None,):
            table.setdefault(kind, []).append(rule_id)
        return fn

    return register


def gc_rule(rule_id: str, match: Callable, **attributes):
    """Declare `fn(machine, *redex)` as a garbage-collection rule: `match(node)` gives its
    redex at a node with no input (the collector's places), or None."""

    def register(fn):
        _declare(fn, rule_id, GC, match=match, **attributes)
        return fn

    return register


def sites(flag, many: bool = False):
    """Declare `fn(machine)` as the site function of `flag`. A place is (site kind, node
    kind, place) — the node kind of the place's node, None for a place without one. With
    `many` (the ?-phase, where the strategy chooses), `fn` yields the places in the order in
    which redexes are listed (the default strategy takes the first); otherwise it returns the
    one place there is, or None, and the rules of that place exclude each other (outside a
    ?-phase there is no choice: at most one rule matches)."""

    def register(fn):
        if flag in SITES:
            raise ValueError(f"sites of flag {flag!r} declared twice")
        SITES[flag] = (fn, many)
        return fn

    return register


def flag_key(flag):
    """The flag as rules declare it: $1(n) is declared as "$1"."""
    return flag[0] if isinstance(flag, tuple) else flag


def redexes(machine, limit: int = 0) -> list[tuple[str, tuple]]:
    """The rewrites enabled now, as (rule id, redex), in declared order (at most `limit`
    with a limit): each place the flag's site function yields, each rule of that site."""
    flag = machine.token.flag
    key = flag[0] if type(flag) is tuple else flag
    declared = SITES.get(key)
    if declared is None:
        return []
    site_fn, many = declared
    by_site, registry = BY_SITE[key], REGISTRY
    if not many:  # one place, rules that exclude each other: the first match is the transition
        found_place = site_fn(machine)
        if found_place is None:
            return []
        site, kind, place = found_place
        for rule_id in by_site[site].get(kind, ()):
            redex = registry[rule_id].match(machine, *place)
            if redex is not None:
                return [(rule_id, redex)]
        return []
    found: list[tuple[str, tuple]] = []
    for site, kind, place in site_fn(machine):
        ids = by_site[site].get(kind)
        if ids is None:
            continue
        for rule_id in ids:
            redex = registry[rule_id].match(machine, *place)
            if redex is not None:
                found.append((rule_id, redex))
                if len(found) == limit:
                    return found
    return found


def pass_candidate(machine):
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
    for guard, rule_id in PASS_TABLE.get((node.kind, tok.direction, key_port), ()):
        if guard is None or guard(machine):
            return rule_id, (node, port)
    return None
