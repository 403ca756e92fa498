"""Two bugs that need sharing inside a decoupling:
  outer-constant-split  a provisional constant bound by a let outside a decoupling and used by
                        its model is copied into the model (as if the model had its own), so the
                        body's uses of the variable stay provisional after the decoupling;
  function-twice        a function bound inside a model and applied twice there is refused:
                        `{"error": "closure x copied twice inside abs"}`."""

from _zoo import bugs, correctly, serve
from goi.semantics import syntax as S

ON = bugs("outer-constant-split", "function-twice")


def uses(t, x) -> int:
    if isinstance(t, S.Var):
        return int(t.name == x)
    if isinstance(t, S.Lam) and t.var == x or isinstance(t, S.Decouple) and x in (t.f, t.x):
        return 0
    if isinstance(t, S.Let) and t.var == x or isinstance(t, S.LetDecouple) and x in (t.f, t.x):
        return uses(t.bound, x)
    return sum(uses(c, x) for c in S.subterms(t))


def split(t, outer: dict):
    """outer: the let-bound provisional constants in scope (name -> its Prov)."""
    if isinstance(t, S.Let):
        inner = dict(outer)
        inner.pop(t.var, None)
        if isinstance(t.bound, S.Prov):
            inner[t.var] = t.bound
        return S.Let(t.var, t.annot, split(t.bound, outer), split(t.body, inner))
    if isinstance(t, S.LetDecouple):
        model = t.bound
        for name, prov in outer.items():
            if uses(model, name):
                model = S.substitute(model, name, prov)
        body_scope = {k: v for k, v in outer.items() if k not in (t.f, t.x)}
        return S.LetDecouple(t.f, t.x, t.name, t.annot, split(model, outer), split(t.body, body_scope))
    if isinstance(t, S.Lam):
        return S.Lam(t.var, t.annot, split(t.body, {k: v for k, v in outer.items() if k != t.var}))
    if isinstance(t, S.Decouple):
        return S.Decouple(t.f, t.x, t.name, t.annot, split(t.body, {k: v for k, v in outer.items() if k not in (t.f, t.x)}))
    if isinstance(t, S.App):
        return S.App(split(t.fun, outer), split(t.arg, outer))
    if isinstance(t, S.BinOp):
        return S.BinOp(t.op, split(t.left, outer), split(t.right, outer))
    return t


def twice_in_model(t, in_model=False):
    """The name of a function let-bound inside a model and applied twice there, if any."""
    if in_model and isinstance(t, S.Let) and isinstance(t.bound, S.Lam) and uses(t.body, t.var) >= 2:
        return t.var
    if isinstance(t, S.LetDecouple):
        return twice_in_model(t.bound, True) or twice_in_model(t.body, in_model)
    for child in S.subterms(t):
        found = twice_in_model(child, in_model)
        if found:
            return found
    return None


def respond(text: str) -> dict:
    from goi.semantics.parser import parse

    if "function-twice" in ON:
        try:
            name = twice_in_model(parse(text))
        except Exception:
            name = None
        if name:
            return {"error": f"closure {name} copied twice inside abs"}
    return correctly(text, transform=(lambda t: split(t, {})) if "outer-constant-split" in ON else None)


serve(respond)
