"""`goi view`'s pictures follow a rewrite (reports/stable_layout.py): between two pictures
Graphviz did not lay out anew, every node that survived is drawn at the same place; and
every picture tells box membership truly — a node is drawn inside a box exactly when it is
in that box or in a box inside it. Both read from the SVG the page shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pygraphviz")

from goi import execution  # noqa: E402
from goi.reports.stable_layout import StableLayout  # noqa: E402

PROGRAMS = Path(__file__).parent / "programs" / "visualiser"
GROUP = re.compile(r'<g id="((?:n|box)\d+)" class="(node|cluster)">(.*?)</g>', re.S)
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _extent(shape: str) -> tuple:
    """The bounding box of an SVG node or cluster shape, from its coordinates."""
    ellipse = re.search(r'cx="([-\d.]+)" cy="([-\d.]+)" rx="([-\d.]+)" ry="([-\d.]+)"', shape)
    if ellipse:
        cx, cy, rx, ry = map(float, ellipse.groups())
        return cx - rx, cy - ry, cx + rx, cy + ry
    outline = re.search(r'(?:points|d)="([^"]*)"', shape)
    numbers = [float(v) for v in NUMBER.findall(outline.group(1))]
    xs, ys = numbers[0::2], numbers[1::2]
    return min(xs), min(ys), max(xs), max(ys)


def drawn(svg: str) -> tuple[dict, dict]:
    """(node id -> centre, box id -> bounding box) where the SVG draws them on the page (its
    coordinates moved by the drawing's translation, as the browser shows them)."""
    dx, dy = map(float, re.search(r'class="graph" transform="[^"]*translate\(([-\d.]+) ([-\d.]+)\)', svg).groups())
    nodes, boxes = {}, {}
    for name, kind, body in GROUP.findall(svg):
        x0, y0, x1, y1 = _extent(body)
        x0, y0, x1, y1 = x0 + dx, y0 + dy, x1 + dx, y1 + dy
        if kind == "node":
            nodes[int(name[1:])] = ((x0 + x1) / 2, (y0 + y1) / 2)
        else:
            boxes[int(name[3:])] = (x0, y0, x1, y1)
    return nodes, boxes


def pictures(name: str) -> list:
    """Each picture of a run (one per change of the graph): (svg, drawn anew, nodes moved
    aside, box id -> ids of the nodes it holds)."""
    ex = execution.prepare((PROGRAMS / name).read_text(encoding="utf-8"))
    layout, seen, out = StableLayout(), [None], []

    def picture(m, _rule, _redex):
        if m.graph.version != seen[0]:
            seen[0] = m.graph.version
            svg, anew = layout.draw(m.graph)
            out.append((svg, anew, layout.moved, {b.id: {n.id for n in m.graph.contents(b)[0]} for b in m.graph.boxes}))

    ex.machine.after.append(picture)
    assert ex.run(20_000).status == "final"
    return out


@pytest.fixture(scope="module", params=["escapes.goi", "church_numerals_prog.goi"])
def run_pictures(request):
    return pictures(request.param)


def test_nodes_keep_their_place_between_pictures_not_laid_out_anew(run_pictures):
    kept = 0
    for (before, _, _, _), (after, anew, moved, _) in zip(run_pictures, run_pictures[1:]):
        if anew:
            continue
        old, new = drawn(before)[0], drawn(after)[0]
        elsewhere = [n for n in old.keys() & new.keys() if max(abs(old[n][0] - new[n][0]), abs(old[n][1] - new[n][1])) > 0.5]  # SVG rounds to 0.1
        assert len(elsewhere) <= moved, (elsewhere, moved)  # only the nodes moved aside, and it says so
        kept += not moved
    # most pictures keep every node in place: Graphviz does not lay out each one anew
    assert kept >= len(run_pictures) // 2, (kept, len(run_pictures))


def test_every_picture_tells_box_membership_truly(run_pictures):
    for i, (svg, anew, _, members) in enumerate(run_pictures):
        nodes, boxes = drawn(svg)
        assert boxes.keys() == members.keys(), i
        for box, (x0, y0, x1, y1) in boxes.items():
            inside = {n for n, (x, y) in nodes.items() if x0 < x < x1 and y0 < y < y1}
            assert inside == members[box], (i, "laid out anew" if anew else "positions kept", box,
                                             inside ^ members[box])
