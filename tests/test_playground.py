"""The browser playground (docs/PLAYGROUND.md), built from this checkout by
playground/build.py and served by a local HTTP server on 127.0.0.1, driven in a real
headless chromium: goi's own pipeline under Pyodide gives what `goi run` gives, the stepper
(goi view's page code) steps as the trace says, errors show at their line and column, every
example of the menu runs to its corpus value, the address reproduces a page, a long run can be
stopped, and the console has no error."""

from __future__ import annotations

import contextlib
import functools
import gzip
import http.server
import json
import os
import runpy
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import quote

import pytest
from browser import chromium, settled, severe

from goi.cli import exitcodes, main
from goi.expected import INLINE

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = Path(__file__).parent / "programs"
WAIT = 300  # seconds a page may take to load or run, at most: a bound on waiting, never a verdict


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    missing = [tool for tool in ("npm", "node") if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"{' and '.join(missing)} missing: .ci/run installs them")
        pytest.skip(f"{' and '.join(missing)} not installed here (CI installs them)")
    out = tmp_path_factory.mktemp("playground") / "site"
    runpy.run_path(str(ROOT / "playground" / "build.py"))["build"](out)
    return out


class _Quiet(http.server.SimpleHTTPRequestHandler):
    # a module script must come as JavaScript and WebAssembly as such, whatever the
    # machine's own MIME table says
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json"}

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def _serve(folder: Path):
    """`folder` served on 127.0.0.1 (an ephemeral port), stopped on leaving."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


@pytest.fixture(scope="module")
def server(site):
    """The site served on 127.0.0.1, stopped after the tests."""
    with _serve(site) as url:
        yield url


@pytest.fixture(scope="module")
def driver():
    yield from chromium()


def _wait(browser, script: str, value, timeout: float = WAIT, *args):
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, timeout).until(lambda b: b.execute_script(script, *args) == value)


def _open(browser, url: str) -> None:
    """Load the page and wait until goi is ready in it; a worker that could not load goi
    fails the test at once, with the page's message."""
    browser.get("about:blank")
    browser.get(url)
    _wait(browser, "const boot = document.getElementById('boot');"
          "return document.body.dataset.goiReady === '1' || boot.classList.contains('failed')", True)
    boot = browser.execute_script("return document.getElementById('boot').textContent")
    assert browser.execute_script("return document.body.dataset.goiReady") == "1", boot
    _wait(browser, "return Number(document.body.dataset.runs || 0) >= 1", True)  # the page opens on a run


# What the worker runs (worker.mjs), under CPython with every module refused that the site
# does not bundle (the standard library, lark and goi; pygraphviz stands for Graphviz in
# WebAssembly).
_BUNDLED_ONLY = """
import importlib.abc, sys

BUNDLED = set(sys.stdlib_module_names) | {"goi", "lark", "pygraphviz"}


class NotBundled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] not in BUNDLED:
            raise ImportError(f"the playground does not bundle {name}")
        return None


sys.meta_path.insert(0, NotBundled())
from goi.reports import graphviz, playground

assert playground.check("let f @ p = {1} in f p")["ok"]
ran = playground.run("let f @ p = {1} in f (p + p)", {"checks": ["all"]})
assert ran["ok"] and ran["summary"]["status"] == "final", ran
assert playground.examples() and "<html" in playground.page()
print("ok")
"""


def test_a_folder_that_cannot_be_written_is_one_line_not_a_traceback(tmp_path):
    """`-o` where nothing can be made (under /proc): exit 1 and the folder named."""
    import subprocess
    import sys

    where = "/proc/1/goi-playground-site"
    proc = subprocess.run([sys.executable, str(Path(__file__).parent.parent / "playground" / "build.py"), "-o", where],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("playground/build.py: ") and where in proc.stderr and proc.stderr.count("\n") == 1


def test_the_worker_needs_nothing_the_site_does_not_bundle():
    """goi's part of the worker imports only what playground/requirements.txt and Pyodide's
    standard library give (no Hypothesis, z3, networkx or Jinja): checked without a browser,
    so that an import added anywhere under goi.reports fails here, not as a page that never
    loads."""
    pytest.importorskip("pygraphviz")
    done = subprocess.run([sys.executable, "-c", _BUNDLED_ONLY], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-3000:]


def _runs(browser) -> int:
    return int(browser.execute_script("return Number(document.body.dataset.runs || 0)"))


def _type(browser, text: str, checked: bool = False) -> None:
    """Replace the program as typing would (the editor's input event: a check follows, and
    with `checked` it is waited for)."""
    before = browser.execute_script("return Number(document.body.dataset.checked || 0)")
    browser.execute_script("const p = document.getElementById('program'); p.value = arguments[0];"
                           "p.dispatchEvent(new Event('input'))", text)
    if checked:
        _wait(browser, "return Number(document.body.dataset.checked || 0) > arguments[0]", True, WAIT, before)


def _run(browser, options: dict | None = None) -> dict:
    """Click Run (after setting `options` in the form) and wait for its result: what the
    page shows and what the worker answered."""
    for name, value in (options or {}).items():
        browser.execute_script("document.getElementById('opt-' + arguments[0]).value = arguments[1]", name, str(value))
    before = _runs(browser)
    browser.find_element("id", "run").click()
    _wait(browser, "return Number(document.body.dataset.runs || 0)", before + 1)
    return browser.execute_script("return window.goiPlayground.last")


def _trace(capsys, text: str, *argv) -> dict:
    code = main(["run", "--json", "--trace", *argv, "-e", text])
    assert code in set(exitcodes.FOR_STATUS.values()) | {exitcodes.OK}
    return json.loads(capsys.readouterr().out)


def test_a_program_typed_runs_and_steps_as_goi_run_says(server, driver, capsys):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    text = "let g x = x * x in\nlet f @ p = g {3} in f (p ⊞ p)"
    _open(driver, server)
    _type(driver, text)
    last = _run(driver)
    cli = _trace(capsys, text)
    assert last["ok"] and last["summary"]["status"] == cli["status"] == "final"
    assert driver.find_element("id", "result-value").text == last["summary"]["value"] == str(cli["value"])
    assert driver.find_element("id", "result-type").text == cli["type"]
    assert driver.find_element("id", "result-parameters").text == ", ".join(cli["parameters"])
    trace = cli["trace"]
    assert last["summary"]["rules"] == [s["rule"] for s in trace], "the same rule sequence as goi run --trace"
    spans = [s["span"] for s in last["data"]["steps"][1:]]
    assert spans == [[t["span"]["start"], t["span"]["end"]] if t["span"] else None for t in trace]
    # the stepper (goi view's page code) steps through it as the trace says
    settled(driver, 0)
    body = driver.find_element(By.TAG_NAME, "body")
    for k in range(1, 15):
        body.send_keys(Keys.ARROW_RIGHT)
        state = settled(driver, k)
        step = trace[k - 1]
        assert state["counter"] == f"step {k} / {len(trace)}"
        assert state["rule"] == step["rule"] and state["link"] == f"ℓ{step['position']}"
        assert state["token"] == f"l{step['position']}", "the token's link is the highlighted edge"
        span = step["span"]
        assert state["mark"] == (text[span["start"]:span["end"]] if span else None)
    body.send_keys("d")  # the next decoupling: it has its picture, whatever the budget
    k = next(i for i in range(1, len(trace) + 1) if trace[i - 1]["rule"] == "deep.decouple")
    assert settled(driver, k)["rule"] == "deep.decouple"
    assert driver.execute_script("return document.getElementById('graph').dataset.frame") != "none"
    if os.environ.get("GOI_PLAYGROUND_SCREENSHOT"):  # docs/playground.png is made this way
        driver.execute_script("document.getAnimations().forEach((a) => a.finish())")
        driver.save_screenshot(os.environ["GOI_PLAYGROUND_SCREENSHOT"])
    assert severe(driver) == []


def test_errors_show_at_their_line_and_column_with_goi_s_message(server, driver, capsys):
    _open(driver, server)
    for text in ("let x = 1 in\nx + (λy. y)", "let f = λx. x in\n  f (1,"):
        _type(driver, text, checked=True)
        assert driver.execute_script("return document.getElementById('program').getAttribute('aria-invalid')") == "true"
        shown = driver.execute_script("return Object.assign({}, document.getElementById('diagnostic').dataset)")
        code = main(["run", "--json", "-e", text])
        error = json.loads(capsys.readouterr().out)["error"]
        assert code != exitcodes.OK
        assert (shown["kind"], int(shown["line"]), int(shown["column"])) == (error["kind"], error["line"], error["column"])
        diagnostic = driver.find_element("id", "diagnostic").text
        assert diagnostic.startswith(f"<playground>:{error['line']}:{error['column']}: {error['kind']} error: {error['message']}")
        last = _run(driver)  # Run on a bad program: the same error, no run
        assert not last["ok"] and last["error"]["message"] == error["message"]
    _type(driver, "1 + 2", checked=True)  # and fixed, the error goes
    assert driver.execute_script("return document.getElementById('program').getAttribute('aria-invalid')") is None
    assert driver.find_element("id", "diagnostic").text == "type F, no provisional constants"
    assert severe(driver) == []


def test_every_example_of_the_menu_runs_to_its_corpus_value(server, driver):
    _open(driver, server)
    menu = driver.execute_script("return [...document.querySelectorAll('#examples option')].filter((o) => o.value)"
                                 ".map((o) => [o.value, o.dataset.origin, o.textContent])")
    corpus = sorted(PROGRAMS.glob("*/*.goi"))
    assert len(menu) == len(corpus) > 10
    assert sorted(origin for _value, origin, _title in menu) == [f"{p.parent.name}/{p.stem}" for p in corpus]
    import tomllib

    titles = tomllib.loads((PROGRAMS / "titles.toml").read_text(encoding="utf-8"))
    assert sorted(titles) == [f"{p.parent.name}/{p.stem}" for p in corpus]  # every example has a title, no other
    assert all(title == titles[origin] for _value, origin, title in menu)  # the menu shows titles, not file names
    menu = [(value, origin) for value, origin, _title in menu]
    for value, origin in menu:
        driver.execute_script("const m = document.getElementById('examples'); m.value = arguments[0];"
                              "m.dispatchEvent(new Event('change'))", value)
        path = PROGRAMS / f"{origin}.goi"
        name = origin
        text = path.read_text(encoding="utf-8")
        assert driver.execute_script("return document.getElementById('program').value") == text
        expected = {(m.group(1) or "value"): m.group(2) for m in map(INLINE.match, text.splitlines()) if m}
        last = _run(driver, {"max_frames": 5})
        assert last["ok"], (name, last.get("error"))
        summary = last["summary"]
        assert summary["status"] == "final" and summary["value"] == expected["value"], name
        assert driver.find_element("id", "result-value").text == expected["value"]
        title = driver.execute_script("return document.querySelector('#examples option:checked').textContent")
        assert driver.find_element("id", "hint-what").text == f"The example “{title}”, run on the graph machine"
        if "/" in expected["value"]:  # an exact fraction, its decimal beside it (issue 54)
            from fractions import Fraction

            near = driver.find_element("id", "result-decimal").text
            assert near.startswith("≈ ") and abs(float(near[2:].rstrip("…")) - float(Fraction(expected["value"]))) < 1e-9
        if "type" in expected:
            assert summary["type"] == expected["type"], name
        if "parameters" in expected:
            assert (", ".join(summary["parameters"]) or "-") == expected["parameters"], name
    assert severe(driver) == []


def test_the_address_reproduces_the_page(server, driver, capsys):
    text = "let f @ p = {4} / {0} in f p"
    _open(driver, server)
    _type(driver, text)
    driver.execute_script("document.getElementById('opt-division').value = 'strict'")
    driver.find_element("id", "share").click()
    address = driver.current_url
    assert "#program=" in address and "division=strict" in address
    before = 0
    driver.get("about:blank")
    driver.get(address)  # a new page: the program and options from the address, run at once
    _wait(driver, "return Number(document.body.dataset.runs || 0)", before + 1)
    last = driver.execute_script("return window.goiPlayground.last")
    cli = _trace(capsys, text, "--division", "strict")
    assert driver.execute_script("return document.getElementById('program').value") == text
    assert driver.execute_script("return document.getElementById('opt-division').value") == "strict"
    assert last["summary"]["status"] == cli["status"] == "undefined"
    assert last["summary"]["rules"] == [s["rule"] for s in cli["trace"]]
    # a hand-written address too, with a step to open at
    driver.get("about:blank")
    driver.get(server + "index.html#program=" + quote("(λx. x + x) {1}") + "&max_steps=5&step=3")
    _wait(driver, "return Number(document.body.dataset.runs || 0)", 1)
    last = driver.execute_script("return window.goiPlayground.last")
    cli = _trace(capsys, "(λx. x + x) {1}", "--max-steps", "5")
    assert last["summary"]["status"] == cli["status"] == "budget"
    assert driver.find_element("id", "result-value").text == f"budget: {cli['reason']}"
    assert settled(driver, 3)["counter"] == "step 3 / 5"
    assert severe(driver) == []


FIRST_SCREEN = """
    const inView = (r) => r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0
                          && r.right <= window.innerWidth && r.bottom <= window.innerHeight;
    const rect = (sel) => { const e = document.querySelector(sel); return e ? e.getBoundingClientRect() : null; };
    const out = {};
    for (const [name, sel] of Object.entries({graph: "#graph-pane", token: "#graph g.edge.token", term: "#source mark",
                                               controls: "#controls", next: "#next", hint: "#hint", run: "#run"})){
      const r = rect(sel); out[name] = r !== null && inView(r);
    }
    out.scrolled = window.scrollY !== 0 || document.scrollingElement.scrollTop !== 0;
    out.where = JSON.stringify({window: [window.innerWidth, window.innerHeight], graph: rect("#graph-pane"),
                                header: rect("header"), side: rect("#side")});
    return out;"""


@pytest.mark.parametrize("width, height", [(1440, 900), (1280, 720)])
def test_the_first_screen_runs_the_paper_s_example_and_shows_graph_token_term_and_controls(server, driver, width, height):
    """A reader following a link opens the page on the paper's deep-decoupling example, run:
    its value, and the graph pane, the token's link, the highlighted term, the step controls
    and the hint all in the window without scrolling, at each size (their bounding boxes)."""
    from selenium.webdriver.common.keys import Keys

    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    try:
        _open(driver, server)
        last = driver.execute_script("return window.goiPlayground.last")
        assert last["ok"] and last["summary"]["value"] == "13" and len(last["summary"]["rules"]) == 128
        assert driver.find_element("id", "result-value").text == "13"
        assert "Run" in driver.find_element("id", "hint").text and "decoupling" in driver.find_element("id", "hint").text
        settled(driver, 0)
        at = 0
        for k in (0, 1, 5):  # the opening state, and steps a reader takes first
            while at < k:
                driver.find_element("tag name", "body").send_keys(Keys.ARROW_RIGHT)
                at += 1
                settled(driver, at)
            shown = driver.execute_script(FIRST_SCREEN)
            assert all(shown[name] for name in ("graph", "token", "term", "controls", "next", "hint")), (k, {n: v for n, v in shown.items() if v is not True})
            assert not shown["scrolled"]
        assert severe(driver) == []
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_follow_token_keeps_the_token_s_link_in_view_when_zoomed_in(server, driver):
    from selenium.webdriver.common.keys import Keys

    _open(driver, server)
    _type(driver, "let g x = x * x in\nlet f @ p = g {3} in f (p ⊞ p)")
    last = _run(driver)  # every change of the graph has its picture
    assert all(s["frame"] is not None for s in last["data"]["steps"])
    settled(driver, 0)
    body = driver.find_element("tag name", "body")
    inside = """
        const e = document.querySelector('#graph g.edge.token').getBoundingClientRect();
        const p = document.getElementById('graph').getBoundingClientRect();
        return e.left >= p.left && e.right <= p.right && e.top >= p.top && e.bottom <= p.bottom;"""
    for _ in range(6):
        body.send_keys("+")  # zoomed in 1.5⁶ ≈ 11 times, about the token's link
        assert driver.execute_script(inside), "a zoom lost the token before the next step"
    for button in ("zoom-out", "zoom-in", "zoom-in"):  # clicked as a user does, where it is (no scrolling first)
        driver.execute_script("document.getElementById(arguments[0]).click()", button)
        assert driver.execute_script(inside), f"the {button} button lost the token"
    for k in range(1, 40):
        body.send_keys(Keys.ARROW_RIGHT)
        settled(driver, k)
        assert driver.execute_script(inside), f"step {k}: the token's link is outside the pane"
    # without follow-token, zoomed in further, the token leaves the pane at some step
    driver.execute_script("document.getElementById('follow').checked = false")
    for _ in range(3):
        body.send_keys("+")
    left = None
    for k in range(40, len(last["data"]["steps"])):
        body.send_keys(Keys.ARROW_RIGHT)
        settled(driver, k)
        if not driver.execute_script(inside):
            left = k
            break
    assert left is not None, "the check above can fail: without following, the token leaves the pane"
    body.send_keys("0")  # fit: the whole drawing, the token in it
    assert driver.execute_script(inside)
    assert severe(driver) == []


def test_a_long_run_shows_its_progress_and_can_be_stopped(server, driver):
    _open(driver, server)
    church = (PROGRAMS / "visualiser" / "church_numerals_prog.goi").read_text(encoding="utf-8")
    _type(driver, church)
    driver.execute_script("document.getElementById('opt-max_frames').value = '100000'")  # a picture per change: long
    driver.find_element("id", "run").click()
    _wait(driver, "return document.getElementById('progress').textContent.startsWith('running: step')", True)
    driver.find_element("id", "stop").click()
    assert driver.find_element("id", "progress").text.startswith("stopped by you at step")
    _wait(driver, "return document.body.dataset.goiReady", "1")  # a new worker loaded
    _type(driver, "1 + 2")
    assert _run(driver, {"max_frames": 60})["summary"]["value"] == "3"
    assert severe(driver) == []


def test_the_page_downloads_the_page_goi_view_writes(server, driver):
    _open(driver, server)
    _type(driver, "let f @ p = {1} * {2} in f p")
    _run(driver)
    driver.find_element("id", "download").click()
    _wait(driver, "return Number(document.body.dataset.downloaded || 0) > 1000", True)
    page = driver.execute_script("return window.goiPlayground.page")
    last = driver.execute_script("return window.goiPlayground.last")
    assert page.startswith("<!DOCTYPE html>")
    shown = json.loads(page.split('<script type="application/json" id="goi-data">', 1)[1].split("</script>", 1)[0])
    assert shown["steps"] == last["data"]["steps"] and shown["frames"] == len(last["frames"]) > 1
    assert page.count('type="application/gzip+base64"') == len(last["frames"])
    assert severe(driver) == []


def test_the_worker_restores_goi_from_the_build_s_snapshot(server, driver):
    """playground/build.py saves CPython with goi imported (playground/snapshot.mjs); the
    worker restores it rather than starting CPython and importing goi (issue 43: ready in
    about a second rather than five here). The restored goi runs as goi run does: every other
    test of this module runs on it."""
    _open(driver, server)
    assert driver.execute_script("return document.body.dataset.boot") == "restored"
    marks = json.loads(driver.execute_script("return document.body.dataset.bootMarks"))
    assert set(marks) == {"runtime", "wheels", "imports"}


def test_a_snapshot_that_cannot_be_restored_is_said_and_goi_starts_anew(site, driver, tmp_path):
    """A snapshot this Pyodide cannot restore (here: not a memory image at all) is never
    fatal: the worker starts CPython and imports goi as it would without one, and says why."""
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    manifest = json.loads((copy / "wheels" / "manifest.json").read_text(encoding="utf-8"))
    (copy / "wheels" / manifest["snapshot"]).write_bytes(gzip.compress(b"not a memory image " * 1000))
    with _serve(copy) as url:
        _open(driver, url)
        boot = driver.execute_script("return document.body.dataset.boot")
        assert boot.startswith("started (the snapshot could not be restored: "), boot
        _type(driver, "1 + 2")
        assert _run(driver)["summary"]["value"] == "3"
