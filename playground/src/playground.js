// The playground's page: an editor, the options that matter in a browser, and goi view's
// stepper (view.js, the same code as goi view's pages) showing each run the worker records.
(function(){
"use strict";
const $ = (id) => document.getElementById(id);
let site = null, worker = null, ready = false, next = 1, running = null, checking = 0, lastStep = 0;
const waiting = new Map();  // message id -> resolve
const FIRST_EXAMPLE = "paper/deep_decoupling";  // what a first visit shows, run (13, parameters 3 and 2)
window.goiPlayground = {last: null, page: null};  // the last run's answer and downloaded page, for tests and the console


// What the header says was run: the example chosen, by its title, while its text is unchanged;
// else the reader's own program.
function shownProgram(){
  const menu = $("examples"), ex = menu.value !== "" && site ? site.examples[Number(menu.value)] : null;
  return ex && ex.text === $("program").value ? "The example \u201c" + (ex.title || ex.name) + "\u201d" : "Your program";
}

// An exact value's decimal, beside it (16581821131/2250000000 ≈ 7.36969828044…): twelve
// digits after the point, exactly (BigInt), "…" where it goes on.
function decimal(text){
  const m = /^(-?)(\d+)\/(\d+)$/.exec(text);
  if (!m) return "";
  const n = BigInt(m[2]), d = BigInt(m[3]);
  let r = n % d, digits = "";
  for (let i = 0; i < 12 && r !== 0n; i++){ r *= 10n; digits += (r / d).toString(); r %= d; }
  return "≈ " + m[1] + (n / d).toString() + (digits ? "." + digits : "") + (r !== 0n ? "…" : "");
}

function startWorker(){
  ready = false;
  worker = new Worker("worker.mjs", {type: "module"});
  worker.onmessage = (e) => {
    const m = e.data;
    if (m.kind === "ready"){
      ready = true;
      $("boot").textContent = "ready in " + m.seconds.toFixed(1) + " s";
      $("boot").title = "CPython in WebAssembly " + m.how + (m.how === "restored" ? " from the site's snapshot, goi imported" : "");
      $("version").textContent = m.versions.goi + " (Python " + m.versions.python + ", Graphviz " + m.versions.graphviz + ")";
      document.body.dataset.bootSeconds = String(m.seconds);
      document.body.dataset.bootMarks = JSON.stringify(m.marks || {});
      document.body.dataset.boot = m.how;
      document.body.dataset.goiReady = "1";
      $("run").disabled = false;
      check();
      if (pendingRun){ pendingRun = false; run(); }
    } else if (m.kind === "fatal"){
      $("boot").textContent = "goi could not load: " + m.message;
      $("boot").classList.add("failed");
    } else if (m.kind === "progress"){
      if (running === m.id){ lastStep = m.step; $("progress").textContent = "running: step " + m.step + ", " + m.pictures + " pictures"; }
    } else if (m.kind === "result"){
      const resolve = waiting.get(m.id);
      waiting.delete(m.id);
      if (resolve) resolve(m.result);
    }
  };
  worker.onerror = (e) => { $("boot").textContent = "goi's worker failed: " + e.message; $("boot").classList.add("failed"); };
}
function ask(kind, text, options){
  const id = next++;
  worker.postMessage({id, kind, text, options});
  return [id, new Promise((resolve) => waiting.set(id, resolve))];
}

// ---- the editor
function showError(error){
  const d = $("diagnostic");
  d.textContent = error.text;
  d.className = "error";
  d.dataset.kind = error.kind;
  d.dataset.line = error.line === null || error.line === undefined ? "" : String(error.line);
  d.dataset.column = error.column === null || error.column === undefined ? "" : String(error.column);
  $("program").setAttribute("aria-invalid", "true");
}
async function check(){
  if (!ready) return;
  const mine = ++checking, text = $("program").value;
  const [, answer] = ask("check", text);
  const result = await answer;
  if (mine !== checking) return;  // typed on meanwhile
  if (result.ok){
    const d = $("diagnostic");
    d.className = ""; d.dataset.kind = ""; d.dataset.line = ""; d.dataset.column = "";
    d.textContent = "type " + result.type + (result.parameters.length ? ", parameters " + result.parameters.join(", ") : ", no provisional constants");
    $("program").removeAttribute("aria-invalid");
  } else showError(result.error);
  document.body.dataset.checked = String(mine);
}
let typing = null;
$("program").addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(check, 250); });
$("program").addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)){ e.preventDefault(); run(); } });

// ---- the options (goi run's)
const NUMBERS = ["seed", "max_steps", "max_frames"];
function options(){
  const o = {division: $("opt-division").value, strategy: $("opt-strategy").value, gc: $("opt-gc").checked,
    check_mode: $("opt-check_mode").value,
    checks: [...document.querySelectorAll("#opt-checks input:checked")].map((c) => c.value)};
  NUMBERS.forEach((n) => { if ($("opt-" + n).value !== "") o[n] = Number($("opt-" + n).value); });  // empty: goi's default
  return o;
}
function setOptions(o){
  ["division", "strategy", "check_mode"].forEach((n) => { if (o[n] !== undefined) $("opt-" + n).value = o[n]; });
  if (o.gc !== undefined) $("opt-gc").checked = o.gc;
  NUMBERS.forEach((n) => { if (o[n] !== undefined) $("opt-" + n).value = o[n] === null ? "" : String(o[n]); });
  if (o.checks) document.querySelectorAll("#opt-checks input").forEach((c) => { c.checked = o.checks.includes(c.value); });
}

// ---- a run
let pendingRun = false;
async function run(){
  if (!ready){ pendingRun = true; return; }
  if (running !== null) return;
  $("run").disabled = true; $("stop").disabled = false; $("download").disabled = true;
  $("progress").textContent = "running…";
  lastStep = 0;
  const [id, answer] = ask("run", $("program").value, options());
  running = id;
  const result = await answer;
  if (running !== id) return;  // stopped meanwhile
  running = null;
  window.goiPlayground.last = result;
  $("run").disabled = false; $("stop").disabled = true;
  if (!result.ok){
    showError(result.error);
    $("progress").textContent = result.error.kind + " error";
    $("result").hidden = true;
  } else {
    const s = result.summary;
    $("result").hidden = false;
    $("hint-what").textContent = shownProgram() + ", run on the graph machine";
    $("result-value").textContent = s.status === "final" ? s.value : s.status + ": " + (s.reason || "");
    const near = s.status === "final" ? decimal(String(s.value)) : "";
    $("result-decimal").textContent = near; $("result-decimal-row").hidden = !near;
    $("result-type").textContent = s.type;
    $("result-parameters").textContent = s.parameters.join(", ") || "-";
    $("result-transitions").textContent = s.transitions.total + " (pass " + s.transitions.pass + ", rewrite " + s.transitions.rewrite + ")";
    $("progress").textContent = s.status + ", " + result.data.frames + " pictures";
    $("download").disabled = false;
    const frames = result.frames;
    goiView.start(result.data, {text: (f) => Promise.resolve(frames[f])});
  }
  document.body.dataset.runs = String(Number(document.body.dataset.runs || 0) + 1);
}
function stop(){  // the run is in the worker's one thread: the worker goes, a new one loads
  if (running === null) return;
  const id = running;
  running = null;
  worker.terminate();
  const resolve = waiting.get(id); waiting.clear();
  $("progress").textContent = "stopped by you at step " + lastStep + " (nothing recorded is shown: the run did not end)";
  $("run").disabled = true; $("stop").disabled = true;
  $("boot").textContent = "reloading goi…";
  document.body.dataset.goiReady = "";
  document.body.dataset.stopped = String(Number(document.body.dataset.stopped || 0) + 1);
  startWorker();
  if (resolve) resolve(null);
}
$("run").onclick = run;
$("stop").onclick = stop;

// ---- the page's address: program and options in its fragment
function link(){
  const params = new URLSearchParams();
  params.set("program", $("program").value);
  const o = options();
  Object.entries(o).forEach(([k, v]) => params.set(k, Array.isArray(v) ? v.join(",") : String(v)));
  history.replaceState(null, "", "#" + params.toString());
  return location.href;
}
function fromAddress(){
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.has("program")) return false;
  $("program").value = params.get("program");
  const o = {};
  ["division", "strategy", "check_mode"].forEach((n) => { if (params.has(n)) o[n] = params.get(n); });
  if (params.has("gc")) o.gc = params.get("gc") === "true";
  NUMBERS.forEach((n) => { if (params.has(n)) o[n] = Number(params.get(n)); });
  if (params.has("checks")) o.checks = params.get("checks").split(",").filter(Boolean);
  setOptions(o);
  return true;
}
$("share").onclick = async () => {
  const href = link();
  try { await navigator.clipboard.writeText(href); $("progress").textContent = "link copied"; }
  catch { $("progress").textContent = "the address bar has the link"; }
};
$("download").onclick = async () => {
  const [, answer] = ask("page");
  const result = await answer;
  if (!result || !result.ok){ if (result) showError(result.error); return; }
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([result.page], {type: "text/html"}));
  a.download = "goi-view.html";
  document.body.append(a); a.click(); a.remove();
  window.goiPlayground.page = result.page;
  document.body.dataset.downloaded = String(result.page.length);
};

// ---- start
fetch("site.json").then((r) => r.json()).then((data) => {
  site = data;
  const menu = $("examples");
  const groups = {};
  site.examples.forEach((ex, i) => {
    if (!groups[ex.group]){ groups[ex.group] = document.createElement("optgroup"); groups[ex.group].label = site.groups[ex.group] || ex.group; menu.append(groups[ex.group]); }
    const o = document.createElement("option"); o.value = String(i); o.textContent = ex.title || ex.name; o.dataset.origin = ex.group + "/" + ex.name; groups[ex.group].append(o);
  });
  menu.onchange = () => { if (menu.value === ""){ return; } $("program").value = site.examples[Number(menu.value)].text; check(); };
  const checks = $("opt-checks");
  site.checks.forEach((name) => {
    const l = document.createElement("label"); const c = document.createElement("input");
    c.type = "checkbox"; c.value = name; l.append(c, " " + name); checks.append(l);
  });
  setOptions(site.defaults);
  if (!fromAddress()){  // a first visit: the paper's example, run as soon as goi is ready
    const first = site.examples.findIndex((ex) => ex.group + "/" + ex.name === FIRST_EXAMPLE);
    $("program").value = first >= 0 ? site.examples[first].text : "let f @ p = {1} * {2} in f p";
    if (first >= 0) menu.value = String(first);
  }
  pendingRun = true;  // the page opens on a run: of the address's program, or of the example
  startWorker();
});
})();
