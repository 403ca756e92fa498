"""Graphviz DOT rendering of a graph state, for people to look at.

Drawn as in the paper: edges point upward (rankdir=BT), the root at the bottom;
!-boxes are nested clusters (their doors drawn at the level outside them, as in
the graph); provisional nodes are red, the ¡-constants of (p⃗)‡ at the top; the
token's link is a thick red edge, and the token data is the graph's caption.
"""

from __future__ import annotations

from typing import Iterator

from . import graph as G
from .token import show_box_stack, show_flag, show_stack

_SHAPES = {
    G.LAM: "circle",
    G.APP: "circle",
    G.BANG: "invtriangle",
    G.WHY: "triangle",
    G.PWHY: "triangle",
    G.PBANG: "invtriangle",
    G.CONST: "box",
    G.VCONST: "box",
    G.ABD: "doublecircle",
}
_PROVISIONAL = {G.PWHY, G.PBANG, G.PDER, G.PCON}


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _node_line(node: G.Node) -> str:
    shape = _SHAPES.get(node.kind, "ellipse")
    color = ' color="red" fontcolor="red"' if node.kind in _PROVISIONAL else ""
    if node.kind == G.ABD:
        color = ' color="blue" fontcolor="blue"'
    return f'n{node.id} [label="{_escape(G.label(node))}" shape={shape}{color}];'


def _box_lines(graph: G.Graph) -> Iterator[str]:
    """Nodes level by level, each box a cluster inside its parent's. Iterative (boxes nest as
    deep as the program), and indented at most a few levels, so the text stays linear in the
    graph's size (and no recursive closure keeps it alive in a reference cycle)."""
    todo: list = [("enter", None, 0)]
    while todo:
        action, box, depth = todo.pop()
        pad = "  " * min(depth + 1, 8)
        if action == "close":
            yield pad + "}"
            continue
        if box is None:
            inner, members, children, below = pad, graph.top, graph.top_boxes, 0
        else:
            yield f"{pad}subgraph cluster_box{box.id} {{"
            yield f'{pad}  label="box {box.id}"; style=rounded; color=gray40;'
            inner, members, children, below = "  " * min(depth + 2, 8), box.nodes, box.children, depth + 1
            todo.append(("close", box, depth))
        for node in sorted(members, key=lambda n: n.id):
            yield inner + _node_line(node)
        for child in sorted(children, key=lambda b: b.id, reverse=True):
            todo.append(("enter", child, below))


def to_dot(graph: G.Graph, machine=None, title: str = "") -> str:
    """The graph state as one DOT text."""
    return "\n".join(dot_lines(graph, machine, title)) + "\n"


FONT = "DejaVu Sans"


def dot_lines(graph: G.Graph, machine=None, title: str = "") -> Iterator[str]:
    """The DOT text line by line (for writing a large graph without holding its text)."""
    # one font for every label, the graph's and the boxes' too: DejaVu Sans has every glyph the
    # labels use (¡ ¿ ℓ λ ★ □), which a default font such as Times may lack
    yield from ["digraph goi {", "  rankdir=BT;", f'  graph [fontname="{FONT}"];', f'  node [fontname="{FONT}" fontsize=11];',
                f'  edge [fontname="{FONT}" fontsize=8];']
    caption = [title] if title else []
    token_link = None
    if machine is not None:
        t = machine.token
        token_link = t.position
        caption.append(
            f"step {machine.steps}: token at ℓ{t.position.id} {t.direction}, flag {show_flag(t.flag)}, "
            f"S = {show_stack(t.stack, machine.field.show)}, B = {show_box_stack(t.box_stack)}"
        )
    if caption:
        newline = "\\n"  # DOT's line break inside a label
        yield f'  label="{newline.join(_escape(c) for c in caption)}"; labelloc=t;'

    yield from _box_lines(graph)
    yield '  root [shape=point];'
    for link in sorted(graph.links, key=lambda l: l.id):
        src = f"n{link.src.id}" if link.src is not None else "root"
        if link.dst is None:
            dst = f"out{link.id}"
            yield f"  {dst} [shape=point];"
        else:
            dst = f"n{link.dst.id}"
        attrs = [f'label="ℓ{link.id}: {_escape(str(link.type))}"']
        if link.dst_port == G.VAR:
            attrs.append("style=dashed constraint=false")
        if link.type.kind == "¡":
            attrs.append("color=red")
        if link is token_link:
            attrs.append("color=red penwidth=3")
        yield f"  {src} -> {dst} [{' '.join(attrs)}];"
    yield "}"
