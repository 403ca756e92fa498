"""The zoo's integer-only ML (issue 40): the ML-like notation (docs/examples/notations/ml.toml)
read by the strict parser of tests/oracle_mocks/ml_strict.py, evaluated by an environment
interpreter of its own over Python integers — division toward zero, a division by zero an
error (so `--arithmetic integer --division strict`). Its planted bugs (GOI_BUGS):

    sub-right-assoc   its parser reads a - b - c as a - (b - c)
    params-reversed   `let f x y = e` binds the parameters in the reverse order
"""

from _zoo import bugs, serve

import ml_strict
from goi.semantics import syntax as S

ON = bugs("sub-right-assoc", "params-reversed")


class Parser(ml_strict.Parser):
    def binary(self, level):
        if level == 0 and "sub-right-assoc" in ON:
            left = self.binary(1)
            if self.peek() == "-":
                self.take()
                return S.BinOp("-", left, self.binary(0))
            while self.peek() == "+":
                self.take()
                left = S.BinOp("+", left, self.binary(1))
                if self.peek() == "-":
                    self.take()
                    return S.BinOp("-", left, self.binary(0))
            return left
        return super().binary(level)

    def parameters(self, params, body):
        if "params-reversed" in ON:  # the bug: the first parameter becomes the innermost λ
            params = list(reversed(params))
        return super().parameters(params, body)


class Stuck(Exception):
    pass


def evaluate(t, env):
    if isinstance(t, S.Const):
        return int(t.value)
    if isinstance(t, S.Var):
        return env[t.name]
    if isinstance(t, S.Lam):
        return ("closure", t, env)
    if isinstance(t, S.Let):
        return evaluate(t.body, {**env, t.var: evaluate(t.bound, env)})
    if isinstance(t, S.App):
        f, a = evaluate(t.fun, env), evaluate(t.arg, env)
        if not isinstance(f, tuple):
            raise Stuck("applied a number")
        _, lam, closed = f
        return evaluate(lam.body, {**closed, lam.var: a})
    a, b = evaluate(t.left, env), evaluate(t.right, env)
    if isinstance(a, tuple) or isinstance(b, tuple):
        raise Stuck(f"{t.op} on a function")
    if t.op == "+":
        return a + b
    if t.op == "-":
        return a - b
    if t.op == "*":
        return a * b
    if b == 0:
        raise Stuck("division by zero")
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def respond(text: str) -> dict:
    import sys

    try:
        p = Parser(text.split(" "))
        if text != text.strip() or "  " in text:
            raise ml_strict.Syntax("tokens are separated by exactly one space")
        term = p.expr()
        if p.i != len(p.tokens):
            raise ml_strict.Syntax(f"unexpected {p.tokens[p.i]!r}")
    except ml_strict.Syntax as exc:
        return {"rejected": f"syntax error: {exc}"}
    sys.setrecursionlimit(100_000)
    try:
        value = evaluate(term, {})
    except Stuck as exc:
        return {"error": f"runtime error: {exc}"}
    except KeyError as exc:
        return {"rejected": f"type error: unbound variable {exc}"}
    return {"value": "λ" if isinstance(value, tuple) else str(value)}


serve(respond)
