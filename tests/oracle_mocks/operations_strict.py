"""An implementation in an operation syntax with a strict parser of its own (written apart
from goi's notations, to judge docs/examples/notations/operations.toml): LAMBDA(x. t),
APP(t, u), PLUS/MINUS/TIMES(t, u), bind x = t in u, unsigned integers, names [a-z][a-z0-9]*;
`, ` and `. ` exactly so, no other spaces but around `=` and `in`. Exact arithmetic."""

import re
from fractions import Fraction

from common import run_term, serve

from goi.semantics import syntax as S

TOKEN = re.compile(r"LAMBDA\(|APP\(|PLUS\(|MINUS\(|TIMES\(|bind |, |\. | = | in |\)|[0-9]+|[a-z][a-z0-9]*")
OPS = {"PLUS(": "+", "MINUS(": "-", "TIMES(": "*"}


class Syntax(Exception):
    pass


def tokens(text: str) -> list[str]:
    out, i = [], 0
    while i < len(text):
        m = TOKEN.match(text, i)
        if not m:
            raise Syntax(f"column {i + 1}: unexpected {text[i]!r}")
        out.append(m.group())
        i = m.end()
    return out


def parse(text: str) -> S.Term:
    toks = tokens(text)
    pos = [0]

    def take(want=None):
        if pos[0] >= len(toks):
            raise Syntax(f"unexpected end (expected {want})")
        t = toks[pos[0]]
        if want is not None and t != want:
            raise Syntax(f"expected {want!r}, got {t!r}")
        pos[0] += 1
        return t

    def name():
        t = take()
        if not re.fullmatch(r"[a-z][a-z0-9]*", t) or t in ("bind", "in"):
            raise Syntax(f"expected a name, got {t!r}")
        return t

    def term():
        t = take()
        if t == "LAMBDA(":
            x = name()
            take(". ")
            body = term()
            take(")")
            return S.Lam(x, None, body)
        if t == "APP(":
            f = term()
            take(", ")
            a = term()
            take(")")
            return S.App(f, a)
        if t in OPS:
            left = term()
            take(", ")
            right = term()
            take(")")
            return S.BinOp(OPS[t], left, right)
        if t == "bind ":
            x = name()
            take(" = ")
            bound = term()
            take(" in ")
            return S.Let(x, None, bound, term())
        if t.isdigit():
            return S.Const(Fraction(int(t)))
        if re.fullmatch(r"[a-z][a-z0-9]*", t):
            return S.Var(t)
        raise Syntax(f"unexpected {t!r}")

    result = term()
    if pos[0] != len(toks):
        raise Syntax(f"unexpected {toks[pos[0]]!r}")
    return result


def respond(text: str) -> dict:
    try:
        term = parse(text)
    except Syntax as exc:
        return {"rejected": f"syntax error: {exc}"}
    return run_term(term, refusal="type error: ")


if __name__ == "__main__":
    serve(respond)
