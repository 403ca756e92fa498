"""A machine that gets stuck at a contraction of arity three or more: any program in which one
bound variable is used three times fails with the same error, whatever else it holds. Its
1-minimal programs may keep an unused binder whose bound term is the third use
(`(λb. let c = b in b + b) 0`), beside ones that need none (`(λb. b + b + b) 0`): one defect
(tests/test_oracle.py). Correct otherwise (goi's own machine)."""

from common import correctly, serve
from goi.semantics import syntax as S


def uses(term, x: str) -> int:
    if isinstance(term, S.Var):
        return int(term.name == x)
    if isinstance(term, (S.Lam, S.Let)) and term.var == x:
        return uses(term.bound, x) if isinstance(term, S.Let) else 0
    return sum(uses(c, x) for c in S.subterms(term))


def respond(text: str) -> dict:
    from goi.semantics.errors import GoiError
    from goi.semantics.parser import parse

    try:
        term = parse(text)
    except GoiError as exc:
        return {"rejected": exc.message}
    for t in S.walk(term):
        body = t.body if isinstance(t, (S.Lam, S.Let)) else None
        if body is not None and uses(body, t.var) >= 3:
            raise RuntimeError("stuck: no transition applies at a contraction node")
    return correctly(text)


serve(respond)
