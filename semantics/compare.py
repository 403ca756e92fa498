"""Graph states up to isomorphism and name permutation (the paper's ∼α), via networkx.

A graph state becomes a labelled directed graph whose vertices are the proper
nodes, the links, the boxes and the names. Matching respects node kinds and
data, port order (edge labels), link types, box nesting and doors, the order of
the ¡-constants, the token's position and its box stack. Names are vertices of
their own, and each occurrence of a name is an edge to it, so an isomorphism
renames names consistently: two states match iff they are equal up to the
identity of nodes and links and a permutation of names.
"""

from __future__ import annotations

import re
from typing import Optional

import networkx as nx
from networkx.algorithms import isomorphism

from . import graph as G
from .types import Arrow, Type, Vec

_NAME = re.compile(r"V_([A-Za-z0-9'.]+)")


def _abstract_type(t: Type, order: list[str]) -> str:
    """The type with its names replaced by #k, k the index of first occurrence in `order`."""
    if isinstance(t, Vec):
        if t.name not in order:
            order.append(t.name)
        return f"V#{order.index(t.name)}"
    if isinstance(t, Arrow):
        return f"({_abstract_type(t.dom, order)}->{_abstract_type(t.cod, order)})"
    return str(t)


def _value_key(v) -> str:
    if isinstance(v, tuple):
        return "(" + ",".join(str(x) for x in v) + ")"
    return str(v)


def _node_key(n: G.Node, names: list[str]) -> str:
    k = n.kind
    if k == G.CONST:
        return f"const:{_value_key(n.data)}"
    if k == G.VCONST:
        values, name = n.data
        names.append(name)
        return f"vconst:{_value_key(values)}:#0"
    if k in (G.OP0, G.OP1):
        op, name = n.data
        if name is not None:
            names.append(name)
            return f"{k}:{op}:#0"
        return f"{k}:{op}"
    if k in (G.ABD, G.PROJ):
        names.append(n.data)
        return f"{k}{len(n.ins)}:#0"
    if k in (G.CON, G.PCON):
        return f"{k}{len(n.ins)}"
    return k


def to_networkx(graph: G.Graph, token=None, name_labels: Optional[dict] = None, ordered_doors: bool = True) -> nx.DiGraph:
    """The labelled directed graph of a state; `name_labels` pins names (name -> label) to match
    only alike-labelled ones; with ordered_doors=False a box's doors are a set (as in the paper)."""
    d = nx.DiGraph()
    name_edges: list[tuple[tuple, str, int]] = []
    params = {n: i for i, n in enumerate(graph.params)}
    for n in graph.nodes:
        names: list[str] = []
        key = _node_key(n, names)
        if n in params:
            key += f"|param{params[n]}"
        d.add_node(("n", n.id), key=key)
        for i, a in enumerate(names):
            name_edges.append((("n", n.id), a, i))
    stack_index = {}
    if token is not None:
        for i, link in enumerate(token.box_stack):
            stack_index.setdefault(link.id, []).append(i)
    for link in graph.links:
        order: list[str] = []
        key = f"{link.type.kind}{_abstract_type(link.type.type, order)}"
        if link is graph.root:
            key += "|root"
        if token is not None and link is token.position:
            key += "|token"
        if link.id in stack_index:
            key += f"|stack{stack_index[link.id]}"
        d.add_node(("l", link.id), key=key)
        for i, a in enumerate(order):
            name_edges.append((("l", link.id), a, i))
        if link.src is not None:
            d.add_edge(("n", link.src.id), ("l", link.id), label=f"out{link.src_port}")
        if link.dst is not None:
            port = "var" if link.dst_port == G.VAR else f"in{link.dst_port}"
            d.add_edge(("l", link.id), ("n", link.dst.id), label=port)
    for box in graph.boxes:
        d.add_node(("b", box.id), key="box")
        for n in box.nodes:
            d.add_edge(("b", box.id), ("n", n.id), label="member")
        d.add_edge(("b", box.id), ("n", box.principal.id), label="principal")
        for i, door in enumerate(box.doors):
            d.add_edge(("b", box.id), ("n", door.id), label=f"door{i}" if ordered_doors else "door")
        if box.parent is not None:
            d.add_edge(("b", box.parent.id), ("b", box.id), label="child")
    for entity, name, i in name_edges:
        label = (name_labels or {}).get(name)
        d.add_node(("a", name), key="name" if label is None else f"name:{label}")
        d.add_edge(entity, ("a", name), label=f"name{i}")
    return d


def _invariant_summary(d: nx.DiGraph):
    return sorted(data["key"] for _, data in d.nodes(data=True)), sorted(data["label"] for *_, data in d.edges(data=True))


def isomorphic(g1: G.Graph, g2: G.Graph, token1=None, token2=None, labels1=None, labels2=None, ordered_doors: bool = True) -> bool:
    """Are the two graph states equal up to node/link identity and name permutation?

    With labels (name -> label), a name of the first state may only correspond to a name
    of the second with the same label (to check a *given* permutation).
    """
    d1 = to_networkx(g1, token1, labels1, ordered_doors)
    d2 = to_networkx(g2, token2, labels2, ordered_doors)
    if _invariant_summary(d1) != _invariant_summary(d2):
        return False
    matcher = isomorphism.DiGraphMatcher(
        d1, d2, node_match=lambda a, b: a["key"] == b["key"], edge_match=lambda a, b: a["label"] == b["label"]
    )
    return matcher.is_isomorphic()


def difference(g1: G.Graph, g2: G.Graph, token1=None, token2=None) -> Optional[str]:
    """None if isomorphic, else a short description of what differs (for test messages)."""
    if isomorphic(g1, g2, token1, token2):
        return None
    k1, e1 = _invariant_summary(to_networkx(g1, token1))
    k2, e2 = _invariant_summary(to_networkx(g2, token2))
    from collections import Counter

    c1, c2 = Counter(k1), Counter(k2)
    only1, only2 = c1 - c2, c2 - c1
    if only1 or only2:
        return f"vertices only in the first: {dict(only1)}; only in the second: {dict(only2)}"
    return "same vertices and edge labels, but connected differently"
