"""Computes with integers, division rounding toward zero (C, OCaml, JavaScript's |0), and x/0
= 0. Right by its own arithmetic; wrong by the rationals' on every inexact division."""

from common import correctly, serve


def respond(text: str) -> dict:
    from goi.semantics.values import IntegerField

    answer = correctly(text, field=IntegerField("total", "trunc"))
    value = answer.get("value")
    if isinstance(value, float):  # the mock's generic reading: integers come back exact
        answer["value"] = str(int(value))
    elif isinstance(value, list):
        answer["value"] = [str(int(v)) for v in value]
    return answer


serve(respond)
