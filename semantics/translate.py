"""Translation of typed core terms to composite graphs (paper Fig. InductiveTranslation).

Our reconstruction (docs/RULES.md, "Translation"):
- `x`: a D-node; its output is the graph's output for x.
- Occurrences of one variable at one box level are collected by a C_k (k ≥ 2);
  a single occurrence is connected directly; an unused bound variable gets a C_0.
- `λx.t`: a λ over t†, whose output for x enters the λ as its incoming output.
- `t u`: an @ with t† on the left and a !-box around u† on the right; inside the
  box, the uses of one free variable are contracted and leave through one ?-door,
  every provisional constant through its own ¿-door.
- `t $ u` ($ in Σ): a $0-node over t† and u†. `t $ u` ($ in Σ^iter): a $1-node
  over a !-box of t† (the function, used once per basis vector) and u†.
- `{p}`: a rotD-node whose output is a provisional output of the graph.
- `A(f,x).t`: a λ whose body is a D over a !-box of t†; the box's outputs for f
  and x enter an A-node, whose output enters the λ as its incoming output.
- The composite graph puts a ¡-node over a constant node on every provisional
  output, in the order of p⃗.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from . import core as C
from . import graph as G
from .types import Arrow, F, Vec
from .typecheck import Judgement
from .values import RationalField


@dataclass
class Fragment:
    """A translated subterm: its root link, and the links of its free variables and provisional constants."""

    root: G.Link  # dangling below (src None)
    vars: dict[str, list[G.Link]] = field(default_factory=dict)  # dangling above
    provs: list[G.Link] = field(default_factory=list)  # dangling above, ¡F


def _merge_vars(*frags: Fragment) -> dict[str, list[G.Link]]:
    out: dict[str, list[G.Link]] = {}
    for frag in frags:
        for name, links in frag.vars.items():
            out.setdefault(name, []).extend(links)
    return out


class _Translator:
    def __init__(self, graph: G.Graph, field_):
        self.g = graph
        self.field = field_

    def term(self, t: C.Core, level: Optional[G.Box]) -> Fragment:
        """t's fragment, by the clause of t's construct; its nodes remember t's source span
        (those of subterms, theirs)."""
        name = _CLAUSES.get(type(t))
        if name is None:
            raise TypeError(f"not a core term: {t!r}")
        clause = getattr(self, name)  # looked up each time: a variant or a mutant may replace a clause
        if t.pos is None:
            return clause(t, level)
        g = self.g
        before, g.span = g.span, t.pos  # new nodes take g.span
        try:
            return clause(t, level)
        finally:
            g.span = before

    def var(self, t: C.CVar, level: Optional[G.Box]) -> Fragment:
        g = self.g
        d = g.new_node(G.DER, level, 1, 1)
        root = g.new_link(G.plain(t.type), dst=(d, 0))
        out = g.new_link(G.bang(t.type), src=(d, 0))
        return Fragment(root, {t.name: [out]})

    def const(self, t: C.CConst, level: Optional[G.Box]) -> Fragment:
        g = self.g
        k = g.new_node(G.CONST, level, 1, 0, self.field.const(t.value))
        return Fragment(g.new_link(G.plain(F), dst=(k, 0)))

    def prov(self, t: C.CProv, level: Optional[G.Box]) -> Fragment:
        g = self.g
        d = g.new_node(G.PDER, level, 1, 1)
        root = g.new_link(G.plain(F), dst=(d, 0))
        out = g.new_link(G.PROV, src=(d, 0))
        return Fragment(root, {}, [out])

    def lam(self, t: C.CLam, level: Optional[G.Box]) -> Fragment:
        g = self.g
        lam = g.new_node(G.LAM, level, 1, 2)
        root = g.new_link(G.plain(t.type), dst=(lam, 0))
        body = self.term(t.body, level)
        g.set_src(body.root, lam, 0)
        uses = body.vars.pop(t.var, [])
        self.bind(uses, G.bang(t.var_type), (lam, G.VAR), level)
        return Fragment(root, body.vars, body.provs)

    def app(self, t: C.CApp, level: Optional[G.Box]) -> Fragment:
        app = self.g.new_node(G.APP, level, 1, 2)
        root = self.g.new_link(G.plain(t.type), dst=(app, 0))
        fun = self.term(t.fun, level)
        return self._over(app, root, fun, self.boxed(t.arg, level))

    def op(self, t: C.COp, level: Optional[G.Box]) -> Fragment:
        op = self.g.new_node(G.OP0, level, 1, 2, (t.op, t.name))
        root = self.g.new_link(G.plain(t.type), dst=(op, 0))
        left = self.term(t.left, level)
        return self._over(op, root, left, self.term(t.right, level))

    def iterated(self, t: C.CIter, level: Optional[G.Box]) -> Fragment:
        op = self.g.new_node(G.OP1, level, 1, 2, (t.op, t.name))
        root = self.g.new_link(G.plain(t.type), dst=(op, 0))
        fun = self.boxed(t.fun, level)
        return self._over(op, root, fun, self.term(t.vec, level))

    def _over(self, node: G.Node, root: G.Link, left: Fragment, right: Fragment) -> Fragment:
        """A node over two fragments (its outputs 0 and 1), whose root is `root`."""
        self.g.set_src(left.root, node, 0)
        self.g.set_src(right.root, node, 1)
        return Fragment(root, _merge_vars(left, right), left.provs + right.provs)

    def contract(self, uses: list[G.Link], type_: G.EType, level) -> G.Link:
        """The one link standing for a variable's uses at a level: the use itself when
        there is one, else the output of a C_k over them (a C_0 when there is none)."""
        g = self.g
        if len(uses) == 1:
            return uses[0]
        con = g.new_node(G.CON, level, len(uses), 1)
        g.set_inputs(con, uses)
        return g.new_link(type_, src=(con, 0))

    def bind(self, uses: list[G.Link], type_: G.EType, target: tuple[G.Node, int], level) -> None:
        """Connect the uses of a variable to `target` (a binder's port)."""
        self.g.set_dst(self.contract(uses, type_, level), *target)

    def boxed(self, t: C.Core, level: Optional[G.Box]) -> Fragment:
        """A !-box around t† at `level`: returns the fragment whose root enters the `!`."""
        g = self.g
        box, bang = g.new_boxed(level)
        inner = self.term(t, box)
        g.set_src(inner.root, bang, 0)
        root = g.new_link(G.bang(t.type), dst=(bang, 0))
        out = Fragment(root)
        for name, uses in inner.vars.items():
            link = self.contract(uses, uses[0].type, box)
            out.vars[name] = [self.door(box, G.WHY, link, level)]
        for link in inner.provs:
            out.provs.append(self.door(box, G.PWHY, link, level))
        return out

    def door(self, box: G.Box, kind: str, inner: G.Link, level) -> G.Link:
        g = self.g
        door = g.new_node(kind, level, 1, 1)
        g.add_door(box, door)
        g.set_dst(inner, door, 0)
        return g.new_link(inner.type, src=(door, 0))

    def decouple(self, t: C.CDecouple, level) -> Fragment:
        g = self.g
        model = t.model_type
        lam = g.new_node(G.LAM, level, 1, 2)
        root = g.new_link(G.plain(t.type), dst=(lam, 0))
        der = g.new_node(G.DER, level, 1, 1)
        g.new_link(G.plain(t.body.type), src=(lam, 0), dst=(der, 0))
        body = self.boxed(t.body, level)
        g.set_src(body.root, der, 0)
        abd = g.new_node(G.ABD, level, 2, 1, t.name)
        f_uses = body.vars.pop(t.f, [])
        x_uses = body.vars.pop(t.x, [])
        self.bind(f_uses, G.bang(Arrow(Vec(t.name), model)), (abd, 0), level)
        self.bind(x_uses, G.bang(Vec(t.name)), (abd, 1), level)
        g.new_link(G.bang(model), src=(abd, 0), dst=(lam, G.VAR))
        return Fragment(root, body.vars, body.provs)


# Each construct's clause, by the term's class (one lookup, not a chain of tests).
_CLAUSES = {C.CVar: "var", C.CConst: "const", C.CProv: "prov", C.CLam: "lam", C.CApp: "app", C.COp: "op",
            C.CIter: "iterated", C.CDecouple: "decouple"}


def translate(judgement: Judgement, field_=None, params=None) -> G.Graph:
    """The composite graph (A | Γ | p⃗ ⊢ t : T)‡ = (…)† ∘ (p⃗)‡ of a closed judgement.

    `params`, if given, replaces the values of p⃗ (the composite graph H ∘ (q⃗)‡).
    """
    if judgement.context:
        raise ValueError("only closed programs are translated to composite graphs")
    field_ = field_ or RationalField()
    values = list(judgement.params) if params is None else list(params)
    if len(values) != len(judgement.params):
        raise ValueError(f"the program has {len(judgement.params)} parameters, {len(values)} values were given")
    g = G.Graph()
    g.reserve_names(judgement.decouplings)
    frag = _Translator(g, field_).term(judgement.term, None)
    g.root = frag.root
    for link, value in zip(frag.provs, values):
        pbang = g.new_node(G.PBANG, None, 1, 1)
        g.set_dst(link, pbang, 0)
        const = g.new_node(G.CONST, None, 1, 0, field_.const(value))
        g.new_link(G.plain(F), src=(pbang, 0), dst=(const, 0))
        g.params.append(pbang)
    return g
