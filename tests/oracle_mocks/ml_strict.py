"""An ML-like implementation with a strict lexer and parser of its own (written apart from
goi's notations, to judge docs/examples/notations/ml.toml): tokens are separated by exactly
one space, integers only, `fun x -> e`, `let f x y = e in e`, + - * / (left-associative,
* / binding tighter), application by juxtaposition. It computes with integers, division
rounding toward zero (so `--arithmetic integer`)."""

import re

from common import run_term, serve

from goi.semantics import syntax as S

KEYWORDS = {"fun", "let", "in", "rec", "if", "then", "else", "match", "with"}
NAME = re.compile(r"[a-z][a-z0-9_]*")


class Syntax(Exception):
    pass


def parse(text: str) -> S.Term:
    if text != text.strip() or "  " in text or "\n" in text or "\t" in text:
        raise Syntax("tokens are separated by exactly one space")
    tokens = text.split(" ")
    for t in tokens:
        if not (t in {"fun", "->", "let", "=", "in", "(", ")", "+", "-", "*", "/"} or t.isdigit()
                or NAME.fullmatch(t)):
            raise Syntax(f"unknown token {t!r}")
    p = Parser(tokens)
    term = p.expr()
    if p.i != len(tokens):
        raise Syntax(f"unexpected {tokens[p.i]!r}")
    return term


class Parser:
    def __init__(self, tokens):
        self.tokens, self.i = tokens, 0

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, want=None):
        t = self.peek()
        if t is None or (want is not None and t != want):
            raise Syntax(f"expected {want or 'a token'}, got {t!r}")
        self.i += 1
        return t

    def name(self):
        t = self.take()
        if not NAME.fullmatch(t) or t in KEYWORDS:
            raise Syntax(f"expected a name, got {t!r}")
        return t

    def expr(self):
        if self.peek() == "fun":
            self.take()
            x = self.name()
            self.take("->")
            return S.Lam(x, None, self.expr())
        if self.peek() == "let":
            self.take()
            x = self.name()
            params = []
            while self.peek() != "=":
                params.append(self.name())
            self.take("=")
            bound = self.parameters(params, self.expr())
            self.take("in")
            return S.Let(x, None, bound, self.expr())
        return self.binary(0)

    def parameters(self, params, body):
        """`let f x y = body`'s function: λx. λy. body."""
        for p in reversed(params):
            body = S.Lam(p, None, body)
        return body

    def binary(self, level):
        ops = (("+", "-"), ("*", "/"))
        if level == 2:
            return self.app()
        left = self.binary(level + 1)
        while self.peek() in ops[level]:
            op = self.take()
            left = S.BinOp(op, left, self.binary(level + 1))
        return left

    def app(self):
        f = self.atom()
        while self.peek() is not None and (self.peek() == "(" or self.peek().isdigit()
                                           or (NAME.fullmatch(self.peek()) and self.peek() not in KEYWORDS)):
            f = S.App(f, self.atom())
        return f

    def atom(self):
        t = self.take()
        if t.isdigit():
            from fractions import Fraction

            return S.Const(Fraction(int(t)))
        if t == "(":
            e = self.expr()
            self.take(")")
            return e
        if NAME.fullmatch(t) and t not in KEYWORDS:
            return S.Var(t)
        raise Syntax(f"unexpected {t!r}")


def respond(text: str) -> dict:
    from goi.semantics.values import IntegerField

    try:
        term = parse(text)
    except Syntax as exc:
        return {"rejected": f"syntax error: {exc}"}
    return run_term(term, IntegerField("total", "trunc"), refusal="type error: ")


if __name__ == "__main__":
    serve(respond)
