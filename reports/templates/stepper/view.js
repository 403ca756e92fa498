
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
function applyBox(){ const svg = svgShown(); if (svg) svg.setAttribute("viewBox", (box || baseBox(svg)).join(" ")); viewNote(); }
function viewNote(){  // what the pane shows, said after every change of it (a zoom, a pan, fit, a new picture, a new run)
  const svg = svgShown(), note = $("view-note");
  if (!note) return;
  if (!svg){ note.textContent = ""; return; }
  const scale = svg.getScreenCTM() ? (svg.getScreenCTM().a || 1) : 1, view = $("graph").dataset.view;
  note.textContent = scale < READABLE ? (view === "whole" ? "the whole graph: " : "") + "its labels are too small to read at this scale: zoom in (+)"
    : view === "focus" ? "focus on the token (the whole graph would be unreadable): fit again for all of it" : "";
  note.dataset.scale = scale.toFixed(3);
}
function adopt(svg){  // a new picture: the pane's size, the zoom kept
  svg.dataset.base = svg.getAttribute("viewBox");
  svg.removeAttribute("width"); svg.removeAttribute("height");
  labelsOnTop(svg);
  applyBox();
}
function labelsOnTop(svg){  // links' labels above every link and node, with a halo: no link (the token's, drawn thick) hides a label
  const graph = svg.querySelector("g.graph");
  if (!graph) return;
  const layer = document.createElementNS("http://www.w3.org/2000/svg", "g");
  layer.setAttribute("class", "labels");
  svg.querySelectorAll("g.edge").forEach((e) => e.querySelectorAll(":scope > text").forEach((t) => { t.dataset.link = e.id; layer.append(t); }));
  graph.append(layer);
}
function zoom(factor, x, y){  // about the screen point (x, y), by default the pane's centre
  const svg = svgShown(); if (!svg) return;
  if ($("graph").dataset.view === "whole") $("graph").dataset.view = "zoomed";
  const r = $("graph").getBoundingClientRect();
  if (x === undefined){ x = r.left + r.width / 2; y = r.top + r.height / 2; }
  const b = box || baseBox(svg), p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM().inverse());
  box = [p.x - (p.x - b[0]) / factor, p.y - (p.y - b[1]) / factor, b[2] / factor, b[3] / factor];
  applyBox();
}
function pan(dx, dy){  // by screen pixels
  wholeNext = false;
  const svg = svgShown(); if (!svg) return;
  const b = box || baseBox(svg), scale = svg.getScreenCTM().a || 1;
  box = [b[0] - dx / scale, b[1] - dy / scale, b[2], b[3]];
  applyBox();
}
// an edge label is 8 units tall in the drawing (semantics/dot.py): below this many screen pixels
// per unit it is under 7 px, unreadable
const READABLE = 7 / 8;
const NO_PICTURE_WHY = "the pictures are spread over the run: --max-frames, the playground's pictures field; the final state and every decoupling always have one";
const NO_PICTURE = "no picture of the graph at this step: " + NO_PICTURE_WHY;
let wholeNext = false;  // fit pressed again after a focus view: the whole graph
function fit(){
  box = null; applyBox();
  const svg = svgShown(), edge = document.querySelector("#graph g.edge.token");
  const scale = svg ? (svg.getScreenCTM().a || 1) : 1;
  if (!wholeNext && svg && edge && $("follow").checked && scale < READABLE){
    // the whole graph would be unreadable: a focus view around the token, its labels 7 px and more
    const e = edge.getBoundingClientRect();
    zoom(READABLE / scale, e.left + e.width / 2, e.top + e.height / 2);
    follow();
    wholeNext = true;
    $("graph").dataset.view = "focus";
    viewNote();
    return;
  }
  wholeNext = false;
  $("graph").dataset.view = "whole";
  viewNote();
}
function zoomAtToken(factor){  // + and −: about the token's link when following it, and it stays in view
  const edge = $("follow").checked ? document.querySelector("#graph g.edge.token") : null;
  if (edge){ const e = edge.getBoundingClientRect(); zoom(factor, e.left + e.width / 2, e.top + e.height / 2); }
  else zoom(factor);
  follow();
}
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
  g.addEventListener("wheel", (e) => {  // about the pointer; the token kept in the pane while it is followed
    e.preventDefault(); zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX, e.clientY); follow();
  }, {passive: false});
  g.addEventListener("pointerdown", (e) => { drag = [e.clientX, e.clientY]; g.classList.add("panning"); g.setPointerCapture(e.pointerId); });
  g.addEventListener("pointermove", (e) => { if (!drag) return; pan(e.clientX - drag[0], e.clientY - drag[1]); drag = [e.clientX, e.clientY]; });
  const end = () => { drag = null; g.classList.remove("panning"); };
  g.addEventListener("pointerup", end); g.addEventListener("pointercancel", end);
  $("fit").onclick = fit;
  $("zoom-in").onclick = () => { wholeNext = false; zoomAtToken(1.5); };
  $("zoom-out").onclick = () => { wholeNext = false; zoomAtToken(1 / 1.5); };
  $("follow").onchange = follow;
  window.addEventListener("resize", sizePane);
  if (window.ResizeObserver) new ResizeObserver(sizePane).observe(document.querySelector("header"));  // a header that grows (a line wraps, a status changes) keeps the pane on screen
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
  box = null; wholeNext = false;
  $("graph").innerHTML = "";
  $("graph").dataset.view = "whole";  // a new run starts on its whole graph: no note of the run before stays
  viewNote();

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
    if (moved) pane.querySelectorAll("g.edge, g.cluster, g.labels").forEach((e) => e.animate([{opacity: 0.15}, {opacity: 1}], {duration: ms}));
  }
  function earlier(i){  // the last step at or before i with a picture (the graph as it last was drawn), or -1
    for (let k = i; k >= 0; k--) if (steps[k].frame !== null) return k;
    return -1;
  }
  async function showFrame(f){
    const pane = $("graph");
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
    document.querySelectorAll("#graph .token").forEach((e) => e.classList.remove("token"));
    const edge = document.querySelector("#graph g#l" + s.link);
    if (edge) edge.classList.add("token");
    document.querySelectorAll('#graph g.labels text[data-link="l' + s.link + '"]').forEach((t) => t.classList.add("token"));
  }
  function showSource(s){
    const src = $("source"), text = data.program;
    src.textContent = "";
    if (!s.span){ src.textContent = text; return; }
    const [a, b] = s.span;
    src.append(document.createTextNode(text.slice(0, a)));
    const m = document.createElement("mark"); m.textContent = text.slice(a, b); src.append(m);
    src.append(document.createTextNode(text.slice(b)));
    if (src.scrollHeight > src.clientHeight){  // a program taller than its pane: the term in view, the page not scrolled
      const top = m.offsetTop - src.offsetTop;
      if (top < src.scrollTop || top + m.offsetHeight > src.scrollTop + src.clientHeight) src.scrollTop = Math.max(0, top - src.clientHeight / 3);
    }

  }
  function markInView(){  // the side panel is as tall as the graph's pane and scrolls on its own: the highlighted term
    // kept in its view, once the step's token table is written (at 1280×720 the table pushed it below the window)
    const side = $("side"), m = document.querySelector("#source mark");
    if (!side || !m || side.scrollHeight <= side.clientHeight) return;
    const sr = side.getBoundingClientRect(), mr = m.getBoundingClientRect();
    if (mr.top < sr.top || mr.bottom > sr.bottom) side.scrollTop += mr.top - sr.top - Math.max(0, (side.clientHeight - mr.height) / 3);
  }
  function show(i){
    at = Math.max(0, Math.min(last, i));
    const s = steps[at];
    const shown = at;
    // a step without a picture shows the last picture before it, said to be that one (not an empty pane)
    const drawn = s.frame !== null ? at : earlier(at);
    const f = drawn < 0 ? null : steps[drawn].frame;
    $("no-picture").hidden = s.frame !== null;
    $("no-picture").textContent = s.frame !== null ? "" : (drawn < 0 ? NO_PICTURE :
      "no picture of this step: the graph as step " + steps[drawn].n + " drew it, " + (s.n - steps[drawn].n) +
      " step(s) earlier (" + NO_PICTURE_WHY + ")");
    $("graph").classList.toggle("earlier", s.frame === null && drawn >= 0);
    showFrame(f).then(() => {
      if (at !== shown || current !== self) return;
      highlight(s);
      follow(); document.body.dataset.ready = String(shown);
    });
    highlight(s);
    // the end of a run that reached its value: the value is the whole program's, so the whole program is marked
    showSource(at === last && data.status === "final" ? {span: [0, data.program.length]} : s);
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
    $("picture").textContent = s.frame === null ? "none (" + NO_PICTURE_WHY + ")" : (s.frame + 1) + " of " + data.frames + ": " + data.notes[s.frame];
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
    markInView();
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
    else if (k === "+" || k === "=") zoomAtToken(1.5);
    else if (k === "-") zoomAtToken(1 / 1.5);
    else if (k === "0") fit();
    else return false;
    return true;
  }
  let outcome = data.status === "final" ? "final: value " + data.value + " after " + total + " transitions"
    : data.status + ": " + (data.reason || "");
  if (data.unpictured) outcome += "; " + data.unpictured + " graph-changing steps have no picture (--max-frames spreads the pictures over the run; the final state and every decoupling have one)";
  if (data.over_budget) outcome += "; " + data.over_budget + " pictures left out to keep the page within its size budget";
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
