"""Every string that came in as data, escaped for where it lands: pages run nothing they were not
given (docs/REPORTS.md, "What a page runs"). A report or a page is something people send each
other; a program, a JSON file, an implementation's answer or a DOT graph is data, never markup.

- `script_json(value)`: JSON inside an inline `<script type="application/json">`: no `<`, `>`
  or `&` appears raw (so neither `</script>` nor `<!--` can end or swallow the element), nor
  U+2028/U+2029.
- `safe_dot(text)`: a DOT graph from data, with every attribute that links, loads or styles
  from elsewhere emptied (URL, href, target, image, stylesheet, …): Graphviz makes no link
  from it.
- `safe_svg(text)`: an SVG to inline in a page, parsed and rebuilt from an allow-list of the
  elements and attributes a drawing needs (SVG_ELEMENTS, SVG_ATTRIBUTES, exact names):
  nothing that runs or embeds, no `<style>`, no event handler, no link or `url()` but `#`
  references within the page.
- `md_text`, `md_code`, `md_block`, `md_cell`: Markdown, where HTML and Markdown's own
  punctuation from data are escaped, and code spans and blocks are fenced longer than any
  run of backticks inside them.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

# ---- inline script data -----------------------------------------------------------------

_SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def script_json(value) -> str:
    """JSON text safe inside an inline script element (the characters are only ever inside
    JSON strings, where the escapes mean the same)."""
    text = json.dumps(value, ensure_ascii=False)
    return re.sub("[<>&\u2028\u2029]", lambda m: _SCRIPT_ESCAPES[m.group()], text)


# ---- DOT from data ------------------------------------------------------------------------

UNSAFE_DOT_ATTRIBUTES = ("URL", "href", "target", "labelURL", "labelhref", "labeltarget", "headURL", "headhref",
                         "headtarget", "tailURL", "tailhref", "tailtarget", "edgeURL", "edgehref", "edgetarget",
                         "image", "imagepath", "shapefile", "stylesheet", "fontpath", "fontnames")


def safe_dot(graph) -> None:
    """Empty, in place, every attribute of a pygraphviz AGraph (and its subgraphs) that could
    make a link or load something (UNSAFE_DOT_ATTRIBUTES)."""
    stack = [graph]
    while stack:
        g = stack.pop()
        for attrs in (g.graph_attr, g.node_attr, g.edge_attr):
            _empty(attrs)
        for node in g.nodes():
            _empty(node.attr)
        for edge in g.edges():
            _empty(edge.attr)
        stack.extend(g.subgraphs())


def _empty(attrs) -> None:
    for name in UNSAFE_DOT_ATTRIBUTES:
        try:
            if attrs.get(name):
                attrs[name] = ""
        except (KeyError, ValueError, TypeError):
            pass
    for name in ("label", "xlabel", "headlabel", "taillabel"):  # an HTML-like label's <IMG SRC=…> is a file Graphviz reads
        try:
            value = attrs.get(name)
            if value and re.search(r"<\s*img\b", value, re.I):
                attrs[name] = re.sub(r"<\s*img\b[^>]*>", "", value, flags=re.I)
        except (KeyError, ValueError, TypeError):
            pass


# ---- SVG to inline ----------------------------------------------------------------------

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
# What a drawing needs (what Graphviz writes, and a little more): every other element goes, with
# all it holds, and every other attribute. Names are compared exactly, as XML does: an HTML
# page reading the inlined SVG folds case (`<SCRIPT>`, `foreignobject`), which an allow-list
# of exact names cannot be tricked by.
SVG_ELEMENTS = frozenset({"svg", "g", "title", "desc", "a", "defs", "clipPath", "linearGradient", "radialGradient",
                          "stop", "polygon", "polyline", "path", "ellipse", "circle", "rect", "line", "text", "tspan"})
SVG_ATTRIBUTES = frozenset({
    "id", "class", "transform", "version", "viewBox", "preserveAspectRatio", "width", "height", "x", "y", "x1", "y1",
    "x2", "y2", "cx", "cy", "r", "rx", "ry", "dx", "dy", "d", "points", "fill", "fill-opacity", "fill-rule", "stroke",
    "stroke-width", "stroke-opacity", "stroke-dasharray", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit",
    "opacity", "font-family", "font-size", "font-weight", "font-style", "text-anchor", "text-decoration",
    "dominant-baseline", "baseline-shift", "letter-spacing", "clip-path", "clipPathUnits", "gradientUnits",
    "gradientTransform", "offset", "stop-color", "stop-opacity", "style", "href", f"{{{XLINK}}}href",
    f"{{{XLINK}}}title", "{http://www.w3.org/XML/1998/namespace}space"})
_FRAGMENT = re.compile(r"url\(\s*#[\w.:-]*\s*\)")  # a reference within the page: url(#clip0)
_TRANSFORM = re.compile(r"(?:[\s,]*(?:matrix|translate|scale|rotate|skewX|skewY)\s*\([-+\d.eE,\s]*\))*\s*")
_PLAIN_VALUE = re.compile(r"[\w\s:;.,#%+-]*")  # what is left of a value once its url(#…) are taken out


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _svg_element(tag) -> bool:
    """An element of the allow-list, in the SVG namespace (or none: a bare <svg>)."""
    if not isinstance(tag, str):
        return False
    space, _, local = tag[1:].partition("}") if tag.startswith("{") else ("", "", tag)
    return space in ("", SVG) and local in SVG_ELEMENTS


def _safe_value(name: str, value: str) -> bool:
    """An allowed attribute's value: a link only to `#` within the page; anything else with
    no `url(` but `url(#…)`, no parenthesis, backslash, `@`, quote or angle bracket (no CSS
    escape, import, expression or script URL can be spelt)."""
    if _local(name) == "href":
        return re.fullmatch(r"#[\w.:-]*", value.strip()) is not None
    if name in ("transform", "gradientTransform"):
        return _TRANSFORM.fullmatch(value) is not None
    return _PLAIN_VALUE.fullmatch(_FRAGMENT.sub("", value)) is not None


def safe_svg(text: str) -> str:
    """The SVG rebuilt from an allow-list (module docstring): SVG_ELEMENTS in the SVG
    namespace, SVG_ATTRIBUTES with plain values — nothing that runs, embeds, styles from
    elsewhere or links out. What is not well-formed XML with an <svg> root is not inlined at
    all: an empty string."""
    ET.register_namespace("", SVG)
    ET.register_namespace("xlink", XLINK)
    try:
        root = ET.fromstring(text)
    except ET.ParseError:
        return ""
    if not _svg_element(root.tag) or _local(root.tag) != "svg":
        return ""
    for parent in list(root.iter()):
        for child in list(parent):
            if not _svg_element(child.tag):
                parent.remove(child)
    for element in root.iter():
        for name in list(element.attrib):
            if name not in SVG_ATTRIBUTES or not _safe_value(name, element.attrib[name]):
                del element.attrib[name]
    return ET.tostring(root, encoding="unicode")


# ---- Markdown ---------------------------------------------------------------------------

_MD_INLINE = re.compile(r"([\\`*_\[\]|~!])")  # what starts emphasis, code, links, images, tables, strikethrough
_MD_LINE_START = re.compile(r"^(\s*\d*)([#+\-=.)])")  # what a line may start a heading, list or rule with


def md_text(value) -> str:
    """Data as Markdown text on one line: HTML's specials as entities, the punctuation that
    starts a Markdown construct escaped (a leading `#`, `-`, `+` or `1.` too)."""
    text = " ".join(str("" if value is None else value).splitlines())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_INLINE.sub(r"\\\1", text)
    return _MD_LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text, count=1)


def _fence_for(text: str, least: int) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(least, longest + 1)


def md_code(value) -> str:
    """Data as an inline code span (HTML is not interpreted there), on one line."""
    text = " ".join(str("" if value is None else value).splitlines())
    fence = _fence_for(text, 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_block(value) -> list:
    """Data as a fenced code block: its lines between fences longer than any backtick run in it."""
    text = str("" if value is None else value)
    fence = _fence_for(text, 3)
    return [fence] + text.split("\n") + [fence]


def md_cell(value) -> str:
    """Data as a table cell: Markdown text (its `|` escaped with the rest)."""
    return md_text(value)


def md_cell_code(value) -> str:
    """Data as a code span in a table cell: GitHub's tables split at `|` even inside code."""
    return md_code(value).replace("|", "\\|")
