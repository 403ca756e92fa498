"""Every rule on a small hand-built graph: the machine must select exactly that rule, and
the state after it must be the hand-built expected state (up to node/link identity and
name permutation: semantics.compare)."""

import itertools
from fractions import Fraction

import pytest

from goi.semantics import graph as G
from goi.semantics.compare import difference
from goi.semantics.token import AT, DOWN, LAMBDA, STAR, UP, Token
from goi.semantics.types import Arrow, F

from graphs import FF, VA, B

# ---- pass transitions: token before -> token after, graph unchanged --------------


def _single(kind, in_types, out_types, data=None, level=None, b=None):
    b = b or B()
    n = b.node(kind, level, len(in_types), len(out_types), data)
    ins = [b.link(t, dst=(n, i)) for i, t in enumerate(in_types)]
    outs = [b.link(t, src=(n, i)) for i, t in enumerate(out_types)]
    return b, n, ins, outs


def _lam():
    b = B()
    lam = b.node(G.LAM, None, 1, 2)
    inp = b.link(G.plain(FF), dst=(lam, 0))
    body = b.link(G.plain(F), src=(lam, 0))
    weak = b.node(G.CON, None, 0, 1)
    b.link(G.bang(F), src=(weak, 0), dst=(lam, G.VAR))
    return b, lam, [inp], [body]


def _door(kind, etype):
    b = B()
    box, _bang = b.box()
    door = b.door(box, kind)
    inner = b.link(etype, dst=(door, 0))
    outer = b.link(etype, src=(door, 0))
    return b, door, [inner], [outer]


def _bang():
    b = B()
    box, bang = b.box()
    inp = b.link(G.bang(F), dst=(bang, 0))
    root = b.link(G.plain(F), src=(bang, 0), dst=(b.const(1, box), 0))
    return b, bang, [inp], [root]


V123 = (Fraction(1), Fraction(2), Fraction(3))
FIVE = Fraction(5)

PASSES = [
    # (rule, graph factory, (port side, index, direction, flag, stack, box stack) before, same after)
    ("pass.app.up", lambda: _single(G.APP, [G.plain(F)], [G.plain(FF), G.bang(F)]), ("in", 0, UP, [STAR]), ("out", 1, UP, "□", [STAR, STAR], [])),
    ("pass.app.arg.down", lambda: _single(G.APP, [G.plain(F)], [G.plain(FF), G.bang(F)]), ("out", 1, DOWN, [STAR, FIVE]), ("out", 0, UP, "□", [STAR, AT], [])),
    ("pass.lam.value", _lam, ("in", 0, UP, [STAR]), ("in", 0, DOWN, "□", [LAMBDA], [])),
    ("pass.lam.apply", _lam, ("in", 0, UP, [STAR, AT]), ("out", 0, UP, "λ", [STAR], [])),
    ("pass.const.up", lambda: _single(G.CONST, [G.plain(F)], [], FIVE), ("in", 0, UP, [STAR]), ("in", 0, DOWN, "□", [FIVE], [])),
    ("pass.vconst.up", lambda: _single(G.VCONST, [G.plain(VA)], [], (V123, "a")), ("in", 0, UP, [STAR]), ("in", 0, DOWN, "□", [V123], [])),
    ("pass.op.up", lambda: _single(G.OP0, [G.plain(F)], [G.plain(F), G.plain(F)], ("sub", None)), ("in", 0, UP, [STAR]), ("out", 1, UP, "□", [STAR, STAR], [])),
    ("pass.op.right.down", lambda: _single(G.OP0, [G.plain(F)], [G.plain(F), G.plain(F)], ("sub", None)), ("out", 1, DOWN, [STAR, Fraction(2)]), ("out", 0, UP, "□", [STAR, Fraction(2), STAR], [])),
    # X1 = 3 (left, on top), X2 = 2: 3 - 2 = 1, so the operand order is checked too.
    ("pass.op0.left.down", lambda: _single(G.OP0, [G.plain(F)], [G.plain(F), G.plain(F)], ("sub", None)), ("out", 0, DOWN, [STAR, Fraction(2), Fraction(3)]), ("in", 0, DOWN, "$0", [Fraction(1)], [])),
    ("pass.op1.left.down", lambda: _single(G.OP1, [G.plain(VA)], [G.bang(Arrow(VA, VA)), G.plain(VA)], ("iadd", "a")), ("out", 0, DOWN, [STAR, V123, LAMBDA]), ("in", 0, UP, ("$1", 3), [STAR], [])),
    ("pass.der.up", lambda: _single(G.DER, [G.plain(F)], [G.bang(F)]), ("in", 0, UP, [STAR]), ("out", 0, UP, "□", [STAR], [])),
    ("pass.bang.up", _bang, ("in", 0, UP, [STAR]), ("out", 0, UP, "?", [STAR], [])),
    ("pass.bang.down", _bang, ("out", 0, DOWN, [FIVE]), ("in", 0, DOWN, "□", [FIVE], [])),
    ("pass.con.up", lambda: _single(G.CON, [G.bang(F), G.bang(F)], [G.bang(F)]), ("in", 1, UP, [STAR]), ("out", 0, UP, "□", [STAR], [("in", 1)])),
    ("pass.pcon.up", lambda: _single(G.PCON, [G.PROV, G.PROV], [G.PROV]), ("in", 1, UP, [STAR]), ("out", 0, UP, "□", [STAR], [("in", 1)])),
    ("pass.pcon.down", lambda: _single(G.PCON, [G.PROV, G.PROV], [G.PROV]), ("out", 0, DOWN, [FIVE], [("in", 1)]), ("in", 1, DOWN, "□", [FIVE], [])),
    ("pass.pder.up", lambda: _single(G.PDER, [G.plain(F)], [G.PROV]), ("in", 0, UP, [STAR]), ("out", 0, UP, "□", [STAR], [])),
    ("pass.pder.down", lambda: _single(G.PDER, [G.plain(F)], [G.PROV]), ("out", 0, DOWN, [FIVE]), ("in", 0, DOWN, "□", [FIVE], [])),
    ("pass.pwhy.up", lambda: _door(G.PWHY, G.PROV), ("in", 0, UP, [STAR]), ("out", 0, UP, "□", [STAR], [])),
    ("pass.pwhy.down", lambda: _door(G.PWHY, G.PROV), ("out", 0, DOWN, [FIVE]), ("in", 0, DOWN, "□", [FIVE], [])),
    ("pass.pbang.up", lambda: _single(G.PBANG, [G.PROV], [G.plain(F)]), ("in", 0, UP, [STAR]), ("out", 0, UP, "□", [STAR], [])),
    ("pass.pbang.down", lambda: _single(G.PBANG, [G.PROV], [G.plain(F)]), ("out", 0, DOWN, [FIVE]), ("in", 0, DOWN, "□", [FIVE], [])),
]


def _pick(ins, outs, side, index):
    return (ins if side == "in" else outs)[index]


def _shape(g):
    return sorted((l.id, l.src and l.src.id, l.src_port, l.dst and l.dst.id, l.dst_port) for l in g.links)


@pytest.mark.parametrize("rule_id,factory,before,after", PASSES, ids=[p[0] for p in PASSES])
def test_pass_rule(rule_id, factory, before, after):
    b, node, ins, outs = factory()
    side, index, direction, stack, *rest = before
    box_stack = [_pick(ins, outs, *e) for e in (rest[0] if rest else [])]
    m = b.machine(_pick(ins, outs, side, index), direction, "□", stack, box_stack)
    shape = _shape(b.g)
    assert [r for r, _ in m.enabled()] == [rule_id]
    m.step()
    side, index, direction, flag, stack, box_stack = after
    t = m.token
    assert t.position is _pick(ins, outs, side, index)
    assert (t.direction, t.flag, t.stack) == (direction, flag, stack)
    assert t.box_stack == [_pick(ins, outs, *e) for e in box_stack]
    assert _shape(b.g) == shape, "a pass transition changed the graph"


@pytest.mark.parametrize(
    "factory,before",
    [
        (_lam, ("in", 0, UP, [FIVE])),  # a λ asked neither ★ nor @
        (lambda: _single(G.CONST, [G.plain(F)], [], FIVE), ("in", 0, UP, [AT])),  # a constant applied
        (lambda: _single(G.PCON, [G.PROV, G.PROV], [G.PROV]), ("out", 0, DOWN, [FIVE])),  # empty box stack
        (lambda: _single(G.OP0, [G.plain(F)], [G.plain(F), G.plain(F)], ("sub", None)), ("out", 0, DOWN, [Fraction(2), Fraction(3)])),  # no ★
        (lambda: _door(G.WHY, G.bang(F)), ("in", 0, UP, [STAR])),  # no pass crosses a ?-door
        (lambda: _single(G.CON, [G.bang(F)], [G.bang(F)]), ("out", 0, DOWN, [FIVE])),  # nor goes down a C
    ],
)
def test_no_pass_rule_applies_where_the_paper_has_none(factory, before):
    b, node, ins, outs = factory()
    side, index, direction, stack = before
    m = b.machine(_pick(ins, outs, side, index), direction, "□", stack)
    assert m.enabled() == []
    assert m.run().status == "stuck"


# ---- rewrite rules: hand-built before and after ------------------------------------


def check(m, rule_id, expected: B, position, direction, flag, stack, box_stack=()):
    check_any(m, rule_id, [(expected, position)], direction, flag, stack, box_stack)


def check_any(m, rule_id, candidates, direction, flag, stack, box_stack=()):
    """Apply the rule; the graph must match one of the (expected graph, token position)
    candidates up to isomorphism: the calculus cannot tell them apart."""
    options = m.enabled()
    assert rule_id in [r for r, _ in options], options
    m.apply(*next(o for o in options if o[0] == rule_id))
    diffs = []
    for expected, position in candidates:
        want = Token(position, direction, flag, list(stack), list(box_stack))
        diffs.append(difference(m.graph, expected.g, m.token, want))
        if diffs[-1] is None:
            break
    assert diffs[-1] is None, diffs
    assert (m.token.direction, m.token.flag, m.token.stack) == (direction, flag, list(stack))
    assert len(m.token.box_stack) == len(box_stack)


def test_rw_beta():
    # (λx. x) applied to the box ![2]; the token at λ's body with flag λ.
    b = B()
    app = b.node(G.APP, None, 1, 2)
    b.root(F, (app, 0))
    lam = b.node(G.LAM, None, 1, 2)
    b.link(G.plain(FF), src=(app, 0), dst=(lam, 0))
    der = b.node(G.DER, None, 1, 1)
    body = b.link(G.plain(F), src=(lam, 0), dst=(der, 0))
    b.link(G.bang(F), src=(der, 0), dst=(lam, G.VAR))
    box, bang = b.box()
    b.link(G.bang(F), src=(app, 1), dst=(bang, 0))
    b.link(G.plain(F), src=(bang, 0), dst=(b.const(2, box), 0))
    m = b.machine(body, UP, "λ", [STAR])

    e = B()
    der = e.node(G.DER, None, 1, 1)
    root = e.root(F, (der, 0))
    box, bang = e.box()
    e.link(G.bang(F), src=(der, 0), dst=(bang, 0))
    e.link(G.plain(F), src=(bang, 0), dst=(e.const(2, box), 0))
    check(m, "rw.beta", e, root, UP, "□", [STAR])
    assert m.token.position is b.g.root  # the @'s input link survives, as the token's position


def _op_over(b, op, left_kind, right_value):
    node = b.node(G.OP0, None, 1, 2, (op, None))
    root = b.root(F, (node, 0))
    if left_kind == G.CONST:
        b.link(G.plain(F), src=(node, 0), dst=(b.const(3), 0))
    else:
        pder = b.node(G.PDER, None, 1, 1)
        b.link(G.plain(F), src=(node, 0), dst=(pder, 0))
        b.param(3, (pder, 0))
    b.link(G.plain(F), src=(node, 1), dst=(b.const(right_value), 0))
    return root


def test_rw_op_fold():
    b = B()
    root = _op_over(b, "sub", G.CONST, 2)
    m = b.machine(root, DOWN, "$0", [Fraction(1)])
    e = B()
    k = e.const(1)
    check(m, "rw.op.fold", e, e.root(F, (k, 0)), DOWN, "□", [Fraction(1)])


def test_rw_op_keep_never_folds_a_provisional_constant():
    b = B()
    root = _op_over(b, "sub", G.PDER, 2)
    m = b.machine(root, DOWN, "$0", [Fraction(1)])
    e = B()
    eroot = _op_over(e, "sub", G.PDER, 2)
    check(m, "rw.op.keep", e, eroot, DOWN, "□", [Fraction(1)])


def _fun_box(b, level=None):
    """A closed box holding λv. v (of type V_a -> V_a)."""
    box, bang = b.box(level)
    lam = b.node(G.LAM, box, 1, 2)
    b.link(G.plain(Arrow(VA, VA)), src=(bang, 0), dst=(lam, 0))
    der = b.node(G.DER, box, 1, 1)
    b.link(G.plain(VA), src=(lam, 0), dst=(der, 0))
    b.link(G.bang(VA), src=(der, 0), dst=(lam, G.VAR))
    return box, bang


@pytest.mark.parametrize("n", [0, 2])
def test_rw_iter_unfold(n):
    vector = tuple(Fraction(i + 1) for i in range(n))
    b = B()
    op = b.node(G.OP1, None, 1, 2, ("iadd", "a"))
    root = b.root(VA, (op, 0))
    _box, bang = _fun_box(b)
    b.link(G.bang(Arrow(VA, VA)), src=(op, 0), dst=(bang, 0))
    b.link(G.plain(VA), src=(op, 1), dst=(b.node(G.VCONST, None, 1, 0, (vector, "a")), 0))
    m = b.machine(root, UP, ("$1", n), [STAR])
    # f(e_σ0) + (f(e_σ1) + v), f shared through C_n, for any order σ of the basis vectors:
    # vector addition is commutative, so the order of unfolding is not observable.
    candidates = [_unfolded(vector, order) for order in itertools.permutations(range(n))]
    check_any(m, "rw.iter.unfold", candidates, UP, "□", [STAR])


def _unfolded(vector, order):
    n = len(vector)
    e = B()
    con = e.node(G.CON, None, n, 1)
    _box, bang = _fun_box(e)
    e.link(G.bang(Arrow(VA, VA)), src=(con, 0), dst=(bang, 0))
    hang = None
    for i in range(n):
        step = e.node(G.OP0, None, 1, 2, ("vadd", "a"))
        if hang is None:
            eroot = e.root(VA, (step, 0))
        else:
            e.link(G.plain(VA), src=hang, dst=(step, 0))
        app = e.node(G.APP, None, 1, 2)
        e.link(G.plain(VA), src=(step, 0), dst=(app, 0))
        der = e.node(G.DER, None, 1, 1)
        e.link(G.plain(Arrow(VA, VA)), src=(app, 0), dst=(der, 0))
        e.link(G.bang(Arrow(VA, VA)), src=(der, 0), dst=(con, i))
        ebox, ebang = e.box()
        basis = tuple(Fraction(int(j == order[i])) for j in range(n))
        e.link(G.plain(VA), src=(ebang, 0), dst=(e.node(G.VCONST, ebox, 1, 0, (basis, "a")), 0))
        e.link(G.bang(VA), src=(app, 1), dst=(ebang, 0))
        hang = (step, 1)
    v = e.node(G.VCONST, None, 1, 0, (vector, "a"))
    if hang is None:
        eroot = e.root(VA, (v, 0))
    else:
        e.link(G.plain(VA), src=hang, dst=(v, 0))
    return e, eroot


def test_box_absorb():
    # G = ![D -> ?] ; the ?-door's output enters K = ![rotD -> ¿], whose ¿ reaches ¡ 7.
    def build(absorbed: bool):
        b = B()
        der = b.node(G.DER, None, 1, 1)
        b.root(F, (der, 0))
        g_box, g_bang = b.box()
        b.link(G.bang(F), src=(der, 0), dst=(g_bang, 0))
        inner = b.node(G.DER, g_box, 1, 1)
        pos = b.link(G.plain(F), src=(g_bang, 0), dst=(inner, 0))
        k_box, k_bang = b.box(g_box if absorbed else None)
        if not absorbed:
            why = b.door(g_box, G.WHY)
            b.link(G.bang(F), src=(inner, 0), dst=(why, 0))
            b.link(G.bang(F), src=(why, 0), dst=(k_bang, 0))
        else:
            b.link(G.bang(F), src=(inner, 0), dst=(k_bang, 0))
        pder = b.node(G.PDER, k_box, 1, 1)
        b.link(G.plain(F), src=(k_bang, 0), dst=(pder, 0))
        k_door = b.door(k_box, G.PWHY)
        b.link(G.PROV, src=(pder, 0), dst=(k_door, 0))
        if absorbed:
            g_door = b.door(g_box, G.PWHY)
            b.link(G.PROV, src=(k_door, 0), dst=(g_door, 0))
            b.param(7, (g_door, 0))
        else:
            b.param(7, (k_door, 0))
        return b, pos

    b, pos = build(False)
    m = b.machine(pos, UP, "?", [STAR])
    e, epos = build(True)
    check(m, "box.absorb", e, epos, UP, "?", [STAR])


def test_box_close():
    b = B()
    der = b.node(G.DER, None, 1, 1)
    b.root(F, (der, 0))
    box, bang = b.box()
    b.link(G.bang(F), src=(der, 0), dst=(bang, 0))
    pos = b.link(G.plain(F), src=(bang, 0), dst=(b.const(1, box), 0))
    m = b.machine(pos, UP, "?", [STAR])
    assert [r for r, _ in m.enabled()] == ["box.close"]
    m.step()
    assert m.token.flag == "!" and m.token.position is pos


def _g_with_doors(b, n_doors):
    """The current box G = ![D_1 … D_n -> ?_1 … ?_n] at the root, under a D; returns (pos, doors)."""
    der = b.node(G.DER, None, 1, 1)
    b.root(F, (der, 0))
    g_box, g_bang = b.box()
    b.link(G.bang(F), src=(der, 0), dst=(g_bang, 0))
    op = b.node(G.OP0, g_box, 1, 2, ("add", None)) if n_doors == 2 else None
    pos = b.link(G.plain(F), src=(g_bang, 0))
    doors = []
    for i in range(n_doors):
        d = b.node(G.DER, g_box, 1, 1)
        if op is not None:
            b.link(G.plain(F), src=(op, i), dst=(d, 0))
        else:
            b.g.set_dst(pos, d, 0)
        why = b.door(g_box, G.WHY)
        b.link(G.bang(F), src=(d, 0), dst=(why, 0))
        doors.append(why)
    if op is not None:
        b.g.set_dst(pos, op, 0)
    return pos, doors


def _contraction_redex(b):
    """G's ?-door and a D outside both enter C_2, whose output enters a box K (returned, empty)."""
    pos, (why,) = _g_with_doors(b, 1)
    other = b.node(G.DER, None, 1, 1)
    b.link(G.plain(F), dst=(other, 0))
    con = b.node(G.CON, None, 2, 1)
    b.link(G.bang(F), src=(why, 0), dst=(con, 0))
    b.link(G.bang(F), src=(other, 0), dst=(con, 1))
    k_box, k_bang = b.box()
    b.link(G.bang(F), src=(con, 0), dst=(k_bang, 0))
    return pos, k_box, k_bang


def _contracted(e):
    """The expected graph's frame: G's ?-door and the outer D, each to be given its copy of K."""
    epos, (ewhy,) = _g_with_doors(e, 1)
    eother = e.node(G.DER, None, 1, 1)
    e.link(G.plain(F), dst=(eother, 0))
    return epos, (ewhy, eother)


def test_deep_contract():
    # K = ![5] under C_2: one copy of K per input of the contraction.
    b = B()
    pos, k_box, k_bang = _contraction_redex(b)
    b.link(G.plain(F), src=(k_bang, 0), dst=(b.const(5, k_box), 0))
    m = b.machine(pos, UP, "?", [STAR])

    e = B()
    epos, sources = _contracted(e)
    for src in sources:
        k_box, k_bang = e.box()
        e.link(G.bang(F), src=(src, 0), dst=(k_bang, 0))
        e.link(G.plain(F), src=(k_bang, 0), dst=(e.const(5, k_box), 0))
    check(m, "deep.contract", e, epos, UP, "?", [STAR])


def test_deep_contract_joins_the_copies_doors():
    # K = ![rotD -> ¿] over a ¡: the two copies' ¿-doors meet at a rotC_2 (constants are shared).
    b = B()
    pos, k_box, k_bang = _contraction_redex(b)
    pder = b.node(G.PDER, k_box, 1, 1)
    b.link(G.plain(F), src=(k_bang, 0), dst=(pder, 0))
    door = b.door(k_box, G.PWHY)
    b.link(G.PROV, src=(pder, 0), dst=(door, 0))
    b.param(1, (door, 0))
    m = b.machine(pos, UP, "?", [STAR])

    e = B()
    epos, sources = _contracted(e)
    join = e.node(G.PCON, None, 2, 1)
    for i, src in enumerate(sources):
        k_box, k_bang = e.box()
        e.link(G.bang(F), src=(src, 0), dst=(k_bang, 0))
        pder = e.node(G.PDER, k_box, 1, 1)
        e.link(G.plain(F), src=(k_bang, 0), dst=(pder, 0))
        door = e.door(k_box, G.PWHY)
        e.link(G.PROV, src=(pder, 0), dst=(door, 0))
        e.link(G.PROV, src=(door, 0), dst=(join, i))
    e.param(1, (join, 0))
    check(m, "deep.contract", e, epos, UP, "?", [STAR])
    assert len(m.graph.params) == 1


def test_deep_project():
    # G's two ?-doors enter P_2 (name a), whose output is the vector box K = ![(3,4)_a].
    vec = (Fraction(3), Fraction(4))
    b = B()
    pos, doors = _g_with_doors(b, 2)
    proj = b.node(G.PROJ, None, 2, 1, "a")
    for i, why in enumerate(doors):
        b.link(G.bang(F), src=(why, 0), dst=(proj, i))
    k_box, k_bang = b.box()
    b.link(G.bang(VA), src=(proj, 0), dst=(k_bang, 0))
    b.link(G.plain(VA), src=(k_bang, 0), dst=(b.node(G.VCONST, k_box, 1, 0, (vec, "a")), 0))
    m = b.machine(pos, UP, "?", [STAR])

    e = B()
    epos, edoors = _g_with_doors(e, 2)
    for i, why in enumerate(edoors):
        k_box, k_bang = e.box()
        e.link(G.bang(F), src=(why, 0), dst=(k_bang, 0))
        dot = e.node(G.OP0, k_box, 1, 2, ("dot", "a"))
        e.link(G.plain(F), src=(k_bang, 0), dst=(dot, 0))
        e.link(G.plain(VA), src=(dot, 0), dst=(e.node(G.VCONST, k_box, 1, 0, (vec, "a")), 0))
        basis = tuple(Fraction(int(j == i)) for j in range(2))
        e.link(G.plain(VA), src=(dot, 1), dst=(e.node(G.VCONST, k_box, 1, 0, (basis, "a")), 0))
    check(m, "deep.project", e, epos, UP, "?", [STAR])


def test_deep_decouple():
    # A_a: f from G's ?-door, x unused (C_0); the model H = ![rotD -> ¿] over ¡ 7.
    model = F
    b = B()
    pos, (why,) = _g_with_doors(b, 1)
    abd = b.node(G.ABD, None, 2, 1, "a")
    b.link(G.bang(Arrow(VA, model)), src=(why, 0), dst=(abd, 0))
    weak = b.node(G.CON, None, 0, 1)
    b.link(G.bang(VA), src=(weak, 0), dst=(abd, 1))
    h_box, h_bang = b.box()
    b.link(G.bang(model), src=(abd, 0), dst=(h_bang, 0))
    pder = b.node(G.PDER, h_box, 1, 1)
    b.link(G.plain(F), src=(h_bang, 0), dst=(pder, 0))
    door = b.door(h_box, G.PWHY)
    b.link(G.PROV, src=(pder, 0), dst=(door, 0))
    b.param(7, (door, 0))
    m = b.machine(pos, UP, "?", [STAR])

    e = B()
    epos, (ewhy,) = _g_with_doors(e, 1)
    # f: ![λ(P_1) -> D -> ![D -> ?]]; the ?-door (ex-¿) feeds P_1's input.
    f_box, f_bang = e.box()
    e.link(G.bang(Arrow(VA, model)), src=(ewhy, 0), dst=(f_bang, 0))
    lam = e.node(G.LAM, f_box, 1, 2)
    e.link(G.plain(Arrow(VA, model)), src=(f_bang, 0), dst=(lam, 0))
    der = e.node(G.DER, f_box, 1, 1)
    e.link(G.plain(model), src=(lam, 0), dst=(der, 0))
    proj = e.node(G.PROJ, f_box, 1, 1, "a")
    e.link(G.bang(VA), src=(proj, 0), dst=(lam, G.VAR))
    h_box, h_bang = e.box(f_box)
    e.link(G.bang(model), src=(der, 0), dst=(h_bang, 0))
    hder = e.node(G.DER, h_box, 1, 1)
    e.link(G.plain(F), src=(h_bang, 0), dst=(hder, 0))
    hdoor = e.door(h_box, G.WHY)
    e.link(G.bang(F), src=(hder, 0), dst=(hdoor, 0))
    e.link(G.bang(F), src=(hdoor, 0), dst=(proj, 0))
    # x: ![(7)_a] on the weakening.
    eweak = e.node(G.CON, None, 0, 1)
    x_box, x_bang = e.box()
    e.link(G.bang(VA), src=(eweak, 0), dst=(x_bang, 0))
    e.link(G.plain(VA), src=(x_bang, 0), dst=(e.node(G.VCONST, x_box, 1, 0, ((Fraction(7),), "a")), 0))
    # the constant stays, behind a rotC_0.
    pweak = e.node(G.PCON, None, 0, 1)
    e.param(7, (pweak, 0))
    check(m, "deep.decouple", e, epos, UP, "?", [STAR])


def _closed_box_over(b, y, port=0):
    """A closed box G = ![rotD -> ¿] over ¡ 1, whose principal door hangs from y's output `port`."""
    box, bang = b.box()
    b.link(G.bang(F), src=(y, port), dst=(bang, 0))
    pder = b.node(G.PDER, box, 1, 1)
    pos = b.link(G.plain(F), src=(bang, 0), dst=(pder, 0))
    door = b.door(box, G.PWHY)
    b.link(G.PROV, src=(pder, 0), dst=(door, 0))
    b.param(1, (door, 0))
    return pos


def _uses(b, con, n, first_port=0):
    """n D-nodes (with dangling inputs) entering `con` from port first_port on; their links."""
    links = []
    for i in range(n):
        d = b.node(G.DER, None, 1, 1)
        b.link(G.plain(F), dst=(d, 0))
        links.append(b.link(G.bang(F), src=(d, 0), dst=(con, first_port + i)))
    return links


def test_copy_pass():
    b = B()
    app = b.node(G.APP, None, 1, 2)
    b.root(F, (app, 0))
    box, bang = b.box()
    b.link(G.bang(F), src=(app, 1), dst=(bang, 0))
    pos = b.link(G.plain(F), src=(bang, 0), dst=(b.const(1, box), 0))
    m = b.machine(pos, UP, "!", [STAR, STAR])
    assert [r for r, _ in m.enabled()] == ["copy.pass"]
    m.step()
    assert m.token.flag == "□" and m.token.position is pos


def test_copy_der():
    b = B()
    der = b.node(G.DER, None, 1, 1)
    b.root(F, (der, 0))
    pos = _closed_box_over(b, der)
    m = b.machine(pos, UP, "!", [STAR])

    e = B()
    epder = e.node(G.PDER, None, 1, 1)
    eroot = e.root(F, (epder, 0))
    e.param(1, (epder, 0))
    check(m, "copy.der", e, eroot, UP, "□", [STAR])
    assert not m.graph.boxes and m.token.position is b.g.root


def test_copy_c1():
    b = B()
    con = b.node(G.CON, None, 1, 1)
    (came,) = _uses(b, con, 1)
    pos = _closed_box_over(b, con)
    m = b.machine(pos, UP, "!", [STAR], [came])

    e = B()
    d = e.node(G.DER, None, 1, 1)
    e.link(G.plain(F), dst=(d, 0))
    epos = _closed_box_over(e, d)
    check(m, "copy.c1", e, epos, UP, "!", [STAR], [])


def test_copy_merge():
    # D1, D2 -> C_2 (lower); lower, D3 -> C_2 (upper) -> G. The token came D1 -> lower -> upper.
    b = B()
    upper = b.node(G.CON, None, 2, 1)
    lower = b.node(G.CON, None, 2, 1)
    first = _uses(b, lower, 2)
    between = b.link(G.bang(F), src=(lower, 0), dst=(upper, 0))
    _uses(b, upper, 1, first_port=1)
    pos = _closed_box_over(b, upper)
    m = b.machine(pos, UP, "!", [STAR], [first[0], between])

    e = B()
    merged = e.node(G.CON, None, 3, 1)
    euses = _uses(e, merged, 3)
    epos = _closed_box_over(e, merged)
    check(m, "copy.merge", e, epos, UP, "!", [STAR], [euses[0]])
    # the entry below the popped one stays valid: the lower node's input links are kept
    assert m.token.box_stack == [first[0]] and first[0].dst is upper


def test_copy_dup():
    # D1, D2 -> C_2 -> G = ![rotD -> ¿] over ¡ 1; the token came through D2.
    b = B()
    con = b.node(G.CON, None, 2, 1)
    d1, d2 = _uses(b, con, 2)
    pos = _closed_box_over(b, con)
    m = b.machine(pos, UP, "!", [STAR], [d2])

    # expected: D1 -> C_1 -> G, D2 -> G' (a copy), and the ¿-doors of G, G' meet at rotC_2 over ¡ 1.
    e = B()
    econ = e.node(G.CON, None, 1, 1)
    _uses(e, econ, 1)
    join = e.node(G.PCON, None, 2, 1)
    e.param(1, (join, 0))
    d = e.node(G.DER, None, 1, 1)
    e.link(G.plain(F), dst=(d, 0))
    roots = []
    for i, (y, port) in enumerate([(econ, 0), (d, 0)]):
        box, bang = e.box()
        e.link(G.bang(F), src=(y, port), dst=(bang, 0))
        pder = e.node(G.PDER, box, 1, 1)
        roots.append(e.link(G.plain(F), src=(bang, 0), dst=(pder, 0)))
        door = e.door(box, G.PWHY)
        e.link(G.PROV, src=(pder, 0), dst=(door, 0))
        e.link(G.PROV, src=(door, 0), dst=(join, i))
    check(m, "copy.dup", e, roots[1], UP, "!", [STAR], [])
    assert len(m.graph.params) == 1  # the constant is shared, never copied


def test_the_comparison_itself_can_fail():
    b1, b2 = B(), B()
    b1.root(F, (b1.const(1), 0))
    b2.root(F, (b2.const(2), 0))
    assert difference(b1.g, b2.g) is not None


def test_gc_con0_drops_a_weakening_that_enters_a_contraction():
    """≻1 (gc.con0), on a graph built by hand: the generators never reach it (a box is only
    discarded after its ?-phase, which has eliminated the contractions its doors reach; see
    test_every_rule_fires_under_this_profile). D → C_2 ← C_0, C_2 under a box holding 5."""
    from goi.semantics.gc import Collector

    b = B()
    box, bang = b.box()
    const = b.const(5, box)
    b.link(G.plain(F), src=(bang, 0), dst=(const, 0))
    con = b.node(G.CON, None, 2, 1)
    b.link(G.bang(F), src=(con, 0), dst=(bang, 0))
    der = b.node(G.DER, None, 1, 1)
    b.link(G.bang(F), src=(der, 0), dst=(con, 0))
    weak = b.node(G.CON, None, 0, 1)
    b.link(G.bang(F), src=(weak, 0), dst=(con, 1))
    root = b.root(F, (der, 0))
    m = b.machine(root)
    collector = Collector(m)
    collector.collect()
    assert collector.counts == {"gc.con0": 1}
    assert weak not in b.g.nodes and len(con.ins) == 1 and con.ins[0].src is der


@pytest.mark.parametrize("name", ["linearity_two.goi", "linearity_shared.goi", "linearity_discarded.goi"])
def test_weakened_contractions_are_collected(name):
    """gc.con0 on graphs beyond the translation's image (generators/graphs.py, `weaken`; the
    translation never lets it fire, docs/RULES.md): each contraction given an extra weakening
    behaves as before, every invariant holding, and the collector removes each weakening."""
    from pathlib import Path

    from goi import execution
    from goi.generators.graphs import weakened

    text = (Path(__file__).parent / "programs" / "paper" / name).read_text(encoding="utf-8")
    plain = execution.run(text)
    graph = weakened(execution.prepare(text).machine.graph)
    weakenings = sum(1 for n in graph.nodes if n.kind == G.CON and not n.ins and n.outs[0].dst.kind == G.CON)
    assert weakenings >= 1
    for gc in (False, True):
        result = execution.prepare(text, gc=gc, checks=["all"], graph=graph.clone()[0]).run(20_000)
        assert result.status == "final" and result.value == plain.value, (gc, result.status, result.reason)
        if gc:
            assert result.gc.get("gc.con0", 0) == weakenings, result.gc
