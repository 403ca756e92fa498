"""An implementation of λ, let, application and + - * / with an arithmetic of its own, written
apart from goi's machine and fields (a direct interpreter with an environment): what it
computes is fixed by Python's own numbers, not by goi's. MOCK_ARITHMETIC chooses it:

- `decimal-doubles`: doubles whose every value passes through decimal text, as JavaScript's
  String(x) writes it (-0 is written "0"); x/0 is ±Infinity, 0/0 NaN;
- `doubles-error`: doubles with signed zeros; a division by zero is an error;
- `int63-wrap`: 63-bit integers (OCaml's int), wrapping; division toward zero; by zero an error;
- `int32-error`: 32-bit integers that stop on overflow (an error); division toward zero; by zero an error;
- `rationals`: exact rationals, x/0 = 0.

Provisional constants are not in its language (run it with --fragment no-provisional)."""

import math
import os
from fractions import Fraction

from common import read, serve

KIND = os.environ.get("MOCK_ARITHMETIC", "rationals")


class Failure(Exception):
    pass


def js_string(x: float) -> str:
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"  # String(-0) is "0"
    return repr(int(x)) if x == int(x) and abs(x) < 1e21 else repr(x)


def number(text: Fraction):
    if KIND in ("decimal-doubles", "doubles-error"):
        return float(text)
    if KIND.startswith("int"):
        if text.denominator != 1:
            raise Failure("not an integer literal")
        return fit(int(text))
    return Fraction(text)


def fit(n: int) -> int:
    bits = 63 if KIND == "int63-wrap" else 32
    half = 2 ** (bits - 1)
    if -half <= n < half:
        return n
    if KIND == "int32-error":
        raise Failure("integer overflow")
    return (n + half) % (2 * half) - half


def operate(op: str, x, y):
    if KIND.startswith("int"):
        if op == "/":
            if y == 0:
                raise Failure("Division_by_zero")
            q = abs(x) // abs(y)
            return fit(q if (x >= 0) == (y >= 0) else -q)
        return fit({"+": x + y, "-": x - y, "*": x * y}[op])
    if KIND == "rationals":
        if op == "/":
            return Fraction(0) if y == 0 else x / y
        return {"+": x + y, "-": x - y, "*": x * y}[op]
    if op == "/" and y == 0:
        if KIND == "doubles-error":
            raise Failure("division by zero")
        result = math.nan if x == 0 or math.isnan(x) else math.copysign(math.inf, x) * math.copysign(1.0, y)
    elif op == "/":
        result = x / y
    else:
        result = {"+": x + y, "-": x - y, "*": x * y}[op]
    if KIND == "decimal-doubles":
        text = js_string(result)
        return float({"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}.get(text, text))
    return result


def evaluate(t, env):
    from goi.semantics import syntax as S

    if isinstance(t, S.Const):
        return number(t.value)
    if isinstance(t, S.Var):
        return env[t.name]
    if isinstance(t, S.Lam):
        return ("closure", t.var, t.body, env)
    if isinstance(t, S.Let):
        return evaluate(t.body, {**env, t.var: evaluate(t.bound, env)})
    if isinstance(t, S.App):
        f, a = evaluate(t.fun, env), evaluate(t.arg, env)
        _, var, body, closed = f
        return evaluate(body, {**closed, var: a})
    if isinstance(t, S.BinOp) and t.op in "+-*/":
        return operate(t.op, evaluate(t.left, env), evaluate(t.right, env))
    raise Failure(f"not in my language: {type(t).__name__}")


def respond(text: str) -> dict:
    term, rejected = read(text)
    if rejected:
        return rejected
    try:
        value = evaluate(term, {})
    except Failure as exc:
        return {"error": str(exc)}
    if isinstance(value, tuple):
        return {"value": "λ"}
    if isinstance(value, float):
        return {"value": js_string(value) if KIND == "decimal-doubles" else
                ("NaN" if math.isnan(value) else "Infinity" if value == math.inf else "-Infinity" if value == -math.inf
                 else repr(value))}
    return {"value": str(value)}


serve(respond)
