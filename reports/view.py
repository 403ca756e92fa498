"""The step-through view of a run (`goi view`, `goi.view`): one self-contained HTML page —
inline SVG, CSS and script, nothing loaded from elsewhere — that steps through a run of the
literal machine.

Every transition is recorded (its rule, the token's link, direction, rewriting flag,
computation stack and box stack, and the source span of the term the token's link belongs
to). Passes only move the token, so a picture of the graph (laid out by Graphviz) is drawn
at the start and after each rewrite that changed the graph, at most `max_frames` of them;
each step shows the latest picture at or before it, with the token's link highlighted. The
steps past the budget have no picture, and the timeline says so. Nodes keep their place
from one picture to the next (reports/stable_layout.py); where Graphviz had to lay the
graph out anew, the page says why and animates the nodes to their new places.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from typing import Optional

DEFAULT_MAX_FRAMES = 60
# Steps recorded in full, at most: the page stays under about 20 MB and opens in seconds
# whatever the run's length (a step is about 220 bytes of the page). Past the budget the
# steps are counted, not recorded — by rule, with the graph-changing ones — and the final
# state is recorded again; the timeline shows the stretch not recorded.
DEFAULT_MAX_RECORDED_STEPS = 50_000
PROGRESS_EVERY = 500  # steps between two calls of record()'s progress
MAX_RECORDED_BYTES = 12 * 1024 * 1024  # the recorded steps' stacks and box stacks, at most (a step's stack can be long)


@dataclass
class Recording:
    """A run as the page shows it."""

    program: str
    steps: list = field(default_factory=list)  # one dict per transition (step 0: the initial state)
    frames: list = field(default_factory=list)  # SVG pictures (the page holds them packed: _packed)
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


def record(program, max_steps: int, max_frames: int = DEFAULT_MAX_FRAMES,
           max_recorded_steps: int = DEFAULT_MAX_RECORDED_STEPS, progress=None, **options) -> Recording:
    """Run `program` (text, a term or a judgement) on the machine (options as goi.run's) and
    record what the page shows (the source spans point into the judgement's `source`).
    At most `max_recorded_steps` steps (and MAX_RECORDED_BYTES of stacks) are recorded in
    full; the rest are summarised in `unrecorded`, and the final state is recorded last.
    `max_frames` pictures are spread over the run's graph changes; the final state and each
    decoupling have one besides. `progress(step, pictures)` is called as the run goes (the
    browser playground shows it)."""
    from goi import execution as api
    from goi.semantics import show
    from goi.semantics.machine import source_span
    from goi.semantics.rules import DECOUPLING

    from .stable_layout import StableLayout

    execution = api.prepare(program, **options)
    machine = execution.machine
    rec = Recording(execution.judgement.source)
    seen = {"drawn": None, "asked": machine.graph.version}  # graph versions: of the last picture, of the last step
    layout = StableLayout()

    # the picture budget is spread over the run's graph changes (a first run counts them);
    # the final state and every decoupling are pictured whatever the budget
    pictured = spread(graph_changes(program, max_steps, max_recorded_steps, options), max_frames)
    counts = {"changes": 0, "spread": 0}  # graph changes seen; pictures drawn within the budget

    def picture(force: bool = False) -> Optional[int]:
        version = machine.graph.version
        changed, seen["asked"] = version != seen["asked"], version
        counts["changes"] += changed
        if version == seen["drawn"]:
            return len(rec.frames) - 1
        if not force and ((counts["changes"] and not pictured(counts["changes"])) or counts["spread"] >= max_frames):
            rec.unpictured += changed  # counted once per change of the graph, not per step
            return None
        counts["spread"] += not force
        svg, anew = layout.draw(machine.graph)
        rec.frames.append(svg)
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
            "stack": show.stack(t.stack, machine.field.show),
            "boxes": show.box_stack(t.box_stack),
            "span": [span.start, span.end] if span is not None else None,
            "frame": picture(force=bool(rule_of and rule_of.feature == DECOUPLING)),
        }

    monitor = execution.monitor
    rec.checks = [c.name for c in monitor.checks] if monitor is not None else []
    consulted_so_far = []  # per step: how many times each check had been consulted before that step's turn

    def runs() -> tuple:
        return tuple(monitor.runs[name] for name in rec.checks) if monitor is not None else ()

    budget = {"bytes": 0}
    gap: dict = {}  # the steps not recorded, summarised

    def step(number: int, rule: Optional[str]) -> None:
        if gap:
            _count(number, rule)
            return
        if len(rec.steps) >= max_recorded_steps or budget["bytes"] > MAX_RECORDED_BYTES:
            why = (f"more than {max_recorded_steps} steps" if len(rec.steps) >= max_recorded_steps
                   else f"the stacks recorded reached {MAX_RECORDED_BYTES} bytes")
            gap.update(first=number, last=number, count=0, rules={}, graph_changes=0, why=why,
                       version=seen["asked"])  # the graph as the last recorded step left it
            _count(number, rule)
            return
        s = state(number, rule)
        budget["bytes"] += len(s["stack"]) + len(s["boxes"])
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
    if rec.steps[-1]["frame"] is None:  # the final state always has its picture
        rec.unpictured -= 1
        rec.steps[-1]["frame"] = picture(force=True)
    # a step's state was seen by the checks consulted between it and the next step (the last
    # step's: until the run ended, their final looks; step 0's: their initial looks)
    consulted_so_far.append(runs())
    if options.get("check_mode", "exhaustive") != "sampled":
        rec.consulted = [[i for i, (a, b) in enumerate(zip(now, then)) if b > a] for now, then in zip(consulted_so_far, consulted_so_far[1:])]
    return rec


def graph_changes(program, max_steps: int, max_recorded_steps: int, options: dict) -> int:
    """How many transitions change the graph among the first `max_recorded_steps` of the run
    (a run of its own, unwatched by the checks: the picture budget is spread over them)."""
    from goi import execution as api

    quiet = {k: v for k, v in options.items() if k not in ("checks", "check_mode")}
    execution = api.prepare(program, **quiet)
    machine = execution.machine
    seen = {"version": machine.graph.version, "changes": 0}

    def count(m, _rule_id, _redex) -> None:
        if m.graph.version != seen["version"] and m.steps <= max_recorded_steps:
            seen["changes"] += 1
        seen["version"] = m.graph.version

    machine.after.insert(0, count)
    execution.run(max_steps)
    return seen["changes"]


def spread(changes: int, max_frames: int):
    """Which graph changes (numbered from 1) are pictured besides the initial state: all of
    them when the budget allows, else max_frames - 1 of them evenly spaced over the run."""
    room = max(0, max_frames - 1)
    if changes <= room:
        return lambda k: True
    return lambda k: (k * room) // changes != ((k - 1) * room) // changes


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
        "unrecorded": rec.unrecorded,
        "violation": violation,
        "checks": rec.checks,
        "consulted": rec.consulted,
    }


def to_html(rec: Recording, title: str = "goi view") -> str:
    """The page: the data as JSON, the pictures as templates, the stepper's markup, script
    and style (the same as the browser playground's)."""
    payload = json.dumps(page_data(rec), ensure_ascii=False).replace("</", "<\\/")
    templates = "\n".join(f'<script type="application/gzip+base64" id="frame-{i}">{_packed(svg)}</script>'
                          for i, svg in enumerate(rec.frames))
    return PAGE.format(title=html.escape(title), data=payload, templates=templates, style=STYLE, script=SCRIPT,
                       stepper=NAV, pane=PANE, side=SIDE)


def compose(program, *, max_steps: int = 1_000_000, max_frames: Optional[int] = None,
            max_recorded_steps: Optional[int] = None, title: str = "goi view", **options) -> tuple[Recording, str]:
    """A run recorded and its page composed (the one place `goi view` and `goi.view` make
    it): the Recording and the self-contained HTML text. `program` is text, a term or a
    judgement; options as `goi.run`'s; at most `max_frames` pictures spread over the run
    (default 60, besides the final state's and each decoupling's) and `max_recorded_steps`
    steps recorded in full (default 50,000: the rest counted by rule and shown on the
    timeline). Needs the `reports` extra (Graphviz through pygraphviz)."""
    rec = record(program, max_steps, DEFAULT_MAX_FRAMES if max_frames is None else max_frames,
                 max_recorded_steps=DEFAULT_MAX_RECORDED_STEPS if max_recorded_steps is None else max_recorded_steps,
                 **options)
    return rec, to_html(rec, title)


def save(page: str, path: str) -> int:
    """Write a page; returns its size in bytes."""
    data = page.encode("utf-8")
    with open(path, "wb") as handle:
        handle.write(data)
    return len(data)


def view(program, output: Optional[str] = None, **options) -> str:
    """`goi.view`: the step-through page of a run as HTML text, also written to `output` if
    given (options as `compose`'s)."""
    _rec, page = compose(program, **options)
    if output is not None:
        save(page, output)
    return page


# The stepper's markup in three parts, shared by `goi view`'s page and the browser playground
# (reports/site.py): the controls and timeline (NAV), the graph's pane (PANE), the token,
# program and run (SIDE). The script (SCRIPT) finds its elements by these ids.
NAV = """<nav id="controls">
 <button id="first" title="first step (Home)">|◀</button>
 <button id="prev-rewrite" title="previous rewrite (Shift+R)">⇤ rw</button>
 <button id="prev" title="previous step (←, p)">◀</button>
 <button id="play" title="play / pause (space)">▶ play</button>
 <button id="next" title="next step (→, n)">▶</button>
 <button id="next-rewrite" title="next rewrite (r)">rw ⇥</button>
 <button id="next-decouple" title="next decoupling (d)">next decoupling</button>
 <label>rule <select id="rule-select"></select></label>
 <button id="next-rule" title="next firing of the chosen rule (f)">next firing</button>
 <label>step <input id="jump" type="number" min="0" value="0" title="jump to step N (g)"></label>
 <label>speed <input id="speed" type="range" min="1" max="60" value="8"> <span id="speed-out">8</span>/s</label>
 <span id="counter" aria-live="polite"></span>
</nav>
<div id="timeline" title="rewrites (grey), decouplings (blue), steps without a picture (hatched), a violation (red)"><div id="cursor"></div></div>
<div id="check-lanes"></div>"""

PANE = """<section id="graph-pane">
<div id="view-controls">
 <button id="fit" title="fit the whole graph in the pane (0)">fit</button>
 <button id="zoom-in" title="zoom in (+; or the mouse wheel)">+</button>
 <button id="zoom-out" title="zoom out (-)">−</button>
 <label title="pan so that the token's link stays in view"><input type="checkbox" id="follow" checked> follow token</label>
 <span class="hint">drag or Shift+arrows to pan</span>
</div>
<div id="graph"></div><p id="no-picture" hidden>no picture of the graph at this step: --max-frames spreads its pictures over the run (the final state and every decoupling always have one)</p>
<p id="legend"><span class="swatch token"></span> the token's link
 <span class="swatch red"></span> a link of type ¡… (provisional constants), red nodes: provisional constants
 <span class="swatch blue"></span> a decoupling (abduction) node
 <span class="swatch dashed"></span> a link into a variable (drawn without pulling the layout)
 <span class="swatch box"></span> a !-box (its doors at its edge)</p>
</section>"""

SIDE = """<h2>Token</h2>
<table id="token">
<tr><th>step</th><td id="step"></td></tr>
<tr><th>rule</th><td><code id="rule"></code> <span id="rule-kind"></span><div id="rule-summary"></div><div id="rule-source"></div>
<details id="rule-entry"><summary id="rule-link"></summary><div id="rule-text"></div></details></td></tr>
<tr><th>picture</th><td id="picture"></td></tr>
<tr><th>link</th><td id="link"></td></tr>
<tr><th>direction</th><td id="dir"></td></tr>
<tr><th>rewriting flag</th><td id="flag"></td></tr>
<tr><th>computation stack</th><td id="stack"></td></tr>
<tr><th>box stack</th><td id="boxes"></td></tr>
<tr id="checks-row" hidden><th>checks</th><td id="checks"></td></tr>
</table>
<h2>Program</h2>
<pre id="source"></pre>
<h2>Run</h2>
<p id="outcome"></p>
<p id="violation" hidden></p>
<p class="keys">Keys: → / n next, ← / p previous, space play, r / R next / previous rewrite, d next decoupling, f next firing of the chosen rule, g jump, Home / End; + / - / 0 zoom in, out, fit; Shift+arrows pan.</p>"""

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{style}</style></head>
<body>
<header><h1>{title}</h1>
{stepper}
</header>
<main>
{pane}
<section id="side">
{side}
</section>
</main>
<script type="application/json" id="goi-data">{data}</script>
{templates}
<script>{script}</script>
</body></html>
"""

STYLE = """
body{font-family:"DejaVu Sans",sans-serif;margin:0;color:#222}
header{position:sticky;top:0;background:#fafafa;border-bottom:1px solid #ccc;padding:.4em .8em;z-index:2}
h1{font-size:1.1em;margin:.2em 0}
h2{font-size:1em;margin:.8em 0 .3em}
nav button{font:inherit;margin:.1em}
#counter{margin-left:1em;font-weight:bold}
#timeline{position:relative;height:18px;background:#eee;margin-top:.4em;cursor:pointer}
#timeline .mark{position:absolute;top:0;width:1px;height:18px;background:#999}
#timeline .mark.decouple{background:#1565c0;width:3px}
#timeline .mark.nopic{background:repeating-linear-gradient(45deg,#bbb,#bbb 2px,#eee 2px,#eee 4px);height:8px;top:10px}
#timeline .mark.violation{background:#c62828;width:3px}
#timeline .unrecorded{position:absolute;top:0;height:18px;background:repeating-linear-gradient(-45deg,#d7ccc8,#d7ccc8 3px,#efebe9 3px,#efebe9 6px)}
#cursor{position:absolute;top:-2px;width:2px;height:22px;background:#e65100}
main{display:flex;gap:1em;padding:.8em}
#graph-pane{flex:3;min-width:0;display:flex;flex-direction:column;border:1px solid #ddd;height:var(--pane-height,70vh)}
#view-controls{padding:.2em .4em;border-bottom:1px solid #eee;font-size:.9em}
#view-controls .hint{color:#888;margin-left:.6em}
#graph{flex:1;min-height:0;overflow:hidden;position:relative;cursor:grab;touch-action:none}
#graph.panning{cursor:grabbing}
#graph svg{display:block;width:100%;height:100%}
#legend{margin:0;padding:.2em .4em;border-top:1px solid #eee;font-size:.8em;color:#555}
#legend .swatch{display:inline-block;width:1.6em;height:0;vertical-align:middle;margin:0 .2em 0 .8em;border-top:2px solid #222}
#legend .swatch.token{border-top:4px solid #e65100}
#legend .swatch.red{border-top-color:red}
#legend .swatch.blue{border-top-color:blue}
#legend .swatch.dashed{border-top-style:dashed}
#legend .swatch.box{height:.8em;border:1px solid #666;border-radius:4px}
#side{flex:2;min-width:22em}
#token th{text-align:left;padding-right:.6em;vertical-align:top;font-weight:normal;color:#555}
#source{white-space:pre-wrap;background:#f6f6f6;padding:.5em;border:1px solid #ddd}
#source mark{background:#ffe082;outline:1px solid #e65100}
g.edge.token path{stroke:#e65100;stroke-width:4}
g.edge.token polygon{fill:#e65100;stroke:#e65100}
g.edge.token text{fill:#e65100;font-weight:bold}
#violation{color:#c62828;font-weight:bold}
#check-lanes canvas{display:block;width:100%;height:6px;margin-top:2px;background:#eee}
#checks .held{color:#2e7d32}
#checks .violated{color:#c62828;font-weight:bold}
#checks .idle, #checks .sampled{color:#888}
#rule-source{color:#555;font-size:.9em;margin-top:.2em}
#rule-entry summary{cursor:pointer;color:#1565c0;font-size:.9em}
#rule-text{white-space:pre-wrap;font-size:.85em;background:#f6f6f6;padding:.4em;border:1px solid #ddd}
.keys{color:#666;font-size:.9em}
"""

SCRIPT = r"""
(function(){
"use strict";
// The stepper: goiView.start(data, frames) shows a recorded run (data: reports/view.py's
// page_data; frames.text(f): a Promise of picture f's SVG). goi view's page starts it on the
// data it embeds; the browser playground on each run its worker records.
const $ = (id) => document.getElementById(id);
let current = null;  // the run shown

function packedFrames(){  // goi view's pictures: gzip + base64 in <script> templates
  const unpacked = new Map();
  return {text(f){
    if (!unpacked.has(f)){
      const bytes = Uint8Array.from(atob($("frame-" + f).textContent), (c) => c.charCodeAt(0));
      const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      unpacked.set(f, new Response(stream).text());
    }
    return unpacked.get(f);
  }};
}

// ---- the graph's pane: fit, zoom, pan, follow the token
let box = null;  // the part of the drawing shown (an SVG viewBox); null: all of it (fit)
const svgShown = () => $("graph").querySelector("svg");
function baseBox(svg){ return svg.dataset.base.split(/[ ,]+/).map(Number); }
function applyBox(){ const svg = svgShown(); if (svg) svg.setAttribute("viewBox", (box || baseBox(svg)).join(" ")); }
function adopt(svg){  // a new picture: the pane's size, the zoom kept
  svg.dataset.base = svg.getAttribute("viewBox");
  svg.removeAttribute("width"); svg.removeAttribute("height");
  applyBox();
}
function zoom(factor, x, y){  // about the screen point (x, y), by default the pane's centre
  const svg = svgShown(); if (!svg) return;
  const r = $("graph").getBoundingClientRect();
  if (x === undefined){ x = r.left + r.width / 2; y = r.top + r.height / 2; }
  const b = box || baseBox(svg), p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM().inverse());
  box = [p.x - (p.x - b[0]) / factor, p.y - (p.y - b[1]) / factor, b[2] / factor, b[3] / factor];
  applyBox();
}
function pan(dx, dy){  // by screen pixels
  const svg = svgShown(); if (!svg) return;
  const b = box || baseBox(svg), scale = svg.getScreenCTM().a || 1;
  box = [b[0] - dx / scale, b[1] - dy / scale, b[2], b[3]];
  applyBox();
}
function fit(){ box = null; applyBox(); }
function follow(){  // pan so that the token's link is in the pane
  if (!$("follow").checked) return;
  const edge = document.querySelector("#graph g.edge.token");
  if (!edge) return;
  const p = $("graph").getBoundingClientRect(), m = 12;
  let e = edge.getBoundingClientRect();
  if (e.left >= p.left + m && e.right <= p.right - m && e.top >= p.top + m && e.bottom <= p.bottom - m) return;
  const room = Math.min((p.width - 4 * m) / Math.max(e.width, 1), (p.height - 4 * m) / Math.max(e.height, 1));
  if (room < 1) zoom(room, e.left + e.width / 2, e.top + e.height / 2);  // a link longer than the pane: zoom out to it
  e = edge.getBoundingClientRect();
  pan(p.left + p.width / 2 - (e.left + e.width / 2), p.top + p.height / 2 - (e.top + e.height / 2));
}
function sizePane(){  // the pane fills the window below the controls: the token never scrolls away from them
  const top = document.querySelector("header").getBoundingClientRect().height;
  document.documentElement.style.setProperty("--pane-height", Math.max(240, window.innerHeight - top - 28) + "px");
}
(function panes(){
  const g = $("graph");
  let drag = null;
  g.addEventListener("wheel", (e) => { e.preventDefault(); zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX, e.clientY); }, {passive: false});
  g.addEventListener("pointerdown", (e) => { drag = [e.clientX, e.clientY]; g.classList.add("panning"); g.setPointerCapture(e.pointerId); });
  g.addEventListener("pointermove", (e) => { if (!drag) return; pan(e.clientX - drag[0], e.clientY - drag[1]); drag = [e.clientX, e.clientY]; });
  const end = () => { drag = null; g.classList.remove("panning"); };
  g.addEventListener("pointerup", end); g.addEventListener("pointercancel", end);
  $("fit").onclick = fit;
  $("zoom-in").onclick = () => zoom(1.5);
  $("zoom-out").onclick = () => zoom(1 / 1.5);
  $("follow").onchange = follow;
  window.addEventListener("resize", sizePane);
})();

function start(data, frames){
  if (current) current.stop();
  const steps = data.steps, last = steps.length - 1, total = steps[last].n;  // indexes of recorded steps; step numbers
  function indexOf(n){  // the recorded step at or before step number n
    let lo = 0, hi = last;
    while (lo < hi){ const mid = (lo + hi + 1) >> 1; if (steps[mid].n <= n) lo = mid; else hi = mid - 1; }
    return lo;
  }
  const place = (n) => (total ? 100 * n / total : 0) + "%";
  let at = 0, shownFrame = -1, timer = null;
  box = null;
  $("graph").innerHTML = "";

  function find(from, dir, pred){
    for (let i = from + dir; i >= 0 && i <= last; i += dir){ if (pred(steps[i])) return i; }
    return from;
  }
  function centres(pane){  // node id -> its centre in the drawing's coordinates (kept nodes keep them, whatever the zoom)
    pane.getAnimations({subtree: true}).forEach((a) => a.finish());
    const where = new Map(), svg = svgShown();
    if (!svg) return where;
    const inverse = svg.getScreenCTM().inverse();
    pane.querySelectorAll("g.node").forEach((n) => {
      const r = n.getBoundingClientRect(), p = new DOMPoint(r.x + r.width / 2, r.y + r.height / 2).matrixTransform(inverse);
      where.set(n.id, [p.x, p.y]);
    });
    return where;
  }
  function animate(pane, before){  // nodes glide from their old places, new ones fade in
    const ms = timer ? Math.min(400, 700 / Number($("speed").value)) : 400;
    const now = centres(pane);
    let moved = false, glided = 0;
    pane.querySelectorAll("g.node").forEach((n) => {
      const old = before.get(n.id), p = now.get(n.id);
      if (!old){ n.animate([{opacity: 0}, {opacity: 1}], {duration: ms}); return; }
      const dx = old[0] - p[0], dy = old[1] - p[1];
      if (Math.abs(dx) + Math.abs(dy) < 0.5) return;
      moved = true; glided += 1;
      n.animate([{transform: "translate(" + dx + "px," + dy + "px)"}, {transform: "translate(0px,0px)"}], {duration: ms, easing: "ease-out"});
    });
    document.body.dataset.glided = String(glided);  // how many nodes the last change of picture moved
    if (moved) pane.querySelectorAll("g.edge, g.cluster").forEach((e) => e.animate([{opacity: 0.15}, {opacity: 1}], {duration: ms}));
  }
  async function showFrame(f){
    const pane = $("graph");
    $("no-picture").hidden = f !== null;
    if (f === null){ pane.innerHTML = ""; shownFrame = -1; pane.dataset.frame = "none"; return; }
    if (f !== shownFrame){
      shownFrame = f;
      const text = await frames.text(f);
      if (shownFrame !== f || current !== self) return;  // a later step (or run) asked for another picture meanwhile
      const before = centres(pane);
      pane.innerHTML = text;
      adopt(svgShown());
      pane.dataset.frame = String(f);
      if (before.size) animate(pane, before);
    }
  }
  function highlight(s){
    document.querySelectorAll("#graph g.edge.token").forEach((e) => e.classList.remove("token"));
    const edge = document.querySelector("#graph g#l" + s.link);
    if (edge) edge.classList.add("token");
  }
  function showSource(s){
    const src = $("source"), text = data.program;
    src.textContent = "";
    if (!s.span){ src.textContent = text; return; }
    const [a, b] = s.span;
    src.append(document.createTextNode(text.slice(0, a)));
    const m = document.createElement("mark"); m.textContent = text.slice(a, b); src.append(m);
    src.append(document.createTextNode(text.slice(b)));
  }
  function show(i){
    at = Math.max(0, Math.min(last, i));
    const s = steps[at];
    const shown = at;
    showFrame(s.frame).then(() => { if (at === shown && current === self) { highlight(s); follow(); document.body.dataset.ready = String(shown); } });
    highlight(s);
    showSource(s);
    $("counter").textContent = "step " + s.n + " / " + total;
    $("step").textContent = String(s.n);
    const r = s.rule ? data.rules[s.rule] : null;
    $("rule").textContent = s.rule || "(initial state)";
    $("rule-kind").textContent = r ? "(" + r.kind + ")" : "";
    $("rule-summary").textContent = r ? r.summary : "";
    $("rule-source").textContent = r ? r.source : "";
    $("rule-link").textContent = r ? "catalogue entry (docs/RULES.md#" + r.anchor + ")" : "";
    $("rule-entry").hidden = !r || !r.entry;
    $("rule-text").textContent = r ? r.entry : "";
    $("picture").textContent = s.frame === null ? "none (--max-frames spreads the pictures over the run)" : (s.frame + 1) + " of " + data.frames + ": " + data.notes[s.frame];
    $("link").textContent = "ℓ" + s.link;
    $("dir").textContent = s.dir;
    $("flag").textContent = s.flag;
    $("stack").textContent = s.stack;
    $("boxes").textContent = s.boxes;
    $("jump").value = String(s.n);
    $("cursor").style.left = place(s.n);
    const v = data.violation;
    showChecks(at);
    $("violation").hidden = !(v && v.step === s.n);
    if (v) $("violation").textContent = v.message;
  }
  function verdict(c, i){  // a check's verdict on step i's state
    const v = data.violation;
    if (v && v.step === steps[i].n && v.check === data.checks[c]) return "violated";
    if (!data.consulted) return "sampled";
    return data.consulted[i].includes(c) ? "held" : "idle";
  }
  function showChecks(i){
    $("checks-row").hidden = !data.checks.length;
    const cell = $("checks"); cell.textContent = "";
    data.checks.forEach((name, c) => {
      const d = document.createElement("div"), kind = verdict(c, i);
      d.className = kind; d.id = "check-" + name;
      d.textContent = name + ": " + {held: "held", violated: "violated", idle: "not consulted after this step",
        sampled: "sampled: looks after the first 64 changes of the graph, then at powers of two (not recorded per step)"}[kind];
      cell.append(d);
    });
  }
  function lanes(){  // one lane per check: where it was consulted and held (green), where violated (red)
    $("check-lanes").textContent = "";
    data.checks.forEach((name, c) => {
      const cv = document.createElement("canvas"); cv.width = 1000; cv.height = 1;
      cv.title = name + ": green where it was consulted after the step and held" + (data.violation && data.violation.check === name ? ", red where violated" : "");
      const g = cv.getContext("2d");
      steps.forEach((s, i) => {
        const kind = verdict(c, i);
        if (kind === "idle" || kind === "sampled") return;
        g.fillStyle = kind === "held" ? "#66bb6a" : "#c62828";
        g.fillRect(Math.floor(total ? 999 * s.n / total : 0), 0, kind === "held" ? 1 : 4, 1);
      });
      $("check-lanes").append(cv);
    });
  }
  function play(){
    if (timer){ clearInterval(timer); timer = null; $("play").textContent = "▶ play"; return; }
    $("play").textContent = "⏸ pause";
    timer = setInterval(() => { if (at >= last) play(); else show(at + 1); }, 1000 / Number($("speed").value));
  }
  function marks(){
    const tl = $("timeline");
    tl.querySelectorAll(".mark, .unrecorded").forEach((m) => m.remove());
    const add = (i, cls) => { const d = document.createElement("div"); d.className = "mark " + cls;
      d.style.left = place(steps[i].n); d.title = "step " + steps[i].n + (steps[i].rule ? ": " + steps[i].rule : ""); tl.append(d); };
    steps.forEach((s, i) => {
      if (s.kind === "rewrite") add(i, s.decouple ? "decouple" : "rewrite");
      if (s.frame === null) add(i, "nopic");
    });
    if (data.violation && data.violation.step !== null) add(indexOf(data.violation.step), "violation");
    const u = data.unrecorded;
    if (u){  // the stretch counted, not recorded: a band on the timeline that says so
      const d = document.createElement("div"); d.className = "unrecorded"; d.id = "unrecorded";
      d.style.left = place(u.first); d.style.width = (total ? 100 * (u.last - u.first + 1) / total : 0) + "%";
      d.title = "steps " + u.first + "–" + u.last + " not recorded (" + u.why + "): " + u.count + " transitions, "
        + u.graph_changes + " of them changing the graph; by rule: "
        + Object.entries(u.rules).map(([r, n]) => r + " " + n).join(", ");
      tl.append(d);
    }
    tl.onclick = (e) => { const r = tl.getBoundingClientRect(); show(indexOf(Math.round(total * (e.clientX - r.left) / r.width))); };
  }
  function rules(){
    const sel = $("rule-select");
    sel.textContent = "";
    [...new Set(steps.filter((s) => s.rule).map((s) => s.rule))].sort().forEach((id) => {
      const o = document.createElement("option"); o.value = id; o.textContent = id; sel.append(o); });
  }
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(at - 1);
  $("next").onclick = () => show(at + 1);
  $("play").onclick = play;
  $("play").textContent = "▶ play";
  $("next-rewrite").onclick = () => show(find(at, 1, (s) => s.kind === "rewrite"));
  $("prev-rewrite").onclick = () => show(find(at, -1, (s) => s.kind === "rewrite"));
  $("next-decouple").onclick = () => show(find(at, 1, (s) => s.decouple));
  $("next-rule").onclick = () => show(find(at, 1, (s) => s.rule === $("rule-select").value));
  $("jump").onchange = () => show(indexOf(Number($("jump").value)));
  $("speed").oninput = () => { $("speed-out").textContent = $("speed").value; if (timer){ play(); play(); } };
  function key(e){
    const k = e.key;
    if (k === "ArrowRight" && e.shiftKey) pan(-60, 0);
    else if (k === "ArrowLeft" && e.shiftKey) pan(60, 0);
    else if (k === "ArrowUp" && e.shiftKey) pan(0, 60);
    else if (k === "ArrowDown" && e.shiftKey) pan(0, -60);
    else if (k === "ArrowRight" || k === "n") show(at + 1);
    else if (k === "ArrowLeft" || k === "p") show(at - 1);
    else if (k === " ") { play(); }
    else if (k === "r") $("next-rewrite").click();
    else if (k === "R") $("prev-rewrite").click();
    else if (k === "d") $("next-decouple").click();
    else if (k === "f") $("next-rule").click();
    else if (k === "g") { $("jump").focus(); $("jump").select(); }
    else if (k === "Home") show(0);
    else if (k === "End") show(last);
    else if (k === "+" || k === "=") zoom(1.5);
    else if (k === "-") zoom(1 / 1.5);
    else if (k === "0") fit();
    else return false;
    return true;
  }
  let outcome = data.status === "final" ? "final: value " + data.value + " after " + total + " transitions"
    : data.status + ": " + (data.reason || "");
  if (data.unpictured) outcome += "; " + data.unpictured + " graph-changing steps have no picture (--max-frames spreads the pictures over the run; the final state and every decoupling have one)";
  if (data.unrecorded){
    const u = data.unrecorded;
    outcome += "; steps " + u.first + " to " + u.last + " are not recorded (" + u.why + ", --max-recorded-steps): "
      + u.count + " transitions (" + u.graph_changes + " changing the graph) counted by rule: "
      + Object.entries(u.rules).map(([r, n]) => r + " " + n).join(", ") + "; the final state is step " + total;
  }
  $("outcome").textContent = outcome;
  rules(); marks(); lanes(); sizePane();
  const self = {stop(){ if (timer) play(); }, key, show, indexOf};
  current = self;
  const begin = new URLSearchParams(location.hash.slice(1)).get("step");
  show(data.violation && data.violation.step !== null ? indexOf(data.violation.step) : (begin ? indexOf(Number(begin)) : 0));
  return self;
}

document.addEventListener("keydown", (e) => {
  if (!current || ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
  if (current.key(e)) e.preventDefault();
});
window.goiView = {start, packedFrames};
const embedded = $("goi-data");
if (embedded) start(JSON.parse(embedded.textContent), packedFrames());
})();
"""
