"""Pictures of a graph that changes, whose nodes keep their place (for `goi view`).

Graphviz's dot lays a graph out from scratch: two pictures of graphs that differ by one
rewrite may put every node elsewhere, and the eye loses the rewrite. So dot lays out only
some pictures (*key pictures*); in the pictures after one, every node that survived keeps
the position dot gave it, a new node is put beside the nodes it is linked to (above the
nodes whose links it receives, below those it sends links to, as dot draws them), the
boxes are drawn around their nodes, and Graphviz only draws — its `nop2` engine, which
takes the positions as given and routes the links as straight lines. That is also about
ten times cheaper than a dot layout, which is what lets a long run have hundreds of
pictures.

dot lays the graph out anew when the positions kept would mislead: when more than `share`
of the nodes shown were placed here rather than by dot, when the graph has shrunk below
`shrink` of the nodes dot last laid out (holes), when a new node is linked to no placed
node, when boxes would overlap or a node be drawn inside a box it is not in (after NUDGES
rounds at most of moving aside: a box, with its doors and all it holds, or every node
drawn inside a box it is not in, each by the least shift that clears everything on its
rows, innermost boxes first), or when the drawing would grow past its left or upper edge,
where the page holds it. Why each picture was laid out anew is recorded, and
the page animates every node that moves between two pictures.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Optional

from goi.semantics.dot import ROOT, Placement, dot_lines, ends, removed
from goi.semantics.dot import name as node_name

from .graphviz import lay_out
from .labels import unclutter

RANK = 54.0  # points between a new node and the node it is placed beside, vertically
GAP = 12.0  # points kept free around a node
MARGIN = 8.0  # points between a box and what it holds (dot's cluster margin)
LABEL = 25.5  # points below a box's nodes for its label ("box N"), where dot puts it with rankdir=BT
LAYOUT = {"splines": "line", "mclimit": "0.1"}  # dot's options: straight links, fewer crossing-minimising passes (a third cheaper)
# where dot's layout with LAYOUT draws a node inside a box it is not in (dot reports
# "trouble in init_rank" on some nested clusters), it lays the graph out again with newrank
LAYOUTS = (LAYOUT, {**LAYOUT, "newrank": "true"})
LINK_LABELS_UP_TO = 150  # links drawn with their labels up to this many; beyond, a link's label is its tooltip
PAD = 72.0  # points of room left around dot's layout, for nodes later pictures add
NUDGES = 16  # rounds of moving boxes or nodes aside, at most, before dot lays the graph out anew (a round costs a small fraction of a dot layout)
DEFAULT_SIZE = (54.0, 36.0)  # points, a node dot has not measured yet (dot's default ellipse)


@dataclass
class StableLayout:
    """The positions the pictures so far gave the nodes, and when dot last laid them out."""

    share: float = 0.25  # at most this share of the nodes shown placed here, not by dot
    shrink: float = 0.6  # lay out anew when the graph has fewer nodes than this share of dot's last layout
    positions: dict = field(default_factory=dict)  # node name -> (x, y), points, y upward
    sizes: dict = field(default_factory=dict)  # node name -> (width, height), points, as dot measured it
    bounds: Optional[tuple] = None  # the drawing's bounding box so far (x0, y0, x1, y1)
    placed: set = field(default_factory=set)  # nodes shown that were placed here, not by dot
    laid_out: int = 0  # nodes dot last laid out
    why: Optional[str] = None  # why dot laid out the last picture (None: positions kept)
    moved_nodes: set = field(default_factory=set)  # names of the nodes the last picture moved aside, with their box or out of one
    frame: tuple = (0.0, 0.0)  # where Graphviz put the positions' origin on the page (x shift, top)

    def draw(self, graph) -> tuple[str, bool]:
        """The picture of `graph` (a machine's graph) as SVG text, and whether dot laid it out
        anew (False: every node that was in the previous picture kept its place)."""
        # in id order everywhere (the graph holds sets): the same run, the same pictures
        links = sorted(ends(link) for link in graph.links)
        names = ([node_name(n) for n in sorted(graph.nodes, key=_ID)] + [ROOT] + [dst for _src, dst in links if dst.startswith("out")]
                 + [node_name(n) for n in removed(graph)])
        alive = set(names)
        self.positions = {n: p for n, p in self.positions.items() if n in alive}
        self.placed &= alive
        new = [n for n in names if n not in self.positions]
        boxes: dict = {}
        self.moved_nodes = set()
        self.why = self._why_anew(graph, links, names, new, boxes)
        labels = len(links) <= LINK_LABELS_UP_TO
        if self.why is None:
            self.placed.update(new)
            drawing = self._drawing(graph, boxes, labels)
            if drawing is None:
                self.why = "the graph grew past the picture's left or upper edge"
        if self.why is not None:
            order = _boxes_in_order(graph)
            for options in LAYOUTS:  # dot's clusters can come out wrong ("trouble in init_rank"): newrank then
                self._lay_out("\n".join(dot_lines(graph, link_labels=labels)), names, options)
                self._measure(order, boxes)
                if self._misleads(graph, order, boxes) is None:
                    break
            drawing = self._drawing(graph, boxes, labels, anew=True)
        return unclutter(drawing.svg, drawing.nodes)[0], self.why is not None

    def _drawing(self, graph, boxes: dict, labels: bool, anew: bool = False):
        """The graph laid out by Graphviz's nop2 at the positions given (it only routes the
        links and places their labels). The page's picture is fixed at the drawing's left
        and upper edges (SVG's y runs down from the top), so those must not move: None when
        the drawing would reach past them (dot must lay the graph out anew)."""
        place = Placement(self.positions, boxes, self.bounds, LABEL)
        drawing = lay_out("\n".join(dot_lines(graph, place=place, link_labels=labels)), "nop2", svg=True)
        # Graphviz may move the positions given (the invisible corner at the given lower left
        # shows by how much: dx, dy), and the page shows the drawing from its bounding box.
        # The drawing starts at its bounding box's left edge x0, so a node's place on the page
        # is (x + dx - x0, top - y): a node moved aside past the left edge moves x0, and with
        # it every node on the page, though no position changed.
        gx0, _gy0, _gx1, gy1 = self.bounds
        cx, cy = drawing.nodes["corner0"][:2]
        dx, dy = cx - gx0, cy - place.bounds[1]
        x0, y0, x1, y1 = drawing.bb
        frame = (dx - x0, y1 - dy)
        if anew:
            self.frame = frame
        elif max(abs(frame[0] - self.frame[0]), abs(frame[1] - self.frame[1])) > 0.5:  # Graphviz rounds: half a point
            return None
        self.bounds = (gx0, y0 - dy, x1 - dx, gy1)  # it grows to the right and downward only
        return drawing

    def _why_anew(self, graph, links: list, names: list, new: list, boxes: dict) -> Optional[str]:
        """Why dot must lay this graph out anew; None when the kept positions serve (then the
        new nodes have their places and `boxes` the boxes' bounding boxes)."""
        if not self.positions:
            return "first picture"
        if len(self.placed) + len(new) > self.share * len(names):
            return "too many new nodes"
        if len(names) < self.shrink * self.laid_out:
            return "the graph shrank"
        if not self._place(links, new):
            return "a new node linked to no placed node"
        return self._box_around(graph, boxes)

    @property
    def moved(self) -> int:
        """How many nodes the last picture moved aside (dot did not lay it out): every other
        node that was in the picture before is where it was."""
        return len(self.moved_nodes)

    @property
    def note(self) -> str:
        """What the last picture did with the positions, for people."""
        if self.why is not None:
            return f"laid out anew by Graphviz ({self.why})"
        if self.moved:
            return f"nodes kept their place, but {self.moved} moved aside (out of a box they are not in, or with their box)"
        return "every node kept its place"

    # ---- dot's layout

    def _lay_out(self, dot: str, names, options: dict = LAYOUT) -> None:
        """dot's positions, with room of PAD around them for the nodes later pictures add."""
        drawing = lay_out(dot, "dot", options)
        self.positions, self.sizes = {}, {}
        for name in names:
            x, y, width, height = drawing.nodes[name]
            self.positions[name] = (x + PAD, y + PAD)
            self.sizes[name] = (width, height)
        x0, y0, x1, y1 = drawing.bb
        self.bounds = (x0, y0, x1 + 2 * PAD, y1 + 2 * PAD)
        self.placed, self.laid_out = set(), len(names)

    # ---- placing new nodes beside the nodes they are linked to

    def _size(self, name: str) -> tuple:
        return self.sizes.get(name, DEFAULT_SIZE)

    def _place(self, links: list, new: list) -> bool:
        """Positions for the `new` nodes; False when one is linked to no placed node."""
        if not new:
            return True
        wanted = set(new)
        above: dict = {n: [] for n in new}  # the nodes it sends links up to (rankdir=BT)
        below: dict = {n: [] for n in new}
        for src, dst in links:
            if src in wanted:
                above[src].append(dst)
            if dst in wanted:
                below[dst].append(src)
        grid = _Grid()
        for name, (x, y) in self.positions.items():
            grid.add(x, y, self._size(name))
        pending = list(new)
        while pending:
            left = []
            for name in pending:
                spot = self._beside(above[name], below[name])
                if spot is None:
                    left.append(name)
                    continue
                x, y = grid.free_near(spot[0], spot[1], self._size(name))
                self.positions[name] = (x, y)
                grid.add(x, y, self._size(name))
            if len(left) == len(pending):
                return False  # linked to nothing placed: a new part of the graph, dot draws it
            pending = left
        return True

    def _beside(self, above_names: list, below_names: list) -> Optional[tuple]:
        above = [self.positions[n] for n in above_names if n in self.positions]
        below = [self.positions[n] for n in below_names if n in self.positions]
        if not above and not below:
            return None
        xs = [p[0] for p in above + below]
        if above and below:
            y = (min(p[1] for p in above) + max(p[1] for p in below)) / 2
        elif above:
            y = min(p[1] for p in above) - RANK
        else:
            y = max(p[1] for p in below) + RANK
        return sum(xs) / len(xs), y

    # ---- boxes drawn around their nodes

    def _box_around(self, graph, boxes: dict) -> Optional[str]:
        """Each box's bounding box, from its nodes and inner boxes, into `boxes` (box id ->
        (x0, y0, x1, y1)). Where two boxes side by side would overlap, the one holding fewer
        nodes moves aside with everything in it, a few times at most. None when the boxes
        then tell the truth; else what would mislead: boxes still overlapping, or a node
        drawn inside a box it is not in. Iterative: boxes nest as deep as the program."""
        order = _boxes_in_order(graph)
        for _round in range(NUDGES + 1):
            self._measure(order, boxes)
            wrong = self._misleads(graph, order, boxes)
            if wrong is None:
                return None
            if wrong[0] == "overlap":
                self._move_aside(graph, *wrong[1:], boxes)
            else:
                by_name = {node_name(n): n for n in graph.nodes}
                for name in wrong[1]:
                    self._move_out(name, by_name.get(name), boxes)  # None: the interface, or a removed node
        return "boxes would overlap, or a node be drawn inside a box it is not in"

    def _misleads(self, graph, order: list, boxes: dict) -> Optional[tuple]:
        """What in the measured `boxes` would mislead: ("overlap", box, box) for two sibling
        boxes that overlap, else ("intruders", names) for the nodes drawn inside a box they are
        not in; None when the picture tells the truth."""
        # the innermost siblings first: moving a box aside grows the boxes around it, so
        # their clashes are only known once those inside are settled
        families = [sorted(box.children, key=_ID) for box in reversed(order)] + [sorted(graph.top_boxes, key=_ID)]
        clash = next(((a, b) for siblings in families for i, a in enumerate(siblings) for b in siblings[i + 1:]
                      if _overlap(boxes[a.id], boxes[b.id])), None)
        if clash is not None:
            return ("overlap", *clash)
        intruders = self._intruders(graph, order, boxes)
        return ("intruders", intruders) if intruders else None

    def _measure(self, order: list, boxes: dict) -> None:
        boxes.clear()
        for box in reversed(order):  # children first
            rects = [_rect(self.positions[node_name(n)], self._size(node_name(n))) for n in box.nodes]  # order-free: a union
            rects += [boxes[child.id] for child in box.children]
            if not rects:  # nothing inside: a small box above its principal door
                x, y = self.positions[node_name(box.principal)]
                rects = [_rect((x, y + RANK), DEFAULT_SIZE)]
            boxes[box.id] = (min(r[0] for r in rects) - MARGIN, min(r[1] for r in rects) - MARGIN - LABEL,
                             max(r[2] for r in rects) + MARGIN, max(r[3] for r in rects) + MARGIN)

    def _move_aside(self, graph, a, b, boxes: dict) -> None:
        """Move the box of the two holding fewer nodes sideways, with all it holds and its
        doors (drawn at its edge, outside it: an empty box is drawn above its principal door),
        by the least shift that clears it of every sibling box and of every other node (not
        only of the box it overlapped: moved out of one sibling into the next, boxes would
        trade places round after round)."""
        inside = {box: graph.contents(box)[0] for box in (a, b)}
        still, moving = (a, b) if len(inside[a]) >= len(inside[b]) else (b, a)
        block = [name for name in (node_name(n) for n in inside[moving] + [moving.principal, *moving.doors])
                 if name in self.positions]  # (a broken rule's graph may have lost a door)
        rects = [boxes[moving.id]] + [_rect(self.positions[n], self._size(n)) for n in block]
        siblings = moving.parent.children if moving.parent is not None else graph.top_boxes
        obstacles = [boxes[box.id] for box in siblings if box is not moving]
        moving_names = set(block)
        obstacles += [_rect(p, self._size(n)) for n, p in self.positions.items() if n not in moving_names]
        dx = self._clearing_shift(_union(rects), obstacles)
        for name in block:
            self.moved_nodes.add(name)
            x, y = self.positions[name]
            self.positions[name] = (x + dx, y)
            self.placed.add(name)

    def _clearing_shift(self, rect: tuple, obstacles: list) -> float:
        """The horizontal shift of least size that puts `rect` GAP clear of every obstacle on
        its rows without passing the drawing's left edge (where the page holds the picture)."""
        x0, y0, x1, y1 = rect
        row = [o for o in obstacles if o[1] < y1 and y0 < o[3]]
        shifts = sorted({0.0} | {o[2] + GAP - x0 for o in row} | {o[0] - GAP - x1 for o in row}, key=abs)
        left = self.bounds[0] if self.bounds is not None else float("-inf")
        for dx in shifts:
            if x0 + dx >= left and not any(o[0] - GAP + _EPS < x1 + dx and x0 + dx < o[2] + GAP - _EPS for o in row):
                return dx
        return max(shifts)  # right of everything on its rows: always clear

    def _intruders(self, graph, order: list, boxes: dict) -> list:
        """The nodes drawn inside a box they are not in, by name, each once. A node is drawn
        inside a box when any part of it is (not only its centre: a node straddling a box's
        edge reads as in it)."""
        found: dict = {}
        by_x = sorted((x, y, node) for node, (x, y) in self.positions.items())
        xs = [p[0] for p in by_x]
        reach = max((self._size(node)[0] for node in self.positions), default=0.0) / 2
        for box in order:
            bx = boxes[box.id]
            held = None
            for x, y, node in by_x[bisect.bisect_right(xs, bx[0] - reach):bisect.bisect_left(xs, bx[2] + reach)]:
                if _overlap(_rect((x, y), self._size(node)), bx):
                    held = held if held is not None else {node_name(n) for n in graph.contents(box)[0]}
                    if node not in held:
                        found[node] = None
        return list(found)

    def _move_out(self, name: str, node, boxes: dict) -> None:
        """Move a node (`node`: the graph's, or None) sideways by the least shift that clears
        it of every box it is not in and of every other node (not only out of the box it was
        found in: between two boxes, it would go from one into the other and back)."""
        mine = set()
        box = node.box if node is not None else None
        while box is not None:
            mine.add(box.id)
            box = box.parent
        obstacles = [r for box_id, r in boxes.items() if box_id not in mine]
        obstacles += [_rect(p, self._size(n)) for n, p in self.positions.items() if n != name]
        x, y = self.positions[name]
        self.positions[name] = (x + self._clearing_shift(_rect((x, y), self._size(name)), obstacles), y)
        self.placed.add(name)
        self.moved_nodes.add(name)


_ID = attrgetter("id")
_EPS = 1e-6  # points: a shift computed to touch GAP exactly is clear


def _boxes_in_order(graph) -> list:
    """Every box, parents before children, siblings in id order (iterative: boxes nest as
    deep as the program)."""
    order, todo = [], sorted(graph.top_boxes, key=_ID, reverse=True)
    while todo:
        box = todo.pop()
        order.append(box)
        todo.extend(sorted(box.children, key=_ID, reverse=True))
    return order


def _rect(center: tuple, size: tuple) -> tuple:
    (x, y), (w, h) = center, size
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def _union(rects: list) -> tuple:
    return (min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects), max(r[3] for r in rects))


def _overlap(a: tuple, b: tuple) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class _Grid:
    """Placed nodes' rectangles (with GAP around), bucketed by cell, to find a free spot."""

    CELL = 64.0

    def __init__(self):
        self.cells: dict = {}

    def _cells(self, r: tuple):
        c = self.CELL
        for i in range(int(r[0] // c), int(r[2] // c) + 1):
            for j in range(int(r[1] // c), int(r[3] // c) + 1):
                yield i, j

    def add(self, x: float, y: float, size: tuple) -> None:
        r = _rect((x, y), (size[0] + GAP, size[1] + GAP))
        for cell in self._cells(r):
            self.cells.setdefault(cell, []).append(r)

    def _free(self, r: tuple) -> bool:
        return not any(_overlap(r, other) for cell in self._cells(r) for other in self.cells.get(cell, ()))

    def free_near(self, x: float, y: float, size: tuple) -> tuple:
        """The spot nearest (x, y) on its row where the node overlaps no placed one: to the
        right and left in turn, a node's width at a time."""
        step = size[0] + GAP
        for k in range(200):
            dx = ((k + 1) // 2) * step * (1 if k % 2 else -1)
            if self._free(_rect((x + dx, y), (size[0] + GAP, size[1] + GAP))):
                return x + dx, y
        return x + 200 * step, y
