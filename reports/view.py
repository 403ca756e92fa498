"""The step-through view of a run (`goi view`, `goi.view`): one self-contained HTML page —
inline SVG, CSS and script, nothing loaded from elsewhere — that steps through a run of the
literal machine.

Every transition is recorded (its rule, the token's link, direction, rewriting flag,
computation stack and box stack, and the source span of the term the token's link belongs
to). Passes only move the token, so a picture of the graph (laid out by Graphviz) is drawn
at the start and after each rewrite that changed the graph: after every one when the run
changes its graph at most EVERY_CHANGE_UP_TO times (by default: a picture at every step, as
the authors' visualiser has), else at most `max_frames` of them spread over the run; each
step shows the latest picture at or before it, with the token's link highlighted. The steps
past the budget have no picture, and the timeline says so. Nodes keep their place
from one picture to the next (reports/stable_layout.py); where Graphviz had to lay the
graph out anew, the page says why and animates the nodes to their new places.
"""

from __future__ import annotations

import functools
import html
from dataclasses import dataclass, field
from typing import Optional

from .escape import script_json

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


@dataclass
class Recording:
    """A run as the page shows it."""

    program: str
    steps: list = field(default_factory=list)  # one dict per transition (step 0: the initial state)
    frames: list = field(default_factory=list)  # SVG pictures (the page holds them packed: _packed)
    packed: list = field(default_factory=list)  # per picture: its packed text, as the page holds it
    over_budget: int = 0  # pictures not drawn because the page's byte budget for pictures was spent
    relaid: list = field(default_factory=list)  # per picture: whether dot laid it out anew (else nodes kept their place)
    notes: list = field(default_factory=list)  # per picture: what its layout did, for people (StableLayout.note)
    unpictured: int = 0  # graph-changing steps past the picture budget
    checks: list = field(default_factory=list)  # the checks the run was watched by (--check), by name
    # per step: the indexes of the checks consulted on its state (the Monitor's runs); None
    # when sampled (a sampled check is consulted after every rewrite but looks only at some)
    consulted: Optional[list] = None
    result: object = None
    # the steps past the recording budget: None when every step is recorded, else
    # {"first": n, "last": n, "count": k, "rules": {rule: count}, "graph_changes": k, "why": text}
    unrecorded: Optional[dict] = None


def record(program, max_steps: int, max_frames: Optional[int] = None,
           max_recorded_steps: int = DEFAULT_MAX_RECORDED_STEPS, progress=None, **options) -> Recording:
    """Run `program` (text, a term or a judgement) on the machine (options as goi.run's) and
    record what the page shows (the source spans point into the judgement's `source`).
    At most `max_recorded_steps` steps (and STEP_BYTES of the page) are recorded in
    full; the rest are summarised in `unrecorded`, and the final state is recorded last.
    `max_frames` pictures are spread over the run's graph changes, up to a quarter of them kept
    for the AFTER_DECOUPLING steps after each decoupling; the final state and each decoupling
    have one besides. `max_frames` None: a picture after every change when there are at most
    EVERY_CHANGE_UP_TO, else DEFAULT_MAX_FRAMES. `progress(step, pictures)` is called as the run goes (the
    browser playground shows it)."""
    from goi.execution import prepare
    from goi.semantics import show
    from goi.semantics.machine import source_span
    from goi.semantics.rules import DECOUPLING

    from .stable_layout import StableLayout

    execution = prepare(program, **options)
    machine = execution.machine
    rec = Recording(execution.judgement.source)
    seen = {"drawn": None, "asked": machine.graph.version}  # graph versions: of the last picture, of the last step
    layout = StableLayout()

    # the picture budget is spread over the run's graph changes (a first run counts them);
    # the final state and every decoupling are pictured whatever the budget
    changes, decouplings = graph_changes(program, max_steps, max_recorded_steps, options)
    if max_frames is None:
        max_frames = changes + 1 if changes <= EVERY_CHANGE_UP_TO else DEFAULT_MAX_FRAMES
    # of a budget that cannot picture every change, up to a quarter is kept for the steps right
    # after each decoupling (where a reader looks hardest); the rest is spread evenly over the run
    reserve = 0 if changes < max_frames else min(max_frames // 4, AFTER_DECOUPLING * decouplings)
    pictured = spread(changes, max_frames - reserve)
    counts = {"changes": 0, "spread": 0, "near": 0}  # graph changes seen; pictures drawn within the budget

    sizes = {"frames": 0, "steps": 0}  # bytes the page gives the pictures and the recorded steps so far

    def picture(force: bool = False, final: bool = False) -> Optional[int]:
        version = machine.graph.version
        changed, seen["asked"] = version != seen["asked"], version
        counts["changes"] += changed
        if version == seen["drawn"]:
            return len(rec.frames) - 1
        if not force and ((counts["changes"] and not pictured(counts["changes"])) or counts["spread"] >= max_frames - reserve):
            rec.unpictured += changed  # counted once per change of the graph, not per step
            return None
        def left_out() -> None:  # the page's byte budget for pictures leaves this one out
            rec.unpictured += changed
            rec.over_budget += 1

        if sizes["frames"] >= FRAME_BYTES and not final:  # spent: not even drawn
            return left_out()
        svg, anew = layout.draw(machine.graph)
        packed = _packed(svg)
        if sizes["frames"] + len(packed) > FRAME_BYTES + (FINAL_BYTES if final else 0):  # this one would break it
            return left_out()
        counts["spread"] += not force
        sizes["frames"] += len(packed)
        rec.frames.append(svg)
        rec.packed.append(packed)
        rec.relaid.append(anew)
        rec.notes.append(layout.note)
        seen["drawn"] = version
        if progress is not None:
            progress(machine.steps, len(rec.frames))
        return len(rec.frames) - 1

    def state(number: int, rule: Optional[str]) -> dict:
        t = machine.token
        span = source_span(t.position)
        rule_of = machine.rules.get(rule) if rule else None
        return {
            "n": number,
            "rule": rule,
            "kind": rule_of.kind if rule_of else None,
            "decouple": bool(rule_of and rule_of.feature == DECOUPLING),
            "link": t.position.id,
            "dir": t.direction,
            "flag": show.flag(t.flag),
            "stack": _capped(show.stack(t.stack, machine.field.show)),
            "boxes": _capped(show.box_stack(t.box_stack)),
            "span": [span.start, span.end] if span is not None else None,
            "frame": picture(force=_near_decoupling(rule_of)),
        }

    near = {"left": 0}  # steps after the last decoupling still to picture whatever the spread

    def _near_decoupling(rule_of) -> bool:
        """A decoupling has its picture, and so have the AFTER_DECOUPLING steps after it while
        the part of the budget kept for them lasts (the spread leaves its gaps elsewhere)."""
        if rule_of is not None and rule_of.feature == DECOUPLING:
            near["left"] = AFTER_DECOUPLING
            return True
        if near["left"] > 0:
            near["left"] -= 1
            if machine.graph.version != seen["asked"] and counts["near"] < reserve:
                counts["near"] += 1
                return True
        return False

    monitor = execution.monitor
    rec.checks = [c.name for c in monitor.checks] if monitor is not None else []
    consulted_so_far = []  # per step: how many times each check had been consulted before that step's turn

    def runs() -> tuple:
        return tuple(monitor.runs[name] for name in rec.checks) if monitor is not None else ()

    gap: dict = {}  # the steps not recorded, summarised
    per_step = 4 * len(rec.checks) + 4  # what a step's list of consulted checks may take of the page

    def step(number: int, rule: Optional[str]) -> None:
        if gap:
            _count(number, rule)
            return
        if len(rec.steps) >= max_recorded_steps or sizes["steps"] > STEP_BYTES:
            why = (f"more than {max_recorded_steps} steps" if len(rec.steps) >= max_recorded_steps
                   else f"the steps recorded reached the page's {STEP_BYTES:,} bytes for them")
            gap.update(first=number, last=number, count=0, rules={}, graph_changes=0, why=why,
                       version=seen["asked"])  # the graph as the last recorded step left it
            _count(number, rule)
            return
        s = state(number, rule)
        sizes["steps"] += _bytes(s) + per_step
        rec.steps.append(s)
        consulted_so_far.append(runs())
        if progress is not None and number % PROGRESS_EVERY == 0:
            progress(number, len(rec.frames))

    def _count(number: int, rule: Optional[str]) -> None:
        gap["last"], gap["final_rule"] = number, rule
        gap["count"] += 1
        gap["rules"][rule] = gap["rules"].get(rule, 0) + 1
        version = machine.graph.version
        gap["final_changed"] = version != gap["version"]
        gap["graph_changes"] += gap["final_changed"]
        gap["version"] = version

    step(0, None)
    # recorded before the checks look (they are called after it): a violating state is on the page
    machine.after.insert(0, lambda m, rule_id, redex: step(m.steps, rule_id))
    rec.result = execution.run(max_steps)
    if gap:  # the final state: recorded in full after the stretch that was only counted
        final_rule = gap.pop("final_rule")
        gap["count"] -= 1
        gap["rules"][final_rule] -= 1
        gap["graph_changes"] -= gap.pop("final_changed")
        gap["last"] -= 1
        gap["rules"] = {r: n for r, n in sorted(gap["rules"].items()) if n}
        del gap["version"]
        rec.unrecorded = gap if gap["count"] else None
        rec.steps.append(state(machine.steps, final_rule))
        consulted_so_far.append(runs())
    if rec.steps[-1]["frame"] is None:  # the final state has its picture, if it fits the page at all
        rec.unpictured -= 1
        rec.steps[-1]["frame"] = picture(force=True, final=True)
        rec.unpictured += rec.steps[-1]["frame"] is None
    # a step's state was seen by the checks consulted between it and the next step (the last
    # step's: until the run ended, their final looks; step 0's: their initial looks)
    consulted_so_far.append(runs())
    if options.get("check_mode", "exhaustive") != "sampled":
        rec.consulted = [[i for i, (a, b) in enumerate(zip(now, then)) if b > a] for now, then in zip(consulted_so_far, consulted_so_far[1:])]
    return rec


def graph_changes(program, max_steps: int, max_recorded_steps: int, options: dict) -> tuple[int, int]:
    """How many transitions change the graph among the first `max_recorded_steps` of the run,
    and how many of them decouple (a run of its own, unwatched by the checks: the picture
    budget is spread over them, some kept for the steps after each decoupling)."""
    from goi.semantics.rules import DECOUPLING

    from goi.execution import prepare

    quiet = {k: v for k, v in options.items() if k not in ("checks", "check_mode")}
    execution = prepare(program, **quiet)
    machine = execution.machine
    seen = {"version": machine.graph.version, "changes": 0, "decouplings": 0}

    def count(m, rule_id, _redex) -> None:
        if m.graph.version != seen["version"] and m.steps <= max_recorded_steps:
            seen["changes"] += 1
            seen["decouplings"] += m.rules[rule_id].feature == DECOUPLING
        seen["version"] = m.graph.version

    machine.after.insert(0, count)
    execution.run(max_steps)
    return seen["changes"], seen["decouplings"]


def spread(changes: int, max_frames: int):
    """Which graph changes (numbered from 1) are pictured besides the initial state: all of
    them when the budget allows, else max_frames - 1 of them evenly spaced over the run."""
    room = max(0, max_frames - 1)
    if changes <= room:
        return lambda k: True
    return lambda k: (k * room) // changes != ((k - 1) * room) // changes


SHOWN_STACK = 20_000  # characters of one step's computation (or box) stack the page shows, at most


def _capped(text: str) -> str:
    """A stack as the page shows it: its top first, cut (and said so) past SHOWN_STACK characters."""
    if len(text) <= SHOWN_STACK:
        return text
    return text[:SHOWN_STACK] + f" … ({len(text) - SHOWN_STACK:,} more characters not shown)"


def _bytes(step: dict) -> int:
    """What a recorded step takes of the page: its JSON as the page holds it."""
    return len(script_json(step).encode("utf-8")) + 2


def _packed(svg: str) -> str:
    """An SVG picture gzip-compressed and base64-encoded: a tenth of its size; the page
    unpacks each when it is first shown (DecompressionStream)."""
    import base64
    import gzip

    return base64.b64encode(gzip.compress(svg.encode("utf-8"), 6, mtime=0)).decode("ascii")  # no timestamp: the same run, the same page


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
