"""What Lark computes from `grammar.lark`, written as the data `lalr.py` parses with.

    python -m goi.semantics.parse_tables            # rewrites semantics/parse_tables.json
    python -m goi.semantics.parse_tables --check    # exit 1 if it is not what Lark computes now

The tables are read off Lark's own objects, not computed again here: the parse table of its
LALR analysis, each parser state's lexer (the terminals in the order its scanner tries them,
the keywords it retypes, the ignored and the newline terminals), and for each rule the chain
of callbacks Lark's tree builder made (which children it keeps or inlines, where `[x]` puts a
None, whether `?rule` keeps a single child, and the AST builder's method). Anything in those
objects this module does not know — a callback wrapper, a lexer option, a chunked scanner —
is refused with `Unsupported`, so a Lark that works differently is never half-copied: the
tables are then not written, and parser.py parses with Lark itself.

States are numbered again in breadth-first order from the start state, symbols in sorted
order, and rules in the order they are first met, so the file is the same whatever order
Lark's sets came out in (Python's string hashing is randomised per process).
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections import deque

from . import lalr


class Unsupported(Exception):
    """Lark built something this module does not copy."""


def _reduction(rule, callback, builder) -> dict:
    from lark import Tree
    from lark.parse_tree_builder import ChildFilterLALR, ChildFilterLALR_NoPlaceholders, ExpandSingleChild

    include, append_none, expand1 = None, 0, False
    f = callback
    if type(f) is ChildFilterLALR:
        include = [[i, bool(inline), nones] for i, inline, nones in f.to_include]
        append_none = f.append_none
        f = f.node_builder
    elif type(f) is ChildFilterLALR_NoPlaceholders:
        include = [[i, bool(inline), 0] for i, inline in f.to_include]
        f = f.node_builder
    if type(f) is ExpandSingleChild:
        expand1 = True
        f = f.node_builder
    name = rule.alias or rule.options.template_source or rule.origin.name
    if getattr(f, "__self__", None) is builder and callable(f):
        if getattr(builder, name, None) != f:
            raise Unsupported(f"rule {rule}: its callback is not the builder's method {name!r}")
        method = name
    elif type(f) is functools.partial and f.func is Tree and f.args == (name,) and not f.keywords:
        single = expand1 and (include is None and len(rule.expansion) == 1
                              or include == [[include[0][0], False, 0]] and not append_none)
        if not (rule.origin.name.startswith("_") or single):
            # a Tree reaches the builder only from an inlined _rule (its parent takes its
            # children), or never (`?rule: x` keeps its one child)
            raise Unsupported(f"rule {rule} builds a Tree that the AST builder would be given")
        method = None
    else:
        raise Unsupported(f"rule {rule}: a callback of type {type(f).__name__}")
    if include is not None and any(not (0 <= i < len(rule.expansion)) for i, _, _ in include):
        raise Unsupported(f"rule {rule}: a child out of range")
    return {"origin": rule.origin.name, "size": len(rule.expansion), "expand1": expand1,
            "include": include, "append_none": append_none, "method": method}


def _lexer(basic, callbacks: dict) -> dict:
    import re

    from lark.lexer import BasicLexer, CallChain, PatternStr, UnlessCallback

    if type(basic) is not BasicLexer or basic.use_bytes or basic.re is not re:
        raise Unsupported("a lexer that is not Lark's BasicLexer on str with the re module")
    scanner = basic.scanner  # built by Lark, in Lark's order, keywords taken out
    terminals = [[t.name, t.pattern.to_regexp()] for t in scanner.terminals]
    union = "|".join(f"(?P<{name}>{pattern})" for name, pattern in terminals)
    if len(scanner._mres) != 1 or scanner._mres[0].pattern != union or scanner._mres[0].flags != re.compile(union, basic.g_regex_flags).flags:
        raise Unsupported("a scanner that is not one alternation of its terminals in order")
    unless = {}
    for kind, callback in basic.callback.items():
        user = callbacks.get(kind)
        if type(callback) is CallChain:
            if callback.callback2 is not user:
                raise Unsupported(f"a lexer callback on {kind} that is not the caller's")
            callback = callback.callback1
        elif callback is user:
            continue
        if type(callback) is not UnlessCallback:
            raise Unsupported(f"a lexer callback of type {type(callback).__name__}")
        words = {}
        for t in callback.scanner.terminals:
            if type(t.pattern) is not PatternStr or t.pattern.flags:
                raise Unsupported(f"a keyword {t.name} that is not a plain string")
            words.setdefault(t.pattern.value, t.name)  # Lark's fullmatch takes the first alternative
        unless[kind] = words
    for kind in callbacks:
        if kind not in basic.callback:
            raise Unsupported(f"the lexer callback on {kind} is not in Lark's lexer")
    names = {name for name, _ in terminals}
    return {"terminals": terminals, "flags": basic.g_regex_flags, "unless": unless,
            "ignore": sorted(basic.ignore_types & names), "newline": sorted(basic.newline_types & names)}


def tables_of(parser, builder, callbacks: dict, grammar: bytes) -> dict:
    """The tables of `parser` (a `Lark(..., parser="lalr", lexer="contextual",
    transformer=builder, lexer_callbacks=callbacks)`), as `lalr.load` reads them."""
    import lark
    from lark.lexer import ContextualLexer
    from lark.parsers.lalr_analysis import Reduce, Shift

    frontend = parser.parser
    lexer = frontend.lexer
    inner = frontend.parser.parser
    table = inner.parse_table
    if type(lexer) is not ContextualLexer or parser.options.postlex is not None:
        raise Unsupported("a lexer that is not the contextual one, or a post-lexer")
    if any(isinstance(key, str) for key in inner.callbacks):
        raise Unsupported("callbacks on tokens (methods of the builder named after a terminal)")
    if list(table.start_states) != ["start"] or list(table.end_states) != ["start"]:
        raise Unsupported("a grammar with another start than 'start'")
    start, end = table.start_states["start"], table.end_states["start"]

    number = {start: 0}
    order = deque([start])
    rules: dict = {}
    states = []
    seen = []
    while order:
        state = order.popleft()
        seen.append(state)
        row = {}
        for symbol in sorted(table.states[state]):
            action, arg = table.states[state][symbol]
            if action is Shift:
                if arg not in number:
                    number[arg] = len(number)
                    order.append(arg)
                row[symbol] = [lalr.SHIFT, number[arg]]
            elif action is Reduce:
                if arg not in rules:
                    rules[arg] = len(rules)
                row[symbol] = [lalr.REDUCE, rules[arg]]
            else:
                raise Unsupported(f"an action {action}")
        states.append(row)
    if len(seen) != len(table.states) or end not in number:
        raise Unsupported("states the start state does not reach")

    lexers, lexer_number, lexer_of_state = [], {}, []
    for state in seen:
        basic = lexer.lexers[state]
        if id(basic) not in lexer_number:
            lexer_number[id(basic)] = len(lexers)
            lexers.append(_lexer(basic, callbacks))
        lexer_of_state.append(lexer_number[id(basic)])

    return {
        "format": lalr.FORMAT,
        "version": lalr.VERSION,
        "made_by": f"goi.semantics.parse_tables from Lark {lark.__version__}",
        "grammar": lalr.grammar_stamp(grammar),
        "start_state": 0,
        "end_state": number[end],
        "states": states,
        "rules": [_reduction(rule, inner.callbacks[rule], builder) for rule in rules],
        "lexers": lexers,
        "lexer_of_state": lexer_of_state,
    }


def dumps(data: dict) -> str:
    """JSON with one state, rule or lexer per line (a change to the grammar reads as a diff)."""
    lines = ["{"]
    keys = list(data)
    for k, key in enumerate(keys):
        value = data[key]
        comma = "," if k < len(keys) - 1 else ""
        if isinstance(value, list):
            lines.append(f"  {json.dumps(key)}: [")
            for i, item in enumerate(value):
                lines.append("    " + json.dumps(item, ensure_ascii=False, sort_keys=True) + ("," if i < len(value) - 1 else ""))
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False, sort_keys=True)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def tables_from_lark() -> dict:
    """The driver's tables as the installed Lark computes them from the grammar, with the
    options, AST builder and lexer callbacks parser.py reads programs with, analysed afresh."""
    from lark import Lark

    from . import parser

    grammar = parser._grammar()
    lark_parser = Lark(grammar.decode("utf-8"), parser="lalr", lexer_callbacks=parser.LEXER_CALLBACKS,
                       transformer=parser._BUILDER, **parser.LARK_OPTIONS)
    return tables_of(lark_parser, parser._BUILDER, parser.LEXER_CALLBACKS, grammar)


def current() -> str:
    """The tables file as Lark computes it from the grammar now."""
    return dumps(tables_from_lark())


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["--check"]):
        print("usage: python -m goi.semantics.parse_tables [--check]", file=sys.stderr)
        return 2
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "parse_tables.json")
    text = current()
    try:
        with open(path, encoding="utf-8") as f:
            shipped = f.read()
    except FileNotFoundError:
        shipped = None
    if args == ["--check"]:
        if shipped != text:
            print(f"{path} is not what Lark computes from grammar.lark now: run python -m goi.semantics.parse_tables",
                  file=sys.stderr)
            return 1
        print(f"{path}: current")
        return 0
    if shipped == text:
        print(f"{path}: current, unchanged")
        return 0
    # written beside, then moved over: never a half-written file where the parser reads
    temporary = path + ".new"
    try:
        with open(temporary, "x", encoding="utf-8") as f:
            f.write(text)
    except FileExistsError:
        print(f"{temporary} is there already (another run, or one that stopped): remove it and run again", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"cannot write {temporary}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    os.replace(temporary, path)
    print(f"{path}: written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
