"""Pages run nothing from data (reports/escape.py): a program, a report's JSON, an --include
file or a DOT graph that carry markup, links or scripts are shown as what they say, in a real
browser (headless chromium), and the page still works. Each hostile string tries to set
`window.pwned`; the tests assert it never is, and that no link leads anywhere but within the
page."""

from __future__ import annotations

import json
import re

import pytest

from goi.cli import exitcodes, main

from browser import chromium, settled, severe

PWN = "window.pwned=1"
HOSTILE = [
    f"<script>{PWN}</script>",
    f"<!--<script>{PWN}</script>",
    f"</script><script>{PWN}</script>",
    f'<img src=x onerror="{PWN}">',
    f"[click](javascript:{PWN})",
    f'<svg onload="{PWN}">',
    "\u2028 & &amp; ``` ` | # - 1.",
]
PROGRAM = "let f @ p = {0.5} - {2} in f (3 * p)\n" + "".join(f"-- {h}\n" for h in HOSTILE)
DOT = ('digraph { graph [stylesheet="javascript:' + PWN + '"]; '
       f'a [label="click me", URL="javascript:{PWN}", href="javascript:{PWN}", target="_top", image="/etc/passwd", '
       f'tooltip="<script>{PWN}</script>"]; '
       f'a -> b [URL="javascript:{PWN}", labelURL="javascript:{PWN}", label="e"]; '
       f'subgraph cluster_x {{ URL="javascript:{PWN}"; c [href="https://example.org/"] }} }}')


@pytest.fixture(scope="module")
def driver():
    yield from chromium()


def nothing_ran(driver) -> None:
    assert driver.execute_script("return window.pwned") is None
    links = driver.execute_script("""
        return Array.from(document.querySelectorAll('*')).flatMap((e) =>
          ['href', 'xlink:href', 'src', 'action'].map((a) => e.getAttribute(a)).filter((v) => v !== null));""")
    assert all(v.startswith("#") or v.endswith(".html") or v.endswith(".svg") for v in links), links


def test_a_program_that_carries_markup_gives_a_working_page(tmp_path, capsys, driver):
    source = tmp_path / "hostile.goi"
    source.write_text(PROGRAM, encoding="utf-8")
    page = tmp_path / "hostile.html"
    assert main(["view", str(source), "-o", str(page), "--max-frames", "4"]) == exitcodes.OK
    text = page.read_text(encoding="utf-8")
    data = text.split('id="goi-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in data and ">" not in data and "&" not in data and "\u2028" not in data
    assert json.loads(data)["program"] == PROGRAM  # the same text, escaped only for where it lands
    driver.get(page.as_uri())
    state = settled(driver, 0)
    assert state["counter"].startswith("step 0 / ")  # the page started: its data element did not swallow it
    assert driver.find_element("id", "source").text.strip().startswith("let f @ p")
    assert "<script>" in driver.find_element("id", "source").text  # shown as text
    nothing_ran(driver)
    assert not [e for e in severe(driver) if "pwned" in e["message"]]


@pytest.fixture(scope="module")
def hostile_report(tmp_path_factory):
    """A report's JSON whose every string that reaches a page is hostile, rendered by
    `goi report --from`, with an --include whose strings are hostile too."""
    base = tmp_path_factory.mktemp("base")
    assert main(["report", "--profile", "ci", "--properties", "soundness", "--examples", "3", "--out", str(base)]) \
        == exitcodes.OK
    data = json.loads((base / "report.json").read_text(encoding="utf-8"))
    data["counterexamples"] = [{
        "property": f"soundness {HOSTILE[3]}", "finding": "\n".join(HOSTILE), "program": PROGRAM, "replay": HOSTILE[0],
        "explanation": {"program": PROGRAM, "status": "stuck", "value": HOSTILE[4], "transitions": 3,
                        "violation": {"check": HOSTILE[0], "step": 1, "rule": HOSTILE[5], "message": HOSTILE[3],
                                      "paper": HOSTILE[4]},
                        "trace": [{"number": i, "rule": h, "line": h} for i, h in enumerate(HOSTILE)],
                        "dot": {"before": DOT, "after": DOT}},
    }]
    hostile = tmp_path_factory.mktemp("hostile")
    source = hostile / "report.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    include = hostile / "equiv.json"
    include.write_text(json.dumps({"schema": "goi.equiv/1", "mode": "programs", "compared": HOSTILE[:2],
                                   "verdict": HOSTILE[2], "reason": HOSTILE[3], "symbolic": HOSTILE[4:6],
                                   "witness": [HOSTILE[6]], "values": HOSTILE[:2]}), encoding="utf-8")
    out = hostile / "out"
    assert main(["report", "--from", str(source), "--include", str(include), "--out", str(out)]) == exitcodes.OK
    return out


def test_a_reports_html_runs_and_links_nothing_from_its_data(hostile_report, driver):
    html = (hostile_report / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"=\s*[\"']?\s*javascript:", html, re.I)  # in no attribute: at most as shown text
    assert "/etc/passwd" not in html and "example.org" not in html
    driver.get((hostile_report / "index.html").as_uri())
    assert "Soundness report" in driver.find_element("tag name", "h1").text
    from selenium.common.exceptions import ElementClickInterceptedException

    for anchor in driver.find_elements("css selector", "svg a, svg g.node"):
        try:
            anchor.click()
        except ElementClickInterceptedException:  # a node whose centre is its background (an unfilled ellipse): clicked all the same
            driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}))",
                                  anchor)
    nothing_ran(driver)
    assert driver.current_url.endswith("index.html")  # no click led away


def test_a_counterexamples_own_pictures_link_nothing(hostile_report):
    for when in ("before", "after"):
        svg = (hostile_report / f"counterexample-1-{when}.svg").read_text(encoding="utf-8")
        assert not re.search(r'href="(?!#)', svg) and "/etc/passwd" not in svg and "example.org" not in svg
        assert not re.search(r"=\s*[\"']?\s*javascript:", svg, re.I)
        assert "onload" not in svg and "<script" not in svg


def test_a_counterexamples_step_through_page_works(hostile_report, driver):
    driver.get((hostile_report / "counterexample-1-view.html").as_uri())
    assert settled(driver, 0)["counter"].startswith("step 0 / ")
    nothing_ran(driver)


def test_report_md_shows_its_data_and_runs_nothing_in_a_permissive_reader(hostile_report, tmp_path, driver):
    from markdown_it import MarkdownIt

    md = (hostile_report / "report.md").read_text(encoding="utf-8")
    page = tmp_path / "md.html"  # rendered as a reader that passes HTML through would
    page.write_text("<!DOCTYPE html><meta charset=utf-8><body>"
                    + MarkdownIt("commonmark", {"html": True}).enable("table").render(md), encoding="utf-8")
    driver.get(page.as_uri())
    nothing_ran(driver)
    shown = driver.find_element("tag name", "body").text
    for h in HOSTILE[:6]:  # every string is there, as text
        assert h.replace("\u2028", " ") in shown.replace("\\|", "|"), h


def test_view_does_not_write_through_a_link(tmp_path, capsys):
    target = tmp_path / "elsewhere.html"
    link = tmp_path / "page.html"
    link.symlink_to(target)
    assert main(["view", "-e", "1", "-o", str(link)]) == exitcodes.BAD_INPUT
    assert "a link" in capsys.readouterr().err and not target.exists()
    target.write_text("mine")
    assert main(["view", "-e", "1", "-o", str(link)]) == exitcodes.BAD_INPUT
    assert target.read_text() == "mine"


def test_report_does_not_write_through_a_link(tmp_path, capsys, hostile_report):
    out = tmp_path / "out"
    out.mkdir()
    target = tmp_path / "elsewhere"
    (out / "report.md").symlink_to(target)
    assert main(["report", "--from", str(hostile_report / "report.json"), "--out", str(out)]) == exitcodes.BAD_INPUT
    assert "a link" in capsys.readouterr().err and not target.exists()


def test_an_svg_from_anywhere_is_rebuilt_with_nothing_that_runs_or_links_out():
    """safe_svg on its own (the second line of defence, after safe_dot): what runs, embeds or
    links out goes; anchors within the page and clip paths stay."""
    from goi.reports.escape import safe_svg

    svg = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="' + PWN + '">'
           '<script>' + PWN + '</script><foreignObject><div>x</div></foreignObject>'
           '<a xlink:href="javascript:' + PWN + '"><text>a</text></a><a href="https://example.org/"><text>b</text></a>'
           '<a xlink:href="#node3"><text>c</text></a><image href="file:///etc/passwd"/>'
           '<g style="fill: url(https://example.org/x.svg)" clip-path="url(#clip0)"><rect onclick="' + PWN + '"/></g>'
           '<g style="stroke: red"/><set attributeName="onload" to="' + PWN + '"/></svg>')
    out = safe_svg(svg)
    assert "javascript" not in out and "example.org" not in out and "/etc/passwd" not in out
    assert "<script" not in out and "foreignObject" not in out and "onload" not in out and "onclick" not in out
    assert "<set" not in out and 'href="#node3"' in out and 'clip-path="url(#clip0)"' in out and "stroke: red" in out
    assert safe_svg("<html><script>x</script></html>") == "" and safe_svg("<svg") == ""


CANARY = "canary-{}.png"
CRAFTED_SVG = [
    f"<SCRIPT>{PWN}</SCRIPT>",
    '<foreignobject><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:parent.pwned=1"/></foreignobject>',
    f'<svg:script xmlns:svg="http://www.w3.org/2000/svg">{PWN}</svg:script>',
    "<style>@import url({url});</style>",
    "<style>g {{ background: url({url}) }}</style>",
    '<g style="background-image: url({url})"><rect width="9" height="9"/></g>',
    '<g style="background-image: u\\72l({url})"><rect width="9" height="9"/></g>',
    '<image href="{url}" width="9" height="9"/>',
    '<use href="{url}#x"/>',
    '<rect fill="url({url}#p)" width="9" height="9"/>',
    f'<a href="javascript:{PWN}"><text y="9">x</text></a>',
    f'<a><animate attributeName="href" to="javascript:{PWN}"/><text y="9">y</text></a>',
    f'<g ONLOAD="{PWN}" onmouseover="{PWN}"><rect width="9" height="9"/></g>',
]


def test_crafted_svgs_inlined_after_safe_svg_run_and_request_nothing(tmp_path, driver):
    """Issue 52: safe_svg keeps only its allow-list. Each crafted SVG (a case-folded <SCRIPT>,
    a lower-case foreignobject holding an iframe, a namespaced script, <style> with @import or
    url(), a CSS escape spelling url, an image, a use, a paint server from elsewhere, script
    links, an animated href, upper-case handlers) is inlined into a page in a real browser:
    nothing ran, no resource was requested, every link left is within the page; a drawing's
    own attributes (a transform, a clip path) stay."""
    from goi.reports.escape import safe_svg

    parts = []
    for i, crafted in enumerate(CRAFTED_SVG):
        svg = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="20" '
               f'height="20">{crafted.format(url=CANARY.format(i))}</svg>')
        out = safe_svg(svg)
        assert out.startswith("<svg") and "canary" not in out and "pwned" not in out, (crafted, out)
        parts.append(out)
    kept = safe_svg('<svg xmlns="http://www.w3.org/2000/svg"><g transform="scale(1 1) rotate(0) translate(4 112)" '
                    'clip-path="url(#c)"><text x="1" y="2" font-family="Times,serif">a</text></g></svg>')
    assert 'transform="scale(1 1) rotate(0) translate(4 112)"' in kept and 'clip-path="url(#c)"' in kept
    page = tmp_path / "crafted.html"
    page.write_text("<!DOCTYPE html><html><body>" + "".join(parts) + "</body></html>", encoding="utf-8")
    driver.get(page.as_uri())
    driver.execute_script("""document.querySelectorAll('a, g, rect').forEach((e) => {
        for (const kind of ['click', 'mouseover', 'load']) e.dispatchEvent(new MouseEvent(kind, {bubbles: true})); });""")
    nothing_ran(driver)
    requested = driver.execute_script("return performance.getEntriesByType('resource').map((e) => e.name)")
    assert requested == [], requested
