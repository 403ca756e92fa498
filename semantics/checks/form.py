"""Check `form`: the graph is a well-formed composite graph (Prop. "Form preservation").

- every node has the arity of its kind and every port a link whose ends point back to it;
- link types match the node signatures of docs/RULES.md ("Node signatures");
- the root is the only input, and there is no dangling output (a closed composite graph);
- box nesting: doors sit at the level outside their box, a box's root and its doors' inner
  links are the only links crossing its border, every node is in its box's member set;
- the ¡-constants of (p⃗)‡ are the initial ones, in the same order, over unchanged values.

Cost: O(size of the graph), run after each transition that changes the graph (a pass or a
flag-only rewrite leaves the graph as it was, so the previous result stands), or on the
sampling schedule of checks.Policy.
"""

from __future__ import annotations

from .. import core as C
from .. import graph as G
from ..types import Arrow, F, Vec
from .base import GraphCheck, declare
from ..journal import touched

ARITY = {
    G.LAM: (1, 2), G.APP: (1, 2), G.CONST: (1, 0), G.VCONST: (1, 0), G.OP0: (1, 2), G.OP1: (1, 2),
    G.BANG: (1, 1), G.WHY: (1, 1), G.PWHY: (1, 1), G.PBANG: (1, 1), G.DER: (1, 1), G.PDER: (1, 1),
    G.CON: (None, 1), G.PCON: (None, 1), G.PROJ: (None, 1), G.ABD: (2, 1),
}


def _is(etype, kind, t=None) -> bool:
    return etype.kind == kind and (t is None or etype.type == t)


def signature_problems(n: G.Node) -> list[str]:
    """Type mismatches of the node's links against its signature."""
    k, ins, outs = n.kind, n.ins, n.outs
    bad = []

    def need(cond, what):
        if not cond:  # the message is built only for a problem
            bad.append(what())

    if k == G.LAM:
        inp, body, var = ins[0].type, outs[0].type, outs[1].type
        need(_is(inp, "") and isinstance(inp.type, Arrow), lambda: f"input {inp} is not a function type")
        if isinstance(inp.type, Arrow):
            need(_is(body, "", inp.type.cod), lambda: f"body {body} is not {inp.type.cod}")
            need(_is(var, "!", inp.type.dom), lambda: f"bound variable {var} is not !{inp.type.dom}")
    elif k == G.APP:
        res, fun, arg = ins[0].type, outs[0].type, outs[1].type
        need(_is(fun, "") and isinstance(fun.type, Arrow), lambda: f"function {fun} is not a function type")
        if isinstance(fun.type, Arrow):
            need(_is(res, "", fun.type.cod), lambda: f"input {res} is not {fun.type.cod}")
            need(_is(arg, "!", fun.type.dom), lambda: f"argument {arg} is not !{fun.type.dom}")
    elif k == G.CONST:
        need(_is(ins[0].type, "", F), lambda: f"input {ins[0].type} is not F")
    elif k == G.VCONST:
        need(_is(ins[0].type, "", Vec(n.data[1])), lambda: f"input {ins[0].type} is not V_{n.data[1]}")
    elif k == G.OP0:
        op, name = n.data
        if op not in C.SIGMA:
            return [f"unknown primitive {op}"]
        _sym, left, right, result = C.SIGMA[op]
        kinds = {"F": F, "V": Vec(name) if name else None}
        for link, kind, what in ((ins[0], result, "input"), (outs[0], left, "left"), (outs[1], right, "right")):
            need(_is(link.type, "", kinds[kind]), lambda: f"{what} {link.type} is not {kinds[kind]}")
    elif k == G.OP1:
        op, name = n.data
        va = Vec(name)
        elem = va if op == "iadd" else F
        need(_is(ins[0].type, "", va), lambda: f"input {ins[0].type} is not {va}")
        need(_is(outs[0].type, "!", Arrow(va, elem)), lambda: f"function {outs[0].type} is not !({va} -> {elem})")
        need(_is(outs[1].type, "", va), lambda: f"vector {outs[1].type} is not {va}")
    elif k == G.BANG:
        need(ins[0].type.kind == "!" and _is(outs[0].type, "", ins[0].type.type), lambda: f"{ins[0].type} / {outs[0].type}")
    elif k == G.WHY:
        need(ins[0].type.kind == "!" and ins[0].type == outs[0].type, lambda: f"{ins[0].type} / {outs[0].type}")
    elif k == G.PWHY:
        need(_is(ins[0].type, "¡") and _is(outs[0].type, "¡"), lambda: f"{ins[0].type} / {outs[0].type}")
    elif k == G.PBANG:
        need(_is(ins[0].type, "¡") and _is(outs[0].type, "", F), lambda: f"{ins[0].type} / {outs[0].type}")
        need(outs[0].dst is not None and outs[0].dst.kind == G.CONST, lambda: "¡ not over a constant node")
    elif k == G.DER:
        need(outs[0].type.kind == "!" and _is(ins[0].type, "", outs[0].type.type), lambda: f"{ins[0].type} / {outs[0].type}")
    elif k == G.PDER:
        need(_is(ins[0].type, "", F) and _is(outs[0].type, "¡"), lambda: f"{ins[0].type} / {outs[0].type}")
    elif k == G.CON:
        need(outs[0].type.kind == "!" and all(l.type == outs[0].type for l in ins), lambda: f"inputs {[str(l.type) for l in ins]} / {outs[0].type}")
    elif k == G.PCON:
        need(_is(outs[0].type, "¡") and all(_is(l.type, "¡") for l in ins), lambda: "provisional contraction with a non-¡F link")
    elif k == G.PROJ:
        need(_is(outs[0].type, "!", Vec(n.data)), lambda: f"output {outs[0].type} is not !V_{n.data}")
        need(all(_is(l.type, "!", F) for l in ins), lambda: "projection input not !F")
    elif k == G.ABD:
        a = Vec(n.data)
        model = outs[0].type
        need(model.kind == "!", lambda: f"output {model} is not an argument type")
        need(_is(ins[0].type, "!", Arrow(a, model.type)), lambda: f"f input {ins[0].type} is not !({a} -> {model.type})")
        need(_is(ins[1].type, "!", a), lambda: f"x input {ins[1].type} is not !{a}")
    return bad


def _level_of_link_end(link: G.Link, node: G.Node, as_src: bool):
    """The level at which the link touches `node`: a door's inner side is inside its box."""
    if node.kind == G.BANG and as_src:
        return node.door_of  # the box's root, inside
    if node.kind in (G.WHY, G.PWHY) and not as_src:
        return node.door_of  # a door's inner link, inside
    return node.box


def node_problems(graph: G.Graph, n: G.Node) -> list[tuple[str, list]]:
    """A live node: its arity, its ports' links pointing back to it, its signature, its
    level's member set, and (a ¡) that it is one of (p⃗)‡."""
    problems: list[tuple[str, list]] = []
    arity = ARITY.get(n.kind)
    if arity is None:
        return [(f"unknown node kind {n.kind}", [n])]
    n_in, n_out = arity
    if (n_in is not None and len(n.ins) != n_in) or len(n.outs) != n_out:
        return [(f"{n!r} has {len(n.ins)} inputs and {len(n.outs)} outputs", [n])]
    ok = True
    for i, link in enumerate(n.ins):
        if link is None or link.dst is not n or link.dst_port != i or link not in graph.links:
            problems.append((f"input {i} of {n!r} is not connected back to it", [n]))
            ok = False
    for j, link in enumerate(n.outs):
        var = n.kind == G.LAM and j == 1
        if link is None or link not in graph.links:
            problems.append((f"output {j} of {n!r} has no link", [n]))
            ok = False
        elif var and (link.dst is not n or link.dst_port != G.VAR):
            problems.append((f"the bound variable of {n!r} does not enter it", [n]))
            ok = False
        elif not var and (link.src is not n or link.src_port != j):
            problems.append((f"output {j} of {n!r} is not connected back to it", [n]))
            ok = False
    if ok:
        for what in signature_problems(n):
            problems.append((f"{n!r}: {what}", [n]))
    members = graph.top if n.box is None else n.box.nodes
    if n not in members:
        problems.append((f"{n!r} is missing from its level's member set", [n]))
    if n.kind == G.PBANG and n not in _param_set(graph):
        problems.append(("a ¡-node outside (p⃗)‡", [n]))
    return problems


def _param_set(graph: G.Graph) -> set:
    """The ¡-nodes of (p⃗)‡ as a set (graph.params never changes after translation)."""
    cached = getattr(graph, "_param_set_cache", None)
    if cached is None or cached[0] != len(graph.params):
        cached = (len(graph.params), set(graph.params))
        graph._param_set_cache = cached
    return cached[1]


def link_problems(graph: G.Graph, link: G.Link) -> list[tuple[str, list]]:
    """A live link: a source unless it is the root, a target, live ends, no box border
    crossed except through a door."""
    problems: list[tuple[str, list]] = []
    if link.src is None and link is not graph.root:
        problems.append((f"{link!r} has no source but is not the root", []))
    if link.dst is None:
        problems.append((f"{link!r} is a dangling output (a closed composite graph has none)", [link.src]))
    if link.src is not None and link.dst is not None:
        if link.src not in graph.nodes or link.dst not in graph.nodes:
            problems.append((f"{link!r} touches a deleted node", [link.src, link.dst]))
        elif link.dst_port != G.VAR and _level_of_link_end(link, link.src, True) is not _level_of_link_end(link, link.dst, False):
            problems.append((f"{link!r} crosses a box border other than through a door", [link.src, link.dst]))
    return problems


def box_problems(graph: G.Graph, box: G.Box) -> list[tuple[str, list]]:
    """A live box: a principal door at the level outside it, well-formed auxiliary doors, a
    place among its parent's children."""
    problems: list[tuple[str, list]] = []
    p = box.principal
    if p is None or p.kind != G.BANG or p.door_of is not box or p.box is not box.parent:
        problems.append((f"{box!r} has no principal door at the level outside it", [p]))
    for d in box.doors:
        if d.kind not in (G.WHY, G.PWHY) or d.door_of is not box or d.box is not box.parent or d not in graph.nodes:
            problems.append((f"{box!r} has a malformed auxiliary door {d!r}", [d]))
    siblings = graph.top_boxes if box.parent is None else box.parent.children
    if box not in siblings:
        problems.append((f"{box!r} is missing from its parent's children", []))
    return problems


def root_problems(graph: G.Graph) -> list[tuple[str, list]]:
    if graph.root is None or graph.root.src is not None or graph.root.dst is None:
        return [("the root is missing or not an input", [])]
    if graph.root.type.kind != "":
        return [(f"the root has type {graph.root.type}, not a term type", [])]
    return []


def param_problems(graph: G.Graph, params, which=None) -> list[tuple[str, list]]:
    """The ¡-constants of (p⃗)‡ are the initial ones, in order, at the top level, over
    unchanged values (`which`: only these positions)."""
    if graph.params != [p for p, _ in params]:
        return [("the ¡-constants changed or were reordered", [p for p, _ in params])]
    problems: list[tuple[str, list]] = []
    for i in range(len(params)) if which is None else sorted(which):
        p, initial = params[i]
        value = p.outs[0].dst.data if p.outs and p.outs[0] is not None and p.outs[0].dst is not None else None
        if value != initial or p not in graph.nodes or p.box is not None:
            problems.append((f"the ¡-constant {p!r} changed (was {initial}, is {value})", [p]))
    return problems


def form_problems(graph: G.Graph, params=None) -> list[tuple[str, list]]:
    """The whole-graph check (the reference of the incremental one)."""
    problems: list[tuple[str, list]] = []
    for n in graph.nodes:
        problems += node_problems(graph, n)
    for link in graph.links:
        problems += link_problems(graph, link)
    problems += root_problems(graph)
    for box in graph.boxes:
        problems += box_problems(graph, box)
    if params is not None:
        problems += param_problems(graph, params)
    return problems


def form_problems_touched(graph: G.Graph, params, nodes, links, boxes, index=None) -> list[tuple[str, list]]:
    """The same conditions on what the journal names (semantics.journal.touched): each
    condition above reads only its element and the element's neighbours, and a primitive
    that changes a neighbour touches the element too (the journal records both sides)."""
    problems: list[tuple[str, list]] = []
    for n in nodes:
        problems += node_problems(graph, n)
    for link in links:
        problems += link_problems(graph, link)
    problems += root_problems(graph)
    for box in boxes:
        problems += box_problems(graph, box)
    if params is not None:
        if index is None:
            index = {p: i for i, (p, _) in enumerate(params)}
        which = set()
        for n in nodes:
            if n in index:
                which.add(index[n])
            elif n.kind == G.CONST and n.ins and n.ins[0] is not None and n.ins[0].src in index:
                which.add(index[n.ins[0].src])
        problems += param_problems(graph, params, which)
    return problems


@declare
class Form(GraphCheck):
    """The graph is a well-formed composite graph: arities, link types, boxes and doors, the ¡-constants."""

    name = "form"
    order = 10
    implements = "Prop. 4.3 \"Form preservation\""
    values = ("compares: each ¡-constant's value with its initial one (unchanged values); every other "
              "condition reads kinds, arities, link types and boxes")

    def initial(self, machine) -> None:
        self.params = [(p, p.outs[0].dst.data) for p in machine.graph.params]
        self.index = {p: i for i, (p, _) in enumerate(self.params)}
        super().initial(machine)

    def problems(self, machine):
        return form_problems(machine.graph, self.params)

    def problems_touched(self, machine, journal):
        return form_problems_touched(machine.graph, self.params, *touched(machine.graph, journal), index=self.index)
