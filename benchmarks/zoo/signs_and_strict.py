"""Two bugs of a front end and an evaluator:
  negative-provisional  `{-c}` is read as `{c}`: the sign of a negative provisional constant is lost;
  strict-division       x/0 is an error (`{"error": "division by zero"}`) where the calculus has x/0 = 0."""

from _zoo import bugs, correctly, serve
from goi.semantics import syntax as S

ON = bugs("negative-provisional", "strict-division")


def unsign(t):
    if isinstance(t, S.Prov):
        return S.Prov(abs(t.value))
    for i, child in enumerate(S.subterms(t)):
        t = S.with_child(t, i, unsign(child))
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
