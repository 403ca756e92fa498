"""The LALR driver: reads a program with the tables Lark computed from `grammar.lark`, without
importing Lark.

`grammar.lark` stays the one definition of goi's syntax, and Lark the one tool that analyses
it. What Lark computes from it — the LALR automaton, the contextual lexer's terminals for
each state in the order it tries them, the keywords it retypes, and what each reduction hands
the AST builder — is shipped as data, `parse_tables.json`, written by `parse_tables.py` and
held equal to what the installed Lark computes by a test. Importing Lark with the standard
library it loads was about a quarter of `goi run -e 1`'s instructions (issue 53); this
driver and its tables are a few percent of that.

The driver is what Lark's LALR parser does on a program it accepts, step for step:
- the contextual lexer: in each parser state, the terminals that state accepts (and the
  ignored ones), tried in Lark's order as one alternation, the first alternative that matches
  winning; a string terminal that a regular one also matches (`let`, and VAR) is the regular
  one retyped; then the lexer callbacks the caller gives (parser.py's keywords);
- line and column counted as Lark's `LineCounter` counts them;
- shift and reduce, each reduction filtering its children (inlined `_rules`, `[x]` as None)
  and calling the AST builder's method of the rule's name, or keeping a single child (`?rule`).

Where Lark would report an error — a character no terminal of the state matches, a token the
state has no action for — the driver raises `Rejected` and stops. It never builds an error
message: the caller asks Lark itself, whose exceptions carry what parser.py words the message
from. The driver is therefore only ever a faster road to the same AST, never a second opinion
on what the language is.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Optional

FORMAT = "goi-lalr-tables"
VERSION = 1
SHIFT, REDUCE = 0, 1
END = "$END"


def grammar_stamp(grammar: bytes) -> dict:
    """What ties the tables to one grammar text: its length and CRC-32 (a check for a table
    file left behind by an edit of the grammar, not a defence: the file ships with the code)."""
    import zlib

    return {"length": len(grammar), "crc32": zlib.crc32(grammar)}


class Rejected(Exception):
    """The program is not in the language the tables describe (or not at this point):
    Lark is asked for the error."""


class Token(str):
    """A token as Lark's `Token` is: the text, its terminal's name (`type`) and its span."""

    __slots__ = ("type", "start_pos", "line", "column", "end_line", "end_column", "end_pos")

    def __new__(cls, type_: str, value: str, start_pos=None, line=None, column=None,
                end_line=None, end_column=None, end_pos=None):
        self = super().__new__(cls, value)
        self.type = type_
        self.start_pos, self.line, self.column = start_pos, line, column
        self.end_line, self.end_column, self.end_pos = end_line, end_column, end_pos
        return self

    @classmethod
    def new_borrow_pos(cls, type_: str, value: str, borrow: "Token") -> "Token":
        return cls(type_, value, borrow.start_pos, borrow.line, borrow.column,
                   borrow.end_line, borrow.end_column, borrow.end_pos)

    @property
    def value(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {str(self)!r})"


class Tree:
    """What a rule with no method of the AST builder's makes: only ever an inlined `_rule`,
    whose children its parent takes in its place."""

    __slots__ = ("data", "children")

    def __init__(self, data: str, children: list):
        self.data = data
        self.children = children


class Rule:
    """A reduction: pop `size` values, filter them, and build the node."""

    __slots__ = ("origin", "size", "expand1", "include", "append_none", "method")

    def __init__(self, origin: str, size: int, expand1: bool, include, append_none: int, method: Optional[str]):
        self.origin = origin
        self.size = size
        self.expand1 = expand1
        self.include = include  # None: the children as they are; else [(index, inline, nones before)]
        self.append_none = append_none
        self.method = method  # the AST builder's method; None: a Tree of the origin's name


class Lexer:
    """The terminals one parser state's lexer tries, in order, compiled on first use."""

    __slots__ = ("terminals", "flags", "unless", "ignore", "newline", "_regex")

    def __init__(self, terminals, flags: int, unless: dict, ignore: frozenset, newline: frozenset):
        self.terminals = terminals
        self.flags = flags
        self.unless = unless
        self.ignore = ignore
        self.newline = newline
        self._regex = None

    def regex(self):
        if self._regex is None:
            self._regex = re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in self.terminals), self.flags)
        return self._regex


class Tables:
    """The automaton and the lexers, as `load` read them from the shipped JSON."""

    __slots__ = ("start_state", "end_state", "actions", "rules", "lexer_of_state")

    def __init__(self, start_state: int, end_state: int, actions: list, rules: list, lexer_of_state: list):
        self.start_state = start_state
        self.end_state = end_state
        self.actions = actions  # per state: {symbol: (SHIFT, state) or (REDUCE, Rule)}
        self.rules = rules
        self.lexer_of_state = lexer_of_state


def parse(tables: Tables, text: str, builder: Any, callbacks: dict[str, Callable[[Token], Token]]) -> Any:
    """The value the AST builder gives the start rule, as Lark's LALR parser with the
    contextual lexer computes it; `Rejected` where Lark would raise an error."""
    actions = tables.actions
    lexers = tables.lexer_of_state
    end_state = tables.end_state
    methods = {}
    states = [tables.start_state]
    values: list = []
    pos, line, line_start, end = 0, 1, 0, len(text)
    last = None
    while True:
        # the next token that is not ignored, read by the lexer of the state on top
        token = None
        while pos < end:
            lexer = lexers[states[-1]]
            match = lexer.regex().match(text, pos)
            if match is None:
                raise Rejected
            value, kind = match.group(0), match.lastgroup
            column = pos - line_start + 1
            start, start_line = pos, line
            if kind in lexer.newline:
                newlines = value.count("\n")
                if newlines:
                    line += newlines
                    line_start = pos + value.rindex("\n") + 1
            pos += len(value)
            ignored = kind in lexer.ignore
            if ignored and kind not in callbacks:
                continue
            token = Token(kind, value, start, start_line, column, line, pos - line_start + 1, pos)
            retype = lexer.unless.get(kind)
            if retype is not None:
                token.type = retype.get(value, kind)
            callback = callbacks.get(kind)
            if callback is not None and token.type == kind:
                token = callback(token)
            if ignored:
                token = None
                continue
            last = token
            break
        if token is None:  # the end of the text
            token = Token.new_borrow_pos(END, "", last) if last is not None else Token(END, "", 0, 1, 1)
        # shift it, after every reduction it calls for
        while True:
            action = actions[states[-1]].get(token.type)
            if action is None:
                raise Rejected
            if action[0] == SHIFT:
                if token.type == END:
                    raise Rejected  # the tables never shift the end (Lark asserts the same)
                states.append(action[1])
                values.append(token)
                break
            rule = action[1]
            size = rule.size
            if size:
                children = values[-size:]
                del states[-size:]
                del values[-size:]
            else:
                children = []
            if rule.include is not None:
                filtered: list = []
                for index, inline, nones in rule.include:
                    if nones:
                        filtered += [None] * nones
                    if inline:
                        filtered += children[index].children
                    else:
                        filtered.append(children[index])
                if rule.append_none:
                    filtered += [None] * rule.append_none
                children = filtered
            if rule.expand1 and len(children) == 1:
                value = children[0]
            elif rule.method is None:
                value = Tree(rule.origin, children)
            else:
                method = methods.get(rule.method)
                if method is None:
                    method = methods[rule.method] = getattr(builder, rule.method)
                value = method(children)
            goto = actions[states[-1]].get(rule.origin)
            if goto is None or goto[0] != SHIFT:
                raise Rejected
            states.append(goto[1])
            values.append(value)
            if token.type == END and goto[1] == end_state:
                return value


# ---- reading the tables: validated, never trusted whole -----------------------------------


class Malformed(ValueError):
    """A tables file that is not what `parse_tables.py` writes."""


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise Malformed(what)


def _is_int(x, low: int = 0, high: Optional[int] = None) -> bool:
    return type(x) is int and x >= low and (high is None or x < high)


def _is_name(x) -> bool:
    return type(x) is str and 0 < len(x) <= 200


def load(data: Any) -> Tables:
    """The tables in `data` (the decoded JSON), checked for every field `parse` relies on:
    indexes in range, names strings, patterns that compile only on use (a pattern that does
    not compile raises re.error then, which the caller treats as rejected tables)."""
    _need(isinstance(data, dict) and data.get("format") == FORMAT and data.get("version") == VERSION, "format")
    states, rules, lexers = data.get("states"), data.get("rules"), data.get("lexers")
    _need(isinstance(states, list) and 0 < len(states) <= 100_000, "states")
    _need(isinstance(rules, list) and 0 < len(rules) <= 100_000, "rules")
    _need(isinstance(lexers, list) and 0 < len(lexers) <= 100_000, "lexers")
    n = len(states)
    start_state, end_state = data.get("start_state"), data.get("end_state")
    _need(_is_int(start_state, 0, n) and _is_int(end_state, 0, n), "start and end states")
    built_rules = []
    for rule in rules:
        _need(isinstance(rule, dict), "a rule")
        origin, size, expand1 = rule.get("origin"), rule.get("size"), rule.get("expand1")
        include, append_none, method = rule.get("include"), rule.get("append_none"), rule.get("method")
        _need(_is_name(origin) and _is_int(size, 0, 1000) and type(expand1) is bool, "a rule's origin, size, expand1")
        _need(_is_int(append_none, 0, 1000) and (method is None or _is_name(method) and method.isidentifier()
                                                   and not method.startswith("_")), "a rule's method")
        if include is not None:
            _need(isinstance(include, list), "a rule's children")
            entries = []
            for entry in include:
                _need(isinstance(entry, list) and len(entry) == 3 and _is_int(entry[0], 0, size)
                      and type(entry[1]) is bool and _is_int(entry[2], 0, 1000), "a rule's child")
                entries.append((entry[0], entry[1], entry[2]))
            include = tuple(entries)
        built_rules.append(Rule(origin, size, expand1, include, append_none, method))
    built_lexers = []
    for lexer in lexers:
        _need(isinstance(lexer, dict), "a lexer")
        terminals, flags, unless = lexer.get("terminals"), lexer.get("flags"), lexer.get("unless")
        ignore, newline = lexer.get("ignore"), lexer.get("newline")
        _need(isinstance(terminals, list) and terminals and _is_int(flags, 0, 1 << 16), "a lexer's terminals")
        pairs = []
        for pair in terminals:
            _need(isinstance(pair, list) and len(pair) == 2 and _is_name(pair[0]) and pair[0].isidentifier()
                  and type(pair[1]) is str and 0 < len(pair[1]) <= 10_000, "a terminal")
            pairs.append((pair[0], pair[1]))
        names = {name for name, _ in pairs}
        _need(isinstance(ignore, list) and all(type(x) is str and x in names for x in ignore), "a lexer's ignored terminals")
        _need(isinstance(newline, list) and all(type(x) is str and x in names for x in newline), "a lexer's newline terminals")
        _need(isinstance(unless, dict) and all(
            k in names and isinstance(v, dict) and all(type(s) is str and _is_name(t) for s, t in v.items())
            for k, v in unless.items()), "a lexer's keywords")
        built_lexers.append(Lexer(tuple(pairs), flags, unless, frozenset(ignore), frozenset(newline)))
    lexer_of_state = data.get("lexer_of_state")
    _need(isinstance(lexer_of_state, list) and len(lexer_of_state) == n
          and all(_is_int(i, 0, len(built_lexers)) for i in lexer_of_state), "the lexer of each state")
    actions = []
    for table in states:
        _need(isinstance(table, dict), "a state")
        row = {}
        for symbol, action in table.items():
            _need(isinstance(action, list) and len(action) == 2 and action[0] in (SHIFT, REDUCE), "an action")
            if action[0] == SHIFT:
                _need(_is_int(action[1], 0, n), "a shift")
                row[symbol] = (SHIFT, action[1])
            else:
                _need(_is_int(action[1], 0, len(built_rules)), "a reduction")
                row[symbol] = (REDUCE, built_rules[action[1]])
        actions.append(row)
    return Tables(start_state, end_state, actions, built_rules, [built_lexers[i] for i in lexer_of_state])
