"""The shipped parse tables and the driver that reads programs with them (semantics/lalr.py,
issue 53): the tables are what the installed Lark computes from grammar.lark, and on every
text the driver gives what Lark's own parser gives — the same AST with the same spans, or a
rejection where Lark raises (whose message Lark then words) — and the same error where an AST
builder refuses a program (a fold, a chain too long)."""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goi.generators.syntax import terms
from goi.semantics import lalr, parse_tables
from goi.semantics import parser as P
from goi.semantics.errors import LimitError, ParseError
from goi.semantics.pretty import pretty

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAMS = sorted(os.path.join(folder, name) for folder, _, names in os.walk(os.path.join(ROOT, "tests", "programs"))
                  for name in names if name.endswith(".goi"))


def test_the_shipped_tables_are_what_lark_computes_from_the_grammar_now():
    """Edit grammar.lark and this fails until `python -m goi.semantics.parse_tables` is run."""
    with open(os.path.join(ROOT, "semantics", "parse_tables.json"), encoding="utf-8") as f:
        assert f.read() == parse_tables.current()
    assert P.shipped_tables() is not None  # and parser.py reads them


def dump(x):
    """A term with every field, the spans included (they take no part in a term's equality)."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__,) + tuple(dump(getattr(x, f.name)) for f in dataclasses.fields(x))
    if isinstance(x, (list, tuple)):
        return tuple(dump(item) for item in x)
    return x


def _outcome(read, rejected, text):
    P._PARSING.cap = max(sys.getrecursionlimit(), 100_000) // P.FRAMES_PER_LEVEL
    P._PARSING.chains = {}
    try:
        return ("term", dump(read(text)))
    except rejected:
        return ("rejected",)
    except (ParseError, LimitError) as exc:
        return (type(exc).__name__, str(exc), getattr(exc, "line", None), getattr(exc, "column", None))
    finally:
        P._PARSING.chains = {}


def by_the_driver(text):
    return _outcome(lambda t: lalr.parse(P.shipped_tables(), t, P._BUILDER, P.LEXER_CALLBACKS), lalr.Rejected, text)


def by_lark(text):
    import lark

    return _outcome(lambda t: P._lark().parse(t), lark.exceptions.UnexpectedInput, text)


def agree(text):
    assert by_the_driver(text) == by_lark(text), text


def test_every_example_program_is_read_as_lark_reads_it():
    assert len(PROGRAMS) >= 20
    for path in PROGRAMS:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        assert by_the_driver(text)[0] == "term", path
        agree(text)


@settings(max_examples=300)
@given(terms)
def test_every_printed_term_is_read_as_lark_reads_it(term):
    agree(pretty(term))


# Lexemes of both notations, keywords and words that only begin like one, comments (closed,
# with newlines, never closed), blanks of every kind, and characters goi does not read.
LEXEMES = ["λ", "\\lambda", "\\", "x", "y'", "f_1", "let", "in", "abs", "fold", "dot", "letter", "inx", "A", "F",
           "V_a", "_b", "1", "0.5", "12.", "007", ".", ":", ",", "=", "@", "(", ")", "{", "}", "->", "→", "+", "-",
           "*", "×", "/", "•", "⊞", "⊠", "⊡", "\\sq+", "\\sq*", "\\sq.", "+^L", "*^L", "×^L", "-- note\n", "(* c *)",
           "(* two\nlines *)", "(*", "*)", " ", "  ", "\n", "\t", "\r\n", "\f", "é", "х", "\u2212", "#", ""]


@settings(max_examples=500)
@given(st.lists(st.sampled_from(LEXEMES), max_size=24), st.sampled_from(["", " "]))
def test_any_string_of_lexemes_is_accepted_or_rejected_as_lark_does(lexemes, glue):
    agree(glue.join(lexemes))


@settings(max_examples=300)
@given(terms, st.data())
def test_a_printed_term_with_a_lexeme_put_in_or_taken_out_is_read_as_lark_reads_it(term, data):
    text = pretty(term)
    at = data.draw(st.integers(0, len(text)))
    if data.draw(st.booleans()):
        text = text[:at] + data.draw(st.sampled_from(LEXEMES)) + text[at:]
    else:
        text = text[:at] + text[at + data.draw(st.integers(1, 3)):]
    agree(text)


@pytest.mark.parametrize("text", [
    "fold (λe. λa. e + a) x",  # a fold that is no iterated operation: the AST builder's ParseError
    "fold (λe. λa. (g e) ⊞ a) v",
    "let f @ p = {1} * x in f p",
    "λ(x : F) (y : V_a -> F). x",
    "A_m(f, p) : V_a -> F. f p",
    "let (f, p) = abs {1} in f p",
    "(-3) + {-0.25}\r\n-- the end",
])
def test_the_builders_own_errors_and_each_form_agree(text):
    agree(text)


def test_a_chain_too_long_for_any_stack_is_refused_alike():
    text = "1" + " + 1" * 20_000
    driver, by_lark_ = by_the_driver(text), by_lark(text)
    assert driver[0] == "LimitError" and driver == by_lark_


def test_parse_reads_with_the_driver_and_words_errors_with_lark(monkeypatch):
    """parse() takes the driver's AST; where the driver rejects, Lark's error reaches the user."""
    calls = []
    real = lalr.parse
    monkeypatch.setattr(lalr, "parse", lambda *a: calls.append(1) or real(*a))
    assert P.parse("1 + 2") == P.parse("1 + 2") and calls
    with pytest.raises(ParseError) as info:
        P.parse("let x = in x")
    assert (info.value.line, info.value.column) == (1, 9) and "expected a term" in str(info.value)


# ---- the tables file is validated, never trusted whole --------------------------------------


def shipped() -> dict:
    with open(os.path.join(ROOT, "semantics", "parse_tables.json"), encoding="utf-8") as f:
        return json.load(f)


def test_the_shipped_file_loads():
    tables = lalr.load(shipped())
    assert len(tables.actions) == len(shipped()["states"])


def _paths(x, path=()):
    yield path
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, path + (i,))


BAD_VALUES = [None, -1, 10**9, "", "x" * 300, "__class__", [], {}, [0], [[]], True, 1.5, "$END"]


@settings(max_examples=400)
@given(st.data())
def test_a_damaged_tables_file_is_refused_or_loads_never_crashes(data):
    """Any one value of the file replaced (or removed): `load` raises Malformed or returns
    tables, never another exception."""
    damaged = copy.deepcopy(shipped())
    paths = [p for p in _paths(damaged) if p]
    path = data.draw(st.sampled_from(paths))
    parent = damaged
    for key in path[:-1]:
        parent = parent[key]
    if data.draw(st.booleans()) and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = data.draw(st.sampled_from(BAD_VALUES))
    try:
        lalr.load(damaged)
    except lalr.Malformed:
        pass


def test_tables_of_another_grammar_are_not_used(monkeypatch):
    """A grammar edited without writing the tables again: Lark reads every program."""
    import pkgutil

    real = pkgutil.get_data

    def edited(package, name):
        data = real(package, name)
        return data + b"\n// an edit" if name == "grammar.lark" else data

    P.shipped_tables.cache_clear()
    monkeypatch.setattr(pkgutil, "get_data", edited)
    try:
        assert P.shipped_tables() is None
    finally:
        monkeypatch.undo()
        P.shipped_tables.cache_clear()
    assert P.shipped_tables() is not None


def test_unknown_callbacks_are_refused_by_the_exporter():
    """A builder with a method named after a terminal gets token callbacks from Lark: the
    exporter refuses to copy what the driver does not do."""
    from lark import Lark

    class WithTokenCallback(P._ToAst):
        def NUMBER(self, token):
            return token

    builder = WithTokenCallback()
    grammar = P._grammar()
    parser = Lark(grammar.decode(), parser="lalr", lexer_callbacks=P.LEXER_CALLBACKS, transformer=builder, **P.LARK_OPTIONS)
    with pytest.raises(parse_tables.Unsupported):
        parse_tables.tables_of(parser, builder, P.LEXER_CALLBACKS, grammar)


def test_keywords_are_retyped_by_the_tables_alone_as_by_lark():
    """parser.py's lexer callback retypes every keyword itself, which would hide a driver that
    forgot Lark's own retyping of a string terminal that a regular one also matches (`let`
    and VAR): without the callback, on both sides, they must still agree."""
    import lark

    grammar = P._grammar()
    plain = lark.Lark(grammar.decode(), parser="lalr", transformer=P._BUILDER, **P.LARK_OPTIONS)
    tables = lalr.load(json.loads(parse_tables.dumps(parse_tables.tables_of(plain, P._BUILDER, {}, grammar))))
    texts = ["let x = 1 in x", "let inx = 1 in inx", "(λx. x) 1 in", "x dot y", "fold f v", "abs", "let in = 1 in in",
             "λdot. dot", "let (f, p) = abs {1} in f p"] + [" ".join(random_lexemes) for random_lexemes in
                                                              (LEXEMES[i::7] for i in range(7))]
    for text in texts:
        assert (_outcome(lambda t: lalr.parse(tables, t, P._BUILDER, {}), lalr.Rejected, text)
                == _outcome(lambda t: plain.parse(t), lark.exceptions.UnexpectedInput, text)), text
