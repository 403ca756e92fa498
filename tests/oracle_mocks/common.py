"""Shared by the mock implementations (oracle mode's tests). Each mock is one function from a
program text to its answer (a JSON object of the protocol); `serve` speaks either protocol:
one program per process (standard input, or the file named as the first argument), or with
`--lines` the persistent one (one JSON request per line in, one JSON answer per line out)."""

import json
import sys

from goi.semantics.values import IEEEField


def serve(respond) -> None:
    if "--lines" in sys.argv[1:]:
        for line in sys.stdin:
            request = json.loads(line)
            payload = respond(request["program"])
            print(json.dumps({"id": request["id"], **payload}, ensure_ascii=False), flush=True)
        return
    print(json.dumps(respond(_program()), ensure_ascii=False))


def _program() -> str:
    if len(sys.argv) > 1:
        with open(sys.argv[1], encoding="utf-8") as handle:
            return handle.read()
    return sys.stdin.read()


def read(text: str):
    """goi's parse of a program as a mock reads it: (term, None), or (None, the answer
    rejecting it)."""
    from goi.semantics.errors import GoiError
    from goi.semantics.parser import parse

    try:
        return parse(text), None
    except GoiError as exc:
        return None, {"rejected": exc.message}


def value_payload(value):
    if isinstance(value, tuple):
        return {"value": [str(v) for v in value]}
    return {"value": str(value)}


def correctly(text: str, transform=None, field=None) -> dict:
    """The answer of a correct implementation: goi's own machine (after `transform` of the
    parsed term, for the buggy mocks)."""
    import goi
    from goi.semantics.parser import parse

    try:
        term = parse(text)
    except goi.GoiError as exc:
        return {"rejected": exc.message}
    return run_term(transform(term) if transform is not None else term, field)


def run_term(term, field=None, refusal: str = "") -> dict:
    """goi's machine on a term a mock has read (with goi's parser or a strict one of its own):
    a type error is a rejection (its message after `refusal`); in a field of its own, the
    machine's raw outcome."""
    import goi

    try:
        execution = goi.prepare(term, field=field) if field is not None else goi.prepare(term)
    except goi.GoiError as exc:
        return {"rejected": refusal + exc.message}
    if field is not None:  # a field of its own: the machine's raw outcome
        outcome = execution.machine.run(1_000_000)
        return {"value": _float(outcome.value)} if outcome.status == "final" else {"error": outcome.reason}
    result = execution.run()
    if result.status == "undefined":
        return {"error": result.reason}
    return value_payload(result.value)


def _float(x):
    if isinstance(x, tuple):
        return [v if isinstance(v, int) else float(v) for v in x]
    if isinstance(x, (float, int)) and not isinstance(x, bool):  # a field of doubles, or of integers
        return x
    return "λ"


class FloatField(IEEEField):
    """IEEE doubles as the machine's field, but x/0 = 0 (the float mocks' arithmetic: not what
    IEEE-754 divides, so that only a tolerance makes it agree): goi's IEEEField, one rule
    changed. A class to subclass (benchmarks/zoo/float_division.py plants its bug so)."""

    name = "floats"
    division = "total"

    def div(self, x, y):
        return 0.0 if y == 0 else x / y

    def show(self, x):
        return repr(x)
