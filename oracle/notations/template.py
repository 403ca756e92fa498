"""A notation's template: how one construct is written (docs/ORACLE.md, Notation files).

A template is text with holes, in the style of Python's format strings:
- `{body}` a hole for a subterm, `{left:atom}` one that must be an atom there (a name, a
  number, a parenthesised term or a form closed by a keyword or bracket);
- `{x}`, `{f}`, `{p}` a binder's name, `{name}` a decoupling's name, `{type}` an annotation,
  `{n}`, `{num}`, `{den}` the digits of a constant;
- `[...]` a part written only when every hole inside it has something to write (an
  annotation, a decoupling's name): `λ{x}[:{type}]. {body}`;
- `{{ }} [[ ]]` literal braces and brackets.
Whitespace in a template is written as it is and read as any run of whitespace (or none).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

# The holes each kind of hole can be; anything else in braces is an error of the declaration.
TERM_HOLES = frozenset({"body", "bound", "fun", "arg", "left", "right"})
NAME_HOLES = frozenset({"x", "f", "p"})
OTHER_HOLES = frozenset({"name", "type", "n", "num", "den", "from", "to", "params"})
LEVELS = ("atom",)


class TemplateError(ValueError):
    """A template that cannot be read: says where and what was expected."""


@dataclass(frozen=True)
class Literal:
    text: str


@dataclass(frozen=True)
class Hole:
    name: str
    atom: bool = False  # `{left:atom}`: the subterm must be an atom here


@dataclass(frozen=True)
class Optional_:
    parts: tuple


Part = Union[Literal, Hole, Optional_]


def parse_template(text: str, allowed: frozenset, fresh_ok: bool = False) -> tuple:
    """The parts of a template; `allowed` are the holes it may have; `fresh_ok`: other
    lower-case holes are names of the notation's own (an operator's fold: `{e}`, `{a}`)."""
    if not isinstance(text, str) or not text.strip():
        raise TemplateError("a template is a non-empty string")
    if len(text) > MAX_TEMPLATE_CHARS:
        raise TemplateError(f"a template is at most {MAX_TEMPLATE_CHARS} characters")
    tokens = len(_TOKENS.findall(text))
    if tokens > MAX_TEMPLATE_TOKENS:
        raise TemplateError(f"{tokens} words, holes and symbols: a template has at most {MAX_TEMPLATE_TOKENS} (the "
                            "parser built from it grows faster than its length)")
    parts, i = _parts(text, 0, allowed, fresh_ok, nested=False)
    return tuple(parts)


# The bound on one template: a notation's grammar is analysed by Lark when it is loaded, at a
# cost that grows about as the cube of a rule's length (250 tokens: 2.5 s, 500: 18 s); real
# notations write a few words a construct. At this bound the largest notation loads in about
# a second.
MAX_TEMPLATE_TOKENS = 64
MAX_TEMPLATE_CHARS = 1000
_TOKENS = re.compile(r"\{[^{}]*\}|[A-Za-z0-9_']+|[^\sA-Za-z0-9_']")


def _parts(text: str, i: int, allowed, fresh_ok, nested: bool):
    parts: list = []
    literal = ""
    while i < len(text):
        c = text[i]
        if c in "{[" and text[i:i + 2] in ("{{", "[["):
            literal, i = literal + c, i + 2
        elif c in "}]" and text[i:i + 2] in ("}}", "]]"):
            literal, i = literal + c, i + 2
        elif c == "{":
            end = text.find("}", i)
            if end < 0:
                raise TemplateError(f"column {i + 1}: a hole `{{` not closed by `}}`")
            if literal:
                parts.append(Literal(literal))
                literal = ""
            parts.append(_hole(text[i + 1:end], i, allowed, fresh_ok))
            i = end + 1
        elif c == "}":
            raise TemplateError(f"column {i + 1}: a `}}` that closes no hole (write `}}}}` for a brace)")
        elif c == "[":
            if literal:
                parts.append(Literal(literal))
                literal = ""
            inner, i = _parts(text, i + 1, allowed, fresh_ok, nested=True)
            if not any(isinstance(p, Hole) for p in inner):
                raise TemplateError(f"column {i}: an optional part `[...]` with no hole in it")
            parts.append(Optional_(tuple(inner)))
        elif c == "]":
            if not nested:
                raise TemplateError(f"column {i + 1}: a `]` that closes no `[` (write `]]` for a bracket)")
            if literal:
                parts.append(Literal(literal))
            return parts, i + 1
        else:
            literal, i = literal + c, i + 1
    if nested:
        raise TemplateError("an optional part `[` not closed by `]`")
    if literal:
        parts.append(Literal(literal))
    return parts, i


def _hole(spec: str, at: int, allowed, fresh_ok) -> Hole:
    name, _, level = spec.partition(":")
    if level and level not in LEVELS:
        raise TemplateError(f"column {at + 1}: `{{{spec}}}`: after the colon only `atom` ({{left:atom}})")
    if name in allowed:
        if level and name not in TERM_HOLES:
            raise TemplateError(f"column {at + 1}: `{{{spec}}}`: only a subterm can be asked to be an atom")
        return Hole(name, bool(level))
    if fresh_ok and name.isidentifier() and name.islower() and name not in TERM_HOLES | NAME_HOLES | OTHER_HOLES:
        return Hole(name)
    raise TemplateError(f"column {at + 1}: `{{{spec}}}` is not a hole here (expected one of "
                        + ", ".join("{" + h + "}" for h in sorted(allowed)) + ")")


def holes(parts) -> list[Hole]:
    """Every hole of a template, in order, those of optional parts included."""
    out = []
    for p in parts:
        if isinstance(p, Hole):
            out.append(p)
        elif isinstance(p, Optional_):
            out.extend(holes(p.parts))
    return out


def starts_with_literal(parts) -> bool:
    return isinstance(parts[0], Literal) and parts[0].text.strip() != ""


def ends_with_literal(parts) -> bool:
    return isinstance(parts[-1], Literal) and parts[-1].text.strip() != ""


def fill(parts, values: dict) -> str:
    """A template with its holes filled; an optional part only if all its holes are."""
    out = []
    for p in parts:
        if isinstance(p, Literal):
            out.append(p.text)
        elif isinstance(p, Hole):
            out.append(values[p.name])
        elif all(values.get(h.name) is not None for h in holes(p.parts)):
            out.append(fill(p.parts, values))
    return "".join(out)
