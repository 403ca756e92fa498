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
declared `on` that kind are matched there in declared order. The machine dispatches from the tables built here (`pass_candidates`, `redexes`),
never from a list of IDs of its own; code outside this package asks a rule's attributes
(`changes_graph`, `administrative`, `sets_flag`, `feature`) instead of naming it.

Modules (their order is the order of declaration):
- passes:      pass transitions (Fig. PassTransitions), flag □
- compute:     computational rewrites (Fig. RewriteTransitionsComput), flags λ, $0, $1(n)
- open_box:    ?-phase: absorption and closing (Fig. RewriteTransitionsOpenBox)
- deep:        ?-phase deep rewrites (Figs. RewriteTransitionsDeep*)
- closed_box:  !-phase: copying closed boxes (Fig. RewriteTransitionsClosedBox)
- gc:          garbage collection, not transitions (Prop. Garbage collection)
"""

from __future__ import annotations

from .registry import (
    DECOUPLING,
    GC,
    KINDS,
    PASS,
    PASS_TABLE,
    REGISTRY,
    REWRITE,
    SITES,
    Rule,
    flag_key,
    gc_rule,
    pass_candidate,
    pass_rule,
    redexes,
    rewrite,
    sites,
)


# ---- asking about rules (instead of naming them) -----------------------------------------

def of_kind(kind: str) -> list[str]:
    """The IDs of the rules of one kind, sorted."""
    return sorted(r for r, rule in load_all().items() if rule.kind == kind)


def with_feature(feature: str) -> list[str]:
    return [r for r, rule in load_all().items() if rule.feature == feature]


def fired(counts: dict, feature: str) -> int:
    """How many times the rules exercising `feature` fired, by per-rule counts."""
    return sum(counts.get(r, 0) for r in with_feature(feature))


def load_all() -> dict[str, Rule]:
    """Import every rule module (declaration happens on import)."""
    from . import passes, compute, open_box, deep, closed_box, gc  # noqa: F401  (in declaration order)

    return REGISTRY


__all__ = ["DECOUPLING", "GC", "KINDS", "PASS", "PASS_TABLE", "REGISTRY", "REWRITE", "SITES", "Rule", "fired", "flag_key",
           "gc_rule", "load_all", "of_kind", "pass_candidate", "pass_rule", "redexes", "rewrite", "sites", "with_feature"]
