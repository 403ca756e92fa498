// The playground's Web Worker: goi under Pyodide (CPython in WebAssembly), its pictures laid
// out by Graphviz in WebAssembly (viz.js). Everything it loads is in the site's folder.
// Messages in: {id, kind: "check" | "run" | "page", text, options}; out: {id, kind: "result",
// result} (result: goi.reports.playground's answer), {id, kind: "progress", step, pictures},
// {kind: "ready", seconds, versions, marks, how} once loaded (how: "restored" from the
// build's snapshot, or "started"), {kind: "fatal", message} if loading failed.
import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";
import { instance as vizInstance } from "./vendor/viz/viz.js";

const here = (path) => new URL(path, import.meta.url).href;
const started = performance.now();
const marks = {};  // seconds since the worker started, at each stage of loading (for benchmarks/bench_playground.py)
const mark = (name) => { marks[name] = (performance.now() - started) / 1000; };
let call = null;

// The interpreter playground/build.py saved with goi imported (wheels/manifest.json's
// "snapshot"), decompressed; null when the site has none or this browser cannot decompress it.
async function saved(manifest){
  if (!manifest.snapshot || typeof DecompressionStream === "undefined") return null;
  const r = await fetch(here("./wheels/" + manifest.snapshot));
  if (!r.ok) throw new Error(manifest.snapshot + ": " + r.status);
  return new Response(r.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
}

// CPython in WebAssembly: restored from the snapshot when there is one (a second), else
// started and goi imported anew (several seconds). A snapshot that cannot be restored is
// said in the ready message, never fatal.
async function python(manifest){
  const options = {indexURL: here("./vendor/pyodide/"), packages: []};
  try {
    const snapshot = await saved(manifest);
    if (snapshot) return [await loadPyodide({...options, _loadSnapshot: snapshot}), "restored"];
    return [await loadPyodide(options), "started"];
  } catch (err){
    return [await loadPyodide(options), "started (the snapshot could not be restored: " + String(err && err.message || err) + ")"];
  }
}

async function boot(){
  const manifest = await fetch(here("./wheels/manifest.json")).then((r) => r.json());
  const [[pyodide, how], viz] = await Promise.all([python(manifest), vizInstance()]);
  mark("runtime");
  for (const wheel of manifest.wheels){
    const bytes = await fetch(here("./wheels/" + wheel)).then((r) => { if (!r.ok) throw new Error(wheel + ": " + r.status); return r.arrayBuffer(); });
    pyodide.unpackArchive(bytes, "wheel");
  }
  mark("wheels");
  // Graphviz for goi.reports.graphviz: render(dot, engine, formats) -> {format: text}
  self.goiGraphviz = (dot, engine, formats) => {
    const out = viz.renderFormats(dot, formats, {engine});
    if (out.status !== "success") throw new Error("Graphviz: " + out.errors.map((e) => e.message).join("; "));
    return JSON.stringify(out.output);
  };
  pyodide.runPython(`
import json
import js
from pyodide.ffi import to_js
from goi.reports import graphviz, playground

def _render(dot, engine, formats):
    return json.loads(js.goiGraphviz(dot, engine, to_js(list(formats))))

graphviz.use(_render)

def goi_call(kind, text, options_json, progress):
    if kind == "check":
        return json.dumps(playground.check(text))
    if kind == "run":
        return json.dumps(playground.run(text, json.loads(options_json), lambda step, pictures: progress(step, pictures)))
    if kind == "page":
        return json.dumps({"ok": True, "page": playground.page()})
    raise ValueError(kind)
`);
  call = pyodide.globals.get("goi_call");
  mark("imports");
  const versions = JSON.parse(pyodide.runPython(`
import json, sys
from goi.version import __version__
json.dumps({"goi": __version__, "python": sys.version.split()[0], "graphviz": js.goiGraphvizVersion})
`.replace("js.goiGraphvizVersion", JSON.stringify(viz.graphvizVersion))));
  postMessage({kind: "ready", seconds: (performance.now() - started) / 1000, versions, marks, how});
}

self.onmessage = (e) => {
  const {id, kind, text, options} = e.data;
  if (!call){ postMessage({id, kind: "result", result: {ok: false, error: {kind: "io", message: "goi is still loading", text: "goi is still loading"}}}); return; }
  let answer;
  try {
    answer = JSON.parse(call(kind, text || "", JSON.stringify(options || {}), (step, pictures) => postMessage({id, kind: "progress", step, pictures})));
  } catch (err){  // a fault of goi itself, never of the program: shown as such, whole
    answer = {ok: false, error: {kind: "internal", message: String(err.message || err), line: null, column: null,
      text: "internal error of goi (please report it with this program): " + String(err.message || err)}};
  }
  postMessage({id, kind: "result", result: answer});
};

boot().catch((err) => postMessage({kind: "fatal", message: String(err && err.message || err)}));
