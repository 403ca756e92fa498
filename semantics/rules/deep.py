"""Deep ?-rewrites (paper Figs. RewriteTransitionsDeepGeneral/Deep; docs/RULES.md "Deep").

Each acts on a node X (C_n, P_n with n > 0, or A) at the level of G's doors and
box-reachable from one of G's ?-doors, whose output is the principal door of a
box K. None moves the token or touches the stacks.
"""

from __future__ import annotations

from .. import graph as G
from ..types import Arrow, F, Vec
from ..values import basis
from .registry import DECOUPLING, rewrite
from .surgery import copy_box, join_doors

ORDER = 40  # its place in the order of declaration (semantics.rules)


def _deep_redex(m, box, node):
    """The match of a deep rule: its node (C_n, P_n with n > 0, A) at the level of G's doors,
    box-reachable from one of G's ?-doors (the site), whose output is a principal door."""
    if node.box is not box.parent:
        return None
    if node.kind in (G.CON, G.PROJ) and not node.ins:
        return None  # C_0 and P_0 are never deep redexes
    out = node.outs[0]
    if out is not None and out.dst is not None and out.dst.kind == G.BANG:
        return box, node
    return None


def _copies(m, box: G.Box, n: int, rule_id: str, extra_per_copy: int = 0) -> list[G.Box]:
    """The box itself and n-1 copies of it (names refreshed in the copies), at its level;
    the graph budget is checked before anything is copied."""
    g = m.graph
    contents = g.contents(box)  # the same for every copy: a copy is made beside the box, not in it
    m.reserve((n - 1) * (G.weight(contents[0]) + 1 + len(box.doors)) + n * extra_per_copy, f"{rule_id} ({n} copies of a box)")
    return [box] + [copy_box(g, box, box.parent, contents=contents)[0] for _ in range(n - 1)]


@rewrite("deep.contract", flag="?", site="reachable", on=[G.CON], match=_deep_redex, feature="deep contraction")
def contract(m, box, con):
    """C_n over a box K: n copies of K, one per input; copies' doors joined by new C_n / rotC_n.

    X = `C_n` (n > 0). Result: n copies of K (K itself on the first input, fresh copies on the
    others); for each auxiliary door of K, the n copies' doors are joined by a new `C_n`
    (`?`-doors) or `rotC_n` (`¿`-doors) whose output goes where K's door went; provisional
    constants are shared, never copied. For n = 1 the join is the identity (**our decision**: a
    `C_1`/`rotC_1` join would only be removed again; outcomes are unchanged). Source: [Fig]
    ("contraction is also eliminated by replicating the graph H which handles it, while
    refreshing all names in H which do not appear in T"); [Rec §5].
    """
    g = m.graph
    k_bang = con.outs[0].dst
    k = k_bang.door_of
    inputs = list(con.ins)
    boxes = _copies(m, k, len(inputs), "deep.contract", 2)
    g.splice(inputs[0], con.outs[0])  # the original K stays on the first input
    for link, copy in zip(inputs[1:], boxes[1:]):
        g.set_dst(link, copy.principal, 0)
    g.delete_node(con)
    join_doors(g, boxes)  # for n = 1 the identity (our decision, docs/RULES.md)


@rewrite("deep.project", flag="?", site="reachable", on=[G.PROJ], match=_deep_redex, feature="projection")
def project(m, box, proj):
    """P_n over a box K of V_a: n copies of K, copy i computing content • e_i into input i.

    X = `P_n` (n > 0) over a box K of type `!V_a`. Result: n copies of K; copy i computes
    `•_a(content, e_i)` (a `$0` dot-product node over the copied content and a new basis-vector
    constant `e_i`), has type `!F`, and enters P's input i; doors joined as in `deep.contract`.
    Source: [Fig] ("Any graph H handling a vector value in a vector with n dimensions is
    replicated n times … The projected value is computed by applying the dot product using the
    corresponding standard base").
    """
    g = m.graph
    k_bang = proj.outs[0].dst
    k = k_bang.door_of
    name = proj.data
    n = len(proj.ins)
    inputs = list(proj.ins)
    boxes = _copies(m, k, n, "deep.project", 3 + n)
    old = proj.outs[0]
    for i, (link, b) in enumerate(zip(inputs, boxes)):
        root = b.principal.outs[0]
        dot = g.new_node(G.OP0, b, 1, 2, ("dot", name))
        content_root = root.dst
        g.new_link(G.plain(Vec(name)), src=(dot, 0), dst=(content_root, root.dst_port))
        g.set_dst(root, dot, 0)
        g.retype(root, G.plain(F))
        e = g.new_node(G.VCONST, b, 1, 0, (basis(m.field, n, i), name))
        g.new_link(G.plain(Vec(name)), src=(dot, 1), dst=(e, 0))
        g.set_dst(link, b.principal, 0)
    g.delete_link(old)
    g.delete_node(proj)
    join_doors(g, boxes)


def _provisional_paths(g: G.Graph, h: G.Box):
    """Follow every ¿-door of H up through rotC / ¿ nodes to the ¡-nodes reached.

    Returns (constants, rotc_slots, ends): the distinct ¡-nodes in first-discovery
    order (walking H's doors in order), the rotC-nodes on those paths with the
    input slots the paths use (in slot order), and for each door the first node
    its path reaches beyond skipped ¿-doors, as (node, slot).
    """
    constants: list[G.Node] = []
    slots: dict[G.Node, set[int]] = {}
    rotc_order: list[G.Node] = []
    for door in h.doors:
        link = door.outs[0]
        while True:
            node = link.dst
            if node.kind == G.PWHY:  # a ¿-door of an enclosing box: dropped (ε)
                link = node.outs[0]
                continue
            if node.kind == G.PCON:
                if node not in slots:
                    slots[node] = set()
                    rotc_order.append(node)
                slots[node].add(link.dst_port)
                link = node.outs[0]
                continue
            if node.kind == G.PBANG:
                if node not in constants:
                    constants.append(node)
                break
            raise AssertionError(f"provisional path from {door} reaches {node}")
    return constants, slots, rotc_order


def _next_on_path(link: G.Link) -> tuple[G.Node, int]:
    """The first rotC or ¡ above a provisional link, skipping ¿-doors."""
    while link.dst.kind == G.PWHY:
        link = link.dst.outs[0]
    return link.dst, link.dst_port


@rewrite("deep.decouple", flag="?", site="reachable", on=[G.ABD], match=_deep_redex, feature=DECOUPLING)
def decouple(m, box, abd):
    """A over a closed box H: f gets ![λ(P_n) → D → H'] (H made definitive), x gets ![q⃗]; name a becomes free.

    X = `A_a` over a box H, which under call-by-value is closed (asserted). Result:
    1. Follow every `¿`-door of H up through `rotC`-nodes and `¿`-doors of enclosing boxes to
       the `¡`-constants reached: q_1 … q_n, distinct, **in the order of (p⃗)‡** (our decision:
       until 2026-11-21 it was the order of discovery through H's doors, and the order of a box's
       doors only records the order of absorptions — a set in the paper —, so two orders of the
       same ?-rewrites decoupled the same model into vectors with permuted coordinates: equal
       values, final states not isomorphic up to names, against Prop. "Determinism"; found by
       the deep run, `tests/test_findings.py`). **Index invariant**: P's input i, component i
       of the vector and the basis vector e_i all mean q_i.
    2. A's second input (x) gets a new closed box holding the vector constant (q_1, …, q_n) of
       the constants' current values, of type `V_a`.
    3. A's first input (f) gets a new closed box `![λ → D → H′]`: the λ (type `V_a → T′`)
       binds a new `P_n` (output `!V_a`); H′ is H moved inside, made definitive (`rotD→D`,
       `rotC→C`, `¿→?`, `¡F→!F`, throughout H); H's former `¿`-doors feed P through a copy of the
       provisional structure `G[C/rotC][ε/¿]`: only the `rotC` inputs on paths from H's doors,
       each `rotC` copied as a `C` with those inputs, `¿`-doors of enclosing boxes dropped, the
       path to q_i ending at P's input i.
    4. The links that left H's `¿`-doors into the provisional structure now start at `rotC_0`
       weakenings: the constants stay in place for every other user.
    5. The A-node is deleted; the name a becomes free (v(a) = n).
    Source: [Fig] (the decoupling paragraph; "(plus a dereliction (rotD) node)" read as `D`, a
    typo [Rec §6]); [Prod] ("the sub-graph G … only consists of rotC-nodes and ¿-nodes");
    Prop. "Safety of decoupling" (the shape of the decoupled function); [Rec §6].
    """
    g = m.graph
    level = abd.box
    name = abd.data
    h_bang = abd.outs[0].dst
    h = h_bang.door_of
    assert not h.why_doors(), "decoupling a box with ?-doors (not closed)"
    f_link, x_link, model_link = abd.ins[0], abd.ins[1], abd.outs[0]
    model = model_link.type.type
    va = Vec(name)

    constants, slots, rotc_order = _provisional_paths(g, h)
    # q_1 … q_n in the order of (p⃗)‡, not of discovery: discovery walks H's doors, whose
    # order only records the order of absorptions (a set in the paper), so the vector's
    # coordinates would depend on the strategy's choice of ?-rewrites (docs/RULES.md).
    order = {p: i for i, p in enumerate(g.params)}
    constants.sort(key=order.__getitem__)
    n = len(constants)
    values = tuple(c.outs[0].dst.data for c in constants)
    ends = [_next_on_path(d.outs[0]) for d in h.doors]

    # x: a new closed box holding the vector constant of the current values.
    xbox, xbang = g.new_boxed(level)
    vconst = g.new_node(G.VCONST, xbox, 1, 0, (values, name))
    g.new_link(G.plain(va), src=(xbang, 0), dst=(vconst, 0))
    g.set_dst(x_link, xbang, 0)

    # f: a new closed box holding λv. D(H'), with v projected by P_n.
    fbox, fbang = g.new_boxed(level)
    lam = g.new_node(G.LAM, fbox, 1, 2)
    g.new_link(G.plain(Arrow(va, model)), src=(fbang, 0), dst=(lam, 0))
    der = g.new_node(G.DER, fbox, 1, 1)
    g.new_link(G.plain(model), src=(lam, 0), dst=(der, 0))
    g.set_src(model_link, der, 0)  # H's principal door now hangs from D
    proj = g.new_node(G.PROJ, fbox, n, 1, name)
    g.new_link(G.bang(va), src=(proj, 0), dst=(lam, G.VAR))
    g.set_dst(f_link, fbang, 0)
    g.delete_node(abd)

    # The copy G[C/rotC][ε/¿] of the provisional structure, inside the f box.
    copies: dict[G.Node, G.Node] = {}
    slot_index: dict[G.Node, dict[int, int]] = {}
    for rotc in rotc_order:
        used = sorted(slots[rotc])
        copies[rotc] = g.new_node(G.CON, fbox, len(used), 1)
        slot_index[rotc] = {s: i for i, s in enumerate(used)}
    const_index = {c: i for i, c in enumerate(constants)}

    def target(node: G.Node, slot: int) -> tuple[G.Node, int]:
        if node.kind == G.PCON:
            return copies[node], slot_index[node][slot]
        return proj, const_index[node]

    bang_f = G.bang(F)
    for rotc, c in copies.items():
        nxt = _next_on_path(rotc.outs[0])
        g.new_link(bang_f, src=(c, 0), dst=target(*nxt))

    # H's ¿-doors become ?-doors feeding the copy; the old links into the
    # provisional structure now start at rotC_0 weakenings, left in place.
    g.move_box(h, fbox)
    for door, end in zip(h.doors, ends):
        old_up = door.outs[0]
        weak = g.new_node(G.PCON, level, 0, 1)
        g.set_src(old_up, weak, 0)
        g.rekind(door, G.WHY)
        g.new_link(bang_f, src=(door, 0), dst=target(*end))
    _make_definitive(g, h)


def _make_definitive(g: G.Graph, h: G.Box) -> None:
    """Inside H: rotD → D, rotC → C, ¿ → ?, and their ¡F links → !F."""
    nodes, _boxes = g.contents(h)
    promote = {G.PDER: G.DER, G.PCON: G.CON, G.PWHY: G.WHY}
    bang_f = G.bang(F)
    for node in nodes:
        new_kind = promote.get(node.kind)
        if new_kind is None:
            continue
        g.rekind(node, new_kind)
        for link in (*node.ins, *node.outs):
            if link is not None and link.type.kind == "¡":
                g.retype(link, bang_f)
    for door in h.doors:
        g.retype(door.ins[0], bang_f)
