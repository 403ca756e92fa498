"""Pretty-printer for surface terms, in the paper's notation.

`parse(pretty(t)) == t` for every term the parser can produce (property-tested).
Parentheses are inserted only where precedence requires them; `let f = λx. t`
is printed with the function sugar `let f x = t`.

Constants are printed as exact decimals. A constant whose value has no finite
decimal expansion (1/3) has no literal in the language: printing it raises
ValueError rather than print a different program.
"""

from __future__ import annotations

from fractions import Fraction

from . import syntax as S
from .types import show_type

BINDER, ADDITIVE, MULTIPLICATIVE, APPLICATION, ATOM = 0, 1, 2, 3, 4


def decimal(value: Fraction) -> str:
    """The exact decimal literal of a rational, without sign; ValueError if none."""
    value = abs(value)
    den = value.denominator
    twos = fives = 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    if den != 1:
        raise ValueError(f"the constant {value} has no finite decimal expansion, so no literal in the language")
    digits = max(twos, fives)
    scaled = value.numerator * 10**digits // value.denominator
    if digits == 0:
        return str(scaled)
    text = str(scaled).rjust(digits + 1, "0")
    return f"{text[:-digits]}.{text[-digits:]}"


def pretty(term: S.Term) -> str:
    return _show(term, BINDER)


def _paren(text: str, needed: bool) -> str:
    return f"({text})" if needed else text


def _binder(var: str, annot) -> str:
    return var if annot is None else f"{var}:{show_type(annot)}"


def _show(t: S.Term, level: int) -> str:
    if isinstance(t, S.Var):
        return t.name
    if isinstance(t, S.Const):
        return f"(-{decimal(t.value)})" if t.value < 0 else decimal(t.value)
    if isinstance(t, S.Prov):
        return "{" + ("-" if t.value < 0 else "") + decimal(t.value) + "}"
    if isinstance(t, S.App):
        return _paren(f"{_show(t.fun, APPLICATION)} {_show(t.arg, ATOM)}", level > APPLICATION)
    if isinstance(t, S.BinOp):
        symbol, op_level, _ = S.OPERATORS[t.op]
        op_level = ADDITIVE if op_level == S.ADDITIVE else MULTIPLICATIVE
        text = f"{_show(t.left, op_level)} {symbol} {_show(t.right, op_level + 1)}"
        return _paren(text, level > op_level)
    return _paren(show_binder_form(t), level > BINDER)


def show_binder_form(t: S.Term, child=None) -> str:
    """A binder form; `child` prints its body and bound term (default: as a binder would, no
    parentheses; `--parenthesize all` passes one that parenthesises every non-atom)."""
    child = child or (lambda c: _show(c, BINDER))
    if isinstance(t, S.Lam):
        return f"λ{_binder(t.var, t.annot)}. {child(t.body)}"
    if isinstance(t, S.Decouple):
        name = f"_{t.name}" if t.name else ""
        annot = f":{show_type(t.annot)}" if t.annot is not None else ""
        return f"A{name}({t.f},{t.x}){annot}. {child(t.body)}"
    if isinstance(t, S.Let):
        if t.annot is not None:
            head = f"let {t.var} : {show_type(t.annot)}"
            bound = t.bound
        else:
            params = []
            bound = t.bound
            while isinstance(bound, S.Lam):
                params.append(bound.var if bound.annot is None else f"({bound.var}:{show_type(bound.annot)})")
                bound = bound.body
            head = " ".join(["let", t.var, *params])
        return f"{head} = {child(bound)} in {child(t.body)}"
    if isinstance(t, S.LetDecouple):
        name = f"_{t.name}" if t.name else ""
        annot = f" : {show_type(t.annot)}" if t.annot is not None else ""
        return f"let {t.f} @{name} {t.x}{annot} = {child(t.bound)} in {child(t.body)}"
    raise TypeError(f"not a term: {t!r}")
