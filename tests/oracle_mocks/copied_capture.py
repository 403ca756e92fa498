"""A machine whose closures are boxes copied at each application after the first, and whose
copy loses a shared value the box captured: from a λ's second application on, a variable it
captures that a `let` bound to an operation's result, and that its body uses twice or more,
reads as 0. One defect carried by whatever operator the program computes with: `b + b` shows
it, `b * b` and `(b - b) - b` too, while `b - b` hides it (0 either way). So its minimal
programs need `+` in one and `-` in another (tests/test_oracle.py). Exact rationals, its own
evaluator (an environment machine), never goi's; only the pure fragment (no provisional
constant, no decoupling), as the test's programs are."""

from fractions import Fraction

from common import read, serve
from goi.semantics import syntax as S


class Closure:
    def __init__(self, lam, env):
        self.lam, self.env, self.applied = lam, env, 0


class Computed:
    """A value a `let` bound to an operation's result: a shared node of the graph."""

    def __init__(self, value):
        self.value = value


def uses(t, x: str) -> int:
    if isinstance(t, S.Var):
        return int(t.name == x)
    if isinstance(t, S.Lam) and t.var == x:
        return 0
    if isinstance(t, S.Let) and t.var == x:
        return uses(t.bound, x)
    return sum(uses(c, x) for c in S.subterms(t))


def evaluate(t, env: dict):
    if isinstance(t, S.Const):
        return Fraction(t.value)
    if isinstance(t, S.Var):
        v = env[t.name]
        return v.value if isinstance(v, Computed) else v
    if isinstance(t, S.Lam):
        return Closure(t, env)
    if isinstance(t, S.Let):
        value = evaluate(t.bound, env)
        return evaluate(t.body, {**env, t.var: Computed(value) if isinstance(t.bound, S.BinOp) else value})
    if isinstance(t, S.App):
        f, a = evaluate(t.fun, env), evaluate(t.arg, env)
        f.applied += 1
        captured = f.env if f.applied == 1 else {
            x: Computed(Fraction(0)) if isinstance(v, Computed) and uses(f.lam.body, x) >= 2 else v
            for x, v in f.env.items()}
        return evaluate(f.lam.body, {**captured, f.lam.var: a})
    if isinstance(t, S.BinOp):
        a, b = evaluate(t.left, env), evaluate(t.right, env)
        if t.op == "/" and b == 0:
            raise ZeroDivisionError
        return {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else None}[t.op]
    raise NotImplementedError(type(t).__name__)


def respond(text: str) -> dict:
    term, rejected = read(text)
    if rejected:
        return rejected
    try:
        value = evaluate(term, {})
    except ZeroDivisionError:
        return {"error": "division by zero"}
    except NotImplementedError as exc:
        return {"rejected": f"not in this machine's language: {exc}"}
    return {"value": "λ" if isinstance(value, Closure) else str(value)}


serve(respond)
