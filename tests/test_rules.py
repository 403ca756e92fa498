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

from graphs import FF, VA, B, state

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
    before = state("""
        root    -F->     @          : below
        @.0     -F→F->   λ
        λ.0     -F->     D          : body
        D       -!F->    λ.var
        @.1     -!F->    ![k]
        ![k]    -F->     2[k]
    """)
    after = state("""
        root    -F->     D          : below
        D       -!F->    ![k]
        ![k]    -F->     2[k]
    """)
    m = before.machine(before.links["body"], UP, "λ", [STAR])
    check(m, "rw.beta", after, after.links["below"], UP, "□", [STAR])
    assert m.token.position is before.links["below"]  # the @'s input link survives, as the token's position


def test_rw_op_fold():
    before = state("""
        root        -F->  $0(sub)   : root
        $0(sub).0   -F->  3
        $0(sub).1   -F->  2
    """)
    after = state("""
        root        -F->  1         : root
    """)
    m = before.machine(before.links["root"], DOWN, "$0", [Fraction(1)])
    check(m, "rw.op.fold", after, after.links["root"], DOWN, "□", [Fraction(1)])


def test_rw_op_keep_never_folds_a_provisional_constant():
    text = """
        root        -F->  $0(sub)   : root
        $0(sub).0   -F->  rotD
        rotD        -¡->  ¡
        ¡           -F->  3
        $0(sub).1   -F->  2
    """
    before, after = state(text), state(text)
    m = before.machine(before.links["root"], DOWN, "$0", [Fraction(1)])
    check(m, "rw.op.keep", after, after.links["root"], DOWN, "□", [Fraction(1)])


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


# G = ![D → ?] under a D at the root, the token at G's root with the flag ?; and the same
# box with two ?-doors, under an addition.
G_ONE_DOOR = """
    root        -F->    D
    D           -!F->   ![g]
    ![g]        -F->    D[g]            : pos
    D[g]        -!F->   ?[g]
"""
G_TWO_DOORS = """
    root            -F->    D
    D               -!F->   ![g]
    ![g]            -F->    $0(add)[g]      : pos
    $0(add)[g].0    -F->    D#1[g]
    $0(add)[g].1    -F->    D#2[g]
    D#1[g]          -!F->   ?#1[g]
    D#2[g]          -!F->   ?#2[g]
"""


def closed_box_over(y: str, box: str = "g", label: str = "pos", value: int = 1) -> str:
    """The lines of a closed box ![rotD → ¿] over ¡ `value`, whose principal door hangs from
    y; its root link is labelled `label` (none if None)."""
    named = f": {label}" if label else ""
    return f"""
        {y}             -!F->   ![{box}]
        ![{box}]        -F->    rotD[{box}]     {named}
        rotD[{box}]     -¡->    ¿[{box}]
        ¿[{box}]        -¡->    ¡
        ¡               -F->    {value}
    """


def test_box_absorb():
    # G's ?-door enters K = ![rotD → ¿], whose ¿ reaches ¡ 7: K moves into G, its ¿-door
    # gets a ¿-door of G on top.
    before = state(G_ONE_DOOR + closed_box_over("?[g]", box="k", label=None, value=7))
    after = state("""
        box k in g
        root        -F->    D
        D           -!F->   ![g]
        ![g]        -F->    D[g]            : pos
        D[g]        -!F->   ![k]
        ![k]        -F->    rotD[k]
        rotD[k]     -¡->    ¿[k]
        ¿[k]        -¡->    ¿[g]
        ¿[g]        -¡->    ¡
        ¡           -F->    7
    """)
    m = before.machine(before.links["pos"], UP, "?", [STAR])
    check(m, "box.absorb", after, after.links["pos"], UP, "?", [STAR])


def test_box_close():
    b = state("""
        root        -F->    D
        D           -!F->   ![g]
        ![g]        -F->    1[g]            : pos
    """)
    m = b.machine(b.links["pos"], UP, "?", [STAR])
    assert [r for r, _ in m.enabled()] == ["box.close"]
    m.step()
    assert m.token.flag == "!" and m.token.position is b.links["pos"]


def test_deep_contract():
    # K = ![5] under C_2: one copy of K per input of the contraction.
    before = state(G_ONE_DOOR + """
        ?[g]        -!F->   C.0
        _           -F->    D#2
        D#2         -!F->   C.1
        C           -!F->   ![k]
        ![k]        -F->    5[k]
    """)
    after = state(G_ONE_DOOR + """
        ?[g]        -!F->   ![k1]
        ![k1]       -F->    5[k1]
        _           -F->    D#2
        D#2         -!F->   ![k2]
        ![k2]       -F->    5[k2]
    """)
    m = before.machine(before.links["pos"], UP, "?", [STAR])
    check(m, "deep.contract", after, after.links["pos"], UP, "?", [STAR])


def test_deep_contract_joins_the_copies_doors():
    # K = ![rotD → ¿] over a ¡: the two copies' ¿-doors meet at a rotC_2 (constants are shared).
    before = state(G_ONE_DOOR + """
        ?[g]        -!F->   C.0
        _           -F->    D#2
        D#2         -!F->   C.1
    """ + closed_box_over("C", box="k", label=None))
    after = state(G_ONE_DOOR + """
        ?[g]        -!F->   ![k1]
        ![k1]       -F->    rotD[k1]
        rotD[k1]    -¡->    ¿[k1]
        ¿[k1]       -¡->    rotC.0
        _           -F->    D#2
        D#2         -!F->   ![k2]
        ![k2]       -F->    rotD[k2]
        rotD[k2]    -¡->    ¿[k2]
        ¿[k2]       -¡->    rotC.1
        rotC        -¡->    ¡
        ¡           -F->    1
    """)
    m = before.machine(before.links["pos"], UP, "?", [STAR])
    check(m, "deep.contract", after, after.links["pos"], UP, "?", [STAR])
    assert len(m.graph.params) == 1


def test_deep_project():
    # G's two ?-doors enter P_2 (name a), whose output is the vector box K = ![(3,4)_a]: copy i
    # computes the content's dot product with the basis vector e_i.
    before = state(G_TWO_DOORS + """
        ?#1[g]          -!F->     P_a.0
        ?#2[g]          -!F->     P_a.1
        P_a             -!V_a->   ![k]
        ![k]            -V_a->    (3,4)_a[k]
    """)
    after = state(G_TWO_DOORS + """
        ?#1[g]              -!F->     ![k1]
        ![k1]               -F->      $0(dot,a)[k1]
        $0(dot,a)[k1].0     -V_a->    (3,4)_a[k1]
        $0(dot,a)[k1].1     -V_a->    (1,0)_a[k1]
        ?#2[g]              -!F->     ![k2]
        ![k2]               -F->      $0(dot,a)[k2]
        $0(dot,a)[k2].0     -V_a->    (3,4)_a[k2]
        $0(dot,a)[k2].1     -V_a->    (0,1)_a[k2]
    """)
    m = before.machine(before.links["pos"], UP, "?", [STAR])
    check(m, "deep.project", after, after.links["pos"], UP, "?", [STAR])


def test_deep_decouple():
    # A_a: f from G's ?-door, x unused (C_0); the model H = ![rotD → ¿] over ¡ 7.
    before = state(G_ONE_DOOR + """
        ?[g]        -!(V_a→F)->   A_a.0
        C           -!V_a->       A_a.1
    """ + closed_box_over("A_a", box="h", label=None, value=7))
    # f: ![λ(P_1) → D → ![D → ?]], the ?-door (ex-¿) feeding P_1's input; x: ![(7)_a] on the
    # weakening; the constant stays, behind a rotC_0.
    after = state(G_ONE_DOOR + """
        box h in f
        ?[g]        -!(V_a→F)->   ![f]
        ![f]        -V_a→F->      λ[f]
        λ[f].0      -F->          D[f]
        P_a[f]      -!V_a->       λ[f].var
        D[f]        -!F->         ![h]
        ![h]        -F->          D[h]
        D[h]        -!F->         ?[h]
        ?[h]        -!F->         P_a[f].0
        C           -!V_a->       ![x]
        ![x]        -V_a->        (7)_a[x]
        rotC        -¡->          ¡
        ¡           -F->          7
    """)
    m = before.machine(before.links["pos"], UP, "?", [STAR])
    check(m, "deep.decouple", after, after.links["pos"], UP, "?", [STAR])


def test_copy_pass():
    b = state("""
        root        -F->    @
        @.1         -!F->   ![g]
        ![g]        -F->    1[g]            : pos
    """)
    m = b.machine(b.links["pos"], UP, "!", [STAR, STAR])
    assert [r for r, _ in m.enabled()] == ["copy.pass"]
    m.step()
    assert m.token.flag == "□" and m.token.position is b.links["pos"]


def test_copy_der():
    before = state("""
        root        -F->    D               : root
    """ + closed_box_over("D"))
    after = state("""
        root        -F->    rotD            : root
        rotD        -¡->    ¡
        ¡           -F->    1
    """)
    m = before.machine(before.links["pos"], UP, "!", [STAR])
    check(m, "copy.der", after, after.links["root"], UP, "□", [STAR])
    assert not m.graph.boxes and m.token.position is before.links["root"]


def test_copy_c1():
    before = state("""
        _           -F->    D
        D           -!F->   C               : came
    """ + closed_box_over("C"))
    after = state("""
        _           -F->    D
    """ + closed_box_over("D"))
    m = before.machine(before.links["pos"], UP, "!", [STAR], [before.links["came"]])
    check(m, "copy.c1", after, after.links["pos"], UP, "!", [STAR], [])


def test_copy_merge():
    # D1, D2 → C_2 (lower); lower, D3 → C_2 (upper) → G. The token came D1 → lower → upper.
    before = state("""
        _           -F->    D#1
        D#1         -!F->   C#lower.0       : first
        _           -F->    D#2
        D#2         -!F->   C#lower.1
        C#lower     -!F->   C#upper.0       : between
        _           -F->    D#3
        D#3         -!F->   C#upper.1
    """ + closed_box_over("C#upper"))
    after = state("""
        _           -F->    D#1
        D#1         -!F->   C.0             : first
        _           -F->    D#2
        D#2         -!F->   C.1
        _           -F->    D#3
        D#3         -!F->   C.2
    """ + closed_box_over("C"))
    first = before.links["first"]
    m = before.machine(before.links["pos"], UP, "!", [STAR], [first, before.links["between"]])
    check(m, "copy.merge", after, after.links["pos"], UP, "!", [STAR], [after.links["first"]])
    # the entry below the popped one stays valid: the lower node's input links are kept
    assert m.token.box_stack == [first] and first.dst is before.nodes["C#upper"]


def test_copy_dup():
    # D1, D2 → C_2 → G = ![rotD → ¿] over ¡ 1; the token came through D2.
    before = state("""
        _           -F->    D#1
        D#1         -!F->   C.0
        _           -F->    D#2
        D#2         -!F->   C.1             : came
    """ + closed_box_over("C"))
    # D1 → C_1 → G, D2 → G' (a copy), and the ¿-doors of G, G' meet at a rotC_2 over ¡ 1.
    after = state("""
        _           -F->    D#1
        D#1         -!F->   C.0
        C           -!F->   ![g]
        ![g]        -F->    rotD[g]
        rotD[g]     -¡->    ¿[g]
        ¿[g]        -¡->    rotC.0
        _           -F->    D#2
        D#2         -!F->   ![g2]
        ![g2]       -F->    rotD[g2]        : copy
        rotD[g2]    -¡->    ¿[g2]
        ¿[g2]       -¡->    rotC.1
        rotC        -¡->    ¡
        ¡           -F->    1
    """)
    m = before.machine(before.links["pos"], UP, "!", [STAR], [before.links["came"]])
    check(m, "copy.dup", after, after.links["copy"], UP, "!", [STAR], [])
    assert len(m.graph.params) == 1  # the constant is shared, never copied


@pytest.mark.parametrize("line", ["root F @", "root -G-> @", "root -F-> Q", "root -F-> @.x.y"])
def test_the_notation_refuses_what_it_cannot_read(line):
    with pytest.raises(ValueError, match="not a"):
        state(line)


def test_the_notation_builds_what_it_says():
    b = state("""
        box k in g
        root    -F->     D
        D       -!F->    ![g]
        ![g]    -F->     D[g]       : pos
        D[g]    -!F->    ![k]
        ![k]    -F->     (1,2)_a[k]
        C       -!F→F->  C#2.1      # a weakening into input 1 of a contraction
    """)
    g, k = b.boxes["g"], b.boxes["k"]
    assert b.g.root.dst is b.nodes["D"] and b.links["pos"].dst is b.nodes["D[g]"]
    assert k.parent is g and b.nodes["(1,2)_a[k]"].data == ((1, 2), "a") and b.nodes["(1,2)_a[k]"].box is k
    assert len(b.nodes["C#2"].ins) == 2 and b.nodes["C#2"].ins[1].type == G.bang(FF)


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

    b = state("""
        root        -F->    D               : root
        D           -!F->   C.0
        C#weak      -!F->   C.1
        C           -!F->   ![k]
        ![k]        -F->    5[k]
    """)
    weak, con, der, root = b.nodes["C#weak"], b.nodes["C"], b.nodes["D"], b.links["root"]
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
