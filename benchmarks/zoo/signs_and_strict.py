"""Two bugs of a front end and an evaluator:
  negative-provisional  `{-c}` is read as `{c}`: the sign of a negative provisional constant is lost;
  strict-division       x/0 is an error (`{"error": "division by zero"}`) where the calculus has x/0 = 0."""

from fractions import Fraction

from _zoo import bugs, correctly, serve
from goi.semantics import syntax as S

ON = bugs("negative-provisional", "strict-division")


def unsign(t):
    if isinstance(t, S.Prov):
        return S.Prov(abs(t.value))
    if isinstance(t, S.Lam):
        return S.Lam(t.var, t.annot, unsign(t.body))
    if isinstance(t, S.App):
        return S.App(unsign(t.fun), unsign(t.arg))
    if isinstance(t, S.BinOp):
        return S.BinOp(t.op, unsign(t.left), unsign(t.right))
    if isinstance(t, S.Decouple):
        return S.Decouple(t.f, t.x, t.name, t.annot, unsign(t.body))
    if isinstance(t, S.Let):
        return S.Let(t.var, t.annot, unsign(t.bound), unsign(t.body))
    if isinstance(t, S.LetDecouple):
        return S.LetDecouple(t.f, t.x, t.name, t.annot, unsign(t.bound), unsign(t.body))
    return t


def respond(text: str) -> dict:
    import goi

    answer = correctly(text, transform=unsign if "negative-provisional" in ON else None)
    if "strict-division" in ON and "value" in answer and "/" in text:
        try:
            strict = goi.run(text, division="strict")
        except goi.GoiError:
            return answer
        if strict.status == "undefined":
            return {"error": "division by zero"}
    return answer


serve(respond)
