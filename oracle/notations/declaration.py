"""A notation as a declaration: the TOML file that says how an implementation writes each
construct (docs/ORACLE.md, Notation files), read with the standard library and checked whole
before anything is printed with it. A mistake gets an error that names the file, the key and
what was expected; a notation the declaration cannot write a program in says so per program
(Inexpressible), and implies the fragments that keep such programs out of the draw."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from typing import Optional

from .template import (NAME_HOLES, Hole, Literal, Optional_, TemplateError, ends_with_literal, holes, parse_template,
                       starts_with_literal)

# The forms of [forms]: their holes, and whether a notation must have them.
FORMS = {
    "lambda": (frozenset({"x", "type", "body"}), True),
    "application": (frozenset({"fun", "arg"}), False),
    "let": (frozenset({"x", "type", "bound", "body"}), False),
    "let_function": (frozenset({"x", "params", "bound", "body"}), False),
    "parameter": (frozenset({"x"}), False),
    "parameter_typed": (frozenset({"x", "type"}), False),
    "decouple": (frozenset({"f", "p", "name", "type", "body"}), False),
    "let_decouple": (frozenset({"f", "p", "name", "type", "bound", "body"}), False),
}
DEFAULT_APPLICATION = "{fun} {arg}"

# The operators by what they mean (the type checker's resolution), and the surface operator
# (semantics/syntax.OPERATORS) that goi's own terms use for each.
MEANINGS = {"add": "+", "sub": "-", "mul": "*", "div": "/", "vadd": "⊞", "smul": "⊠", "dot": "•",
            "vsum": "+^L", "vprod": "*^L"}
OVERLOADED = {"vadd": "add", "smul": "mul"}  # written like this one: goi's overloaded + and *
BY_SURFACE = {"+": "add", "-": "sub", "*": "mul", "/": "div", "⊞": "vadd", "⊠": "smul", "•": "dot",
              "+^L": "vsum", "*^L": "vprod"}
BY_RESOLUTION = {"add": "add", "sub": "sub", "mul": "mul", "div": "div", "vadd": "vadd", "smul": "smul",
                 "dot": "dot", "iadd": "vsum", "imul": "vprod"}
ASSOCIATIVITY = ("left", "right", "none")
NUMBERS = {"decimal": r"[0-9]+(\.[0-9]+)?", "integer": r"[0-9]+"}
CONSTANTS = {  # key: holes
    "negative": frozenset({"n"}), "negative_as": frozenset({"n"}), "provisional": frozenset({"n"}),
    "negative_provisional": frozenset({"n"}), "fraction_as": frozenset({"num", "den"}),
}
TYPES = {"field": frozenset(), "vector": frozenset({"name"}), "arrow": frozenset({"from", "to"})}
DEFAULT_NAMES = r"[a-z][A-Za-z0-9_']*"
TOP = {"name", "description", "operators_by", "forms", "operators", "constants", "names", "types", "layout"}


class NotationError(ValueError):
    """A notation file that cannot be used: where, and what was expected."""


@dataclass(frozen=True)
class Operator:
    meaning: str
    parts: tuple
    precedence: Optional[int]  # an infix operator's; None for a form closed or opened by a keyword
    assoc: str = "left"

    @property
    def infix(self) -> bool:
        return not starts_with_literal(self.parts) and not ends_with_literal(self.parts)


@dataclass(frozen=True)
class Notation:
    name: str
    source: str  # the built-in notation's name, or the file it was read from
    description: str
    forms: dict  # form -> parts
    operators: dict  # meaning -> Operator
    operators_by: str  # "type": by what the operator means; "symbol": as the program wrote it
    numbers: str
    constants: dict  # key -> parts
    name_pattern: str
    reserved: frozenset
    types: dict  # "field"/"vector"/"arrow" -> parts; empty: the notation writes no types
    parentheses: tuple
    parenthesize: str
    surface: dict = field(default_factory=dict)  # meaning -> the surface operator its reading builds

    @property
    def typed(self) -> bool:
        return bool(self.types)

    @property
    def fragments(self) -> frozenset:
        """The fragments this notation implies: what it cannot write is not drawn."""
        out = set()
        if not self.typed:
            out.add("no-annotations")
        if "decouple" not in self.forms:
            out.add("no-decoupling-values")
        if "decouple" not in self.forms and "let_decouple" not in self.forms:
            out.add("no-decoupling")
        if "provisional" not in self.constants:
            out |= {"no-provisional", "no-decoupling"}
        if self.numbers == "integer" and "fraction_as" not in self.constants:
            out.add("integers")
        if "negative" not in self.constants and "negative_as" not in self.constants:
            out.add("non-negative")
        for meaning, fragment in (("add", "no-plus"), ("sub", "no-minus"), ("mul", "no-times"), ("div", "no-division")):
            if meaning not in self.operators:
                out.add(fragment)
        if any(m not in self.operators for m in ("vadd", "smul", "dot")):
            out.add("no-vector-ops")
        if any(m not in self.operators for m in ("vsum", "vprod")):
            out.add("no-iterated")
        return frozenset(out)

    @property
    def signed_provisional(self) -> bool:
        """Can a negative provisional constant be written?"""
        return "negative_provisional" in self.constants


def read_notation(path: str) -> Notation:
    """The notation declared in the file at `path` (NotationError if it cannot be used)."""
    from goi.files import read_path
    from goi.semantics.errors import BudgetError, GoiError

    try:  # the bounded reader: a FIFO no one writes to, a device, a directory are refused, never waited on
        data = read_path(path, 1 << 20)
    except BudgetError:
        raise NotationError(f"{path}: a notation file is at most 1 MiB") from None
    except GoiError as exc:
        raise NotationError(f"{exc} (the notation file)") from None
    return declared(data, path)


def declared(data: bytes, source: str) -> Notation:
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise NotationError(f"{source}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise NotationError(f"{source}: not a TOML file: {exc}") from None
    except RecursionError:  # arrays or tables nested past what the TOML reader can recurse through
        raise NotationError(f"{source}: not a notation file: its TOML is nested too deeply") from None
    return _Reader(source).notation(table)


def declared_table(table: dict, source: str) -> Notation:
    """The notation a parsed TOML table declares (a target file's inline [notation])."""
    return _Reader(source).notation(table)


class _Reader:
    def __init__(self, source: str):
        self.source = source

    def fail(self, key: str, message: str):
        raise NotationError(f"{self.source}: {key}: {message}")

    def table(self, data: dict, key: str, allowed: Optional[set] = None) -> dict:
        value = data.get(key, {})
        if not isinstance(value, dict):
            self.fail(key, "expected a table ([" + key + "])")
        if allowed is not None:
            for k in value:
                if k not in allowed:
                    self.fail(f"{key}.{k}", "not a key of [" + key + "] (expected one of " + ", ".join(sorted(allowed)) + ")")
        return value

    def string(self, data: dict, key: str, where: str, default=None, choices=None) -> Optional[str]:
        value = data.get(key, default)
        if value is None:
            return None
        if not isinstance(value, str):
            self.fail(f"{where}{key}", f"expected a string, not {type(value).__name__}")
        if choices is not None and value not in choices:
            self.fail(f"{where}{key}", f"{value!r} is not one of " + ", ".join(choices))
        return value

    def template(self, text, key: str, allowed: frozenset, fresh_ok: bool = False) -> tuple:
        if not isinstance(text, str):
            self.fail(key, f"expected a template string, not {type(text).__name__}")
        try:
            return parse_template(text, allowed, fresh_ok)
        except TemplateError as exc:
            shown = text if len(text) <= 80 else text[:77] + "…"
            self.fail(key, f"{shown!r}: {exc}")

    def notation(self, data: dict) -> Notation:
        for k in data:
            if k not in TOP:
                self.fail(k, "not a key of a notation file (expected one of " + ", ".join(sorted(TOP)) + ")")
        name = self.string(data, "name", "", default=None)
        if name is None:
            self.fail("name", "a notation names itself (name = \"…\")")
        description = self.string(data, "description", "", default="") or ""
        operators_by = self.string(data, "operators_by", "", default="type", choices=("type", "symbol"))
        types = self.types(self.table(data, "types", set(TYPES)))
        forms = self.forms(self.table(data, "forms", set(FORMS)), bool(types))
        operators = self.operators(self.table(data, "operators", set(MEANINGS)))
        numbers, constants = self.constants(self.table(data, "constants", {"numbers", *CONSTANTS}))
        names = self.table(data, "names", {"pattern", "reserved"})
        pattern = self.string(names, "pattern", "names.", default=DEFAULT_NAMES)
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            self.fail("names.pattern", f"not a regular expression: {exc}")
        if any(c in pattern for c in "\n\r\0"):
            self.fail("names.pattern", "a pattern on one line, without NUL")
        try:
            re.compile(f"_(?:{pattern})")  # as it is used: after a word glued to a name
        except re.error as exc:
            self.fail("names.pattern", f"it cannot be used inside a larger pattern ({exc}; a flag is written "
                                       "scoped, as (?i:…), not (?i) alone)")
        if compiled.groups or compiled.fullmatch(""):
            self.fail("names.pattern", "a pattern with no groups that matches no empty name")
        for sample in ("a", "x", "f", "p"):
            if not compiled.fullmatch(sample):
                self.fail("names.pattern", f"it must at least match one lower-case letter ({sample!r})")
        reserved = names.get("reserved", [])
        if not isinstance(reserved, list) or not all(isinstance(r, str) for r in reserved):
            self.fail("names.reserved", "expected a list of strings")
        layout = self.table(data, "layout", {"parentheses", "parenthesize"})
        parens = layout.get("parentheses", ["(", ")"])
        if (not isinstance(parens, list) or len(parens) != 2 or not all(isinstance(p, str) and p.strip() for p in parens)):
            self.fail("layout.parentheses", "expected two non-empty strings, the opening and the closing one")
        parenthesize = self.string(layout, "parenthesize", "layout.", default="minimal", choices=("minimal", "all"))
        notation = Notation(name=name, source=self.source, description=description, forms=forms, operators=operators,
                            operators_by=operators_by, numbers=numbers, constants=constants, name_pattern=pattern,
                            reserved=frozenset(reserved) | _keywords(forms, operators, constants, types),
                            types=types, parentheses=tuple(parens), parenthesize=parenthesize,
                            surface=self.surface(operators))
        return notation

    def types(self, data: dict) -> dict:
        if not data:
            return {}
        out = {}
        for key, allowed in TYPES.items():
            if key not in data:
                self.fail(f"types.{key}", "a notation that writes types writes all three: field, vector, arrow")
            out[key] = self.template(data[key], f"types.{key}", allowed)
        arrow = out["arrow"]
        if starts_with_literal(arrow) or ends_with_literal(arrow) or [h.name for h in holes(arrow)] != ["from", "to"]:
            self.fail("types.arrow", "written `{from} … {to}` (an infix arrow, right-associative)")
        if [h.name for h in holes(out["vector"])] != ["name"]:
            self.fail("types.vector", "written with its name once, as `{name}` (the vector's index set: V_{name}), "
                                      "and no other hole")
        return out

    def forms(self, data: dict, typed: bool) -> dict:
        out = {}
        for key, (allowed, required) in FORMS.items():
            if key not in data:
                if required:
                    self.fail(f"forms.{key}", "every notation writes λ")
                continue
            parts = self.template(data[key], f"forms.{key}", allowed)
            names = [h.name for h in holes(parts)]
            must = {"lambda": {"x", "body"}, "application": {"fun", "arg"}, "let": {"x", "bound", "body"},
                    "let_function": {"x", "params", "bound", "body"}, "parameter": {"x"},
                    "parameter_typed": {"x", "type"}, "decouple": {"f", "p", "body"},
                    "let_decouple": {"f", "p", "bound", "body"}}[key]
            missing = must - set(names)
            if missing:
                self.fail(f"forms.{key}", "the template lacks " + ", ".join("{" + m + "}" for m in sorted(missing)))
            twice = sorted({n for n in names if names.count(n) > 1} & {"type", "name", "params"})
            if twice:  # a subterm or a binder may be written twice (it must read back the same); these may not
                self.fail(f"forms.{key}", f"{{{twice[0]}}} written twice")
            if "type" in names and not typed:
                self.fail(f"forms.{key}", "{type} in a notation with no [types] (say how types are written)")
            if key not in ("application", "parameter", "parameter_typed") and not starts_with_literal(parts):
                self.fail(f"forms.{key}", "a binder form starts with a keyword or symbol")
            if key == "application" and starts_with_literal(parts) != ends_with_literal(parts):
                self.fail(f"forms.{key}", "either `{fun} {arg}` (juxtaposition) or a form closed at both ends "
                                          "(`APP({fun}, {arg})`)")
            for hole in holes(parts):
                if hole.name in ("name", "type") and not _in_optional(parts, hole.name) and key != "parameter_typed":
                    self.fail(f"forms.{key}", f"{{{hole.name}}} goes inside an optional part `[…]` (not every "
                                              "program has one)")
            out[key] = parts
        if "let_function" in out and "parameter" not in out:
            self.fail("forms.let_function", "needs forms.parameter (how one parameter is written)")
        if "application" not in out:
            out["application"] = parse_template(DEFAULT_APPLICATION, FORMS["application"][0])
        return out

    def operators(self, data: dict) -> dict:
        out = {}
        for meaning, spec in data.items():
            key = f"operators.{meaning}"
            if isinstance(spec, str):
                spec = {"symbol": spec}
            if not isinstance(spec, dict):
                self.fail(key, "expected a symbol (\"+\") or a table (symbol, precedence, assoc; or template)")
            for k in spec:
                if k not in ("symbol", "template", "precedence", "assoc"):
                    self.fail(f"{key}.{k}", "not a key of an operator (symbol, template, precedence, assoc)")
            if ("symbol" in spec) == ("template" in spec):
                self.fail(key, "give either symbol or template")
            if "symbol" in spec:
                symbol = self.string(spec, "symbol", key + ".")
                if not symbol.strip() or any(c in symbol for c in "{}[]"):
                    self.fail(f"{key}.symbol", "a symbol with no braces or brackets in it")
                parts = (Hole("left"), Literal(f" {symbol.strip()} "), Hole("right"))
            else:
                parts = self.template(spec["template"], f"{key}.template", frozenset({"left", "right"}), fresh_ok=True)
                names = [h.name for h in holes(parts)]
                if names.count("left") != 1 or names.count("right") != 1:
                    self.fail(f"{key}.template", "the template has {left} and {right} once each")
                if starts_with_literal(parts) is False and ends_with_literal(parts):
                    self.fail(f"{key}.template", "a form that starts with a hole ends with one (postfix forms "
                                                 "are not read)")
            assoc = self.string(spec, "assoc", key + ".", default="left", choices=ASSOCIATIVITY)
            precedence = spec.get("precedence")
            infix = not starts_with_literal(parts) and not ends_with_literal(parts)
            if infix:
                if not isinstance(precedence, int) or isinstance(precedence, bool) or not 1 <= precedence <= 100:
                    self.fail(f"{key}.precedence", "an infix operator has a precedence, an integer 1–100 (higher "
                                                   "binds tighter)")
            elif precedence is not None:
                self.fail(f"{key}.precedence", "only an infix operator ({left} … {right}) has a precedence")
            out[meaning] = Operator(meaning, parts, precedence if infix else None, assoc)
        return out

    def surface(self, operators: dict) -> dict:
        out = {}
        seen: dict = {}
        for meaning, op in operators.items():
            out[meaning] = MEANINGS[meaning]
            if op.parts in seen:
                other = seen[op.parts]
                pair = {meaning, other}
                if meaning in OVERLOADED and OVERLOADED[meaning] == other:
                    out[meaning] = MEANINGS[other]
                elif other in OVERLOADED and OVERLOADED[other] == meaning:
                    out[other] = MEANINGS[meaning]
                else:
                    self.fail(f"operators.{meaning}", f"written like operators.{other}: only vadd may be written "
                                                      "like add, and smul like mul (" + ", ".join(sorted(pair)) + ")")
            else:
                seen[op.parts] = meaning
        return out

    def constants(self, data: dict):
        numbers = self.string(data, "numbers", "constants.", default="decimal", choices=tuple(NUMBERS))
        out = {}
        for key, allowed in CONSTANTS.items():
            if key in data:
                out[key] = self.template(data[key], f"constants.{key}", allowed)
                if {h.name for h in holes(out[key])} != set(allowed):
                    self.fail(f"constants.{key}", "the template has " + " and ".join("{" + a + "}" for a in sorted(allowed)))
        if "negative" in out and "negative_as" in out:
            self.fail("constants.negative_as", "give negative (a literal) or negative_as (a term), not both")
        if "negative_provisional" in out and "provisional" not in out:
            self.fail("constants.negative_provisional", "a notation with negative provisional constants has "
                                                        "provisional ones (constants.provisional)")
        return numbers, out


def _in_optional(parts, name: str) -> bool:
    return any(isinstance(p, Optional_) and name in {h.name for h in holes(p.parts)} for p in parts)


WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")


def _keywords(forms: dict, operators: dict, constants: dict, types: dict) -> frozenset:
    """Every word the templates write: no binder may be named like one."""
    words = set()

    def collect(parts):
        for p in parts:
            if isinstance(p, Literal):
                words.update(WORD.findall(p.text))
            elif isinstance(p, Optional_):
                collect(p.parts)

    for parts in [*forms.values(), *(o.parts for o in operators.values()), *constants.values(), *types.values()]:
        collect(parts)
    return frozenset(words)


__all__ = ["NotationError", "Notation", "Operator", "read_notation", "declared", "NAME_HOLES"]
