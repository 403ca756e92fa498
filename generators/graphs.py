"""Graphs beyond our translation's image: translated programs whose contractions are split,
or given an extra weakening.

Our translation collects all uses of a variable at one level in one C_k, so a run never
meets a chain C_m → C_n and the rule copy.merge never fires (docs/RULES.md). A translation
that contracts shared contexts pairwise — as the paper's, whose figure is missing, may do —
produces such chains. `split_graphs` draws a program, translates it, and splits some
contractions C_n (n ≥ 2) into a chain C_{n−k} → C_{k+1} (the inverse of copy.merge): a
valid graph (name and graph criteria hold) that must behave exactly as the unsplit one.
The lower node takes the *last* uses: evaluation is right to left, so those are reached
first, while the upper node still has two inputs or more — the situation of copy.merge.

Likewise no run from our translation meets a weakening C_0 entering a contraction — the
redex of gc.con0 — because a box reaches a C_0 only once closed, with no ?-door left to
leave a C_0 behind. `weaken` gives a contraction C_n one more input from a new C_0 (the
inverse of gc.con0): a graph that must behave exactly as before, and where the collector
has gc.con0 to apply.
"""

from __future__ import annotations

from hypothesis import strategies as st

from goi.semantics import graph as G
from goi.semantics.translate import translate
from goi.semantics.typecheck import typecheck

from .composite import composite
from .typed import programs


def split(graph: G.Graph, con: G.Node, k: int) -> G.Node:
    """Split C_n into C_{n−k} (its last n−k inputs) feeding C_{k+1} (its first k inputs and
    the lower node, last: merging restores the order); returns the lower node."""
    inputs = list(con.ins)
    lower = graph.new_node(G.CON, con.box, len(inputs) - k, 1)
    graph.set_inputs(lower, inputs[k:])
    link = graph.new_link(con.outs[0].type, src=(lower, 0))
    graph.set_inputs(con, inputs[:k] + [link])
    return lower


@composite
def split_graphs(draw, max_depth: int = 4):
    """(term, judgement, graph): a program and its translation with contractions split."""
    term = draw(programs(max_depth=max_depth))
    judgement = typecheck(term)
    graph = translate(judgement)
    for con in sorted((n for n in graph.nodes if n.kind == G.CON and len(n.ins) >= 2), key=lambda n: n.id):
        if draw(st.booleans()):
            split(graph, con, draw(st.integers(min_value=1, max_value=len(con.ins) - 1)))
    return term, judgement, graph


def weaken(graph: G.Graph, con: G.Node) -> G.Node:
    """Give the contraction C_n a last input from a new weakening C_0 (C_{n+1}; the inverse of
    gc.con0); returns the C_0."""
    weakening = graph.new_node(G.CON, con.box, 0, 1)
    link = graph.new_link(con.outs[0].type, src=(weakening, 0))
    graph.set_inputs(con, list(con.ins) + [link])
    return weakening


def weakened(graph: G.Graph) -> G.Graph:
    """The graph with every contraction given an extra weakening (in place; returned)."""
    for con in sorted((n for n in graph.nodes if n.kind == G.CON and n.ins), key=lambda n: n.id):
        weaken(graph, con)
    return graph
