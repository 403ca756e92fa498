"""Check `graph`: the graph criterion (Defs. "Covering links", "Graph criterion";
Prop. "Preservation of graph criterion"), with box-paths as in Def. "Box-reachability".

- acyclicity: every box-path whose links all have argument types (!T) is acyclic, and so is
  every directed path of provisional links (¡F);
- covering: a λ's incoming output (bound variable) is covered by its input ("covered by":
  on every box-path from the root); every A-node and P-node is covered by ?-nodes: every
  box-path from the root to it passes *some* ?-node. (Our reading: the literal one, a single
  ?-node on every path, already fails on the translation of `A(f,x). f x`, whose A-node is
  reached through two ?-doors, one for f and one for x; the proof of Productivity uses
  only this reading: the token cannot reach the node without crossing a ?-door.)

Box-paths go upwards along edges; from a box's root they may also jump to the box's
outputs (its doors' inner links), skipping its content. The λ condition is dominance in
that graph (networkx immediate dominators from the root); the A/P condition is
unreachability once ?-nodes are removed. Unreachable parts are covered vacuously.
Cost: O(size of the graph), after each graph-changing transition.
"""

from __future__ import annotations

import networkx as nx

from .. import graph as G
from . import Check, changes_graph


def box_path_graph(graph: G.Graph, only_kind=None) -> nx.DiGraph:
    """Vertices ("l", id) and ("n", id); edges of box-paths. With only_kind, only links of that
    enriched kind ("!" argument, "¡" provisional) and the nodes between them."""
    d = nx.DiGraph()
    for link in graph.links:
        if only_kind is not None and link.type.kind != only_kind:
            continue
        lv = ("l", link.id)
        d.add_node(lv)
        if link.dst is not None:
            d.add_edge(lv, ("n", link.dst.id))
        if link.src is not None:
            d.add_edge(("n", link.src.id), lv)
    for box in graph.boxes:
        root = box.principal.outs[0] if box.principal.outs else None
        for door in box.doors:
            inner = door.ins[0]
            if inner is None:
                continue
            if only_kind is None and root is not None:
                d.add_edge(("l", root.id), ("l", inner.id))
            elif only_kind is not None and inner.type.kind == only_kind:
                # a box-path of argument types reaching the box jumps over its content
                d.add_edge(("n", box.principal.id), ("l", inner.id))
    return d


def _dominated_by(idom: dict, vertex, pred) -> bool:
    """Is some strict dominator of `vertex` a vertex satisfying pred?"""
    v = vertex
    while v in idom and idom[v] != v:
        v = idom[v]
        if pred(v):
            return True
    return False


def graph_problems(graph: G.Graph) -> list[tuple[str, list]]:
    problems: list[tuple[str, list]] = []
    nodes_by_id = {n.id: n for n in graph.nodes}
    for kind, what in (("!", "argument"), ("¡", "provisional")):
        d = box_path_graph(graph, kind)
        if not nx.is_directed_acyclic_graph(d):
            cycle = nx.find_cycle(d)
            involved = [nodes_by_id[v[1]] for edge in cycle for v in edge if v[0] == "n" and v[1] in nodes_by_id]
            problems.append((f"a cyclic box-path of {what} types", list(dict.fromkeys(involved))))
    if graph.root is None:
        return problems
    d = box_path_graph(graph)
    start = ("l", graph.root.id)
    idom = nx.immediate_dominators(d, start)
    for n in graph.nodes:
        if n.kind == G.LAM and n.outs[1] is not None:
            var = ("l", n.outs[1].id)
            inp = ("l", n.ins[0].id)
            if var in idom and not _dominated_by(idom, var, lambda v: v == inp):
                problems.append((f"the bound variable of {n!r} is not covered by its input", [n]))
    whys = [("n", n.id) for n in graph.nodes if n.kind == G.WHY]
    d.remove_nodes_from(whys)
    reachable = nx.descendants(d, start)
    for n in graph.nodes:
        if n.kind in (G.ABD, G.PROJ) and ("n", n.id) in reachable:
            problems.append((f"{n!r} is reachable from the root by a box-path crossing no ?-node", [n]))
    return problems


class GraphCriterion(Check):
    name = "graph"

    def initial(self, machine) -> None:
        self._check(machine)

    def after(self, machine, rule_id, redex) -> None:
        if changes_graph(rule_id):
            self._check(machine)

    def _check(self, machine) -> None:
        problems = graph_problems(machine.graph)
        if problems:
            message, nodes = problems[0]
            raise self.fail(message, nodes)
