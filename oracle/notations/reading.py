"""Reading a notation: the LALR(1) grammar a declaration stands for, built from the same
templates and levels as printing (printing.Levels), and the term each text reads as.

Every program goi prints in a declared notation is read back through this grammar and must
give exactly the term that was printed (the round trip): goi's expected outcome is always that
of the term the implementation's text means, by the declaration. A declaration whose grammar
lark cannot build as LALR(1) (two forms that start alike, say) is refused when it is loaded."""

from __future__ import annotations

import json
import re
from fractions import Fraction

from lark import Lark, Token, Tree
from lark.exceptions import GrammarError, LarkError, UnexpectedInput
from lark.lexer import PatternRE

from goi.semantics import syntax as S
from goi.semantics.types import Arrow, Field, Vec

from .declaration import NUMBERS, Notation, NotationError
from .printing import BINDER, Levels
from .template import NAME_HOLES, Hole, Literal

TERM_HOLES = ("body", "bound", "fun", "arg", "left", "right")
CHUNK = re.compile(r"[()\[\]{},;]|[A-Za-z0-9_']+|[^\sA-Za-z0-9_'()\[\]{},;]+")
WORDY = re.compile(r"[A-Za-z0-9_']$")


class ReadError(ValueError):
    """A text the notation's grammar does not read: line, column and what was expected."""


class Reader:
    def __init__(self, notation: Notation, levels: Levels):
        self.notation = notation
        self.levels = levels
        self.rules: list[str] = []
        self.terminals: dict[str, str] = {}  # regex -> terminal name (names glued to a keyword)
        self.slots: dict[str, tuple] = {}  # rule alias -> (construct, slots)
        self.counter = 0
        grammar = self.grammar()
        regexes = {name: regex for regex, name in self.terminals.items()}
        regexes["NAME"] = notation.name_pattern

        def edit(terminal) -> None:
            """A regex from the declaration (names.pattern, and the words glued to a name) never
            enters the grammar's text, where a `/` or a new line in it would end the terminal or
            add rules: the grammar names a placeholder, replaced here by the pattern itself."""
            if terminal.name in regexes:
                terminal.pattern = PatternRE(regexes[terminal.name])

        try:
            self.parser = Lark(grammar, parser="lalr", lexer="contextual", start="start", maybe_placeholders=True,
                               edit_terminals=edit)
        except GrammarError as exc:
            raise NotationError(f"{notation.source}: the notation cannot be read unambiguously (its grammar is not "
                                f"LALR(1)): {str(exc).splitlines()[0]}") from None
        self.text = grammar

    # ---- the grammar ------------------------------------------------------------------------
    def alias(self, construct, slots) -> str:
        self.counter += 1
        name = f"f{self.counter}"
        self.slots[name] = (construct, slots)
        return name

    def terminal(self, regex: str) -> str:
        if regex not in self.terminals:
            self.terminals[regex] = f"G{len(self.terminals)}"
        return self.terminals[regex]

    def sequence(self, parts, needs: dict) -> tuple[list[str], list]:
        """The grammar symbols for a template's parts, and what each kept child is."""
        symbols, slots = [], []
        pending = ""  # a word glued to the name that follows it (V_{name}, _{name})
        for i, p in enumerate(parts):
            if isinstance(p, Literal):
                chunks = CHUNK.findall(p.text)
                glue = (chunks and i + 1 < len(parts) and isinstance(parts[i + 1], Hole)
                        and _is_name(parts[i + 1].name) and WORDY.search(p.text) is not None)
                if glue:
                    pending = chunks.pop()
                symbols += [json.dumps(c, ensure_ascii=False) for c in chunks]
            elif isinstance(p, Hole):
                if _is_name(p.name):
                    pattern = self.notation.name_pattern
                    if pending:
                        symbols.append(self.terminal(re.escape(pending) + f"(?:{pattern})"))
                    else:
                        symbols.append("NAME")
                    slots.append(("name", p.name, len(pending)))
                    pending = ""
                elif p.name in TERM_HOLES:
                    symbols.append(f"t{needs[p.name]}")
                    slots.append(("term", p.name))
                elif p.name in ("type", "from", "to"):
                    symbols.append("type")
                    slots.append(("type", p.name))
                elif p.name in ("n", "num", "den"):
                    symbols.append("NUMBER")
                    slots.append(("number", p.name))
                elif p.name == "params":
                    symbols.append("params")
                    slots.append(("params", p.name))
                else:
                    raise NotationError(f"{self.notation.source}: the hole {{{p.name}}} cannot be read here")
            else:
                inner, inner_slots = self.sequence(p.parts, needs)
                name = self.alias("optional", inner_slots)
                self.rules.append(f"{name}: {' '.join(inner)}")
                symbols.append(f"[{name}]")
                slots.append(("optional", name))
        return symbols, slots

    def grammar(self) -> str:
        n, lv = self.notation, self.levels
        by_level: dict[int, list[str]] = {level: [] for level in range(lv.atom + 1)}
        for key, parts in n.forms.items():
            if key in ("parameter", "parameter_typed"):
                continue
            shape = lv.forms[key]
            symbols, slots = self.sequence(parts, shape.needs)
            by_level[shape.level].append(f"{' '.join(symbols)} -> {self.alias(key, slots)}")
        for meaning, op in n.operators.items():
            shape = lv.operators[meaning]
            symbols, slots = self.sequence(op.parts, shape.needs)
            by_level[shape.level].append(f"{' '.join(symbols)} -> {self.alias(('operator', meaning), slots)}")
        for key in ("negative", "provisional", "negative_provisional"):
            if key in n.constants:
                symbols, slots = self.sequence(n.constants[key], {})
                by_level[lv.atom].append(f"{' '.join(symbols)} -> {self.alias(('constant', key), slots)}")
        left, right = (json.dumps(p.strip(), ensure_ascii=False) for p in n.parentheses)
        by_level[lv.atom] += ["NAME -> var", "NUMBER -> number", f"{left} t{BINDER} {right} -> paren"]
        lines = ["start: t0"]
        for level, alternatives in by_level.items():
            if level < lv.atom:
                alternatives = alternatives + [f"t{level + 1}"]
            lines.append(f"t{level}: " + "\n    | ".join(alternatives))
        if "let_function" in n.forms:
            params = []
            for key in ("parameter", "parameter_typed"):
                if key in n.forms:
                    symbols, slots = self.sequence(n.forms[key], {})
                    params.append(f"{' '.join(symbols)} -> {self.alias(key, slots)}")
            lines.append("params: param+")
            lines.append("param: " + "\n    | ".join(params))
        if n.typed:
            arrow, _ = self.sequence(n.types["arrow"], {})
            field, _ = self.sequence(n.types["field"], {})
            vector, self.vector_slots = self.sequence(n.types["vector"], {})
            lines.append(f"type: type_atom | type_atom {' '.join(arrow[1:-1])} type -> arrow")
            lines.append(f"type_atom: {' '.join(field)} -> field\n    | {' '.join(vector)} -> vector\n"
                         f"    | {left} type {right}")
        lines += self.rules
        lines.append("NAME: /NAME_PLACEHOLDER/")  # the declaration's pattern, put in by Reader's edit_terminals
        lines.append(f"NUMBER: /{NUMBERS[n.numbers]}/")
        for regex, name in self.terminals.items():
            lines.append(f"{name}: /{name}_PLACEHOLDER/")
        lines += ["%import common.WS", "%ignore WS"]
        return "\n".join(lines) + "\n"

    # ---- a text's term --------------------------------------------------------------------
    def read(self, text: str) -> S.Term:
        try:
            tree = self.parser.parse(text)
        except UnexpectedInput as exc:
            expected = sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
            raise ReadError(f"{exc.line}:{exc.column}: the notation {self.notation.name} does not read this"
                            + (f" (expected {', '.join(expected[:8])})" if expected else "")) from None
        except LarkError as exc:
            raise ReadError(f"the notation {self.notation.name} does not read this: {exc}") from None
        return self.term(tree.children[0])

    def term(self, node) -> S.Term:
        while isinstance(node, Tree) and node.data.startswith("t") and node.data[1:].isdigit():
            node = node.children[0]
        if isinstance(node, Token):
            raise ReadError(f"unexpected {node!r}")
        if node.data == "var":
            return S.Var(str(node.children[0]))
        if node.data == "number":
            return S.Const(Fraction(str(node.children[0])))
        if node.data == "paren":
            return self.term(node.children[0])
        construct, slots = self.slots[node.data]
        values = self.values(slots, node.children)
        return self.build(construct, values)

    def values(self, slots, children) -> dict:
        values: dict = {}
        for slot, child in zip(slots, children):
            kind, name = slot[0], slot[1]
            if kind == "optional":
                if child is not None:
                    values.update(self.values(self.slots[name][1], child.children))
            elif kind == "name":
                value = str(child)[slot[2]:]
                if name in values and values[name] != value:  # a name written twice (a fold's own, a binder)
                    raise ReadError(f"{{{name}}} is {values[name]!r} in one place and {value!r} in another")
                values[name] = value
            elif kind == "term":
                term = self.term(child)
                if name in values and values[name] != term:  # a template that writes a subterm twice
                    raise ReadError(f"{{{name}}} is written as two different terms")
                values[name] = term
            elif kind == "type":
                values[name] = self.type(child)
            elif kind == "number":
                values[name] = Fraction(str(child))
            elif kind == "params":
                values[name] = [self.parameter(p) for p in child.children]
        return values

    def parameter(self, node) -> tuple:
        alias = node.children[0] if node.data == "param" else node
        construct, slots = self.slots[alias.data]
        values = self.values(slots, alias.children)
        return values["x"], values.get("type")

    def type(self, node):
        if node.data == "arrow":
            return Arrow(self.type(node.children[0]), self.type(node.children[-1]))
        if node.data == "field":
            return Field()
        if node.data == "vector":
            return Vec(self.values(self.vector_slots, node.children)["name"])
        return self.type(node.children[0])

    def build(self, construct, v: dict) -> S.Term:
        if construct == "lambda":
            return S.Lam(v["x"], v.get("type"), v["body"])
        if construct == "application":
            return S.App(v["fun"], v["arg"])
        if construct == "let":
            return S.Let(v["x"], v.get("type"), v["bound"], v["body"])
        if construct == "let_function":
            bound = v["bound"]
            for x, ty in reversed(v["params"]):
                bound = S.Lam(x, ty, bound)
            return S.Let(v["x"], None, bound, v["body"])
        if construct == "decouple":
            return S.Decouple(v["f"], v["p"], v.get("name"), v.get("type"), v["body"])
        if construct == "let_decouple":
            return S.LetDecouple(v["f"], v["p"], v.get("name"), v.get("type"), v["bound"], v["body"])
        kind, key = construct
        if kind == "operator":
            return S.BinOp(self.notation.surface[key], v["left"], v["right"])
        if key == "negative":
            return S.Const(-v["n"])
        return S.Prov(-v["n"] if key == "negative_provisional" else v["n"])


def _is_name(hole: str) -> bool:
    """A binder's name, a decoupling's, or a name of the notation's own (a fold's `{e}`)."""
    return hole in NAME_HOLES or hole == "name" or hole not in (*TERM_HOLES, "type", "from", "to", "n", "num",
                                                                "den", "params")
