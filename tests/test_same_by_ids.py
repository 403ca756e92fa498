"""compare.same_by_ids, the witness the check `alpha` tries before canonical forms: matching
elements by id must never call isomorphic two states that `isomorphic` (canonical forms)
calls different. Each part of a state it compares is changed in a copy, one at a time, and
the witness must refuse the copy exactly because `isomorphic` does."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import goi
from goi.generators.typed import programs
from goi.semantics import graph as G
from goi.semantics.compare import isomorphic, same_by_ids
from goi.semantics.token import DOWN, UP, Token

PROGRAMS = Path(__file__).parent / "programs"
META = (PROGRAMS / "visualiser" / "meta_learning.goi").read_text()
MIDWAY = 50  # transitions: a state with two names, boxes with two doors, constants, a stack of three


def _state(text: str, steps=None):
    execution = goi.prepare(text)
    m = execution.machine
    if steps is None:
        m.run()
    else:
        for _ in range(steps):
            m.step()
    return m


def _copy(m):
    """A copy of the state with the same ids (Graph.clone) and its token."""
    graph, nodes, links = m.graph.clone()
    t = m.token
    return graph, Token(links[t.position], t.direction, t.flag, list(t.stack), [links[l] for l in t.box_stack]), nodes, links


def _agree(m, graph, token, labels1=None, labels2=None, ordered=True) -> bool:
    args = (m.graph, graph, m.token, token, labels1, labels2, ordered)
    witness = same_by_ids(*args)
    if witness:
        assert isomorphic(*args), "the witness called isomorphic two states that canonical forms tell apart"
    return witness


@pytest.mark.parametrize("steps", [0, MIDWAY])
def test_a_copy_is_its_own_witness_and_a_renaming_too(steps):
    m = _state(META, steps)
    graph, token, _n, _l = _copy(m)
    assert _agree(m, graph, token)
    names = sorted(m.graph.names())
    assert len(names) >= 2
    pi = {a: names[(i + 1) % len(names)] for i, a in enumerate(names)}
    graph.rename_everywhere(pi)
    # names pinned to the permutation (what alpha asks): the same state
    assert _agree(m, graph, token, {a: a for a in pi}, {b: a for a, b in pi.items()})
    # pinned to themselves: a permuted name is not itself, and both ways say so
    assert not _agree(m, graph, token, {a: a for a in pi}, {a: a for a in pi})
    assert not isomorphic(m.graph, graph, m.token, token, {a: a for a in pi}, {a: a for a in pi})
    # unpinned: any bijection of names will do
    assert _agree(m, graph, token)


def _some(xs, test):
    found = [x for x in sorted(xs, key=lambda x: x.id) if test(x)]
    assert found, "the state has no element to change"
    return found[0]


def _const(graph, _token, _nodes, _links):
    n = _some(graph.nodes, lambda n: n.kind == G.CONST)
    n.data = n.data + 1


def _const_as_float(graph, _token, _nodes, _links):  # equal as numbers, not as constants
    n = _some(graph.nodes, lambda n: n.kind == G.CONST and isinstance(n.data, Fraction) and n.data.denominator == 1)
    n.data = float(n.data)


def _one_name(graph, _token, _nodes, _links):  # one occurrence renamed: no longer a bijection
    n = _some(graph.nodes, lambda n: n.kind in (G.ABD, G.PROJ))
    n.data = n.data + "'"


def _port(graph, _token, _nodes, _links):
    link = _some(graph.links, lambda l: l.dst is not None and l.dst.kind not in (G.CON,) and len(l.dst.ins) >= 2)
    a, b = link.dst.ins[0], link.dst.ins[1]
    link.dst.ins[0], link.dst.ins[1] = b, a
    a.dst_port, b.dst_port = b.dst_port, a.dst_port


def _ins_only(graph, _token, _nodes, _links):  # a node's list of inputs changed, its links not told
    n = _some(graph.nodes, lambda n: len(n.ins) >= 2 and n.ins[0] is not n.ins[1])
    n.ins[0], n.ins[1] = n.ins[1], n.ins[0]


def _doors(graph, _token, _nodes, _links):
    box = _some(graph.boxes, lambda b: len(b.doors) >= 2)
    box.doors.reverse()


def _direction(_graph, token, _nodes, _links):
    token.direction = DOWN if token.direction == UP else UP


def _stack(_graph, token, _nodes, _links):
    token.stack.append(Fraction(7))


def _position(graph, token, _nodes, _links):
    token.position = _some(graph.links, lambda l: l is not token.position)


def _root(graph, token, _nodes, _links):
    graph.root = _some(graph.links, lambda l: l is not graph.root)


def _membership(graph, _token, _nodes, _links):  # a node taken out of its box
    n = _some(graph.nodes, lambda n: n.box is not None and n.door_of is None)
    n.box.nodes.discard(n)
    n.box = None
    graph.top.add(n)


def _other_box(graph, _token, _nodes, _links):  # a node moved into another box
    n = _some(graph.nodes, lambda n: n.box is not None and n.door_of is None)
    other = _some(graph.boxes, lambda b: b is not n.box)
    n.box.nodes.discard(n)
    n.box = other
    other.nodes.add(n)


def _link_type(graph, _token, _nodes, _links):
    link = _some(graph.links, lambda l: l.type.kind == "")
    link.type = G.bang(link.type.type)


def _ids_swapped(graph, _token, _nodes, _links):  # the same state, other ids: the witness fails, isomorphic holds
    a, b = sorted(graph.nodes, key=lambda n: n.id)[:2]
    a.id, b.id = b.id, a.id


CHANGES = [_const, _const_as_float, _one_name, _port, _ins_only, _doors, _direction, _stack, _position, _root, _membership, _other_box,
           _link_type]


@pytest.mark.parametrize("change", CHANGES, ids=lambda f: f.__name__.strip("_"))
def test_every_part_of_the_state_is_compared(change):
    m = _state(META, MIDWAY)
    graph, token, nodes, links = _copy(m)
    change(graph, token, nodes, links)
    assert not isomorphic(m.graph, graph, m.token, token), "the change should make another state"
    assert not same_by_ids(m.graph, graph, m.token, token)


def test_other_ids_leave_the_verdict_to_canonical_forms():
    m = _state(META, MIDWAY)
    graph, token, nodes, links = _copy(m)
    _ids_swapped(graph, token, nodes, links)
    assert not same_by_ids(m.graph, graph, m.token, token)
    assert isomorphic(m.graph, graph, m.token, token)


def test_doors_as_a_set_when_asked():
    m = _state(META, MIDWAY)
    graph, token, nodes, links = _copy(m)
    _doors(graph, token, nodes, links)
    assert _agree(m, graph, token, ordered=False)


@settings(max_examples=80, deadline=None)
@given(programs(max_depth=4), st.integers(min_value=0, max_value=len(CHANGES)), st.integers(min_value=0, max_value=400))
def test_the_witness_never_outruns_canonical_forms(term, which, steps):
    """On generated programs, at some step of the run, a copy changed in one part (or not):
    whenever the witness holds, canonical forms agree; an unchanged copy is always its own."""
    execution = goi.prepare(term)
    m = execution.machine
    for _ in range(steps):
        if m.is_final() or m.step() is None:
            break
    graph, token, nodes, links = _copy(m)
    if which == len(CHANGES):
        assert _agree(m, graph, token)
        return
    try:
        CHANGES[which](graph, token, nodes, links)
    except AssertionError:
        return  # the state has no element of that kind
    _agree(m, graph, token)
    _agree(m, graph, token, ordered=False)
