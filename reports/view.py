"""The step-through view of a run (`goi view`, `goi.view`): one self-contained HTML page —
inline SVG, CSS and script, nothing loaded from elsewhere — that steps through a run of the
literal machine, recorded by reports/recorder.py.
"""

from __future__ import annotations

import functools
import html
from typing import Optional

from .escape import script_json
from .recorder import Budgets, Recorder, Recording, _bytes, _capped, _packed, graph_changes  # noqa: F401 (found here)
from .recorder import SHOWN_STACK  # noqa: F401 (found here)

DEFAULT_MAX_FRAMES = 60  # pictures spread over a run that changes its graph more than EVERY_CHANGE_UP_TO times
EVERY_CHANGE_UP_TO = 100  # graph changes of a run that has, by default, a picture after every one (all the corpus but gradient descent)
AFTER_DECOUPLING = 12  # steps after a decoupling pictured whatever the spread (within the page's byte budget)
# Steps recorded in full, at most: the page stays under about 20 MB and opens in seconds
# whatever the run's length (a step is about 220 bytes of the page). Past the budget the
# steps are counted, not recorded — by rule, with the graph-changing ones — and the final
# state is recorded again; the timeline shows the stretch not recorded.
DEFAULT_MAX_RECORDED_STEPS = 50_000
PROGRESS_EVERY = 500  # steps between two calls of record()'s progress
# The page's byte budget, whatever the run: at most PAGE_BYTES in all (`goi view`'s promise,
# tests/test_view.py), of which the recorded steps' JSON takes at most STEP_BYTES and the
# packed pictures at most FRAME_BYTES (the final state's picture comes out of FINAL_BYTES of
# its own); the rest (markup, script, rules, notes) is far below the remainder.
PAGE_BYTES = 20_000_000
STEP_BYTES = 10_000_000
FRAME_BYTES = 7_000_000
FINAL_BYTES = 1_500_000


def record(program, max_steps: int, max_frames: Optional[int] = None,
           max_recorded_steps: int = DEFAULT_MAX_RECORDED_STEPS, progress=None, **options) -> Recording:
    """Run `program` (text, a term or a judgement) on the machine once (options as goi.run's)
    and record what the page shows (reports/recorder.py; the source spans point into the
    judgement's `source`). At most `max_recorded_steps` steps (and STEP_BYTES of the page)
    are recorded in full; the rest are summarised in `unrecorded`, and the final state is
    recorded last. `max_frames` pictures are spread over the run's graph changes, up to a
    quarter of them kept for the AFTER_DECOUPLING steps after each decoupling; the final
    state and each decoupling have one besides. `max_frames` None: a picture after every
    change when there are at most EVERY_CHANGE_UP_TO, else DEFAULT_MAX_FRAMES.
    `progress(step, pictures)` is called as the run goes and as its pictures are drawn (the
    browser playground shows it)."""
    budgets = Budgets(EVERY_CHANGE_UP_TO, DEFAULT_MAX_FRAMES, AFTER_DECOUPLING, STEP_BYTES, FRAME_BYTES, FINAL_BYTES,
                      PROGRESS_EVERY)
    return Recorder(program, max_frames, max_recorded_steps, budgets, progress, options).run(max_steps)


def _rules_json(used: set, rules) -> dict:
    """The rules the run used (of its RuleSet `rules`): kind, summary, and their catalogue
    entry (the rule's docstring, as docs/RULES.md shows it) and its source."""
    return {r.id: {"kind": r.kind, "summary": r.summary, "anchor": r.id.replace(".", ""), "entry": r.entry,
                   "source": r.source}
            for r in rules.values() if r.id in used}


def page_data(rec: Recording) -> dict:
    """What the stepper shows of a run, but the pictures: the page's JSON (`goi view` embeds
    it; the browser playground's worker posts it with the pictures)."""
    result = rec.result
    violation = None
    if result is not None and result.violation is not None:
        v = result.violation
        step = None if v.step is None else min(v.step, rec.steps[-1]["n"])  # a step number (the page finds its row)
        violation = {"check": v.check, "step": step, "message": v.describe()}
    return {
        "program": rec.program,
        "steps": rec.steps,
        "rules": _rules_json({s["rule"] for s in rec.steps}, result.machine.rules),
        "status": getattr(result, "status", None),
        "reason": getattr(result, "reason", None),
        "value": None if result is None or result.status != "final" else str(result.value),
        "frames": len(rec.frames),
        "notes": rec.notes,
        "unpictured": rec.unpictured,
        "over_budget": rec.over_budget,
        "unrecorded": rec.unrecorded,
        "violation": violation,
        "checks": rec.checks,
        "consulted": rec.consulted,
    }


def to_html(rec: Recording, title: str = "goi view") -> str:
    """The page: the data as JSON, the pictures as templates, the stepper's markup, script
    and style (the same as the browser playground's)."""
    payload = script_json(page_data(rec))  # no `<`, `>` or `&` raw: the data cannot end or swallow its element
    packed = rec.packed if len(rec.packed) == len(rec.frames) else [_packed(svg) for svg in rec.frames]
    templates = "\n".join(f'<script type="application/gzip+base64" id="frame-{i}">{p}</script>'
                          for i, p in enumerate(packed))
    return stepper("page.html").format(title=html.escape(title), data=payload, templates=templates,
                                       style=stepper("view.css"), script=stepper("view.js"),
                                       stepper=stepper("nav.html"), pane=stepper("pane.html"), side=stepper("side.html"))


def compose(program, *, max_steps: int = 1_000_000, max_frames: Optional[int] = None,
            max_recorded_steps: Optional[int] = None, title: str = "goi view", **options) -> tuple[Recording, str]:
    """A run recorded and its page composed (the one place `goi view` and `goi.view` make
    it): the Recording and the self-contained HTML text. `program` is text, a term or a
    judgement; options as `goi.run`'s; at most `max_frames` pictures spread over the run
    (default: one after every change of the graph when there are at most EVERY_CHANGE_UP_TO,
    else 60; besides the final state's and each decoupling's) and `max_recorded_steps`
    steps recorded in full (default 50,000: the rest counted by rule and shown on the
    timeline). Needs the `reports` extra (Graphviz through pygraphviz)."""
    from goi.semantics.errors import whole_number

    whole_number("max_steps", max_steps, 1)
    if max_frames is not None:
        whole_number("max_frames", max_frames, 0)
    if max_recorded_steps is not None:
        whole_number("max_recorded_steps", max_recorded_steps, 0)
    if not isinstance(title, str):
        raise TypeError(f"title is text, not {type(title).__name__}")
    rec = record(program, max_steps, max_frames,
                 max_recorded_steps=DEFAULT_MAX_RECORDED_STEPS if max_recorded_steps is None else max_recorded_steps,
                 **options)
    return rec, to_html(rec, title)


def save(page: str, path: str, option: str = "-o") -> int:
    """Write a page (never through a link: goi.files.write_file); returns its size in bytes."""
    from goi.files import write_file

    return write_file(path, page, option)


class Page(str):
    """The step-through page's HTML text (a str), which a notebook shows as the stepper itself:
    Jupyter calls `_repr_html_`, which puts the self-contained page in an iframe (its script and
    style kept apart from the notebook's; the page escaped for the attribute it lands in)."""

    height = 720  # pixels of the frame in a notebook

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        """The notebook's plain-text form of the page: one line, not the page again (Jupyter
        keeps both forms; a str's would store the 165 KB page twice)."""
        printer.text(f"<goi.view page: {len(self):,} characters of HTML (shown as the stepper)>")

    def _repr_html_(self) -> str:
        return (f'<iframe class="goi-view" srcdoc="{html.escape(str(self), quote=True)}" style="width:100%;'
                f'height:{self.height}px;border:1px solid #ccc" sandbox="allow-scripts"></iframe>')


def view(program, output: Optional[str] = None, **options) -> Page:
    """`goi.view`: the step-through page of a run as HTML text, also written to `output` if
    given (options as `compose`'s); in a notebook it shows as the stepper (`Page`)."""
    _rec, page = compose(program, **options)
    if output is not None:
        save(page, output)
    return Page(page)


# The stepper's files (reports/templates/stepper/), shared by `goi view`'s page and the
# browser playground (playground/build.py): the page around the parts (page.html, a format
# string), the controls and timeline (nav.html), the graph's pane (pane.html), the token,
# program and run (side.html), the style (view.css) and the script (view.js), which finds
# its elements by the parts' ids.


@functools.lru_cache(maxsize=None)
def stepper(name: str) -> str:
    """One of the stepper's files, as installed with the package (read once)."""
    from importlib import resources

    return resources.files(__package__).joinpath("templates", "stepper", name).read_text(encoding="utf-8")
