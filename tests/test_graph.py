"""Graph surgery primitives and the translation of each construct."""

from fractions import Fraction

from goi.semantics import graph as G
from goi.semantics.rules.surgery import copy_box
from goi.semantics.compare import difference
from goi.semantics.parser import parse
from goi.semantics.translate import translate
from goi.semantics.typecheck import typecheck
from goi.semantics.types import Arrow, F, Vec

from graphs import FF, VA, B


def _vector_box(b, level=None, name="a"):
    """A box holding (p • v) where v is a vector constant named `name`; returns the box."""
    box, bang = b.box(level)
    inp = b.link(G.bang(F), dst=(bang, 0))
    dot = b.node(G.OP0, box, 1, 2, ("dot", name))
    b.link(G.plain(F), src=(bang, 0), dst=(dot, 0))
    for port in (0, 1):
        v = b.node(G.VCONST, box, 1, 0, ((Fraction(1),), name))
        b.link(G.plain(Vec(name)), src=(dot, port), dst=(v, 0))
    return box, inp


def test_copy_box_copies_content_and_refreshes_inner_names():
    b = B()
    box, _inp = _vector_box(b)
    copy, node_map = copy_box(b.g, box, None)
    assert copy is not box and copy.principal is not box.principal
    inner = [n for n in copy.nodes if n.kind == G.VCONST]
    names = {n.data[1] for n in inner}
    assert len(names) == 1 and names != {"a"}  # a does not occur on the interface (type !F): refreshed
    assert all(node_map[n] in copy.nodes for n in box.nodes)
    assert copy.principal.ins[0] is None  # the caller connects it


def test_copy_box_keeps_interface_names():
    b = B()
    box, bang = b.box()
    b.link(G.bang(VA), dst=(bang, 0))
    v = b.node(G.VCONST, box, 1, 0, ((Fraction(2),), "a"))
    b.link(G.plain(VA), src=(bang, 0), dst=(v, 0))
    copy, _ = copy_box(b.g, box, None)
    (cv,) = [n for n in copy.nodes if n.kind == G.VCONST]
    assert cv.data[1] == "a"


def test_copy_box_copies_nested_boxes_and_doors():
    b = B()
    outer, obang = b.box()
    b.link(G.bang(F), dst=(obang, 0))
    inner, ibang = b.box(outer)
    der = b.node(G.DER, outer, 1, 1)
    b.link(G.plain(F), src=(obang, 0), dst=(der, 0))
    b.link(G.bang(F), src=(der, 0), dst=(ibang, 0))
    pder = b.node(G.PDER, inner, 1, 1)
    b.link(G.plain(F), src=(ibang, 0), dst=(pder, 0))
    idoor = b.door(inner, G.PWHY)
    b.link(G.PROV, src=(pder, 0), dst=(idoor, 0))
    odoor = b.door(outer, G.PWHY)
    b.link(G.PROV, src=(idoor, 0), dst=(odoor, 0))
    b.param(1, (odoor, 0))
    copy, node_map = copy_box(b.g, outer, None)
    (child,) = copy.children
    assert child.parent is copy and len(child.doors) == 1 and child.principal.door_of is child
    assert len(copy.doors) == 1 and copy.doors[0].outs[0].dst is None  # dangling: the caller joins it
    assert len(b.g.params) == 1  # ¡-constants are never copied


def test_splice_joins_two_links():
    b = B()
    der = b.node(G.DER, None, 1, 1)
    lower = b.link(G.plain(F), dst=(der, 0))
    k = b.const(3)
    upper = b.link(G.bang(F), src=(der, 0), dst=(k, 0))
    b.g.splice(lower, upper)
    assert lower.dst is k and k.ins[0] is lower and upper not in b.g.links


def test_move_box_and_unbox():
    b = B()
    g_box, _ = b.box()
    k_box, k_bang = b.box()
    k_const = b.const(1, k_box)
    b.g.move_box(k_box, g_box)
    assert k_box.parent is g_box and k_bang.box is g_box and k_bang in g_box.nodes
    b.g.unbox(k_box)
    assert k_const.box is g_box and k_box not in b.g.boxes and k_box not in g_box.children


def _translate(text):
    return translate(typecheck(parse(text)))


def test_translation_of_application_and_provisional_constant():
    # (λx. x) {1}: @ over λ (body D, bound variable from D) and ![rotD -> ¿] over ¡ 1
    got = _translate("(λx. x) {1}")
    e = B()
    app = e.node(G.APP, None, 1, 2)
    e.root(F, (app, 0))
    lam = e.node(G.LAM, None, 1, 2)
    e.link(G.plain(FF), src=(app, 0), dst=(lam, 0))
    der = e.node(G.DER, None, 1, 1)
    e.link(G.plain(F), src=(lam, 0), dst=(der, 0))
    e.link(G.bang(F), src=(der, 0), dst=(lam, G.VAR))
    box, bang = e.box()
    e.link(G.bang(F), src=(app, 1), dst=(bang, 0))
    pder = e.node(G.PDER, box, 1, 1)
    e.link(G.plain(F), src=(bang, 0), dst=(pder, 0))
    door = e.door(box, G.PWHY)
    e.link(G.PROV, src=(pder, 0), dst=(door, 0))
    e.param(1, (door, 0))
    assert difference(got, e.g) is None


def test_translation_contracts_uses_and_weakens_unused_variables():
    # λx. λy. x + x: x's two uses meet at C_2; y is unused: C_0.
    got = _translate("λx. λy. x + x")
    e = B()
    outer = e.node(G.LAM, None, 1, 2)
    e.root(Arrow(F, FF), (outer, 0))
    inner = e.node(G.LAM, None, 1, 2)
    e.link(G.plain(FF), src=(outer, 0), dst=(inner, 0))
    weak = e.node(G.CON, None, 0, 1)
    e.link(G.bang(F), src=(weak, 0), dst=(inner, G.VAR))
    add = e.node(G.OP0, None, 1, 2, ("add", None))
    e.link(G.plain(F), src=(inner, 0), dst=(add, 0))
    con = e.node(G.CON, None, 2, 1)
    for port in (0, 1):
        d = e.node(G.DER, None, 1, 1)
        e.link(G.plain(F), src=(add, port), dst=(d, 0))
        e.link(G.bang(F), src=(d, 0), dst=(con, port))
    e.link(G.bang(F), src=(con, 0), dst=(outer, G.VAR))
    assert difference(got, e.g) is None


def test_translation_of_decoupling():
    # A(f,x). f x : a λ over D over ![@(D_f, ![D_x])], f's and x's doors entering A.
    got = _translate("A_a(f, x). f x")
    e = B()
    lam = e.node(G.LAM, None, 1, 2)
    e.root(FF, (lam, 0))
    der = e.node(G.DER, None, 1, 1)
    e.link(G.plain(F), src=(lam, 0), dst=(der, 0))
    body, bbang = e.box()
    e.link(G.bang(F), src=(der, 0), dst=(bbang, 0))
    app = e.node(G.APP, body, 1, 2)
    e.link(G.plain(F), src=(bbang, 0), dst=(app, 0))
    df = e.node(G.DER, body, 1, 1)
    e.link(G.plain(Arrow(VA, F)), src=(app, 0), dst=(df, 0))
    arg, abang = e.box(body)
    e.link(G.bang(VA), src=(app, 1), dst=(abang, 0))
    dx = e.node(G.DER, arg, 1, 1)
    e.link(G.plain(VA), src=(abang, 0), dst=(dx, 0))
    xdoor_inner = e.door(arg, G.WHY)
    e.link(G.bang(VA), src=(dx, 0), dst=(xdoor_inner, 0))
    fdoor = e.door(body, G.WHY)
    e.link(G.bang(Arrow(VA, F)), src=(df, 0), dst=(fdoor, 0))
    xdoor = e.door(body, G.WHY)
    e.link(G.bang(VA), src=(xdoor_inner, 0), dst=(xdoor, 0))
    abd = e.node(G.ABD, None, 2, 1, "a")
    e.link(G.bang(Arrow(VA, F)), src=(fdoor, 0), dst=(abd, 0))
    e.link(G.bang(VA), src=(xdoor, 0), dst=(abd, 1))
    e.link(G.bang(F), src=(abd, 0), dst=(lam, G.VAR))
    assert difference(got, e.g) is None


def test_translation_orders_parameters_as_p_vector():
    g = _translate("let x = {1} in x + {2}")
    assert [p.outs[0].dst.data for p in g.params] == [Fraction(2), Fraction(1)]


def test_our_dominators_agree_with_networkx():
    import networkx as nx

    from goi.semantics.checks.graph_criterion import _successors, immediate_dominators
    from goi.semantics.machine import Machine

    for text in ["let f @ p = {1} + 2 in f p", "(λf. f (f 1)) (λx. x + {2})", "let g @ q = (let f @ p = {1} in f ({2} × p)) in g q"]:
        m = Machine(_translate(text))
        while True:
            succ = _successors(m.graph)
            start = m.graph.root
            ours = immediate_dominators(succ, start)
            d = nx.DiGraph()
            for v, ws in succ.items():
                d.add_node(v)
                d.add_edges_from((v, w) for w in ws)
            theirs = nx.immediate_dominators(d, start)
            theirs.setdefault(start, start)
            assert ours == theirs
            if m.is_final() or m.step() is None:
                break


from hypothesis import strategies as st
from hypothesis import given, settings  # noqa: E402

from goi.generators.typed import programs  # noqa: E402


@settings(max_examples=40)
@given(programs(max_depth=3), programs(max_depth=3))
def test_canonical_form_agrees_with_vf2(t1, t2):
    """Isomorphism by canonical descriptions (used by the checks) against networkx's VF2."""
    from goi.semantics.compare import isomorphic, vf2_isomorphic
    from goi.semantics.machine import Machine, RandomStrategy
    from goi.semantics.typecheck import typecheck

    runs = []
    for term, strategy in ((t1, None), (t1, RandomStrategy(1)), (t2, None)):
        m = Machine(translate(typecheck(term)), strategy=strategy)
        m.run()
        runs.append(m)
    a, b, c = runs
    for x, y in ((a, b), (a, c)):
        for ordered in (True, False):
            assert isomorphic(x.graph, y.graph, x.token, y.token, ordered_doors=ordered) == vf2_isomorphic(
                x.graph, y.graph, x.token, y.token, ordered_doors=ordered
            )
    assert isomorphic(a.graph, b.graph, a.token, b.token, ordered_doors=False)  # Prop. A.2
    copy, _n, _l = a.graph.clone()
    names = sorted(copy.names())
    copy.rename_everywhere({n: f"z{i}" for i, n in enumerate(names)})
    assert isomorphic(a.graph, copy) and vf2_isomorphic(a.graph, copy)


@settings(max_examples=60, deadline=None)
@given(programs(max_depth=4), st.randoms(use_true_random=False))
def test_canonical_form_is_invariant_under_identities_and_iteration_order(term, rnd):
    """Garbage components are described from the starts of least colour (colour refinement):
    the description must not depend on anything but the state's structure — not on node ids,
    not on the order sets hand out their members. A copy of the final state with permuted
    ids (new objects, so new set orders) must get the same description (tests/test_graph.py
    also checks canonical forms against VF2 on small graphs)."""
    import goi
    from goi.semantics import compare

    execution = goi.prepare(term)
    execution.run()
    m = execution.machine
    copy, _nodes, links = m.graph.clone()
    elements = [*copy.nodes, *copy.links, *copy.boxes]
    ids = [x.id for x in elements]
    rnd.shuffle(ids)
    for x, i in zip(elements, ids):
        x.id = i
    from goi.semantics.token import Token

    t = m.token
    token = Token(links[t.position], t.direction, t.flag, list(t.stack), [links[l] for l in t.box_stack])
    for ordered in (True, False):
        assert compare.canonical(m.graph, m.token, None, ordered) == compare.canonical(copy, token, None, ordered)


@settings(max_examples=60, deadline=None)
@given(programs(max_depth=4))
def test_the_nodes_without_input_are_kept_exactly(term):
    """Graph.inputless (where the collector looks for garbage) is the set of live nodes with no
    input port after every transition of a run with GC and determinism's trials (which undo
    their surgery), and in a clone."""
    from goi.semantics.checks import Monitor, make_checks
    from goi.semantics.gc import Collector
    from goi.semantics.machine import Machine, clone_machine

    m = Machine(translate(typecheck(term)))
    Collector(m)

    def exact(g):
        return g.inputless == {n for n in g.nodes if not n.ins}

    seen = []
    m.after.append(lambda machine, rule_id, redex: seen.append(exact(machine.graph)))
    assert exact(m.graph)
    Monitor(m, make_checks(["determinism"])).run(20_000)
    assert seen and all(seen)
    assert exact(clone_machine(m).graph)
