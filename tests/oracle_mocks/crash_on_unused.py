"""A compiler-like implementation with two bugs: it crashes on any program with a binder nobody
uses (a `let` whose variable, a λ whose parameter, or a decoupling whose f or p its body never
mentions: the weakening it lacks), and it computes a product of two constants as their sum. The first fires on most generated programs: set aside with --known, the survey
should go to programs that can show the second (tests/test_oracle_face_value.py)."""

from common import correctly, serve
from goi.semantics import syntax as S


def unused(term) -> bool:
    for t in S.walk(term):
        if isinstance(t, (S.Lam, S.Let)) and t.var not in S.free_variables(t.body):
            return True
        if isinstance(t, (S.Decouple, S.LetDecouple)):
            free = S.free_variables(t.body)
            if t.f not in free or t.x not in free:
                return True
    return False


def sum_for_product(t):
    for i, child in enumerate(S.subterms(t)):
        t = S.with_child(t, i, sum_for_product(child))
    if isinstance(t, S.BinOp) and t.op == "*" and isinstance(t.left, S.Const) and isinstance(t.right, S.Const):
        return S.BinOp("+", t.left, t.right)
    return t


def respond(text: str) -> dict:
    from goi.semantics.errors import GoiError
    from goi.semantics.parser import parse

    try:
        term = parse(text)
    except GoiError as exc:
        return {"rejected": exc.message}
    if unused(term):
        raise AssertionError("Fatal error: exception Not_found (unused binder)")
    return correctly(text, transform=sum_for_product)


serve(respond)
