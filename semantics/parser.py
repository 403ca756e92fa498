"""Parser: program text -> surface AST (`semantics.syntax`), or a ParseError.

The grammar is `grammar.lark` (LALR). Numeric literals are read exactly as
rationals (`0.001` is 1/1000). Parse errors carry the line, the column, the
offending text and, in words, what was expected there.
"""

from __future__ import annotations

import pkgutil
import re
import sys
import threading
import unicodedata
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Optional

from . import lalr
from . import syntax as S
from .digits import fraction_of_text
from .errors import TOO_DEEP, LimitError, ParseError
from .types import Arrow, F, Vec

if TYPE_CHECKING:  # Lark is imported only to analyse the grammar, or to word an error
    import lark

# What each terminal means, for "expected ..." in error messages.
TERMINAL_WORDS = {
    "LAMBDA": "'λ'",
    "DECOUPLE": "'A'",
    "LET": "'let'",
    "IN": "'in'",
    "ABS": "'abs'",
    "DOT": "'.'",
    "COLON": "':'",
    "COMMA": "','",
    "EQUALS": "'='",
    "AT": "'@'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "ARROW": "'->'",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "VPLUS": "'⊞'",
    "ITER_PLUS": "'+^L'",
    "TIMES": "'*'",
    "SLASH": "'/'",
    "DOTPROD": "'•'",
    "DOT_WORD": "'dot'",
    "FOLD": "'fold'",
    "VTIMES": "'⊠'",
    "VDOT": "'⊡'",
    "ITER_TIMES": "'*^L'",
    "FIELD_TYPE": "the type 'F'",
    "VEC_TYPE": "a vector type 'V_a'",
    "NAME_SUFFIX": "a name '_a'",
    "VAR": "a variable",
    "NUMBER": "a number",
    "$END": "the end of the program",
}

# Groups of terminals, summarised in messages.
_OPERAND_STARTERS = {"LPAR", "LBRACE", "VAR", "NUMBER"}
_BINDER_STARTERS = {"LAMBDA", "DECOUPLE", "LET"}
_OPERATORS = {"PLUS", "MINUS", "VPLUS", "ITER_PLUS", "TIMES", "SLASH", "DOTPROD", "DOT_WORD", "VTIMES", "VDOT", "ITER_TIMES"}

_OP_KEYS = {
    "PLUS": "+",
    "MINUS": "-",
    "VPLUS": "⊞",
    "ITER_PLUS": "+^L",
    "TIMES": "*",
    "SLASH": "/",
    "DOTPROD": "•",
    "DOT_WORD": "•",
    "VDOT": "•",
    "VTIMES": "⊠",
    "ITER_TIMES": "*^L",
}


# Keywords are reserved everywhere: the contextual lexer alone would read `in`
# as a variable wherever the keyword cannot stand, and report a confusing error
# further on. Retyping them here makes the parser reject them where they appear.
KEYWORDS = {"let": "LET", "in": "IN", "abs": "ABS", "dot": "DOT_WORD", "fold": "FOLD"}


def _reserve_keywords(tok):
    """Lark's lexer callback on VAR, for Lark's tokens and the driver's (lalr.Token) alike."""
    kind = KEYWORDS.get(str(tok))
    return type(tok).new_borrow_pos(kind, str(tok), tok) if kind else tok


LEXER_CALLBACKS = {"VAR": _reserve_keywords}
LARK_OPTIONS = {"lexer": "contextual", "maybe_placeholders": True}


def _glued_numbers(term: S.Term, text: str) -> None:
    """`1e5` or `2x` lexes as the application of a number to a name; say what it is instead
    of letting the type checker report an unbound `e5`."""
    stack = [term]
    while stack:
        t = stack.pop()
        if isinstance(t, S.App) and isinstance(t.arg, S.Var) and t.fun.pos and t.arg.pos:
            end = t.fun.pos.end
            if end == t.arg.pos.start and text[end - 1 : end].isdigit():
                raise ParseError(
                    f"a number is directly followed by the name {t.arg.name!r}; goi has no exponent notation or "
                    f"implicit multiplication (write 100000 for 1e5, 2 * x for 2x, or leave a space to apply)",
                    t.arg.pos.line, t.arg.pos.column, found=t.arg.name,
                )
        stack.extend(S.subterms(t))


def _grammar() -> bytes:
    # pkgutil, not importlib.resources (which imports pathlib and zipfile at every start): the
    # package's loader reads the file, from a folder or a zip alike
    data = pkgutil.get_data(__package__, "grammar.lark")
    assert data is not None, "the grammar is shipped with the package"
    return data


@lru_cache(maxsize=1)
def _lark() -> "lark.Lark":
    """Lark's LALR parser, which calls the AST builder (`_ToAst`) at each reduction: no parse
    tree is built and walked afterwards (that was half of the front end's time on small
    programs), and nothing recurses, however deep the nesting. Its tables are kept between
    runs (parser_cache.py). A program is read by `lalr.py` with the shipped tables; Lark reads
    it only where those reject it (to word the error) or where there are no tables to use."""
    from .parser_cache import cached_lark

    return cached_lark(_grammar().decode("utf-8"), lexer_callbacks=LEXER_CALLBACKS, transformer=_BUILDER, **LARK_OPTIONS)


@lru_cache(maxsize=1)
def shipped_tables() -> Optional[lalr.Tables]:
    """The tables shipped beside the grammar (parse_tables.json), if they are there, well
    formed and made from this grammar; else None, and Lark reads every program."""
    try:
        raw = pkgutil.get_data(__package__, "parse_tables.json")
        if raw is None:
            return None
        import json

        data = json.loads(raw)
        if not isinstance(data, dict) or data.get("grammar") != lalr.grammar_stamp(_grammar()):
            return None  # made from another grammar: an edit not followed by python -m goi.semantics.parse_tables
        return lalr.load(data)
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return None


def _pos_of_token(tok) -> S.Pos:
    return S.Pos(tok.line, tok.column, tok.end_line, tok.end_column, tok.start_pos, tok.end_pos)


class _Paren:
    """A parenthesised term as its parent sees it: the term, and the span of the parentheses
    around it (the term keeps its own span; a parent's span starts or ends at the
    parentheses, as the source shows it)."""

    __slots__ = ("term", "pos")

    def __init__(self, term: S.Term, pos: S.Pos):
        self.term = term
        self.pos = pos


def _term(x) -> S.Term:
    return x.term if type(x) is _Paren else x


def _span(first, last) -> S.Pos:
    """The span from the start of `first` to the end of `last` (tokens, terms, parentheses)."""
    a = _pos_of_token(first) if isinstance(first, str) else first.pos  # a token is a str; a term is not
    b = _pos_of_token(last) if isinstance(last, str) else last.pos
    return S.Pos(a.line, a.column, b.end_line, b.end_column, a.start, b.end)


def _number(tok, negative: bool = False) -> Fraction:
    value = fraction_of_text(str(tok))  # exact: Fraction("0.001") == 1/1000, of any length
    return -value if negative else value


def _iterated_fold(h: S.Term):
    """(operator, g) when h is λe. λa. (g e) ⊞ a (+^L) or λe. λa. (g e) ⊠ a (*^L), else None."""
    if not (isinstance(h, S.Lam) and isinstance(h.body, S.Lam) and h.annot is None and h.body.annot is None):
        return None
    e, a, body = h.var, h.body.var, h.body.body
    if e == a or not isinstance(body, S.BinOp) or body.op not in ("⊞", "⊠"):
        return None
    if not (isinstance(body.right, S.Var) and body.right.name == a):
        return None
    use = body.left
    if not (isinstance(use, S.App) and isinstance(use.arg, S.Var) and use.arg.name == e):
        return None
    if {e, a} & S.free_variables(use.fun):
        return None
    return ("+^L" if body.op == "⊞" else "*^L"), use.fun


def _lambdas(binders, body: S.Term, pos: S.Pos) -> S.Term:
    for var, annot in reversed(binders):
        body = S.Lam(var, annot, body, pos=pos)
    return body


class _ToAst:
    """Builds the surface AST, one method per grammar rule (called by the parser as it
    reduces); every term gets its span in the source, from its first token to its last."""

    def start(self, children):
        return _term(children[0])

    # binders
    def plain_binder(self, children):
        return (str(children[0]), None)

    def paren_binder(self, children):
        _lpar, var, _colon, ty, _rpar = children
        return (str(var), ty)

    def annotated_binder(self, children):
        var, _colon, ty = children
        return [(str(var), ty)]

    def binders(self, children):
        return list(children)

    def lam(self, children):
        _lam, binders, _dot, body = children
        return _lambdas(binders, _term(body), _span(_lam, body))

    # let forms
    def let_annot(self, children):
        _let, var, _colon, ty, _eq, bound, _in, body = children
        return S.Let(str(var), ty, _term(bound), _term(body), pos=_span(_let, body))

    def let_plain(self, children):
        var = children[1]
        binders = [c for c in children[2:-4]]
        bound, body = _term(children[-3]), _term(children[-1])
        if binders:
            bound = _lambdas(binders, bound, bound.pos)
        return S.Let(str(var), None, bound, body, pos=_span(children[0], children[-1]))

    def let_decouple(self, children):
        _let, f, _at, name, x, _colon, ty, _eq, bound, _in, body = children
        return S.LetDecouple(str(f), str(x), _name(name), ty, _term(bound), _term(body), pos=_span(_let, body))

    def let_abs(self, children):
        _let, _l, f, _c, x, _r, _eq, _abs, bound, _in, body = children
        return S.LetDecouple(str(f), str(x), None, None, _term(bound), _term(body), pos=_span(_let, body))

    def decouple(self, children):
        _a, name, _l, f, _c, x, _r, _colon, ty, _dot, body = children
        return S.Decouple(str(f), str(x), _name(name), ty, _term(body), pos=_span(_a, body))

    # operators and application
    def binop(self, children):
        left, op, right = children
        node = S.BinOp(op, _term(left), _term(right), pos=_span(left, right))
        # the chain of operators in a row (1 + 1 + … + 1 associates to the left): refused as soon
        # as it passes what any stack can walk, not after the whole of a 4-million-operand sum
        chains = _PARSING.chains
        chain = chains.get(id(node.left), 0) + 1
        chains[id(node)] = chain
        if chain > _PARSING.cap:
            raise LimitError(_too_deep(_PARSING.cap, chain), beyond_any_stack=True)
        return node

    def add_op(self, children):
        return _OP_KEYS[children[0].type]

    mul_op = add_op

    def app(self, children):
        fun, arg = children
        return S.App(_term(fun), _term(arg), pos=_span(fun, arg))

    def fold(self, children):
        """The visualiser's `fold h v` where it is an iterated operation of the calculus:
        `fold (λe. λa. (g e) ⊞ a) v` is `g +^L v` and `fold (λe. λa. (g e) ⊠ a) v` is `g ×^L v`
        (e and a not free in g); its general fold is not in the calculus."""
        tok, h, v = children
        iterated = _iterated_fold(_term(h))
        if iterated is None:
            pos = _span(tok, v)
            raise ParseError("goi reads fold h v only as an iterated operation: fold (λe. λa. (g e) ⊞ a) v is g +^L v "
                             "and fold (λe. λa. (g e) ⊠ a) v is g ×^L v (e and a not free in g); another fold is not "
                             "in the calculus", pos.line, pos.column)
        op, g = iterated
        return S.BinOp(op, g, _term(v), pos=_span(tok, v))

    # atoms
    def var(self, children):
        return S.Var(str(children[0]), pos=_pos_of_token(children[0]))

    def const(self, children):
        return S.Const(_number(children[0]), pos=_pos_of_token(children[0]))

    def neg_const(self, children):
        _l, _minus, num, _r = children
        return S.Const(_number(num, negative=True), pos=_span(_l, _r))

    def prov(self, children):
        _l, minus, num, _r = children
        return S.Prov(_number(num, negative=minus is not None), pos=_span(_l, _r))

    # parenthesised term: the inner node keeps its own span; its parent sees the parentheses
    def atom(self, children):
        _l, inner, _r = children
        return _Paren(_term(inner), _span(_l, _r))

    # types
    def field_type(self, children):
        return F

    def vec_type(self, children):
        return Vec(str(children[0])[2:])

    def arrow_type(self, children):
        dom, _arrow, cod = children
        return Arrow(dom, cod)

    def type_atom(self, children):
        return children[1]

    def type(self, children):
        return children[1]


_BUILDER = _ToAst()


def _name(tok) -> str | None:
    return None if tok is None else str(tok)[1:]


FRAMES_PER_LEVEL = 6  # Python frames the front end spends per level of nesting, at most
_PARSING = threading.local()  # per thread: `chains`, id of a BinOp the parse under way built -> the operators
#                               in a row down its left; `cap`, the longest chain any stack can walk


def _check_depth(term: S.Term) -> None:
    """Refuse, at once and with a LimitError, a term nested deeper than the recursion limit
    lets the type checker and the translation (which recurse over it) walk; walked
    iteratively here. (The parser itself never recurses.) A term too deep even for the
    deep stack (semantics.stack) is refused as such (LimitError.beyond_any_stack): trying
    again there would only parse it a second time. Each operator of a chain such as
    `1 + 1 + … + 1` is a level (operators associate to the left): a term that is too deep
    because of such a chain is refused as a chain too long, not as deep nesting."""
    from .stack import RECURSION_LIMIT

    limit = sys.getrecursionlimit() // FRAMES_PER_LEVEL
    cap = max(limit, RECURSION_LIMIT // FRAMES_PER_LEVEL)
    deepest, longest = 0, 0
    stack = [(term, 1, 0)]  # a term, its depth, the operators in a row above it
    while stack:
        node, depth, chain = stack.pop()
        chain = chain + 1 if isinstance(node, S.BinOp) else 0
        longest = max(longest, chain)
        if depth > cap:
            raise LimitError(_too_deep(cap, longest), beyond_any_stack=True)
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1, chain) for child in S.subterms(node))
    if deepest > limit:
        raise LimitError(_too_deep(limit, longest))


def _too_deep(levels: int, longest_chain: int) -> str:
    if 2 * longest_chain > levels:  # most of the depth is one chain of binary operators
        return (
            f"the program has a chain of {longest_chain + 1:,} or more operands joined by binary operators "
            f"(such as 1 + 1 + … + 1), longer than this implementation can walk: each operator "
            f"is a level of nesting, and it walks at most {levels:,} (bind parts of the chain with let)"
        )
    return f"{TOO_DEEP} (more than {levels:,} levels)"


def parse(text: str) -> S.Term:
    """Parse a program; raises ParseError (with line/column) on bad input, LimitError when
    it is nested beyond what this implementation can recurse through."""
    if text.startswith("\ufeff"):  # a byte-order mark is no part of the program (as editors show it)
        text = text[1:]
    from .stack import RECURSION_LIMIT

    _PARSING.cap = max(sys.getrecursionlimit(), RECURSION_LIMIT) // FRAMES_PER_LEVEL
    _PARSING.chains = {}
    try:
        term = _read(text)
    finally:
        _PARSING.chains = {}
    _check_depth(term)
    _glued_numbers(term, text)
    return term


def _read(text: str) -> S.Term:
    """The AST, by the driver on the shipped tables (lalr.py); where they reject the program,
    or there are none, Lark itself reads it, and words the error if there is one."""
    tables = shipped_tables()
    if tables is not None:
        try:
            return lalr.parse(tables, text, _BUILDER, LEXER_CALLBACKS)
        except (lalr.Rejected, re.error):
            _PARSING.chains = {}  # what the reductions so far recorded: Lark makes them again
    import lark

    try:
        return _lark().parse(text)
    except lark.exceptions.UnexpectedInput as exc:
        raise _parse_error(exc, text) from None


def _describe_expected(expected) -> tuple[str, ...]:
    names = set(expected)
    words = []
    if _OPERAND_STARTERS | _BINDER_STARTERS <= names:
        words.append("a term")
        names -= _OPERAND_STARTERS | _BINDER_STARTERS | {"FOLD"}  # `fold h v` begins an operand too
    elif _OPERAND_STARTERS <= names:
        words.append("an operand")
        names -= _OPERAND_STARTERS | {"FOLD"}
    if _OPERATORS <= names:
        words.append("an operator")
        names -= _OPERATORS
    words.extend(sorted(TERMINAL_WORDS.get(n, n) for n in names))
    return tuple(words)


def _join(words: tuple[str, ...]) -> str:
    if not words:
        return "nothing"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _unterminated_comment(text: str, before: int) -> Optional[ParseError]:
    """A `(*` at or before the error that no `*)` closes (the lexer then saw `(` and `*`)."""
    start = text.find("(*")
    while 0 <= start <= before:
        if text.find("*)", start + 2) < 0:
            line = text.count("\n", 0, start) + 1
            column = start - (text.rfind("\n", 0, start) + 1) + 1
            return ParseError(f"unterminated comment: the (* at {line}:{column} is never closed by *)", line, column, found="(*")
        start = text.find("(*", text.find("*)", start + 2) + 2)
    return None


def _describe_character(char: str) -> str:
    """'х' (U+0445 CYRILLIC SMALL LETTER HA, which looks like 'x'): non-ASCII characters are
    named, and a lookalike of something goi reads is pointed out."""
    if not char or char.isascii() and char.isprintable():
        return repr(char)
    name = unicodedata.name(char, "unnamed character")
    text = f"{char!r} (U+{ord(char):04X} {name}"
    like = LOOKALIKES.get(char) or unicodedata.normalize("NFKC", char)
    if like != char and like.isascii() and like.isprintable():
        text += f", which looks like {like!r}: type that instead"
    return text + ")"


# Characters that look like ASCII ones goi reads (NFKC covers fullwidth forms).
LOOKALIKES = {
    "\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-",
    "\u2018": "'", "\u2019": "'", "\u00b7": "•", "\u2219": "•", "\u2215": "/", "\u2217": "*",
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "х": "x", "у": "y", "і": "i", "ј": "j", "ѕ": "s",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X",
    "α": "a", "ο": "o", "ν": "v", "ϱ": "p", "Α": "A",
}


def _parse_error(exc: "lark.exceptions.UnexpectedInput", text: str) -> ParseError:
    import lark

    position = getattr(exc, "pos_in_stream", None)
    if position is None and isinstance(exc, lark.exceptions.UnexpectedToken) and exc.token.type != "$END":
        position = exc.token.start_pos
    comment = _unterminated_comment(text, len(text) if position is None else position)
    if comment is not None:
        return comment
    if isinstance(exc, lark.exceptions.UnexpectedToken):
        tok = exc.token
        # LALR states are shared between contexts, so exc.expected may list
        # terminals that cannot follow here; accepts() simulates each one.
        acceptable = exc.interactive_parser.accepts() if exc.interactive_parser else exc.expected
        expected = _describe_expected(acceptable)
        if tok.type == "$END":
            found = "end of the program"
            line, column = _end_position(text)
        else:
            found = repr(str(tok))
            line, column = tok.line, tok.column
        message = f"unexpected {found}; expected {_join(expected)}"
        hint = _hint(tok, acceptable)
        if hint:
            message += f" ({hint})"
        return ParseError(message, line, column, found=str(tok) if tok.type != "$END" else "", expected=expected)
    if isinstance(exc, lark.exceptions.UnexpectedCharacters):
        char = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
        parser = getattr(exc, "interactive_parser", None)
        expected = _describe_expected(parser.accepts() if parser else (exc.allowed or ()))
        message = f"unexpected character {_describe_character(char)}"
        if expected:
            message += f"; expected {_join(expected)}"
        return ParseError(message, exc.line, exc.column, found=char, expected=expected)
    if isinstance(exc, lark.exceptions.UnexpectedEOF):
        expected = _describe_expected(exc.expected)
        line, column = _end_position(text)
        return ParseError(f"unexpected end of the program; expected {_join(expected)}", line, column, expected=expected)
    line = getattr(exc, "line", None)
    column = getattr(exc, "column", None)
    return ParseError(str(exc), line if isinstance(line, int) and line > 0 else None, column if isinstance(column, int) and column > 0 else None)


def _hint(tok, expected) -> str:
    if tok.type == "MINUS" and "MINUS" not in expected:
        return "a negative literal is written (-3), or {-3} when provisional"
    if tok.type in ("LAMBDA", "LET", "DECOUPLE") and tok.type not in expected:
        return "a λ, let or A(f,x) used as an operand must be parenthesised"
    return ""


def _end_position(text: str) -> tuple[int, int]:
    """Line and column just after the last non-blank character (1:1 if none)."""
    lines = text.rstrip().split("\n")
    return len(lines), len(lines[-1]) + 1
