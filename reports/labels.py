"""Links' labels that cover no node and no other label. Graphviz puts a link's label beside
the link's middle (nop2, which draws the pictures whose nodes kept their place, does no more
than that), so a label can land on a node or on another link's label. Each such label is
moved to the first free place along its link (at 1/2, 1/3, 2/3, 1/5, 4/5 of its length,
either side); where there is none, it becomes part of the link's tooltip instead of being
drawn over a node or a label. (Links themselves are drawn under every label by the page,
view.js's `labelsOnTop`, each label with a halo.)"""

from __future__ import annotations

import html
import re

EDGE = re.compile(r'<g id="l\d+" class="edge">.*?</g>', re.S)
TEXT = re.compile(r'<text ([^>]*?)x="([-\d.]+)" y="([-\d.]+)"([^>]*?)font-size="([\d.]+)">(.*?)</text>\n?', re.S)
POINTS = re.compile(r'<path[^>]* d="([^"]*)"')
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
ADVANCE = 0.62  # a character's width in DejaVu Sans, in ems, at most for the labels' characters (ℓ, digits, types)
GAP = 3.0  # points kept between a label and a node
FRACTIONS = (0.5, 1 / 3, 2 / 3, 0.2, 0.8)


def unclutter(svg: str, nodes: dict) -> tuple[str, int]:
    """`svg` (Graphviz's, with links as <g id="lN" class="edge">) with every link label that
    covers a node or a label drawn before it moved or folded into its tooltip; `nodes`: name ->
    (x, y, width, height) in Graphviz's points (y upward), as laid out. Returns the SVG and how
    many labels moved."""
    boxes = [(x - w / 2 - GAP, -y - h / 2 - GAP, x + w / 2 + GAP, -y + h / 2 + GAP)
             for name, (x, y, w, h) in nodes.items() if w > 0 and h > 0 and not name.startswith("corner")]
    if not boxes:
        return svg, 0
    moved = [0]
    drawn: list = []  # the labels kept so far, by their boxes

    def covers(x0: float, y0: float, x1: float, y1: float) -> bool:
        return any(x0 < b[2] and x1 > b[0] and y0 < b[3] and y1 > b[1] for b in boxes + drawn)

    def label_box(x: float, y: float, width: float, size: float) -> tuple:
        return (x - width / 2, y - size, x + width / 2, y + 0.3 * size)  # y is the text's baseline

    def edge(match: re.Match) -> str:
        group = match.group(0)
        text = TEXT.search(group)
        if text is None:
            return group
        x, y, size = float(text.group(2)), float(text.group(3)), float(text.group(5))
        width = ADVANCE * size * len(html.unescape(text.group(6)))
        here = label_box(x, y, width, size)
        if not covers(*here):
            drawn.append(here)
            return group
        moved[0] += 1
        path = POINTS.search(group)
        numbers = [float(n) for n in NUMBER.findall(path.group(1))] if path else []
        if len(numbers) >= 4:
            (ax, ay), (bx, by) = (numbers[0], numbers[1]), (numbers[-2], numbers[-1])
            length = max(((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5, 1e-9)
            nx, ny = -(by - ay) / length, (bx - ax) / length  # the link's normal
            for fraction in FRACTIONS:
                px, py = ax + fraction * (bx - ax), ay + fraction * (by - ay)
                for side in (1, -1):
                    reach = abs(nx) * (width / 2 + GAP) + abs(ny) * (size / 2 + GAP) + GAP
                    cx, cy = px + side * nx * reach, py + side * ny * reach + size / 3
                    there = label_box(cx, cy, width, size)
                    if not covers(*there):
                        drawn.append(there)
                        placed = (f'<text {text.group(1)}x="{cx:.2f}" y="{cy:.2f}"{text.group(4)}'
                                  f'font-size="{text.group(5)}">{text.group(6)}</text>\n')
                        return group[:text.start()] + placed + group[text.end():]
        # nowhere free: the label is the link's tooltip, not drawn over a node
        without = group[:text.start()] + group[text.end():]
        return re.sub(r"<title>(.*?)</title>", lambda t: f"<title>{t.group(1)} {text.group(6)}</title>", without, count=1)

    return EDGE.sub(edge, svg), moved[0]
