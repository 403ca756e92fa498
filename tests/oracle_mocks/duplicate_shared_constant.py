"""Substitutes a provisional constant bound to a variable inside a decoupled model into
each use (`let x = {c} in x + x` read as `{c} + {c}`): a model using the constant twice then
gets two parameters instead of one. Correct otherwise."""

from common import correctly, serve
from goi.semantics import syntax as S


def uses(t, x) -> int:
    if isinstance(t, S.Var):
        return t.name == x
    if isinstance(t, S.Lam) and t.var == x or isinstance(t, (S.Decouple,)) and x in (t.f, t.x):
        return 0
    if isinstance(t, S.Let) and t.var == x:
        return uses(t.bound, x)
    if isinstance(t, S.LetDecouple) and x in (t.f, t.x):
        return uses(t.bound, x)
    return sum(uses(c, x) for c in S.subterms(t))


def inline(t, in_model=False):
    """Inside a decoupled model, let x = {c} in u and (λx. u) {c}, x used at least twice in u,
    become u[{c}/x]: one provisional constant becomes several."""
    if in_model and isinstance(t, S.Let) and isinstance(t.bound, S.Prov) and uses(t.body, t.var) >= 2:
        return inline(S.substitute(t.body, t.var, t.bound), True)
    if (in_model and isinstance(t, S.App) and isinstance(t.fun, S.Lam) and isinstance(t.arg, S.Prov)
            and uses(t.fun.body, t.fun.var) >= 2):
        return inline(S.substitute(t.fun.body, t.fun.var, t.arg), True)
    if isinstance(t, S.LetDecouple):
        return S.LetDecouple(t.f, t.x, t.name, t.annot, inline(t.bound, True), inline(t.body, in_model))
    if isinstance(t, S.Lam):
        return S.Lam(t.var, t.annot, inline(t.body, in_model))
    if isinstance(t, S.App):
        return S.App(inline(t.fun, in_model), inline(t.arg, in_model))
    if isinstance(t, S.BinOp):
        return S.BinOp(t.op, inline(t.left, in_model), inline(t.right, in_model))
    if isinstance(t, S.Decouple):
        return S.Decouple(t.f, t.x, t.name, t.annot, inline(t.body, in_model))
    if isinstance(t, S.Let):
        return S.Let(t.var, t.annot, inline(t.bound, in_model), inline(t.body, in_model))
    return t


serve(lambda text: correctly(text, transform=inline))
