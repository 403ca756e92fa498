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
that graph (immediate dominators from the root, Cooper–Harvey–Kennedy); the A/P condition
is unreachability once ?-nodes are removed; unreachable parts are covered vacuously.
Acyclicity is Kahn's algorithm on the argument-typed (resp. provisional) part.
Cost: O(size of the graph) per check.
"""

from __future__ import annotations

from collections import deque

from .. import graph as G
from . import GraphCheck


def _successors(graph: G.Graph, only_kind=None):
    """Adjacency of the box-path graph, whose vertices are the graph's links and nodes
    themselves (compared by identity); see the module doc."""
    succ: dict = {}
    for node in graph.nodes:
        succ[node] = []
    for link in graph.links:
        if only_kind is not None and link.type.kind != only_kind:
            continue
        out = succ.setdefault(link, [])
        if link.dst is not None:
            out.append(link.dst)
        if link.src is not None:
            succ[link.src].append(link)
    for box in graph.boxes:
        root = box.principal.outs[0] if box.principal.outs else None
        for door in box.doors:
            inner = door.ins[0]
            if inner is None:
                continue
            if only_kind is None and root is not None:
                succ.setdefault(root, []).append(inner)
                succ.setdefault(inner, [])
            elif only_kind is not None and inner.type.kind == only_kind:
                # an argument-typed box-path reaching the box jumps over its content
                succ[box.principal].append(inner)
                succ.setdefault(inner, [])
    return succ


def _cycle_nodes(succ) -> list:
    """Kahn's algorithm; returns the proper nodes left on cycles (empty if acyclic)."""
    indeg = {v: 0 for v in succ}
    for v, ws in succ.items():
        for w in ws:
            indeg[w] += 1
    queue = deque(v for v, d in indeg.items() if d == 0)
    seen = 0
    while queue:
        v = queue.popleft()
        seen += 1
        for w in succ[v]:
            indeg[w] -= 1
            if indeg[w] == 0:
                queue.append(w)
    if seen == len(succ):
        return []
    return [v for v, d in indeg.items() if d > 0 and isinstance(v, G.Node)]


def _postorder(succ, start):
    order, seen = [], {start}
    stack = [(start, iter(succ[start]))]
    while stack:
        v, it = stack[-1]
        for w in it:
            if w not in seen:
                seen.add(w)
                stack.append((w, iter(succ[w])))
                break
        else:
            stack.pop()
            order.append(v)
    return order


def immediate_dominators(succ, start) -> dict:
    """Cooper, Harvey, Kennedy, "A simple, fast dominance algorithm" (2001)."""
    order = _postorder(succ, start)
    index = {v: i for i, v in enumerate(order)}
    preds: dict = {v: [] for v in order}
    for v in order:
        for w in succ[v]:
            if w in index:
                preds[w].append(v)
    idom = {start: start}
    changed = True
    while changed:
        changed = False
        for v in reversed(order):
            if v == start:
                continue
            new = None
            for p in preds[v]:
                if p not in idom:
                    continue
                if new is None:
                    new = p
                    continue
                a, b = p, new
                while a != b:
                    while index[a] < index[b]:
                        a = idom[a]
                    while index[b] < index[a]:
                        b = idom[b]
                new = a
            if idom.get(v) != new:
                idom[v] = new
                changed = True
    return idom


def graph_problems(graph: G.Graph) -> list[tuple[str, list]]:
    problems: list[tuple[str, list]] = []
    for kind, what in (("!", "argument"), ("¡", "provisional")):
        on_cycle = _cycle_nodes(_successors(graph, kind))
        if on_cycle:
            problems.append((f"a cyclic box-path of {what} types", on_cycle))
    if graph.root is None:
        return problems
    succ = _successors(graph)
    start = graph.root
    lams = [n for n in graph.nodes if n.kind == G.LAM and n.outs[1] is not None]
    if lams:
        idom = immediate_dominators(succ, start)
        for n in lams:
            var, inp = n.outs[1], n.ins[0]
            if var not in idom:
                continue  # unreachable: covered vacuously
            v = var
            while v is not start and v is not inp:
                v = idom[v]
            if v is not inp:
                problems.append((f"the bound variable of {n!r} is not covered by its input", [n]))
    # A/P covering: reachable from the root without crossing a ?-node?
    covered = [n for n in graph.nodes if n.kind in (G.ABD, G.PROJ)]
    if covered:
        seen = {start}
        queue = deque([start])
        while queue:
            v = queue.popleft()
            for w in succ[v]:
                if w not in seen and not (isinstance(w, G.Node) and w.kind == G.WHY):
                    seen.add(w)
                    queue.append(w)
        for n in covered:
            if n in seen:
                problems.append((f"{n!r} is reachable from the root by a box-path crossing no ?-node", [n]))
    return problems


def graph_problems_now(machine) -> list[tuple[str, list]]:
    """graph_problems of the machine's current graph, computed once per graph version:
    `graph` and `validity` (which includes the graph criterion) both ask after the same
    transition, and only a surgery primitive (a rule's, or the collector's) changes it."""
    graph = machine.graph
    cached = getattr(machine, "_graph_problems", None)
    if cached is not None and cached[0] is graph and cached[1] == graph.version:
        return cached[2]
    problems = graph_problems(graph)
    machine._graph_problems = (graph, graph.version, problems)
    return problems


class GraphCriterion(GraphCheck):
    name = "graph"

    def problems(self, machine):
        return graph_problems_now(machine)
