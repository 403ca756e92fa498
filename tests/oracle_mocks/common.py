"""Shared by the mock implementations (oracle mode's tests): read the program as the
protocol gives it (standard input, or the file named as the first argument), answer."""

import json
import sys


def program() -> str:
    if len(sys.argv) > 1:
        with open(sys.argv[1], encoding="utf-8") as handle:
            return handle.read()
    return sys.stdin.read()


def answer(payload) -> None:
    print(json.dumps(payload, ensure_ascii=False))


def value_payload(value):
    if isinstance(value, tuple):
        return {"value": [str(v) for v in value]}
    return {"value": str(value)}


def run_correctly(text: str, transform=None, field=None) -> None:
    """Answer as a correct implementation would: goi's own machine (after `transform` of the
    parsed term, for the buggy mocks)."""
    import goi
    from goi.semantics.parser import parse

    try:
        term = parse(text)
        if transform is not None:
            term = transform(term)
        execution = goi.prepare(term, field=field) if field is not None else goi.prepare(term)
    except goi.GoiError as exc:
        answer({"rejected": exc.message})
        return
    if field is not None:  # a field of its own: the machine's raw outcome
        outcome = execution.machine.run(1_000_000)
        answer({"value": _float(outcome.value)} if outcome.status == "final" else {"error": outcome.reason})
        return
    result = execution.run()
    if result.status == "undefined":
        answer({"error": result.reason})
    else:
        answer(value_payload(result.value))


def _float(x):
    if isinstance(x, tuple):
        return [float(v) for v in x]
    if isinstance(x, float):
        return x
    return "λ"
