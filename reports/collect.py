"""The report's data (schema goi.report/1, docs/REPORTS.md): one source of truth from which
HTML and Markdown are rendered (`goi report --from report.json` renders an existing one).

`collect` runs the properties through the very code pytest and `goi props` use
(properties.driver), with the coverage module recording every run; `build` turns results
and those records into the report's data.
"""

from __future__ import annotations

import datetime
import platform
import subprocess
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable, Optional

from goi.properties import coverage

SCHEMA = "goi.report/1"
MAX_VALUES = 20_000  # samples kept per distribution


def environment(profile: str, seed: Optional[int], examples: Optional[int]) -> dict:
    import hypothesis

    from goi.version import __version__

    return {
        "goi": __version__,
        "commit": _commit(),
        "python": platform.python_version(),
        "hypothesis": hypothesis.__version__,
        "platform": platform.platform(),
        "profile": profile,
        "seed": seed,
        "examples": examples,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }


def _commit() -> Optional[str]:
    root = Path(__file__).resolve().parent.parent
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def collect(names: Iterable[str], profile: str, examples: Optional[int] = None, seed: Optional[int] = None,
            on_result: Optional[Callable] = None, explain: bool = True) -> dict:
    """Run the properties and build the report's data."""
    from goi.properties import driver  # Hypothesis: loaded when a report runs properties, not when one is read

    names = list(names)
    with coverage.recording() as recorder:
        results, interrupted = driver.run_suite(names, profile, examples, seed, on_result=on_result)
    return build(results, environment(profile, seed, examples), interrupted=interrupted, not_run=names[len(results):],
                 explain=explain, recorder=recorder)


def build(results, env: dict, interrupted: bool = False, not_run: Iterable[str] = (), explain: bool = True,
          recorder: Optional[coverage.Recorder] = None) -> dict:
    """The report's data from the properties' results and what their runs recorded (by
    default the session under way: pytest's)."""
    recorder = recorder or coverage.current()
    from .counterexample import explain as explain_program

    properties = [{
        "name": r.name, "status": r.status, "runs": r.runs, "seconds": round(r.seconds, 3),
        "runs_per_second": r.runs_per_second, "finding": r.finding, "program": r.program, "replay": r.replay,
    } for r in results]
    counterexamples = []
    from goi.semantics.rules import changed_from_default, variant_fingerprint

    variant = changed_from_default()  # the semantics the failures were found under: [] for the paper's
    for r in results:  # every failure, with its reason; its program when one was kept
        if r.status == "failed":
            entry = {"property": r.name, "finding": r.finding, "program": r.program, "replay": r.replay}
            if variant:
                entry["rules_changed"] = variant
                entry["rules_fingerprint"] = variant_fingerprint()  # what they were changed to
            if r.run is not None:
                entry["run"] = r.run  # the failing run's settings: its explanation and page are that run
            if explain and r.program:
                entry["explanation"] = explain_program(r.program, entry.get("run"))
            counterexamples.append(entry)
    return {
        "schema": SCHEMA,
        "status": "interrupted" if interrupted else "done",
        "environment": env,
        "properties": properties,
        "not_run": list(not_run),
        "checks": checks(recorder),
        "coverage": rule_coverage(recorder),
        "programs": programs(recorder),
        "counterexamples": counterexamples,
        "sections": {},
    }


def checks(recorder: coverage.Recorder) -> dict:
    from goi.semantics.checks import registry

    within = {"names": "validity", "graph": "validity"}  # validity includes them; the properties run it
    return {name: {"runs": recorder.check_runs.get(name, 0), "violations": recorder.check_violations.get(name, 0),
                   "within": within.get(name)}
            for name in registry()}


def rule_coverage(recorder: coverage.Recorder) -> dict:
    from goi.semantics.rules import load_all

    summary = recorder.summary()
    total = sum(summary["transitions"].values()) or 1
    rules = load_all()
    return {
        "runs": summary["runs"],
        "rules": [{"id": r, "kind": rules[r].kind, "transitions": n, "runs_firing": summary["runs_firing"][r],
                   "share": round(n / total, 5)} for r, n in summary["transitions"].items()],
        "never_fired": summary["never_fired"],
    }


def programs(recorder: coverage.Recorder) -> dict:
    samples = recorder.samples
    count = len(samples)
    features = Counter(f for s in samples for f in set(s["features"]))
    constructs = Counter(c for s in samples for c in s["constructs"])

    def values(key: str) -> list:
        return [s[key] for s in samples[:MAX_VALUES] if s.get(key) is not None]

    return {
        "runs": count,
        "size": values("size"),
        "depth": values("depth"),
        "transitions": values("transitions"),
        "parameters": values("parameters"),
        "features": {f: round(n / count, 4) for f, n in sorted(features.items())} if count else {},
        "constructs": {c: round(n / count, 4) for c, n in sorted(constructs.items())} if count else {},
        "by_property": dict(Counter(s["property"] or "(other)" for s in samples)),
        "sample": sample(samples),
    }


SAMPLE_PER_PROPERTY = 5


def sample(samples: list) -> list:
    """Programs a reader can look at: for each property, SAMPLE_PER_PROPERTY of its programs
    from the smallest to the largest (evenly spaced by size), as text."""
    by_property: dict = {}
    for s in samples:
        if s.get("program") is not None:
            by_property.setdefault(s["property"], []).append(s)
    out = []
    for prop, runs in by_property.items():
        runs = sorted(runs, key=lambda s: (s["size"], s["program"]))
        picks = sorted({round(i * (len(runs) - 1) / (SAMPLE_PER_PROPERTY - 1)) for i in range(SAMPLE_PER_PROPERTY)})
        out += [{"property": prop, "size": runs[i]["size"], "program": runs[i]["program"]} for i in picks]
    return out



def merge(reports: list) -> dict:
    """One report from several (the shares of a deep run spread over machines, or pytest-xdist
    workers): counts added, programs and counterexamples pooled, a property run in several
    parts passed only if every part passed."""
    if not reports:
        raise ValueError("nothing to merge")
    if len(reports) == 1:
        return reports[0]
    worst = {"passed": 0, "budget": 1, "interrupted": 2, "failed": 3}
    props: dict = {}
    for data in reports:
        for p in data["properties"]:
            q = props.get(p["name"])
            if q is None:
                props[p["name"]] = dict(p)
                continue
            q["runs"] += p["runs"]
            q["seconds"] = round(q["seconds"] + p["seconds"], 3)
            q["runs_per_second"] = round(q["runs"] / q["seconds"], 1) if q["seconds"] else None
            if worst[p["status"]] > worst[q["status"]]:
                q.update(status=p["status"], finding=p["finding"], program=p["program"], replay=p["replay"])
    checks: dict = {}
    for data in reports:
        for name, c in data["checks"].items():
            d = checks.setdefault(name, {"runs": 0, "violations": 0, "within": c.get("within")})
            d["runs"] += c["runs"]
            d["violations"] += c["violations"]
    transitions: Counter = Counter()
    firing: Counter = Counter()
    kinds = {}
    for data in reports:
        for r in data["coverage"]["rules"]:
            transitions[r["id"]] += r["transitions"]
            firing[r["id"]] += r["runs_firing"]
            kinds[r["id"]] = r["kind"]
    total = sum(transitions.values()) or 1
    programs_ = {key: [v for data in reports for v in data["programs"][key]][:MAX_VALUES]
                 for key in ("size", "depth", "transitions", "parameters")}
    runs = sum(data["programs"]["runs"] for data in reports)

    def shares(key: str) -> dict:
        pooled: Counter = Counter()
        for data in reports:
            for name, share in data["programs"][key].items():
                pooled[name] += share * data["programs"]["runs"]
        return {name: round(n / runs, 4) for name, n in sorted(pooled.items())} if runs else {}

    by_property: Counter = Counter()
    for data in reports:
        by_property.update(data["programs"]["by_property"])
    env = dict(reports[0]["environment"])
    env["parts"] = len(reports)
    return {
        "schema": SCHEMA,
        "status": "interrupted" if any(d["status"] == "interrupted" for d in reports) else "done",
        "environment": env,
        "properties": list(props.values()),
        "not_run": sorted({n for d in reports for n in d["not_run"]} - set(props)),
        "checks": checks,
        "coverage": {
            "runs": sum(d["coverage"]["runs"] for d in reports),
            "rules": [{"id": r, "kind": kinds[r], "transitions": transitions[r], "runs_firing": firing[r],
                       "share": round(transitions[r] / total, 5)} for r in sorted(transitions)],
            "never_fired": sorted(r for r in transitions if not transitions[r]),
        },
        "programs": {"runs": runs, **programs_, "features": shares("features"), "constructs": shares("constructs"),
                     "by_property": dict(by_property),
                     "sample": [x for d in reports for x in d["programs"].get("sample", [])]},
        "counterexamples": [c for d in reports for c in d["counterexamples"]],
        "sections": {k: v for d in reports for k, v in d.get("sections", {}).items()},
    }


def section_from(data: dict) -> tuple[str, dict]:
    """A further section of the report from another command's --json output: goi conjectures
    (goi.conjectures/1), goi oracle (goi.oracle/1 or /2), goi equiv (goi.equiv/1) or an
    exhaustive goi props (goi.props/1 or /2 with `exhaustive`)."""
    schema = data.get("schema", "")
    if schema.startswith("goi.conjectures/"):
        rows = [[r["law"], r["expected"], r["verdict"] + (" (surprising)" if r["surprising"] else ""), r["instances"],
                 r["proven"], r["unknown"], r["seconds"],
                 "" if not r["counterexample"] else f"{r['counterexample']['left']} vs {r['counterexample']['right']}"
                 + (f" in {r['counterexample']['context']}" if r["counterexample"].get("context") else "")]
                for r in data["laws"]]
        bound = data.get("exhaustive") or None
        return "conjectures", {"title": f"Equivalence laws and conjectures ({data['profile']} profile"
                               + (f"; every instance up to size {bound['bound']}, every context up to size "
                                  f"{bound['context_size']})" if bound else ")"),
                               "headers": ["law", "expected", "verdict", "instances", "proven", "unknown", "seconds",
                                           "counterexample"], "rows": rows}
    if schema.startswith("goi.props/") and data.get("exhaustive"):
        e = data["exhaustive"]
        unit = "shapes" if e.get("shapes") else "programs"  # goi.props/1 listed programs only
        what = (f"all {e['programs']:,} {unit} of size ≤ {e['bound']}" if e["bound"] is not None
                else f"{unit[:-1]} {e['index'][0]}:{e['index'][1]}")
        if e["programs"] < e["of"]:
            what = f"{e['programs']:,} of the {e['of']:,} {unit} of size ≤ {e['bound']} (unfinished)"
        covers = e.get("covers") or {}
        rows = [[name, status, what + (f", for {covers[name]}" if covers.get(name) else ""), e["undecided"].get(name, 0)]
                for name, status in e["status"].items()]
        if e.get("space"):
            over = e.get("programs_over_constants")
            rows.append(["space", "", e["space"] + (f" ({e['programs']:,} shapes stand for the {over:,} programs over "
                                                    f"the constants of --concrete)" if over else ""), ""])
        if e["first"]:
            f = e["first"]
            rows.append([f"smallest counterexample ({f['property']})", f"size {f['size']}, index {f['index']}",
                         f["program"], f["message"]])
        return "exhaustive", {"title": f"Every {unit[:-1]} of size ≤ {e['bound']} ({data['profile']} checks; docs/CAMPAIGNS.md)"
                              if e["bound"] is not None else f"One enumerated {unit[:-1]}",
                              "headers": ["property", "verdict", "on", "undecided (budget)"], "rows": rows}
    if schema.startswith("goi.oracle/"):
        rows = [[k, n] for k, n in data["counts"].items()]
        shrunk = data["buckets"] if "buckets" in data else [{**f, "signature": k} for k, f in data["failures"].items()]
        for f in shrunk:  # goi.oracle/2: one per bucket; goi.oracle/1: one per class
            impl = f["implementation"] or {}
            got = impl.get("value") if impl.get("kind") == "value" else f"{impl.get('kind')}: {impl.get('message')}"
            rows.append([f"shrunk {f['signature']}", f"{f['program']}  (expected {f['expected']}, got {got})"])
        bound = (data.get("exhaustive") or {}).get("bound")
        return "oracle", {"title": f"Oracle: {' '.join(data['implementation'])} ({data['notation']} notation"
                          + (f"; all {data['exhaustive']['of']:,} programs of size ≤ {bound})" if bound else ")"),
                          "headers": ["class", "programs"], "rows": rows}
    if schema.startswith("goi.equiv/"):
        compared = [[f"{'term' if data.get('mode') == 'terms' else 'program'} {i}", text]
                    for i, text in enumerate(data["compared"])]
        if data.get("mode") == "terms":
            rows = compared + [["verdict", data["verdict"]], ["contexts", data["contexts"]], ["context", data.get("context") or ""]]
        else:
            rows = compared + [["verdict", data["verdict"]], ["reason", data["reason"]],
                    ["symbolic values", " vs ".join(data["symbolic"] or [])], ["witness", ", ".join(data["witness"] or [])],
                    ["values at the witness", " vs ".join(data["values"] or [])]]
        return "equivalence", {"title": "Program equivalence", "headers": ["", ""], "rows": rows}
    raise ValueError(f"cannot include a {schema or 'schema-less'} object (goi conjectures, oracle, equiv or "
                     "props --exhaustive --json)")
