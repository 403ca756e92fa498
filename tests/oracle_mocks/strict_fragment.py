"""An implementation of the smallest fragment every DGoIM has, parsing strictly: λ, let,
application, integer constants that are not negative, and + alone. Anything else — a
provisional constant, a decoupling, a decimal, a negative constant, another operator — it
rejects, as a real implementation of that fragment would."""

from fractions import Fraction

from common import correctly, serve


def respond(text: str) -> dict:
    from goi.semantics import syntax as S
    from goi.semantics.parser import parse

    try:
        term = parse(text)
    except Exception as exc:  # noqa: BLE001 - the mock's own parser refusing
        return {"rejected": str(exc)}
    for node in S.walk(term):
        if isinstance(node, (S.Prov, S.Decouple, S.LetDecouple)):
            return {"rejected": "no provisional constants here"}
        if isinstance(node, S.Const) and (node.value < 0 or node.value != Fraction(int(node.value))):
            return {"rejected": f"not a natural number: {node.value}"}
        if isinstance(node, S.BinOp) and node.op != "+":
            return {"rejected": f"unknown operator {node.op}"}
    return correctly(text)


serve(respond)
