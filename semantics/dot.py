"""Graphviz DOT rendering of a graph state, for people to look at.

Drawn as in the paper: edges point upward (rankdir=BT), the root at the bottom;
!-boxes are nested clusters (their doors drawn at the level outside them, as in
the graph); provisional nodes are red, the ¡-constants of (p⃗)‡ at the top; the
token's link is a thick red edge, and the token data is the graph's caption.
"""

from __future__ import annotations

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


def to_dot(graph: G.Graph, machine=None, title: str = "") -> str:
    lines = ["digraph goi {", "  rankdir=BT;", '  node [fontname="DejaVu Sans" fontsize=11];', '  edge [fontname="DejaVu Sans" fontsize=8];']
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
        lines.append(f'  label="{newline.join(_escape(c) for c in caption)}"; labelloc=t;')

    def emit(level, boxes, indent):
        members = graph.top if level is None else level.nodes
        for node in sorted(members, key=lambda n: n.id):
            lines.append(indent + _node_line(node))
        for box in sorted(boxes, key=lambda b: b.id):
            lines.append(f"{indent}subgraph cluster_box{box.id} {{")
            lines.append(f'{indent}  label="box {box.id}"; style=rounded; color=gray40;')
            emit(box, box.children, indent + "  ")
            lines.append(f"{indent}}}")

    emit(None, graph.top_boxes, "  ")
    lines.append('  root [shape=point];')
    for link in sorted(graph.links, key=lambda l: l.id):
        src = f"n{link.src.id}" if link.src is not None else "root"
        if link.dst is None:
            dst = f"out{link.id}"
            lines.append(f"  {dst} [shape=point];")
        else:
            dst = f"n{link.dst.id}"
        attrs = [f'label="ℓ{link.id}: {_escape(str(link.type))}"']
        if link.dst_port == G.VAR:
            attrs.append("style=dashed constraint=false")
        if link.type.kind == "¡":
            attrs.append("color=red")
        if link is token_link:
            attrs.append("color=red penwidth=3")
        lines.append(f"  {src} -> {dst} [{' '.join(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"
