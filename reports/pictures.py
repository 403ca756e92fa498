"""Pictures for reports, from real libraries: graphs laid out by Graphviz through pygraphviz
(whose wheels bundle Graphviz: no system binary), plots drawn by matplotlib; both as SVG
text, inlined into the HTML report and written beside the Markdown one."""

from __future__ import annotations

import io
import os
import re
from typing import Optional, Sequence


class MissingExtra(RuntimeError):
    pass


def require(module: str):
    try:
        return __import__(module)
    except ImportError:
        raise MissingExtra(
            f"reports need {module}: pip install 'goi-abductive[reports]' (pygraphviz, matplotlib and jinja2, all as wheels)"
        ) from None


_FONTCONFIG = re.compile(rb"^Fontconfig (warning|error): .*(\n|$)", re.M)


class quiet_graphviz:
    """`with quiet_graphviz():` around a Graphviz call: what it writes to the process's
    standard error (the C library's, fd 2, where Python's redirection does not reach) is kept
    aside and written back without Fontconfig's complaints about the system's font
    configuration (a `reset-dirs` its version does not know, printed once per process on
    Debian), which say nothing about the picture. Anything else Graphviz says is kept."""

    def __enter__(self):
        import sys
        import tempfile

        sys.stderr.flush()
        self.kept = tempfile.TemporaryFile()
        self.saved = os.dup(2)
        os.dup2(self.kept.fileno(), 2)
        return self

    def __exit__(self, *exc):
        import sys

        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.kept.seek(0)
        said = _FONTCONFIG.sub(b"", self.kept.read())
        self.kept.close()
        if said:
            sys.stderr.buffer.write(said) if hasattr(sys.stderr, "buffer") else sys.stderr.write(said.decode("utf-8", "replace"))
            sys.stderr.flush()
        return False


def _strip_prolog(svg: str) -> str:
    """The <svg> element alone (no XML declaration or DOCTYPE), ready to inline in HTML."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


MAX_DOT_BYTES = 1 << 20  # a DOT graph from data laid out at most this large (goi's own are a few KB)
MAX_DOT_NODES = 2000  # and with at most this many nodes
LAYOUT_SECONDS = 60.0  # Graphviz's time on one graph from data, in a process goi can stop


def graph_svg(dot: str) -> str:
    """A DOT graph laid out by Graphviz's dot, as inline SVG; "" for one too large, or that
    Graphviz cannot lay out within LAYOUT_SECONDS. The DOT may have come in as data (a
    report's JSON): nothing in it links or loads — no image an HTML-like label names is
    read — and nothing in the SVG runs (reports/escape.py). Graphviz runs in a process of its
    own, bounded in time and stopped at Ctrl-C (a layout in the C library answers neither)."""
    import subprocess
    import sys

    require("pygraphviz")
    if not isinstance(dot, str) or len(dot.encode("utf-8", "replace")) > MAX_DOT_BYTES:
        return ""
    import time

    proc = subprocess.Popen([sys.executable, "-c", "from goi.reports.pictures import _layout_stdin; _layout_stdin()"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline, data = time.monotonic() + LAYOUT_SECONDS, dot.encode("utf-8", "replace")
    try:
        while True:  # in slices: a command's worker thread hears Ctrl-C only between bytecodes
            try:
                out, _err = proc.communicate(data, timeout=0.2)
                break
            except subprocess.TimeoutExpired:
                data = None  # given once
                if time.monotonic() > deadline:  # killed: the report goes on without this picture
                    return ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return out.decode("utf-8", "replace") if proc.returncode == 0 else ""


def _layout_stdin() -> None:
    """The layout process: DOT on standard input, the safe SVG on standard output (nothing
    for a graph that does not parse or has more than MAX_DOT_NODES nodes)."""
    import sys

    from .escape import safe_dot, safe_svg

    pgv = require("pygraphviz")
    try:
        graph = pgv.AGraph(string=sys.stdin.buffer.read().decode("utf-8", "replace"))
    except Exception:  # noqa: BLE001 - DOT from data that Graphviz does not read: no picture
        return
    if graph.number_of_nodes() > MAX_DOT_NODES:
        return
    safe_dot(graph)
    with quiet_graphviz():
        drawn = graph.draw(format="svg", prog="dot")
    sys.stdout.write(safe_svg(svg_text(drawn)))


def svg_text(data) -> str:
    """Graphviz's SVG output without its prolog and comments, ready to inline."""
    svg = data.decode("utf-8") if isinstance(data, bytes) else data
    return _strip_prolog(re.sub(r"<!--.*?-->", "", svg, flags=re.S))


def _figure(width: float, height: float):
    matplotlib = require("matplotlib")
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "goi-report"  # stable element ids: the same data, the same SVG
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=96, layout="constrained")


def _svg(fig) -> str:
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None})  # no timestamp: the same data, the same file
    return _strip_prolog(out.getvalue())


def histogram(values: Sequence[float], title: str, xlabel: str, log: bool = False, bins: int = 30) -> Optional[str]:
    if not values:
        return None
    fig = _figure(5.2, 2.6)
    ax = fig.add_subplot()
    if log:
        import numpy as np

        positive = [v for v in values if v > 0] or [1]
        edges = np.logspace(np.log10(min(positive)), np.log10(max(positive) + 1), bins)
        ax.hist(positive, bins=edges, color="#4c72b0")
        ax.set_xscale("log")
    else:
        ax.hist(values, bins=min(bins, max(1, len(set(values)))), color="#4c72b0")
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(xlabel, fontsize=9)
    ax.set_ylabel("programs", fontsize=9)
    ax.tick_params(labelsize=8)
    return _svg(fig)


def bars(labels: Sequence[str], values: Sequence[float], title: str, xlabel: str, highlight: Sequence[bool] = ()) -> Optional[str]:
    """Horizontal bars, one per label (highlighted ones in red: rules that never fired)."""
    if not labels:
        return None
    fig = _figure(6.4, 0.5 + 0.19 * len(labels))
    ax = fig.add_subplot()
    colors = ["#c44e52" if (highlight and highlight[i]) else "#4c72b0" for i in range(len(labels))]
    positions = list(range(len(labels)))
    ax.barh(positions, values, color=colors)
    ax.set_yticks(positions, labels, fontsize=7)
    for tick, i in zip(ax.get_yticklabels(), positions):  # a rule that never fired has no bar to see: its name is red
        if highlight and highlight[i]:
            tick.set_color("#c44e52")
            tick.set_fontweight("bold")
    ax.invert_yaxis()
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(xlabel, fontsize=9)
    ax.tick_params(axis="x", labelsize=8)
    return _svg(fig)
