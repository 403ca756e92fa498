"""Soundness reports (reports/, goi report): the three files from a ci-profile run, the JSON
against its schema, the HTML in a real headless browser (Debian's chromium: .ci/run installs
it), and a report of a deliberately broken machine showing its counterexample."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from goi.cli import main
from goi.reports import collect, write
from goi.cli import exitcodes

from test_cli_contract import validate
from goi.semantics.rules import DEFAULT
from test_mutants import folding_deletes_a_provisional_constant, mutated

SECTIONS = ["summary", "environment", "properties", "checks", "coverage", "programs", "counterexamples"]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def browser(html: Path, tmp_path: Path) -> tuple[str, str, Path]:
    """Load the page in headless chromium: (the DOM after load, console messages, screenshot)."""
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: .ci/run installs it (apt-get install chromium)")
        pytest.skip("chromium is not installed here (CI installs it)")
    common = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--enable-logging=stderr",
              "--v=0", f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run([*common, "--dump-dom", html.as_uri()], capture_output=True, text=True, timeout=120)
    shot = tmp_path / "screenshot.png"
    subprocess.run([*common, "--window-size=1200,3000", f"--screenshot={shot}", html.as_uri()], capture_output=True,
                   text=True, timeout=120, check=True)
    console = "\n".join(line for line in dom.stderr.splitlines() if ":CONSOLE" in line)
    return dom.stdout, console, shot


@pytest.fixture(scope="module")
def ci_report(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report")
    assert main(["report", "--profile", "ci", "--examples", "15", "--out", str(out)]) == exitcodes.OK
    return out


def test_a_ci_report_has_its_three_files_and_valid_json(ci_report):
    assert {"index.html", "report.md", "report.json"} <= {p.name for p in ci_report.iterdir()}
    data = json.loads((ci_report / "report.json").read_text(encoding="utf-8"))
    validate(data)
    assert {p["name"] for p in data["properties"]} >= {"soundness", "invariants", "determinism", "gc"}
    assert all(p["status"] == "passed" for p in data["properties"])
    from goi.properties.coverage import rules

    assert data["coverage"]["runs"] > 0 and [r["id"] for r in data["coverage"]["rules"]] == rules()
    assert data["programs"]["runs"] == len(data["programs"]["size"]) > 0
    # every rule of the catalogue is in the table, the collector's too, and "never fired" is said of the table
    from goi.semantics.rules import load_all

    table = {r["id"]: r for r in data["coverage"]["rules"]}
    assert set(table) == set(load_all()) and {"gc.box", "gc.con0", "gc.pcon0"} <= set(table)
    assert table["gc.box"]["transitions"] > 0  # the gc property runs the collector
    assert data["coverage"]["never_fired"] == sorted(r for r, x in table.items() if not x["transitions"])
    html = (ci_report / "index.html").read_text(encoding="utf-8")
    summary = re.search(r'id="summary">([^<]*)<', html).group(1)
    from goi.reports.render import never_fired_phrase

    assert never_fired_phrase(data["coverage"]["never_fired"]) in summary
    assert never_fired_phrase([]) == "every rule fired" and never_fired_phrase(["gc.con0"]) == "1 rule never fired (gc.con0)"
    # the environment has no blank cells; a sample of the programs is shown, as text
    assert "<td><code></code></td>" not in html and "<code>None</code>" not in html
    assert "none given (derandomised" in html
    sample = data["programs"]["sample"]
    assert sample and {x["property"] for x in sample} >= {"soundness", "gc"}
    assert all(x["program"] in html.replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&") for x in sample[:3])


def test_the_html_is_self_contained(ci_report):
    text = (ci_report / "index.html").read_text(encoding="utf-8")
    assert "<script" not in text and not re.search(r"(src|href)=\"(https?:)?//", text)
    assert text.count("<svg") >= 4  # the plots, inline


def test_the_html_loads_in_a_real_browser_without_console_errors(ci_report, tmp_path):
    dom, console, shot = browser(ci_report / "index.html", tmp_path)
    assert console == ""
    for section in SECTIONS:
        assert f'id="{section}"' in dom, section
    assert "Soundness report" in dom and shot.stat().st_size > 10_000


def test_a_report_can_be_rendered_again_from_its_json(ci_report, tmp_path, capsys):
    assert main(["report", "--from", str(ci_report / "report.json"), "--out", str(tmp_path)]) == exitcodes.OK
    assert (tmp_path / "index.html").read_text(encoding="utf-8") == (ci_report / "index.html").read_text(encoding="utf-8")
    assert main(["report", "--from", str(tmp_path / "index.html"), "--out", str(tmp_path / "x")]) == exitcodes.BAD_INPUT


@pytest.fixture(scope="module")
def broken_report(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("broken")
    with mutated("rw.op.keep", folding_deletes_a_provisional_constant):
        data = collect(["invariants"], "ci")
        write(data, str(out))
    return out, data


def test_a_broken_machine_gives_a_counterexample_with_its_graphs(broken_report, tmp_path):
    out, data = broken_report
    assert data["properties"][0]["status"] == "failed"
    (example,) = data["counterexamples"]
    violation = example["explanation"]["violation"]
    assert violation["check"] == "form" and violation["rule"] == "rw.op.keep" and "Sec. 4" in violation["paper"]
    assert example["program"] == data["properties"][0]["program"] and "{0}" in example["program"]
    assert example["explanation"]["trace"] and set(example["explanation"]["dot"]) == {"before", "after"}
    assert (out / "counterexample-1-before.svg").exists() and (out / "counterexample-1-after.svg").exists()
    html = (out / "index.html").read_text(encoding="utf-8")
    assert html.count("<svg") >= 6 and "the graph before the failing transition" in html
    dom, console, _shot = browser(out / "index.html", tmp_path)
    assert console == "" and "Violated invariant" in dom
    # the step-through page of the failing run, linked, opening at the violation
    page = (out / "counterexample-1-view.html").read_text(encoding="utf-8")
    assert 'href="counterexample-1-view.html"' in html
    assert "(counterexample-1-view.html)" in (out / "report.md").read_text(encoding="utf-8")
    shown = json.loads(page.split('<script type="application/json" id="goi-data">', 1)[1].split("</script>", 1)[0])
    assert shown["program"] == example["program"] and shown["status"] == "violation"
    assert shown["violation"]["check"] == "form"
    assert shown["steps"][shown["violation"]["step"]]["rule"] == "rw.op.keep"
    # the trace table: step and rule in their columns, the state alone in the last
    table = html.split("The trace before the failure:", 1)[1].split("</table>", 1)[0]
    for number, rule, state in re.findall(r"<tr><td[^>]*>(\d+)</td><td><code>([^<]*)</code></td><td><code>([^<]*)</code>", table):
        assert not state.lstrip().startswith(number) and rule not in state.split("ℓ")[0], state


def test_the_graph_pictures_use_a_font_with_every_glyph_they_show(broken_report):
    """¡ ¿ ℓ λ ★ □ are drawn in a font that has them (a default font such as Times lacked ¡,
    which came out as "i"): every text element names DejaVu Sans, which fontconfig says has
    each character the labels use."""
    import shutil
    import subprocess

    out, _data = broken_report
    svg = (out / "counterexample-1-before.svg").read_text(encoding="utf-8")
    families = set(re.findall(r'<text[^>]*font-family="([^"]*)"', svg))
    assert families == {"DejaVu Sans"}, families
    if shutil.which("fc-list") is None:
        pytest.skip("fontconfig's fc-list is missing: the font's glyphs cannot be asked")
    for char in "¡¿ℓλ★□":
        having = subprocess.run(["fc-list", f":charset={ord(char):x}", "family"], capture_output=True, text=True).stdout
        assert "DejaVu Sans" in having, f"no installed DejaVu Sans has {char}"


def test_the_markdown_names_the_violated_invariant(broken_report):
    out, _data = broken_report
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "Violated invariant **form** after step" in md and "(`rw.op.keep`)" in md
    assert "![the graph before the failing transition](counterexample-1-before.svg)" in md


def test_report_command_errors(tmp_path):
    assert main(["report", "--properties", "nonsense", "--out", str(tmp_path)]) == exitcodes.USAGE
    assert main(["report", "--from", str(tmp_path / "missing.json"), "--out", str(tmp_path)]) == exitcodes.BAD_INPUT


def test_reports_merge_as_a_run_spread_over_machines(ci_report, broken_report, tmp_path):
    first = json.loads((ci_report / "report.json").read_text(encoding="utf-8"))
    _out, second = broken_report
    assert main(["report", "--from", str(ci_report / "report.json"), "--from", str(_out / "report.json"),
                 "--out", str(tmp_path)]) == exitcodes.STUCK  # a part failed: the whole did
    merged = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    validate(merged)
    invariants = next(p for p in merged["properties"] if p["name"] == "invariants")
    assert invariants["status"] == "failed"
    assert invariants["runs"] == sum(p["runs"] for d in (first, second) for p in d["properties"] if p["name"] == "invariants")
    assert merged["coverage"]["runs"] == first["coverage"]["runs"] + second["coverage"]["runs"]
    assert merged["programs"]["runs"] == first["programs"]["runs"] + second["programs"]["runs"]
    assert len(merged["counterexamples"]) == 1 and merged["environment"]["parts"] == 2


def test_pytest_writes_a_report_of_its_own_run(tmp_path):
    out = tmp_path / "from-pytest"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--hypothesis-profile=ci",
                           "tests/test_properties.py", "-k", "test_property and (soundness or gc)", "--goi-report", str(out)],
                          capture_output=True, text=True, timeout=600, cwd=Path(__file__).parent.parent)
    assert proc.returncode == 0, proc.stdout[-2000:]
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    validate(data)
    assert {p["name"]: p["status"] for p in data["properties"]} == {"soundness": "passed", "gc": "passed"}
    assert data["programs"]["by_property"] == {"soundness": 60, "gc": 60}


def test_conjecture_oracle_and_equivalence_results_get_their_own_sections(ci_report, tmp_path, capsys):
    inputs = {
        "conjectures": ["conjectures", "distinct-left", "plus-commutes"],
        "equiv": ["equiv", "-e", "{1} * {1}", "-e", "{1} + {1}"],
        "oracle": ["oracle", "--impl", f"{sys.executable} {Path(__file__).parent / 'oracle_mocks/crash_on_subtraction.py'} --lines",
                   "--protocol", "lines", "--no-corpus", "--no-database", "--max-programs", "20", "--jobs", "2"],
        "exhaustive": ["props", "soundness", "--exhaustive", "3", "--profile", "ci"],
    }
    files = []
    for name, argv in inputs.items():
        main([*argv, "--json"])
        path = tmp_path / f"{name}.json"
        path.write_text(capsys.readouterr().out, encoding="utf-8")
        files += ["--include", str(path)]
    out = tmp_path / "with-sections"
    assert main(["report", "--from", str(ci_report / "report.json"), *files, "--out", str(out)]) == exitcodes.OK
    html = (out / "index.html").read_text(encoding="utf-8")
    assert 'id="conjectures"' in html and 'id="equivalence"' in html and "distinct-left" in html and "q0 * q1" in html
    assert "<td>program 0</td><td>{1} * {1}</td>" in html and "<td>program 1</td><td>{1} + {1}</td>" in html
    assert 'id="oracle"' in html and "shrunk implementation-error" in html and "0 - 0" in html
    # the run states its bound, its space and for which constants it holds
    assert 'id="exhaustive"' in html and "all 28 shapes of size ≤ 3, for any rational constants (total division)" in html
    assert "a placeholder for any rational constant" in html and "stand for the 160 programs" in html
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "## Every shape of size ≤ 3 (ci checks; docs/CAMPAIGNS.md)" in md
    assert "## Equivalence laws and conjectures" in md and "## Program equivalence" in md
    validate(json.loads((out / "report.json").read_text(encoding="utf-8")))
    assert main(["report", "--from", str(ci_report / "report.json"), "--include", str(ci_report / "report.json"),
                 "--out", str(tmp_path / "bad")]) == exitcodes.BAD_INPUT


def _variants(data: dict):
    """Malformed copies of a report: each top-level key dropped, nulled, or of another type;
    each entry of its main lists broken alike."""
    import copy

    for key in data:
        for value in (None, "x"):
            broken = copy.deepcopy(data)
            broken[key] = value
            yield f"{key}={value!r}", broken
        broken = copy.deepcopy(data)
        del broken[key]
        yield f"no {key}", broken
    for path in (("properties", 0), ("coverage", "rules", 0), ("programs", "sample", 0)):
        for value in (None, "x", {}):
            broken = copy.deepcopy(data)
            target = broken
            for step in path[:-1]:
                target = target[step]
            target[path[-1]] = value
            yield f"{path}={value!r}", broken


def test_a_malformed_report_is_refused_with_its_error_named_never_a_crash(ci_report, tmp_path, capsys):
    data = json.loads((ci_report / "report.json").read_text(encoding="utf-8"))
    seen = 0
    for label, broken in _variants(data):
        path = tmp_path / "broken.json"
        path.write_text(json.dumps(broken), encoding="utf-8")
        code = main(["report", "--from", str(path), "--out", str(tmp_path / "out")])
        err = capsys.readouterr().err
        assert code in (exitcodes.OK, exitcodes.BAD_INPUT), (label, code, err[-500:])
        assert "Traceback" not in err and (code == exitcodes.OK or "--from" in err), label
        seen += 1
    assert seen > 25
    assert main(["report", "--from", "/dev/zero", "--out", str(tmp_path / "z")]) == exitcodes.BAD_INPUT
    assert "larger than" in capsys.readouterr().err


def test_a_property_that_raises_is_shown_with_its_reason_and_program(tmp_path, monkeypatch):
    """Issue 54: a property that fails by raising (the machine broken so that it raises, not
    returns a wrong value) was 'failed' and nothing else in index.html and report.md. Its
    exception and the (shrunk) program it raised on are shown in both, as in the JSON."""
    import dataclasses

    from goi.properties import suite
    from goi.semantics import syntax as S

    declared = suite._declared()
    soundness = suite.registry()["soundness"]

    def raising(term, config):
        if any(isinstance(t, S.BinOp) for t in S.walk(term)):
            raise AttributeError("'NoneType' object has no attribute 'dst'")
        return soundness.check(term=term, config=config)

    planted = tuple(dataclasses.replace(p, check=raising) if p.name == "soundness" else p for p in declared)
    monkeypatch.setattr(suite, "_declared", lambda: planted)
    data = collect(["soundness"], "ci", examples=20)
    (prop,) = data["properties"]
    assert prop["status"] == "failed" and "AttributeError" in prop["finding"], prop
    assert prop["program"] and any(op in prop["program"] for op in "+-*/•"), prop  # the program it raised on
    (example,) = data["counterexamples"]
    assert example["program"] == prop["program"] and "AttributeError" in example["finding"]
    out = tmp_path / "out"
    write(data, str(out))
    html = (out / "index.html").read_text(encoding="utf-8")
    md = (out / "report.md").read_text(encoding="utf-8")
    from html import escape

    for shown in (html, md):
        assert "AttributeError" in shown and "has no attribute" in shown
    assert escape(prop["program"], quote=False) in html and prop["program"] in md


def test_a_counterexample_is_explained_and_pictured_by_its_own_failing_run(tmp_path, monkeypatch):
    """Issue 54: a counterexample's explanation and page are its failing run, not a new run
    under other settings. Planted: `symbolic` (which draws the division) fails where its exact
    run, at the drawn point and under strict division, is undefined. Run again under the
    default total division, the same program ends `final` — so the report and the page
    would say the opposite of the finding. The report records the failing run's settings
    (`run`), and both are made from them."""
    import dataclasses

    from goi import api
    from goi.properties import suite
    from goi.properties import coverage
    from goi.properties.runner import Finding, show

    declared = suite._declared()
    symbolic = suite.registry()["symbolic"]

    def planted(term, config, division, data):
        symbolic.check(term=term, config=config, division=division, data=data)  # the real runs (the last one recorded)
        point = coverage.current().last_run["params"]  # the exact run's: at the drawn point
        if division == "strict" and api.run(term, division="strict", params=point,
                                             max_steps=config.max_steps).status == "undefined":
            raise Finding("symbolic", "planted: a strict division by zero", show(term))

    monkeypatch.setattr(suite, "_declared", lambda: tuple(
        dataclasses.replace(p, check=planted) if p.name == "symbolic" else p for p in declared))
    data = collect(["symbolic"], "ci", examples=400)  # strict divisions by zero are rare in the draw
    validate(data)
    (example,) = data["counterexamples"]
    run = example["run"]
    assert run["division"] == "strict" and run["replayable"] is True and run["max_steps"] > 0, run
    assert example["explanation"]["status"] == "undefined", example["explanation"]
    assert api.run(example["program"]).status == "final"  # what a run under the defaults would have shown
    out = tmp_path / "out"
    write(data, str(out))
    page = (out / "counterexample-1-view.html").read_text(encoding="utf-8")
    assert "undefined" in page and "division by zero" in page
    # a record that cannot be trusted makes no run: no page, and the report says why
    data["counterexamples"][0]["run"] = {**run, "division": "euclid"}
    again = tmp_path / "again"
    write(data, str(again))
    assert not (again / "counterexample-1-view.html").exists()
    for name in ("index.html", "report.md"):
        text = (again / name).read_text(encoding="utf-8")
        assert "cannot be made again here" in text and "bad division" in text, name


def test_a_failure_without_a_program_is_still_shown_with_its_reason(tmp_path):
    """A failed property whose finding kept no program: listed among the counterexamples with
    its finding, and said to have no program — never 'failed' alone, never a blank 'Observed'."""
    from goi.properties.driver import PropertyResult
    from goi.reports.collect import build, environment

    data = build([PropertyResult("soundness", "failed", 3, 0.1, "[soundness] RuntimeError: planted", None, None)],
                 environment("ci", None, 3), explain=True)
    out = tmp_path / "out"
    write(data, str(out))
    html = (out / "index.html").read_text(encoding="utf-8")
    md = (out / "report.md").read_text(encoding="utf-8")
    for shown in (html, md):
        assert "RuntimeError: planted" in shown and "No program was kept" in shown
    assert "Observed: ," not in html


def test_a_counterexample_page_never_contradicts_its_report(broken_report, tmp_path):
    """Issue 54: the step-through page runs the program again. Written outside the variant of
    the rules its failure was found under, it said "final … form: held", the opposite of its
    own report. The report records the rules changed; the page is made only where the same
    semantics is in use, and otherwise the report says why there is none."""
    out, data = broken_report
    (example,) = data["counterexamples"]
    assert example["rules_changed"] == ["rw.op.keep"]
    assert (out / "counterexample-1-view.html").exists()  # written within the variant: the failing run's page
    again = tmp_path / "again"
    write(data, str(again))  # the same JSON, written under the paper's rules
    assert not (again / "counterexample-1-view.html").exists()
    for name in ("index.html", "report.md"):
        text = (again / name).read_text(encoding="utf-8")
        assert "No step-through page" in text and "rw.op.keep" in text, name
    with mutated("rw.op.keep", folding_deletes_a_provisional_constant):  # the same variant again: the page is made
        within = tmp_path / "within"
        write(data, str(within))
    assert (within / "counterexample-1-view.html").exists()
    # another variant of the same rule: not the semantics the failure was found under
    with mutated("rw.op.keep", lambda m, *redex: DEFAULT["rw.op.keep"].apply(m, *redex)):
        other = tmp_path / "other"
        write(data, str(other))
    assert not (other / "counterexample-1-view.html").exists()
    assert "No step-through page" in (other / "report.md").read_text(encoding="utf-8")
