"""What the browser playground asks of goi (docs/PLAYGROUND.md): its Web Worker runs goi
under Pyodide and calls these functions, which are goi's own pipeline — the same front end,
machine, checks and recording as `goi check`, `goi run` and `goi view`. Each returns plain
data (dicts, lists, strings) for the worker to post to the page. Under CPython they draw with
pygraphviz, in the browser with Graphviz in WebAssembly (reports/graphviz.py's `use`)."""

from __future__ import annotations

from typing import Callable, Optional

from .view import DEFAULT_MAX_RECORDED_STEPS, page_data, record, to_html

NAME = "<playground>"  # the program's name in the messages, as goi's are "<-e>" or a file's
DEFAULT_MAX_STEPS = 200_000  # a browser tab's budget: the run and its recording stay within memory
OPTIONS = {  # the goi run options a page offers: name -> (allowed values or type, default)
    "division": (("total", "strict"), "total"),
    "strategy": (("first", "random"), "first"),
    "seed": (int, 0),
    "gc": (bool, False),
    "checks": (list, []),
    "check_mode": (("exhaustive", "sampled", "full"), "exhaustive"),
    "max_steps": (int, DEFAULT_MAX_STEPS),
    "max_frames": (int, None),  # None (the field left empty): goi view's default, reports/view.py's EVERY_CHANGE_UP_TO
}
_last: dict = {}  # the last run's recording, for page()


class OptionError(ValueError):
    pass


def error_data(exc, source: str) -> dict:
    """A goi error as the page shows it: kind, message, line, column (goi.error/1's fields)
    and the text goi prints, with the line and a caret."""
    return {**exc.to_json(), "text": exc.render(source, NAME)}


def check(text: str) -> dict:
    """Parse and type-check: {"ok": true, "type", "parameters"} or {"ok": false, "error"}."""
    from goi import execution
    from goi.semantics.errors import GoiError
    from goi.semantics.show import scalar

    try:
        judgement = execution.check(text)
    except GoiError as exc:
        return {"ok": False, "error": error_data(exc, text)}
    return {"ok": True, "type": str(judgement.type), "parameters": [scalar(p) for p in judgement.params]}


def options(given: Optional[dict]) -> dict:
    """The page's options checked: unknown names and values are refused (OptionError)."""
    from goi.semantics.checks import registry

    out = {name: default for name, (_kind, default) in OPTIONS.items()}
    for name, value in (given or {}).items():
        if name not in OPTIONS:
            raise OptionError(f"unknown option {name!r}; the options are {', '.join(OPTIONS)}")
        kind = OPTIONS[name][0]
        if isinstance(kind, tuple) and value not in kind:
            raise OptionError(f"{name} must be one of {', '.join(kind)}, not {value!r}")
        if kind is int and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise OptionError(f"{name} must be a whole number ≥ 0, not {value!r}")
        if kind is bool and not isinstance(value, bool):
            raise OptionError(f"{name} must be true or false, not {value!r}")
        if kind is list:
            known = set(registry()) | {"all"}
            if not isinstance(value, list) or any(c not in known for c in value):
                raise OptionError(f"checks must be a list of {', '.join(sorted(known))}, not {value!r}")
        out[name] = value
    if out["seed"] and out["strategy"] != "random":
        raise OptionError("seed seeds the random strategy; with strategy first it would change nothing")
    return out


def run(text: str, given: Optional[dict] = None, progress: Optional[Callable[[int, int], None]] = None) -> dict:
    """Run the program on the machine and record it for the stepper: {"ok": true, "data"
    (the page's data, reports/view.page_data), "frames" (SVG texts), "summary"} or {"ok":
    false, "error"}. `progress(step, pictures)` is called as the run goes."""
    from goi import execution
    from goi.semantics.errors import GoiError
    from goi.semantics.show import scalar, to_text

    try:
        chosen = options(given)
    except OptionError as exc:
        return {"ok": False, "error": {"kind": "usage", "message": str(exc), "line": None, "column": None,
                                       "text": f"{NAME}: usage error: {exc}"}}
    try:
        judgement = execution.check(text)
        rec = record(judgement, chosen["max_steps"], chosen["max_frames"],
                     max_recorded_steps=DEFAULT_MAX_RECORDED_STEPS, progress=progress,
                     division=chosen["division"], strategy=chosen["strategy"], seed=chosen["seed"], gc=chosen["gc"],
                     checks=chosen["checks"], check_mode=chosen["check_mode"])
    except GoiError as exc:
        return {"ok": False, "error": error_data(exc, text)}
    _last["rec"] = rec
    result = rec.result
    summary = {
        "status": result.status,
        "value": to_text(result.value) if result.status == "final" else None,
        "reason": result.reason,
        "limit": result.limit,
        "type": str(result.type),
        "parameters": [scalar(p) for p in result.parameters],
        "transitions": {"total": result.transitions, "pass": result.passes, "rewrite": result.rewrites},
        "rules": [s["rule"] for s in rec.steps[1:]] if rec.unrecorded is None else None,
    }
    return {"ok": True, "data": page_data(rec), "frames": rec.frames, "summary": summary}


def page(title: str = "goi view: program") -> str:
    """The self-contained page `goi view` writes, of the last run."""
    if "rec" not in _last:
        raise OptionError("no run yet: run a program first")
    return to_html(_last["rec"], title=title)


def examples() -> list:
    """The example programs of the menu, from the corpus (the paper's and the visualiser's):
    name, group, text, the value it is expected to have (its `-- expect:` line), and its title
    (tests/programs/titles.toml; the name where it has none)."""
    from goi.expected import INLINE
    from goi.oracle.corpus import corpus_files, corpus_titles

    titles = corpus_titles()
    out = []
    for origin, text in corpus_files():
        group, _, name = origin.partition("/")
        expected = {}
        for line in text.splitlines():
            m = INLINE.match(line)
            if m:
                expected[m.group(1) or "value"] = m.group(2)
        out.append({"group": group, "name": name.removesuffix(".goi"), "text": text, "expected": expected,
                    "title": titles.get(origin.removesuffix(".goi"), name.removesuffix(".goi"))})
    return out
