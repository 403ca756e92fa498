// A step of playground/build.py, run by Node.js in the scratch folder where npm installed
// Pyodide (never copied to the site): CPython in WebAssembly is started, goi's wheels are
// unpacked, goi's modules are imported and warmed (a check, and a run with every check
// without pictures), and the interpreter's memory is written gzipped. The page's worker
// restores it instead of starting CPython and importing goi anew (docs/PLAYGROUND.md).
// It is the same code as the wheels the site serves, which the worker unpacks all the same,
// for what the warm-up did not import.
//
//     node snapshot.mjs WHEELS_DIR OUT.gz
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { loadPyodide } from "pyodide";

const [wheels, out] = process.argv.slice(2);
const WARM = `
from goi import execution
from goi.reports import graphviz, playground, view  # noqa: F401 (imported for the snapshot)
from goi.semantics.checks import registry
from goi.version import __version__  # noqa: F401 (read from the wheel's metadata, as the worker asks)

TEXT = "let f @ p = {1} * {2} in f (p + p)"
assert playground.check(TEXT)["ok"]
assert execution.run(TEXT, checks=list(registry())).status == "final"
`;

const pyodide = await loadPyodide({_makeSnapshot: true, packages: []});
const manifest = JSON.parse(fs.readFileSync(path.join(wheels, "manifest.json"), "utf8"));
for (const wheel of manifest.wheels){
  pyodide.unpackArchive(new Uint8Array(fs.readFileSync(path.join(wheels, wheel))), "wheel");
}
pyodide.runPython(WARM);
fs.writeFileSync(out, zlib.gzipSync(pyodide.makeMemorySnapshot(), {level: 9}));
