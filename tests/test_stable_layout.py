"""`goi view`'s pictures follow a rewrite (reports/stable_layout.py): between two pictures
Graphviz did not lay out anew, every node that survived is drawn at the same place; and
every picture tells box membership truly — a node is drawn inside a box exactly when it is
in that box or in a box inside it. Both read from the SVG the page shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("pygraphviz")

from goi.generators.typed import programs  # noqa: E402
from goi.properties.profiles import current  # noqa: E402

from goi import execution  # noqa: E402
from goi.reports.stable_layout import StableLayout  # noqa: E402

PROGRAMS = Path(__file__).parent / "programs" / "visualiser"
CONFIG = current()
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


def pictures(program, max_pictures: int = 10_000, **options) -> list:
    """Each picture of a run (one per change of the graph, at most `max_pictures`): (svg,
    drawn anew, ids of the nodes it says it moved aside, box id -> ids of the nodes it holds).
    `program`: an example's file name, or a term; options as goi.run's (strategy, seed)."""
    text = (PROGRAMS / program).read_text(encoding="utf-8") if isinstance(program, str) else program
    ex = execution.prepare(text, **options)
    layout, seen, out = StableLayout(), [None], []

    def picture(m, _rule, _redex):
        if m.graph.version != seen[0] and len(out) < max_pictures:
            seen[0] = m.graph.version
            svg, anew = layout.draw(m.graph)
            moved = {int(name[1:]) for name in layout.moved_nodes if name[1:].isdigit()}  # n<id>: not the interface
            out.append((svg, anew, moved, {b.id: {n.id for n in m.graph.contents(b)[0]} for b in m.graph.boxes}))

    ex.machine.after.append(picture)
    assert ex.run(20_000).status == "final"
    return out


def broken_promises(run: list) -> list:
    """Where the pictures mislead: a picture not laid out anew that shows a surviving node
    elsewhere without saying it moved it, or a node drawn inside a box it is not in (or
    outside one it is in). Read from the SVG the page shows."""
    found = []
    for i, (svg, anew, moved, members) in enumerate(run):
        nodes, boxes = drawn(svg)
        if i and not anew:
            old = drawn(run[i - 1][0])[0]
            elsewhere = {n for n in old.keys() & nodes.keys()
                         if max(abs(old[n][0] - nodes[n][0]), abs(old[n][1] - nodes[n][1])) > 0.5}  # SVG rounds to 0.1
            if elsewhere - moved:
                found.append((i, "moved without saying so", sorted(elsewhere - moved)))
        if boxes.keys() != members.keys():
            found.append((i, "boxes drawn", sorted(boxes), sorted(members)))
            continue
        for box, (x0, y0, x1, y1) in boxes.items():
            inside = {n for n, (x, y) in nodes.items() if x0 < x < x1 and y0 < y < y1}
            if inside != members[box]:
                found.append((i, "box membership", box, sorted(inside ^ members[box])))
    return found


@pytest.fixture(scope="module", params=["escapes.goi", "church_numerals_prog.goi"])
def run_pictures(request):
    return pictures(request.param)


def test_nodes_keep_their_place_between_pictures_not_laid_out_anew(run_pictures):
    assert broken_promises(run_pictures) == []
    kept = sum(1 for _svg, anew, moved, _members in run_pictures[1:] if not anew and not moved)
    # most pictures keep every node in place: Graphviz does not lay out each one anew
    assert kept >= len(run_pictures) // 2, (kept, len(run_pictures))


@pytest.mark.parametrize("seed", range(6))
def test_the_promise_holds_on_every_legal_order_of_the_absorptions(seed):
    """Another ?-phase order (Prop. Determinism: every order is a legal run) gives other
    pictures; they must keep the promise too. Seed 0 once found 27 nodes shifted where the
    picture said 3: a node moved aside past the drawing's left edge moved the whole picture."""
    assert broken_promises(pictures("escapes.goi", strategy="random", seed=seed)) == []


@settings(max_examples=max(8, CONFIG.examples // 4), deadline=None, suppress_health_check=list(HealthCheck))
@given(programs(max_depth=4), st.integers(0, 2**16))
def test_the_promise_holds_on_generated_programs(term, seed):
    """On generated programs, with a random ?-phase order: every picture that was not laid out
    anew keeps every surviving node where it was except those it says it moved, and draws
    every node inside exactly the boxes it is in."""
    assert broken_promises(pictures(term, max_pictures=40, strategy="random", seed=seed)) == []
