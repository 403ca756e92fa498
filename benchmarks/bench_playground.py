"""The browser playground, measured (docs/PLAYGROUND.md). Not a test: it asserts nothing.
Builds the site (or takes one built with --site), serves it on 127.0.0.1 with a server that
counts the bytes it sends, opens it in headless chromium with an empty cache, and reports:

- the bytes downloaded on first load (every file the page and its worker fetched);
- the seconds until the editor is ready (goi loaded, its first check answered), how the
  worker got its interpreter (restored from the build's snapshot, or started) and when each
  stage of its loading ended, and when the run the page opens on is shown;
- for the gradient-descent example: the seconds from Run to the first picture on screen,
  and to the last step recorded (the run's answer), and the same run under the CLI
  (`goi view`, and `goi run` without pictures) for comparison.

    python benchmarks/bench_playground.py [--site DIR] [--repeat N] [--json]

Targets (issue 33): ready ≤ 5 s from a local server, ≤ 30 MB downloaded, gradient
descent's first picture ≤ 10 s; issue 43: ready ≤ 3 s on an idle machine.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import runpy
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRADIENT = ROOT / "tests" / "programs" / "visualiser" / "gradient_descent_in_calculus.goi"


class Counted(http.server.SimpleHTTPRequestHandler):
    sent = 0
    files: list = []
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json"}

    def log_message(self, *args):
        pass

    def copyfile(self, source, outputfile):
        data = source.read()
        type(self).sent += len(data)
        type(self).files.append(self.path)
        outputfile.write(data)


def serve(site: Path):
    handler = type("Handler", (Counted,), {"sent": 0, "files": []})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, handler


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disk-cache-size=1", f"--user-data-dir={tempfile.mkdtemp()}"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def wait(driver, script: str, timeout: float = 600):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: d.execute_script(script))


def once(site: Path) -> dict:
    httpd, handler = serve(site)
    driver = browser()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/index.html"
        driver.get(url)
        ready = wait(driver, "return document.body.dataset.checked && performance.now()") / 1000
        # a site built before the worker said how it loaded (for A/B runs against older builds): started, no stages
        boot = driver.execute_script("return [document.body.dataset.boot || 'started',"
                                     " JSON.parse(document.body.dataset.bootMarks || '{}')]")
        opened = wait(driver, "return document.body.dataset.runs && performance.now()") / 1000  # the page opens on a run
        loaded = handler.sent
        files = len(handler.files)
        # the opening run's picture is marked, so that the wait below is for the new run's
        driver.execute_script("document.querySelector('#graph svg').dataset.old = '1';"
                              "const p = document.getElementById('program'); p.value = arguments[0];"
                              "p.dispatchEvent(new Event('input'))", GRADIENT.read_text(encoding="utf-8"))
        runs = driver.execute_script("return Number(document.body.dataset.runs)")
        started = driver.execute_script("document.getElementById('run').click(); return performance.now()")
        picture = wait(driver, "return document.querySelector('#graph svg:not([data-old])') && performance.now()")
        done = wait(driver, f"return Number(document.body.dataset.runs) > {runs} && performance.now()")
        last = driver.execute_script("return window.goiPlayground.last.data")
        return {"bytes": loaded, "files": files, "ready_s": ready, "opening_run_s": opened, "boot": boot[0],
                **{f"worker_{name}_s": boot[1].get(name, float("nan")) for name in ("runtime", "wheels", "imports")},
                "first_picture_s": (picture - started) / 1000, "last_step_s": (done - started) / 1000,
                "steps": last["steps"][-1]["n"], "pictures": last["frames"]}
    finally:
        driver.quit()
        httpd.shutdown()
        httpd.server_close()


def cli() -> dict:
    """The same run under the CLI: goi view (with its pictures, by pygraphviz) and goi run."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, argv in (("cli_view_s", ["view", str(GRADIENT), "-o", str(Path(tmp) / "p.html")]),
                           ("cli_run_s", ["run", str(GRADIENT)])):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "goi", *argv], check=True, capture_output=True)
            out[name] = time.perf_counter() - start
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a site built by playground/build.py (default: build one)")
    parser.add_argument("--repeat", type=int, default=3, help="page loads measured (the median is reported)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            runpy.run_path(str(ROOT / "playground" / "build.py"))["build"](site)
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        runs = [once(site) for _ in range(args.repeat)]
    result = {key: statistics.median(r[key] for r in runs) if key != "boot" else sorted({r[key] for r in runs})
              for key in runs[0]}
    result["site_bytes"] = size
    result.update(cli())
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(f"site: {size / 1e6:.1f} MB on disk; first load downloads {result['bytes'] / 1e6:.1f} MB in {result['files']} files")
        print(f"editor ready after {result['ready_s']:.2f} s (median of {args.repeat} loads, empty cache; the interpreter "
              f"{' / '.join(result['boot'])}; in the worker: runtime {result['worker_runtime_s']:.2f} s, wheels "
              f"{result['worker_wheels_s']:.2f} s, goi imported {result['worker_imports_s']:.2f} s)")
        print(f"the opening run (the paper's example) shown after {result['opening_run_s']:.2f} s")
        print(f"gradient descent ({result['steps']} steps, {result['pictures']} pictures): first picture "
              f"{result['first_picture_s']:.2f} s after Run, last step {result['last_step_s']:.2f} s")
        print(f"the same under the CLI: goi view {result['cli_view_s']:.2f} s, goi run {result['cli_run_s']:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
