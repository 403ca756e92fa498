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

import itertools
from collections import deque

from .. import graph as G
from .base import GraphCheck, declare
from ..journal import touched
from . import incremental


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


def _kahn(vertices, successors) -> list:
    """Kahn's algorithm: the vertices in a topological order, leaving out those on a cycle
    or behind one (successors outside `vertices` are ignored)."""
    indeg = {v: 0 for v in vertices}
    for v in indeg:
        for w in successors(v):
            if w in indeg:
                indeg[w] += 1
    queue = deque(v for v, d in indeg.items() if d == 0)
    order = []
    while queue:
        v = queue.popleft()
        order.append(v)
        for w in successors(v):
            if w in indeg:
                indeg[w] -= 1
                if indeg[w] == 0:
                    queue.append(w)
    return order


def _cycle_nodes(succ) -> list:
    """The proper nodes left on (or behind) cycles by Kahn's algorithm (empty if acyclic)."""
    order = _kahn(succ, succ.__getitem__)
    if len(order) == len(succ):
        return []
    placed = set(order)
    return [v for v in succ if v not in placed and isinstance(v, G.Node)]


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


def cycle_problem(kind: str, nodes: list) -> tuple[str, list]:
    return (f"a cyclic box-path of {'argument' if kind == '!' else 'provisional'} types", nodes)


def uncovered_problem(n: G.Node) -> tuple[str, list]:
    """A λ whose bound variable, or an A/P-node that, a box-path reaches from the root
    without passing what should cover it."""
    if n.kind == G.LAM:
        return (f"the bound variable of {n!r} is not covered by its input", [n])
    return (f"{n!r} is reachable from the root by a box-path crossing no ?-node", [n])


def graph_problems(graph: G.Graph) -> list[tuple[str, list]]:
    problems: list[tuple[str, list]] = []
    for kind in ("!", "¡"):
        on_cycle = _cycle_nodes(_successors(graph, kind))
        if on_cycle:
            problems.append(cycle_problem(kind, on_cycle))
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
                problems.append(uncovered_problem(n))
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
                problems.append(uncovered_problem(n))
    return problems


def graph_problems_now(machine) -> list[tuple[str, list]]:
    """graph_problems of the machine's current graph, computed once per graph version:
    `graph` and `validity` (which includes the graph criterion) both ask after the same
    transition, and only a surgery primitive (a rule's, or the collector's) changes it."""
    graph = machine.graph
    cached = machine.indexes.get("graph problems")
    if cached is not None and cached[0] is graph and cached[1] == graph.version:
        return cached[2]
    problems = graph_problems(graph)
    machine.indexes["graph problems"] = (graph, graph.version, problems)
    return problems




# ---- the incremental form ------------------------------------------------------------------
# The box-path graph again, as functions of one vertex (a node or a link) instead of a
# table of the whole graph: successors and predecessors, all links (kind None) or only the
# links of one kind ("!" or "¡") with every node.

def _is_root_of_box(link: G.Link):
    src = link.src
    return src.door_of if src is not None and src.kind == G.BANG and src.door_of is not None else None


def _door_box(link: G.Link):
    """The box whose door this link is the inner link of, if it is one."""
    d = link.dst
    if d is not None and d.kind in (G.WHY, G.PWHY) and d.door_of is not None and link.dst_port == 0:
        return d.door_of
    return None


def succ_all(v):
    if isinstance(v, G.Link):
        out = [v.dst] if v.dst is not None else []
        box = _is_root_of_box(v)
        if box is not None:
            out += [d.ins[0] for d in box.doors if d.ins and d.ins[0] is not None]
        return out
    return [l for l in v.outs if l is not None and l.src is v]


def pred_all(v):
    if isinstance(v, G.Link):
        out = [v.src] if v.src is not None else []
        box = _door_box(v)
        if box is not None and box.principal is not None and box.principal.outs and box.principal.outs[0] is not None:
            out.append(box.principal.outs[0])
        return out
    out = [l for l in v.ins if l is not None]
    if v.kind == G.LAM and len(v.outs) > 1 and v.outs[1] is not None and v.outs[1].dst is v:
        out.append(v.outs[1])
    return out


def succ_kind(v, kind):
    if isinstance(v, G.Link):
        return [v.dst] if v.dst is not None and v.type.kind == kind else []
    out = [l for l in v.outs if l is not None and l.src is v and l.type.kind == kind]
    if v.kind == G.BANG and v.door_of is not None:
        out += [d.ins[0] for d in v.door_of.doors if d.ins and d.ins[0] is not None and d.ins[0].type.kind == kind]
    return out


def pred_kind(v, kind):
    if isinstance(v, G.Link):
        if v.type.kind != kind:
            return []
        out = [v.src] if v.src is not None else []
        box = _door_box(v)
        if box is not None and box.principal is not None:
            out.append(box.principal)
        return out
    out = [l for l in v.ins if l is not None and l.type.kind == kind]
    if v.kind == G.LAM and len(v.outs) > 1 and v.outs[1] is not None and v.outs[1].dst is v and v.outs[1].type.kind == kind:
        out.append(v.outs[1])
    return out


class _Order:
    """A topological order of the kind-restricted box-path graph kept up to date under edge
    insertions (Pearce and Kelly, "A dynamic topological sort algorithm for directed acyclic
    graphs", JEA 2006): an edge x→y inserted against the order is repaired by searching only
    the vertices whose positions lie between y and x; reaching x from y is a cycle.
    Deleted edges never break an order, so they need nothing."""

    GAP = 1024.0

    def __init__(self, graph: G.Graph, kind: str):
        self.kind = kind
        self.pos: dict = {}  # vertex -> (position, serial): the serial makes every key distinct
        self.serial = itertools.count()
        # only the vertices an edge of the kind meets (its links, their ends, and the principal
        # doors that jump to a door's inner link): the others are placed by `update` when an
        # edge first meets them, as a new node is
        links = [l for l in graph.links if l.type.kind == kind]
        ends = {n for n in graph.nodes if n.kind == G.BANG and n.door_of is not None}
        for l in links:
            ends.add(l.src)
            ends.add(l.dst)
        ends.discard(None)
        order = _kahn([*ends, *links], lambda v: succ_kind(v, kind))
        for k, v in enumerate(order, start=1):
            self.pos[v] = (k * self.GAP, next(self.serial))
        self.top = (len(order) + 1) * self.GAP

    def _place(self, v) -> None:
        """A new vertex: between its placed predecessors and successors when there is room.
        Only the cost depends on where: `insert` repairs any edge against the order. Keys
        are distinct (a serial breaks ties), so the bounded searches of `insert` never pass
        over a vertex that shares the bound's position."""
        lo = max((self.pos[p][0] for p in pred_kind(v, self.kind) if p in self.pos), default=None)
        hi = min((self.pos[s][0] for s in succ_kind(v, self.kind) if s in self.pos), default=None)
        if lo is None and hi is None:
            self.top += self.GAP
            p = self.top
        elif hi is None:
            p = lo + self.GAP
            self.top = max(self.top, p)
        elif lo is None:
            p = hi - self.GAP
        else:
            p = (lo + hi) / 2
        self.pos[v] = (p, next(self.serial))

    def insert(self, x, y):
        """The edge x→y is in the graph: repair the order; the vertices of a cycle through it, if any."""
        pos = self.pos
        ub, lb = pos[x], pos[y]
        if ub < lb:
            return None
        forward, stack, seen = [], [y], {y}
        while stack:
            v = stack.pop()
            forward.append(v)
            for w in succ_kind(v, self.kind):
                if w is x:
                    return [u for u in forward if isinstance(u, G.Node)] + ([x] if isinstance(x, G.Node) else [])
                if w in pos and pos[w] < ub and w not in seen:
                    seen.add(w)
                    stack.append(w)
        backward, stack, seen_b = [], [x], {x}
        while stack:
            v = stack.pop()
            backward.append(v)
            for w in pred_kind(v, self.kind):
                if w in pos and pos[w] > lb and w not in seen_b:
                    seen_b.add(w)
                    stack.append(w)
        backward.sort(key=pos.__getitem__)
        forward.sort(key=pos.__getitem__)
        slots = sorted(pos[v] for v in backward + forward)
        for v, p in zip(backward + forward, slots):
            pos[v] = p
        return None

    def update(self, vertices) -> list:
        """After a transition: insert every edge out of the touched vertices. Both ends of an
        edge that may be new are among `vertices` (GraphIndex.vertices: the journal's
        touched elements with their adjacent links and nodes, and the root and door links of
        a touched box), so its source's successors find it. A vertex is placed in the order
        when an edge of the kind first meets it: most nodes have none (their links are plain)
        and are never placed; the searches of `insert` follow edges, so they only meet
        placed vertices."""
        kind, pos = self.kind, self.pos
        for v in vertices:
            if not isinstance(v, G.Node) and v.type.kind != kind:
                continue
            succs = succ_kind(v, kind)
            if not succs:
                continue
            if v not in pos:
                self._place(v)
            for w in succs:
                if w not in pos:
                    self._place(w)
                if pos[v] < pos[w]:
                    continue  # the edge agrees with the order
                cycle = self.insert(v, w)
                if cycle is not None:
                    return cycle
        return []

    def forget(self, vertices) -> None:
        for v in vertices:
            self.pos.pop(v, None)


class _Guards:
    """The covering conditions as guarded targets: a λ's bound-variable link must not be
    reachable from the root without passing the λ's input; an A- or P-node must not be
    reachable from the root without passing a ?-node. For each guard, the region is what a
    backward search from its target meets before its blockers; the guard holds iff the root
    is not in it (the same verdict as dominators / the forward search). A region is closed
    under the predecessors that are not blockers; a transition can break that closure only
    with a new edge into the region (its target is touched, and its predecessors now differ
    from those seen at the last look) or with a ?-node that stopped being one (touched). So
    only those predecessors are added and searched from; a guard whose own node was touched
    is searched again from scratch (see `update`)."""

    def __init__(self, graph: G.Graph):
        self.region: dict = {}  # guard node -> set of vertices
        self.index: dict = {}  # vertex -> set of guard nodes
        self.problems: dict = {}  # guard node -> problem
        self.exact: dict = {}  # guard node -> size of its region when last searched from scratch
        self.seen: dict = {}  # vertex of some region -> its predecessors at the last look
        self.whys = {n for n in graph.nodes if n.kind == G.WHY}  # the ?-nodes at the last look
        memo: dict = {}
        for n in graph.nodes:
            if self._is_guard(n):  # (refresh leaves every other node as it is: no region)
                self.refresh(graph, n, memo)

    @staticmethod
    def _is_guard(n: G.Node) -> bool:
        return (n.kind == G.LAM and len(n.outs) > 1 and n.outs[1] is not None) or n.kind in (G.ABD, G.PROJ)

    def _drop(self, n) -> None:
        for v in self.region.pop(n, ()):
            guards = self.index.get(v)
            if guards is not None:
                guards.discard(n)
                if not guards:
                    del self.index[v]
                    self.seen.pop(v, None)
        self.problems.pop(n, None)
        self.exact.pop(n, None)

    def refresh(self, graph: G.Graph, n: G.Node, memo: dict) -> None:
        """Search the guard's region from scratch (`memo`: predecessors already computed on
        this graph)."""
        self._drop(n)
        if n not in graph.nodes or not self._is_guard(n) or graph.root is None:
            return
        target = n.outs[1] if n.kind == G.LAM else n
        region = {target}
        self.region[n] = region
        self.index.setdefault(target, set()).add(n)
        self._grow(n, region, [target], memo)
        self.exact[n] = len(region)
        if graph.root in region:
            self.problems[n] = uncovered_problem(n)

    def _blocked(self, n: G.Node, v) -> bool:
        if n.kind == G.LAM:
            return v is n.ins[0]
        return isinstance(v, G.Node) and v.kind == G.WHY

    def _preds(self, v, memo: dict) -> tuple:
        p = memo.get(v)
        if p is None:
            p = memo[v] = tuple(pred_all(v))
        return p

    def _grow(self, n, region: set, stack: list, memo: dict) -> None:
        """Close the region under non-blocked predecessors, searching from `stack` (vertices
        of the region)."""
        index, seen = self.index, self.seen
        while stack:
            v = stack.pop()
            preds = seen[v] = self._preds(v, memo)
            for w in preds:
                if w not in region and not self._blocked(n, w):
                    region.add(w)
                    index.setdefault(w, set()).add(n)
                    stack.append(w)

    def update(self, graph: G.Graph, vertices) -> list:
        """Only the guards whose own node was touched are searched again from scratch. Other
        regions grow from the edges that may be new into them: the predecessors of a touched
        vertex of the region that were not among those seen at the last look (all of them
        for a vertex never seen), and the edges out of a touched node that stopped being a
        ?-node. A region is kept as a superset (what an edge deletion removed stays), which
        can only make the root seem reachable: that is confirmed by a search from scratch,
        as is a region grown to twice its exact size."""
        memo: dict = {}
        recompute, starts = set(), {}
        index, seen, whys = self.index, self.seen, self.whys
        for v in vertices:
            if isinstance(v, G.Node):
                if v in self.region or self._is_guard(v):
                    recompute.add(v)
                if v.kind == G.WHY:
                    whys.add(v)
                elif v in whys:  # no longer a blocker: its edges into regions are new to them
                    whys.discard(v)
                    for w in succ_all(v):
                        for n in index.get(w, ()):
                            starts.setdefault(n, []).append(v)
            guards = index.get(v)
            if guards:
                now = self._preds(v, memo)
                before = seen.get(v)
                new = now if before is None else [u for u in now if u not in before]
                seen[v] = now
                if new:
                    for n in guards:
                        starts.setdefault(n, []).extend(new)
        root = graph.root
        for n, new in starts.items():
            if n in recompute:
                continue
            region = self.region[n]
            stack = []
            for u in new:
                if u not in region and not self._blocked(n, u):
                    region.add(u)
                    index.setdefault(u, set()).add(n)
                    stack.append(u)
            if not stack:
                continue
            self._grow(n, region, stack, memo)
            if root in region or len(region) > 2 * self.exact[n] + 64:
                recompute.add(n)
        for n in recompute:
            self.refresh(graph, n, memo)
        return [self.problems[n] for n in recompute if n in self.problems]


class GraphIndex:
    """The graph criterion kept up to date from a journal (the incremental form of
    `graph_problems`, with its verdicts)."""

    def __init__(self, graph: G.Graph):
        self.orders = {kind: _Order(graph, kind) for kind in ("!", "¡")}
        self.guards = _Guards(graph)

    @staticmethod
    def vertices(graph: G.Graph, journal) -> list:
        """The live vertices at which an edge may have appeared or a guard changed: the
        touched nodes and links (semantics.journal.touched), and for a box whose doors or
        principal changed, its root and the inner links of its doors (the jumps)."""
        nodes, links, boxes = touched(graph, journal)
        for n in nodes:
            if n.door_of is not None:
                boxes.add(n.door_of)
        for box in boxes:
            p = box.principal
            if p is not None and p in graph.nodes:
                nodes.add(p)
                if p.outs and p.outs[0] is not None:
                    links.add(p.outs[0])
            for d in box.doors:
                if d.ins and d.ins[0] is not None and d.ins[0] in graph.links:
                    links.add(d.ins[0])
        if graph.root is not None:
            links.add(graph.root)
        return [*nodes, *links]

    def update(self, graph: G.Graph, journal) -> list[tuple[str, list]]:
        vertices = self.vertices(graph, journal)
        problems: list[tuple[str, list]] = []
        dead_nodes = [v for v in journal.nodes if v is not None and v not in graph.nodes]
        dead = dead_nodes + [v for v in journal.links if v is not None and v not in graph.links]
        for kind, order in self.orders.items():
            order.forget(dead)
            cycle = order.update(vertices)
            if cycle:
                problems.append(cycle_problem(kind, cycle))
        for n in dead_nodes:
            if n in self.guards.region:
                self.guards._drop(n)
        problems += self.guards.update(graph, vertices)
        return problems


def graph_problems_incremental(machine) -> list[tuple[str, list]]:
    """graph_problems of the current graph, from the machine's shared GraphIndex."""
    return incremental.update(machine, "graph", GraphIndex, graph_problems_now)


@declare
class GraphCriterion(GraphCheck):
    """Acyclicity of box-paths and directed provisional paths; covering links (the graph criterion)."""

    name = "graph"
    order = 30
    implements = "Defs. 4.2 \"Box-reachability\", B.6 \"Covering links\", B.7 \"Graph criterion\"; Prop. B.8"
    values = "independent: paths, boxes and covering links of the graph"
    reads_journal = False  # its index (checks.incremental) keeps its own

    def problems(self, machine):
        return graph_problems_now(machine)

    def start_incremental(self, machine) -> None:
        incremental.start(machine, "graph", GraphIndex)

    def problems_touched(self, machine, journal):
        return graph_problems_incremental(machine)
