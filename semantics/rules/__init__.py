"""The machine's transitions, one declaration per rule, registered by ID.

A rule is declared whole, in the style of a PLT Redex clause: its ID (docs/RULES.md; a
test checks that the two agree), its kind, the rewriting flag it fires under, the redex it
matches, its effect (the decorated function) and its attributes — in one decorator:

    @rewrite("rw.beta", flag="λ", site="token", on=[G.LAM], match=_beta_redex)
    def beta(m, lam, app): ...

    @pass_rule("pass.lam.apply", [G.LAM], UP, "in", guard=top_is(AT), sets_flag="λ")
    def lam_apply(m, node, port): ...

Where a rewrite's redex is looked for is a *site*: each flag has one site function, declared
with `@sites(flag)`, which yields the places to look at in order (the token's link, the box
the token is at, its doors, …) with the kind of the place's node; the rules of that site
declared `on` that kind are matched there in declared order.

A decorator makes the rule a value (`fn.rule`) and registers nothing: the rule modules are
discovered (each declares its place in the order with `ORDER`), and their rules make the
default `RuleSet`, `DEFAULT`. A machine runs the RuleSet it is given (`Machine(graph,
rules=...)`, by default DEFAULT) and dispatches from its tables (`pass_candidate`,
`redexes`), never from a list of IDs of its own; a variant semantics is another RuleSet
(`DEFAULT.replace("rw.beta", apply=...)`, docs/API.md). Code outside this package asks a
rule's attributes (`changes_graph`, `administrative`, `sets_flag`, `feature`, `reads_values`) instead of
naming it.

Modules (their ORDER is the order of declaration):
- passes:      pass transitions (Fig. PassTransitions), flag □
- compute:     computational rewrites (Fig. RewriteTransitionsComput), flags λ, $0, $1(n)
- open_box:    ?-phase: absorption and closing (Fig. RewriteTransitionsOpenBox)
- deep:        ?-phase deep rewrites (Figs. RewriteTransitionsDeep*)
- closed_box:  !-phase: copying closed boxes (Fig. RewriteTransitionsClosedBox)
- gc:          garbage collection, not transitions (Prop. Garbage collection)
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from contextlib import contextmanager
from contextvars import ContextVar

from .registry import DECOUPLING, GC, KINDS, PASS, REWRITE, Rule, RuleSet, flag_key, gc_rule, pass_rule, rewrite, sites


def _rule_modules() -> list:
    """The modules of this package that declare rules (each says its place in the order of
    declaration with ORDER), in that order: adding a module of rules is adding its file."""
    modules = [importlib.import_module(f"{__name__}.{info.name}") for info in pkgutil.iter_modules(__path__)]
    return sorted((m for m in modules if hasattr(m, "ORDER")), key=lambda m: m.ORDER)


DEFAULT = RuleSet.of_modules(_rule_modules())  # the paper's semantics: every rule declared here

# The rule set a machine made without one runs: DEFAULT, or another within `using(...)` (a
# parameter in Racket's sense, scoped to the current context, not a table to patch).
_IN_USE: ContextVar[RuleSet] = ContextVar("goi_rules_in_use", default=DEFAULT)


def in_use() -> RuleSet:
    """The rule set machines made here without one run (DEFAULT outside `using`)."""
    return _IN_USE.get()


def changed_from_default(rules: "RuleSet | None" = None) -> list[str]:
    """The IDs of the rules where `rules` (by default those in use) is not the paper's
    semantics: replaced, added or removed; [] for DEFAULT itself. What a report records of the
    semantics its failures were found under."""
    rules = in_use() if rules is None else rules
    if rules is DEFAULT:
        return []
    return sorted(rid for rid in set(DEFAULT) | set(rules) if DEFAULT.get(rid) is not rules.get(rid))


def variant_fingerprint(rules: "RuleSet | None" = None) -> str:
    """A digest of what the changed rules (changed_from_default) are, not only their IDs: two
    variants that change one rule in two ways differ here. Each changed rule is described
    by its fields, a function by its module, name, code, constants, defaults and the values
    its closure holds; "" for DEFAULT."""
    import dataclasses
    import hashlib

    rules = in_use() if rules is None else rules
    changed = changed_from_default(rules)
    digest = hashlib.sha256()
    for rid in changed:
        rule = rules.get(rid)
        digest.update(f"{rid}\0".encode())
        fields = [] if rule is None else [(f.name, getattr(rule, f.name)) for f in dataclasses.fields(rule)]
        for name, value in fields:
            digest.update(f"{name}={_described(value, 3)}\0".encode())
    return digest.hexdigest()[:16] if changed else ""


def _described(value, depth: int) -> str:
    """A stable text for a rule's field: for a function, what its behaviour is made of."""
    code = getattr(value, "__code__", None)
    if code is None or depth <= 0:
        return repr(value) if not callable(value) else f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', type(value).__name__)}"
    cells = [_described(c.cell_contents, depth - 1) if c.cell_contents is not value else "self"
             for c in (value.__closure__ or ()) if _filled(c)]
    text = f"{value.__module__}.{value.__qualname__}:{_code(code)}:{_described(value.__defaults__, depth - 1)}:[{','.join(cells)}]"
    return re.sub(r" at 0x[0-9a-fA-F]+", "", text)  # no address: the same in the process that reads a report


def _code(code) -> str:
    return f"{code.co_name}:{code.co_code.hex()}:" + ",".join(
        _code(c) if hasattr(c, "co_code") else re.sub(r" at 0x[0-9a-fA-F]+", "", repr(c)) for c in code.co_consts)


def _filled(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


@contextmanager
def using(rules: RuleSet):
    """Within the block, machines made without a rule set run `rules` — for code that makes
    its machines deep inside (goi view, a property, the CLI), as a variant semantics:

        with using(DEFAULT.replace("rw.beta", apply=my_beta)):
            goi.run(program)
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"using takes a RuleSet, not {type(rules).__name__}")
    token = _IN_USE.set(rules)
    try:
        yield rules
    finally:
        _IN_USE.reset(token)


# ---- asking about rules (instead of naming them) -----------------------------------------

def load_all() -> RuleSet:
    """The default rule set (every rule module's declarations)."""
    return DEFAULT


def of_kind(kind: str) -> list[str]:
    """The IDs of the default rules of one kind, sorted."""
    return DEFAULT.of_kind(kind)


def with_feature(feature: str) -> list[str]:
    return DEFAULT.with_feature(feature)


def fired(counts: dict, feature: str) -> int:
    """How many times the rules exercising `feature` fired, by per-rule counts."""
    return sum(counts.get(r, 0) for r in with_feature(feature))


__all__ = ["DECOUPLING", "DEFAULT", "GC", "KINDS", "PASS", "REWRITE", "Rule", "RuleSet", "fired", "flag_key", "gc_rule",
           "in_use", "load_all", "of_kind", "pass_rule", "rewrite", "sites", "using", "variant_fingerprint", "with_feature"]
