"""The graph criterion kept incrementally (checks/graph_criterion.py, GraphIndex): a cycle of
box-paths closed by one new edge must be found by the index's update, as the whole-graph
check finds it, also when the rest of the cycle is made of edges the graph had when the
index started (its topological order must hold them: they are never touched again)."""

from __future__ import annotations

import pytest

from goi.semantics import graph as G
from goi.semantics.checks.graph_criterion import GraphIndex, graph_problems
from goi.semantics.journal import Journal
from goi.semantics.types import F

from graphs import B


def _almost_cyclic(chain: int):
    """A box whose ?-door's output goes back through `chain` contractions… to its own
    principal door: every edge of the cycle but the last, of argument type (!F)."""
    b = B()
    der = b.node(G.DER, None, 1, 1)
    b.root(F, (der, 0))
    box, bang = b.box()
    first = b.node(G.CON, None, 2, 1)
    b.link(G.bang(F), src=(der, 0), dst=(first, 0))
    con = first
    for _ in range(chain):  # a longer way from the door back to the principal door
        nxt = b.node(G.CON, None, 2, 1)
        b.link(G.bang(F), src=(con, 0), dst=(nxt, 0))
        con = nxt
    b.link(G.bang(F), src=(con, 0), dst=(bang, 0))
    inner = b.node(G.DER, box, 1, 1)
    b.link(G.plain(F), src=(bang, 0), dst=(inner, 0))
    door = b.door(box, G.WHY)
    b.link(G.bang(F), src=(inner, 0), dst=(door, 0))
    return b.g, door, first


@pytest.mark.parametrize("chain", [0, 1, 5])
def test_a_cycle_closed_by_one_new_edge_is_found_incrementally(chain):
    g, door, first = _almost_cyclic(chain)
    assert graph_problems(g) == []
    index = GraphIndex(g)
    journal = Journal()
    journal.attach(g)
    g.new_link(G.bang(F), src=(door, 0), dst=(first, 1))  # the edge that closes the cycle
    whole = graph_problems(g)
    assert any("cyclic box-path of argument types" in message for message, _nodes in whole)
    found = index.update(g, journal.gather())
    assert any("cyclic box-path of argument types" in message for message, _nodes in found)
    journal.detach(g)


def test_an_edge_that_closes_no_cycle_is_not_one():
    g, door, first = _almost_cyclic(2)
    index = GraphIndex(g)
    journal = Journal()
    journal.attach(g)
    elsewhere = g.new_node(G.DER, None, 1, 1)
    g.new_link(G.bang(F), src=(door, 0), dst=(elsewhere, 0))
    assert graph_problems(g) == [] or all("cyclic" not in m for m, _ in graph_problems(g))
    assert all("cyclic" not in message for message, _nodes in index.update(g, journal.gather()))
    journal.detach(g)
