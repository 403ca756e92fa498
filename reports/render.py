"""HTML and Markdown from a report's data (collect.py). The HTML is one self-contained file:
inline CSS and SVG, no script, nothing fetched. The Markdown links its pictures, written
as SVG files beside it."""

from __future__ import annotations

import os
from typing import Optional

from . import pictures
from .escape import md_block, md_cell, md_cell_code, md_code, md_text

SECTIONS = ["environment", "properties", "checks", "coverage", "programs", "counterexamples"]


def figures(data: dict) -> dict:
    """Every picture of the report, as SVG text, by file name."""
    out: dict[str, Optional[str]] = {}
    cov = data["coverage"]
    never = set(cov["never_fired"])
    rules = [r for r in cov["rules"]]
    out["rule-coverage.svg"] = pictures.bars([r["id"] for r in rules], [r["transitions"] for r in rules],
                                             "transitions per rule (red: never fired)", "transitions",
                                             [r["id"] in never for r in rules])
    progs = data["programs"]
    out["program-size.svg"] = pictures.histogram(progs["size"], "size of the generated programs", "AST nodes")
    out["program-depth.svg"] = pictures.histogram(progs["depth"], "depth of the generated programs", "nesting depth")
    out["transitions.svg"] = pictures.histogram(progs["transitions"], "transitions per run", "transitions (log scale)",
                                                log=True)
    feats = progs["features"]
    out["features.svg"] = pictures.bars(list(feats), [100 * v for v in feats.values()], "runs exercising each feature",
                                        "% of runs")
    for i, c in enumerate(data["counterexamples"]):
        dots = (c.get("explanation") or {}).get("dot") or {}
        for when in ("before", "after"):
            if dots.get(when):
                out[f"counterexample-{i + 1}-{when}.svg"] = pictures.graph_svg(dots[when])
        if c.get("program") and not unlike_this_run(c):
            out[f"counterexample-{i + 1}-view.html"] = view_page(c)
    return {k: v for k, v in out.items() if v}


VIEW_FRAMES = 30  # pictures in a counterexample's step-through page
NO_PROGRAM = "No program was kept for this failure (the finding says what failed and where)."


def unlike_this_run(counterexample: dict) -> Optional[str]:
    """Why a counterexample's step-through page cannot be made here (None: it can): the page
    runs the program again, and a failure found under a variant of the rules (`rules_changed`)
    shows only under that variant — run under the paper's rules, its page would say the
    opposite of its report."""
    from goi.semantics.rules import changed_from_default, variant_fingerprint

    from .counterexample import replay_options

    recorded = counterexample.get("rules_changed") or []
    fingerprint = counterexample.get("rules_fingerprint")
    if isinstance(recorded, list) and (sorted(map(str, recorded)) != changed_from_default() or (
            isinstance(fingerprint, str) and recorded and fingerprint != variant_fingerprint())):
        return (f"found under a variant of the rules ({', '.join(map(str, recorded[:8]))} changed): no step-through "
                "page is made here, where another semantics is in use (write the report within the same "
                "goi.semantics.rules.using(...))")
    _options, why = replay_options(counterexample.get("run"))
    return None if why is None else f"the failing run cannot be made again here: {why}"


def view_page(counterexample: dict) -> Optional[str]:
    """The step-through page (goi view) of a counterexample's run, with the check it violated;
    None when its program cannot be run again here (a finding of the front end, say)."""
    from goi.semantics.errors import GoiError

    from .view import compose

    from goi.semantics.checks import registry as check_registry

    from .counterexample import replay_options

    options, _why = replay_options(counterexample.get("run"))  # the failing run's division, parameters, strategy, gc
    if options is None:
        return None
    violation = (counterexample.get("explanation") or {}).get("violation")
    checks = [violation["check"]] if violation and violation.get("check") in check_registry() else []
    try:
        _rec, page = compose(counterexample["program"], max_steps=100_000, max_frames=VIEW_FRAMES, checks=checks,
                             title=f"goi view: counterexample of {counterexample['property']}", **options)
    except (GoiError, TypeError, ValueError, RecursionError):
        return None
    return page


# ---- HTML --------------------------------------------------------------------------------

CSS = """
body { font-family: system-ui, -apple-system, "DejaVu Sans", sans-serif; margin: 2rem auto; max-width: 72rem;
       color: #222; line-height: 1.45; padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { border-bottom: 1px solid #ddd; padding-bottom: .2rem; margin-top: 2.2rem; }
table { border-collapse: collapse; margin: .6rem 0; font-size: .9rem; }
th, td { border: 1px solid #ddd; padding: .25rem .6rem; text-align: left; vertical-align: top; }
th { background: #f4f4f4; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.passed { color: #1a7f37; font-weight: 600; } .failed { color: #c0392b; font-weight: 600; }
.budget, .interrupted { color: #9a6700; font-weight: 600; }
pre, code { font-family: "DejaVu Sans Mono", monospace; font-size: .85rem; }
pre { background: #f6f8fa; padding: .6rem; overflow-x: auto; }
figure { margin: 1rem 0; } figure svg { max-width: 100%; height: auto; }
.graphs { display: flex; flex-wrap: wrap; gap: 1rem; } .graphs figure { flex: 1 1 30rem; border: 1px solid #eee; padding: .4rem; }
.summary { font-size: 1.05rem; padding: .6rem .8rem; background: #f6f8fa; border-left: 4px solid #4c72b0; }
"""


def summary_line(data: dict) -> str:
    props = data["properties"]
    failed = [p["name"] for p in props if p["status"] == "failed"]
    total = sum(p["runs"] for p in props)
    verdict = f"{len(failed)} failed ({', '.join(failed)})" if failed else "all passed"
    return (f"{len(props)} properties, {total} runs of the machine on generated programs ({data['environment']['profile']} profile): "
            f"{verdict}; {never_fired_phrase(data['coverage']['never_fired'])}.")


def never_fired_phrase(never: list) -> str:
    if not never:
        return "every rule fired"
    return f"{len(never)} rule{'s' if len(never) > 1 else ''} never fired ({', '.join(never)})"


def shown_environment(env: dict) -> dict:
    """The environment as a reader needs it: no blank cells (a seed not given is Hypothesis'
    own choice; the examples not given are the profile's; the commit is unknown outside a
    git checkout, e.g. in an unpacked source archive)."""
    from goi.properties.profiles import CONFIGS

    shown = dict(env)
    if shown.get("seed") is None:
        shown["seed"] = "none given (derandomised: the same examples every run)" if env.get("profile") == "ci" \
            else "none given (random; failures kept in the example database)"
    if shown.get("examples") is None:
        profile = CONFIGS.get(env.get("profile") or "")
        shown["examples"] = f"{profile.examples} per property (the profile's)" if profile else "the profile's"
    if not shown.get("commit"):
        shown["commit"] = "unknown (not run from a git checkout)"
    return shown


def state_of(step: dict) -> str:
    """A trace line without its step number and rule (the table shows them in their own columns)."""
    parts = step["line"].split(None, 2)
    return parts[2] if len(parts) == 3 and parts[0] == str(step["number"]) and parts[1] == step["rule"] else step["line"]


def sample_caption(progs: dict) -> str:
    sizes = progs.get("size") or []
    tiny = sum(1 for n in sizes if n <= 2)
    share = f"{100 * tiny / len(sizes):.0f}%" if sizes else "0%"
    return (f"A sample of the generated programs, from the smallest to the largest of each property "
            f"({share} of all programs have at most 2 nodes: a constant, or one operation on constants).")


def to_html(data: dict, figs: dict) -> str:
    """The HTML page, from its template (reports/templates/report.html)."""
    from .counterexample import PAPER

    jinja2 = pictures.require("jinja2")
    try:
        return _template("report.html").render(
            data=data, figs=figs, css=CSS, paper=PAPER, summary=summary_line(data),
            environment=shown_environment(data["environment"]), sample_caption=sample_caption(data["programs"]),
            state_of=state_of, no_program=NO_PROGRAM, unlike=unlike_this_run) + "\n"
    except jinja2.UndefinedError as exc:  # the data lacks what the page shows: malformed, as a TypeError says
        raise TypeError(f"the report's data is malformed: {exc}") from None


def _template(name: str):
    """A page's Jinja template (reports/templates/): autoescaped, None written as nothing."""
    from pathlib import Path

    jinja2 = pictures.require("jinja2")
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
                                     autoescape=True, finalize=lambda x: "" if x is None else x,
                                     keep_trailing_newline=False)
    return environment.get_template(name)


# ---- Markdown ----------------------------------------------------------------------------

def _md_table(headers, rows) -> str:
    """A table whose every cell is data (reports/escape.py): escaped, or already made safe by
    `_code` (a code span)."""
    def cell(x) -> str:
        return x.text if isinstance(x, _Code) else md_cell(x)

    lines = ["| " + " | ".join(md_cell(h) for h in headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


class _Code:
    """A table cell shown as code: data in a code span, fenced and its `|` escaped."""

    def __init__(self, value):
        self.text = md_cell_code(value)


def to_markdown(data: dict, figs: dict) -> str:
    """The report as Markdown: every string from the data escaped for where it lands
    (reports/escape.py), so that report.md shows what the data says and runs nothing."""
    from .counterexample import PAPER

    env = data["environment"]
    out = ["# Soundness report: the abductive calculus' machine", "", md_text(summary_line(data)), "", "## Environment", "",
           _md_table(["setting", "value"], [[k, _Code(v)] for k, v in shown_environment(env).items()]), "", "## Properties", "",
           _md_table(["property", "status", "runs", "seconds", "runs/s"],
                     [[p["name"], p["status"], p["runs"], f"{p['seconds']:.2f}", p["runs_per_second"] or 0]
                      for p in data["properties"]]), "", "## Invariant checks", "",
           _md_table(["check", "times consulted", "violations", "from the paper"],
                     [[n, c["runs"] if not c.get("within") else f"within {c['within']}", c["violations"], PAPER.get(n, "")]
                      for n, c in data["checks"].items()]), "",
           "## Rule coverage", "", md_text(f"{data['coverage']['runs']} runs; never fired: "
                                           f"{', '.join(data['coverage']['never_fired']) or 'none'}."), ""]
    if "rule-coverage.svg" in figs:
        out += ["![transitions per rule](rule-coverage.svg)", ""]
    out += [_md_table(["rule", "kind", "transitions", "runs firing it", "share"],
                      [[_Code(r["id"]), r["kind"], r["transitions"], r["runs_firing"], f"{100 * r['share']:.2f}%"]
                       for r in data["coverage"]["rules"]]), "", "## Generated programs", ""]
    for name, caption in [("program-size.svg", "size"), ("program-depth.svg", "depth"),
                          ("transitions.svg", "transitions per run"), ("features.svg", "features")]:
        if name in figs:
            out.append(f"![{caption}]({name})")
    out += ["", _md_table(["construct", "share of programs"],
                          [[c, f"{100 * v:.1f}%"] for c, v in data["programs"]["constructs"].items()]), ""]
    if data["programs"].get("sample"):
        out += [md_text(sample_caption(data["programs"])), "",
                _md_table(["property", "size", "program"],
                          [[x["property"] or "", x["size"], _Code(x["program"])] for x in data["programs"]["sample"]]), ""]
    out += ["## Counterexamples", ""]
    if not data["counterexamples"]:
        out.append("None: every property held on every generated program.")
    for i, c in enumerate(data["counterexamples"], 1):
        ex = c.get("explanation") or {}
        v = ex.get("violation")
        shown = md_block(c["program"]) if c.get("program") else [md_text(NO_PROGRAM)]
        out += [f"### {i}. {md_text(c['property'])}", ""] + shown + ["", "Finding:", ""] + md_block(c["finding"] or "") + [""]
        if v:
            out += [f"Violated invariant **{md_text(v['check'])}** after step {md_text(v['step'])} ({md_code(v['rule'])}): "
                    f"{md_text(v['message'])}. From the paper: {md_text(v['paper'])}.", ""]
        if ex.get("trace"):
            out += md_block("\n".join(str(s["line"]) for s in ex["trace"])) + [""]
        for when in ("before", "after"):
            if f"counterexample-{i}-{when}.svg" in figs:
                out.append(f"![the graph {when} the failing transition](counterexample-{i}-{when}.svg)")
        if f"counterexample-{i}-view.html" in figs:
            out += ["", f"[Step through the failing run](counterexample-{i}-view.html) (goi view)."]
        elif unlike_this_run(c):
            out += ["", md_text("No step-through page: " + unlike_this_run(c) + ".")]
        out.append("")
    for name, section in data.get("sections", {}).items():
        out += [f"## {md_text(section.get('title', name))}", "", _md_table(section["headers"], section["rows"]), ""]
    return "\n".join(out) + "\n"


def write(data: dict, directory: str) -> dict:
    """DIR/index.html, DIR/report.md (with its SVG files) and DIR/report.json."""
    import json

    os.makedirs(directory, exist_ok=True)
    figs = figures(data)
    files = {"index.html": to_html(data, figs), "report.md": to_markdown(data, figs),
             "report.json": json.dumps(data, ensure_ascii=False, indent=1) + "\n"}
    files.update(figs)
    from goi.files import write_file

    for name, text in files.items():
        write_file(os.path.join(directory, name), text, "--out")
    return {name: len(text) for name, text in files.items()}
