"""Graphviz, whichever build the pictures are drawn by: pygraphviz (whose wheels bundle
Graphviz) under CPython, or Graphviz compiled to WebAssembly (`@viz-js/viz`) in the browser
playground, where goi runs under Pyodide (docs/PLAYGROUND.md). The pictures ask one thing of
it: lay a DOT text out with an engine (`dot`, or `nop2` to draw at given positions), and give
back the nodes' places and sizes, the bounding box and, when asked, the SVG."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable, Optional

from .pictures import quiet_graphviz, require, svg_text

# the browser's Graphviz: render(dot, engine, formats) -> {format: text}, set by use()
_render: Optional[Callable] = None


@dataclass
class Laid:
    """A graph as Graphviz laid it out: node name -> (x, y, width, height) in points (y
    upward), the bounding box (x0, y0, x1, y1), and the SVG when it was asked for."""

    nodes: dict = field(default_factory=dict)
    bb: tuple = (0.0, 0.0, 0.0, 0.0)
    svg: Optional[str] = None


def use(render: Optional[Callable]) -> None:
    """Draw with `render(dot, engine, formats)` (a mapping of each format asked, `json` and
    `svg`, to Graphviz's output) instead of pygraphviz; None goes back to pygraphviz."""
    global _render
    _render = render


def lay_out(dot: str, engine: str, options: Optional[dict] = None, svg: bool = False) -> Laid:
    """`dot` laid out by Graphviz's `engine`, with the graph attributes `options` added."""
    if options:
        head, _, rest = dot.partition("{")
        dot = head + "{ graph [" + " ".join(f'{k}="{v}"' for k, v in options.items()) + "];" + rest
    if _render is not None:
        return _from_json(_render(dot, engine, ["json", "svg"] if svg else ["json"]), svg)
    pgv = require("pygraphviz")
    drawing = pgv.AGraph(string=dot)
    with quiet_graphviz():  # once for both of Graphviz's calls (it sets aside and reads back fd 2 each time)
        drawing.layout(prog=engine)
        laid = Laid(bb=_box(drawing.graph_attr["bb"]))  # read before drawing: the SVG renderer rewrites the attributes
        for node in drawing.nodes():
            x, y = node.attr["pos"].split(",")[:2]
            laid.nodes[str(node)] = (float(x), float(y), 72 * float(node.attr["width"]), 72 * float(node.attr["height"]))
        if svg:
            laid.svg = svg_text(drawing.draw(format="svg"))
    return laid


def _box(text: str) -> tuple:
    x0, y0, x1, y1 = (float(v) for v in text.split(","))
    return (x0, y0, x1, y1)


def _from_json(output, svg: bool) -> Laid:
    """Graphviz's `json` output (its objects: the clusters, then the nodes) read as a Laid."""
    data = json.loads(output["json"])
    laid = Laid(bb=_box(data["bb"]))
    for obj in data.get("objects", ()):
        if "pos" in obj and "width" in obj:  # a node (a cluster has a bb, not a pos)
            x, y = obj["pos"].split(",")[:2]
            laid.nodes[obj["name"]] = (float(x), float(y), 72 * float(obj["width"]), 72 * float(obj["height"]))
    if svg:
        laid.svg = svg_text(output["svg"])
    return laid
