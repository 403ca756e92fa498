"""Computes with IEEE-754 doubles as JavaScript does: 0/0 is NaN, 1/0 Infinity, and prints
numbers as JavaScript prints them. Right by its own arithmetic; wrong by the rationals'."""

import json

from common import correctly, serve


def respond(text: str) -> dict:
    from goi.semantics.values import IEEEField, show_double

    answer = correctly(text, field=IEEEField())
    value = answer.get("value")
    if isinstance(value, float):
        answer["value"] = show_double(value)
    elif isinstance(value, list):
        answer["value"] = [show_double(v) for v in value]
    return answer


serve(respond)
