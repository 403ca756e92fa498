"""Graphviz DOT rendering of a graph state, for people to look at.

Drawn as in the paper: edges point upward (rankdir=BT), the root at the bottom;
!-boxes are nested clusters (their doors drawn at the level outside them, as in
the graph); provisional nodes are red, the ¡-constants of (p⃗)‡ at the top; the
token's link is a thick red edge, and the token data is the graph's caption.
"""

from __future__ import annotations

from typing import Iterator, NamedTuple, Optional

from . import graph as G
from . import show

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


class Placement(NamedTuple):
    """Positions given to Graphviz instead of asking it for a layout (its nop2 engine only
    draws): node name -> (x, y), box id -> bounding box (x0, y0, x1, y1), the drawing's
    bounding box; points, y upward."""

    nodes: dict
    boxes: dict
    bounds: tuple
    label_height: float  # a box's label sits in this band at its bottom (rankdir=BT)


ROOT = "root"  # the point the root link leaves from


def name(node: G.Node) -> str:
    """A node's DOT name (also its SVG id)."""
    return f"n{node.id}"


def ends(link: G.Link) -> tuple[str, str]:
    """The DOT names of the nodes a link joins (a point for the root and for an open end)."""
    return (ROOT if link.src is None else name(link.src), f"out{link.id}" if link.dst is None else name(link.dst))


def removed(graph: G.Graph) -> list[G.Node]:
    """The nodes a link still joins that are no longer in the graph, by id: none in a
    well-formed graph; a broken rule (a variant's, a mutant's) can leave them, and the `form`
    check reports it. They are drawn, marked, so the picture of a violation shows them."""
    return sorted({n for link in graph.links for n in (link.src, link.dst) if n is not None and n not in graph.nodes},
                  key=lambda n: n.id)


def _pos(place: Optional[Placement], name: str) -> str:
    if place is None:
        return ""
    x, y = place.nodes[name]
    return f' pos="{x:.2f},{y:.2f}"'


def node_style(node: G.Node) -> str:
    """A node's DOT attributes as drawn (label, shape, colour), without its name or place."""
    shape = _SHAPES.get(node.kind, "ellipse")
    color = ' color="red" fontcolor="red"' if node.kind in _PROVISIONAL else ""
    if node.kind == G.ABD:
        color = ' color="blue" fontcolor="blue"'
    return f'label="{_escape(G.label(node))}" shape={shape}{color}'


def link_label(link: G.Link) -> str:
    return f"ℓ{link.id}: {_escape(str(link.type))}"


def link_style(link: G.Link, token_link: Optional[G.Link] = None) -> list:
    """A link's DOT attributes as drawn (dashed into a variable, red for ¡-types, thick red
    for the token's), without its id or label."""
    attrs = []
    if link.dst_port == G.VAR:
        attrs.append("style=dashed constraint=false")
    if link.type.kind == "¡":
        attrs.append("color=red")
    if link is token_link:
        attrs.append("color=red penwidth=3")
    return attrs


def _node_line(node: G.Node, place: Optional[Placement] = None) -> str:
    n = name(node)
    return f'{n} [id="{n}" {node_style(node)}{_pos(place, n)}];'


def _box_lines(graph: G.Graph, place: Optional[Placement] = None) -> Iterator[str]:
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
            yield f'{pad}  id="box{box.id}";'
            yield f'{pad}  label="box {box.id}"; style=rounded; color=gray40;'
            if place is not None:
                x0, y0, x1, y1 = place.boxes[box.id]
                yield f'{pad}  bb="{x0:.2f},{y0:.2f},{x1:.2f},{y1:.2f}"; lp="{(x0 + x1) / 2:.2f},{y0 + place.label_height / 2:.2f}";'
            inner, members, children, below = "  " * min(depth + 2, 8), box.nodes, box.children, depth + 1
            todo.append(("close", box, depth))
        for node in sorted(members, key=lambda n: n.id):
            yield inner + _node_line(node, place)
        for child in sorted(children, key=lambda b: b.id, reverse=True):
            todo.append(("enter", child, below))


def to_dot(graph: G.Graph, machine=None, title: str = "") -> str:
    """The graph state as one DOT text."""
    return "\n".join(dot_lines(graph, machine, title)) + "\n"


FONT = "DejaVu Sans"


def dot_lines(graph: G.Graph, machine=None, title: str = "", place: Optional[Placement] = None,
              link_labels: bool = True) -> Iterator[str]:
    """The DOT text line by line (for writing a large graph without holding its text); with
    `place`, every node's position and every box's bounding box are given. Without
    `link_labels`, a link's number and type are its tooltip, not a label drawn beside it
    (half the cost of drawing a large graph, which its labels would clutter anyway)."""
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
            f"step {machine.steps}: token at ℓ{t.position.id} {t.direction}, flag {show.flag(t.flag)}, "
            f"S = {show.stack(t.stack, machine.field.show)}, B = {show.box_stack(t.box_stack)}"
        )
    if caption:
        newline = "\\n"  # DOT's line break inside a label
        yield f'  label="{newline.join(_escape(c) for c in caption)}"; labelloc=t;'

    if place is not None:
        x0, y0, x1, y1 = place.bounds
        yield f'  bb="{x0:.2f},{y0:.2f},{x1:.2f},{y1:.2f}"; splines=line;'
        # invisible corners: Graphviz fits the drawing to what it holds, so they keep it this size
        yield f'  corner0 [shape=point width=0 height=0 style=invis pos="{x0:.2f},{y0:.2f}"]; corner1 [shape=point width=0 height=0 style=invis pos="{x1:.2f},{y1:.2f}"];'
    yield from _box_lines(graph, place)
    yield f'  {ROOT} [shape=point{_pos(place, ROOT)}];'
    for node in removed(graph):
        yield (f'  {name(node)} [label="{_escape(G.label(node))} (not in the graph)" shape=box style=dashed '
               f'color=red fontcolor=red{_pos(place, name(node))}];')
    for link in sorted(graph.links, key=lambda l: l.id):
        src, dst = ends(link)
        if link.dst is None:
            yield f"  {dst} [shape=point{_pos(place, dst)}];"
        text = link_label(link)
        attrs = [f'id="l{link.id}" ' + (f'label="{text}"' if link_labels else f'tooltip="{text}"')]
        attrs += link_style(link, token_link)
        yield f"  {src} -> {dst} [{' '.join(attrs)}];"
    yield "}"


class DotFiles:
    """Pictures of a run written as new files in one folder, within a byte budget in all
    (`goi run --dot DIR --max-dot-bytes N`).

    A file goi has not just created is never overwritten, and a link planted at its name is
    never followed (O_EXCL | O_NOFOLLOW). Past the budget, pictures are skipped (and
    counted), not written; once one is skipped the rest are not even drawn."""

    def __init__(self, directory: str, max_bytes: int):
        self.directory = directory
        self.max_bytes = max_bytes
        self.written = 0
        self.skipped = 0
        self.bytes = 0

    def picture(self, name: str, title: str, machine) -> None:
        import os

        from .errors import ReadError

        if self.skipped:
            self.skipped += 1
            return
        path = os.path.join(self.directory, name)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except FileExistsError:
            raise ReadError(f"--dot {self.directory}: {name} exists already; goi writes only new files (use an empty directory)") from None
        except OSError as exc:
            raise ReadError(f"--dot {self.directory}: cannot write {name}: {exc.strerror}") from None
        room, size = self.max_bytes - self.bytes, 0
        with os.fdopen(fd, "wb") as handle:
            for line in dot_lines(machine.graph, machine, title):
                data = (line + "\n").encode("utf-8")
                size += len(data)
                if size > room:
                    break
                handle.write(data)
        if size > room:  # over the budget: this picture is not kept
            os.unlink(path)
            self.skipped += 1
            return
        self.written += 1
        self.bytes += size

    def to_json(self) -> dict:
        return {"files": self.written, "skipped": self.skipped, "bytes": self.bytes}
