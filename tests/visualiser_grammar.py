"""A recogniser of the authors' visualiser's notation as its own parser reads it — the facts
of issue 21 (docs/ORACLE.md, Notations), written independently of goi's printer and parser
so that it can judge them:

    term  := λx. term | \\x. term | A(f,x). term | let x = term in term
           | let (f,x) = abs atom in term | fold atom atom | atom op atom (op atom)* | atom atom | atom
    atom  := name | number | {number} | ( term )

Operands of an operator, an application's function and argument, abs's model and fold's two
arguments are atoms; numbers are unsigned decimals without exponent; names match
[a-z'][A-Za-z'_]* and are not reserved. `recognise(text)` raises NotVisualiser where the
visualiser's parser would fail.
"""

from __future__ import annotations

import re

RESERVED = {"let", "in", "abs", "fold", "rec", "if", "then", "else", "true", "false"}
OPERATORS = {"+", "-", "*", "/", "⊞", "⊠", "⊡"}
TOKEN = re.compile(r"\s*(?:(?P<number>\d+(?:\.\d+)?)|(?P<name>[a-zA-Z'][A-Za-z'_0-9]*)|(?P<symbol>[λ\\.(),{}=+\-*/⊞⊠⊡]))")


class NotVisualiser(ValueError):
    pass


def tokens(text: str) -> list[tuple[str, str]]:
    out, i = [], 0
    while i < len(text):
        if text[i:].strip() == "":
            break
        m = TOKEN.match(text, i)
        if not m:
            raise NotVisualiser(f"unreadable character {text[i:].strip()[0]!r} at {i}")
        kind = m.lastgroup
        value = m.group(kind)
        if kind == "name" and not re.fullmatch(r"[a-z'][A-Za-z'_]*", value) and value != "A":
            raise NotVisualiser(f"not a name of the visualiser: {value!r}")
        out.append((kind, value))
        i = m.end()
    return out


class _Parser:
    def __init__(self, text: str):
        self.toks = tokens(text)
        self.i = 0

    def peek(self, offset: int = 0):
        j = self.i + offset
        return self.toks[j] if j < len(self.toks) else ("end", "")

    def take(self, value=None, kind=None) -> str:
        k, v = self.peek()
        if (value is not None and v != value) or (kind is not None and k != kind) or k == "end":
            raise NotVisualiser(f"expected {value or kind}, found {v or 'the end'} at token {self.i}")
        self.i += 1
        return v

    def name(self) -> str:
        v = self.take(kind="name")
        if v in RESERVED or v == "A":
            raise NotVisualiser(f"reserved word {v!r} used as a name")
        return v

    def term(self) -> None:
        k, v = self.peek()
        if v in ("λ", "\\"):
            self.take()
            self.name()
            self.take(".")
            return self.term()
        if v == "A" and self.peek(1)[1] == "(":
            self.take("A"), self.take("("), self.name(), self.take(","), self.name(), self.take(")"), self.take(".")
            return self.term()
        if v == "let":
            self.take("let")
            if self.peek()[1] == "(":
                self.take("("), self.name(), self.take(","), self.name(), self.take(")"), self.take("="), self.take("abs")
                self.atom()
            else:
                self.name()
                self.take("=")
                self.term()
            self.take("in")
            return self.term()
        if v == "fold":
            self.take("fold")
            self.atom()
            return self.atom()
        self.atom()
        if self.peek()[1] in OPERATORS:
            while self.peek()[1] in OPERATORS:
                self.take()
                self.atom()
            return None
        if self.starts_atom():
            self.atom()
            if self.starts_atom() or self.peek()[1] in OPERATORS:
                raise NotVisualiser("an application's function and argument are atoms: parenthesise it")
        return None

    def starts_atom(self) -> bool:
        k, v = self.peek()
        return k in ("number",) or (k == "name" and v not in RESERVED and v != "A") or v in ("(", "{")

    def atom(self) -> None:
        k, v = self.peek()
        if k == "number":
            self.take()
        elif v == "{":
            self.take("{"), self.take(kind="number"), self.take("}")
        elif v == "(":
            self.take("(")
            self.term()
            self.take(")")
        else:
            self.name()


def recognise(text: str) -> None:
    parser = _Parser(text)
    parser.term()
    if parser.peek()[0] != "end":
        raise NotVisualiser(f"expected the end, found {parser.peek()[1]!r} at token {parser.i}")
