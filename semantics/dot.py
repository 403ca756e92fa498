"""Graphviz DOT rendering of a graph state, for people to look at.

Drawn as in the paper: edges point upward (rankdir=BT), the root at the bottom;
!-boxes are nested clusters (their doors drawn at the level outside them, as in
the graph); provisional nodes are red, the ¡-constants of (p⃗)‡ at the top; the
token's link is a thick red edge, and the token data is the graph's caption.
"""

from __future__ import annotations

from typing import Iterator

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


def _node_line(node: G.Node) -> str:
    shape = _SHAPES.get(node.kind, "ellipse")
    color = ' color="red" fontcolor="red"' if node.kind in _PROVISIONAL else ""
    if node.kind == G.ABD:
        color = ' color="blue" fontcolor="blue"'
    return f'n{node.id} [id="n{node.id}" label="{_escape(G.label(node))}" shape={shape}{color}];'


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
            yield f'{pad}  id="box{box.id}";'
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
            f"step {machine.steps}: token at ℓ{t.position.id} {t.direction}, flag {show.flag(t.flag)}, "
            f"S = {show.stack(t.stack, machine.field.show)}, B = {show.box_stack(t.box_stack)}"
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
        attrs = [f'id="l{link.id}" label="ℓ{link.id}: {_escape(str(link.type))}"']
        if link.dst_port == G.VAR:
            attrs.append("style=dashed constraint=false")
        if link.type.kind == "¡":
            attrs.append("color=red")
        if link is token_link:
            attrs.append("color=red penwidth=3")
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
