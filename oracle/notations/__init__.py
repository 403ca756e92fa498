"""Printing a program in another implementation's notation (oracle mode, docs/ORACLE.md,
Notation files). A notation is a declaration — a small TOML file of templates — and the
built-in ones are such files beside this module (`paper.toml`, `visualiser.toml`), found by
name as rules and checks are; `--notation FILE` reads any other.

Every program is lowered to what the notation can write (lowering.py), printed
(printing.py), and read back through the grammar the same declaration stands for
(reading.py): the text must read as exactly the term printed, and that term is the one goi
runs for its expected outcome — the value the implementation should give for the very text it
receives, by the declaration."""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from goi.semantics import syntax as S
from goi.semantics.typecheck import Judgement

from .declaration import Notation, NotationError, declared, declared_table, read_notation
from .lowering import Inexpressible, Lowering, as_terms, value_of
from .printing import Levels, Printer
from .reading import Reader, ReadError

HERE = Path(__file__).parent


def builtin() -> tuple:
    """The built-in notations' names: the declarations beside this module."""
    return tuple(sorted(p.stem for p in HERE.glob("*.toml")))


NOTATIONS = builtin()
PARENTHESIZE = ("minimal", "all")


class RoundTripError(NotationError):
    """A declaration printed a program that it does not read back as the same term."""


def strip_annotations(t: S.Term) -> S.Term:
    """The term without type annotations and decoupling names."""
    if isinstance(t, (S.Var, S.Const, S.Prov)):
        return t
    if isinstance(t, S.Lam):
        return S.Lam(t.var, None, strip_annotations(t.body))
    if isinstance(t, S.App):
        return S.App(strip_annotations(t.fun), strip_annotations(t.arg))
    if isinstance(t, S.BinOp):
        return S.BinOp(t.op, strip_annotations(t.left), strip_annotations(t.right))
    if isinstance(t, S.Decouple):
        return S.Decouple(t.f, t.x, None, None, strip_annotations(t.body))
    if isinstance(t, S.Let):
        return S.Let(t.var, None, strip_annotations(t.bound), strip_annotations(t.body))
    if isinstance(t, S.LetDecouple):
        return S.LetDecouple(t.f, t.x, None, None, strip_annotations(t.bound), strip_annotations(t.body))
    raise TypeError(f"not a term: {t!r}")


class Declared:
    """A notation ready to print and read: its declaration, levels, printer and reader."""

    def __init__(self, notation: Notation):
        self.notation = notation
        self.levels = Levels(notation)
        self.reader = Reader(notation, self.levels)
        self.templates = as_terms(notation, self._read_constant)
        self._check_constants()
        self._check_probes()

    @property
    def name(self) -> str:
        return self.notation.name

    def read(self, text: str) -> S.Term:
        """The term a text is, by this notation (ReadError if it is not one)."""
        return self.reader.read(text)

    def lower(self, term: S.Term, operators: Optional[dict] = None, annotations: bool = True) -> S.Term:
        return Lowering(self.notation, operators, annotations, self.templates).lower(term)

    def write(self, lowered: S.Term, parenthesize: str = "minimal") -> str:
        return Printer(self.notation, self.levels, everything=parenthesize == "all").print(lowered)

    def print(self, term: S.Term, operators: Optional[dict] = None, annotations: bool = True,
              parenthesize: str = "minimal") -> "Printed":
        """The program in this notation, and the term its text reads as (the round trip checked)."""
        if parenthesize not in PARENTHESIZE:
            raise ValueError(f"unknown parenthesization {parenthesize!r} ({', '.join(PARENTHESIZE)})")
        lowered = self.lower(term, operators, annotations)
        text = self.write(lowered, parenthesize)
        try:
            back = self.read(text)
        except ReadError as exc:
            raise RoundTripError(f"{self.notation.source}: the notation printed a program it does not read back "
                                 f"({exc}):\n  {text}") from None
        if back != lowered:
            raise RoundTripError(f"{self.notation.source}: the notation printed a program that reads back as "
                                 f"another:\n  printed: {text}\n  read as: {self.write(back, 'all')}")
        return Printed(text, back)

    def _check_probes(self) -> None:
        """Every construct inside every other prints and reads back as itself (probes.py)."""
        from .probes import probes

        for term in probes(self.notation):
            for parenthesize in PARENTHESIZE:
                try:
                    self.print(term, None, True, parenthesize)
                except Inexpressible:
                    break
                except RoundTripError as exc:
                    raise NotationError(f"{exc}\n(tried when the notation was loaded: the declaration cannot be read "
                                        "back unambiguously; docs/ORACLE.md, Notation files)") from None

    def _read_constant(self, key: str, text: str) -> S.Term:
        try:
            return self.read(text)
        except ReadError as exc:
            raise NotationError(f"{self.notation.source}: constants.{key}: cannot be read as a term of the notation: "
                                f"{exc}") from None

    def _check_constants(self) -> None:
        """A `*_as` constant must write the number it stands for (checked on examples)."""
        from fractions import Fraction

        n = self.notation
        for key, value in (("negative_as", Fraction(-3)), ("fraction_as", Fraction(3, 7))):
            if key not in n.constants:
                continue
            try:
                term = Lowering(n, None, False, self.templates).constant(value)
            except Inexpressible as exc:
                raise NotationError(f"{n.source}: constants.{key}: cannot be read as a term of the notation: {exc}") from None
            if value_of(term) != value:
                raise NotationError(f"{n.source}: constants.{key}: writes {self.write(term)} for {value}, which is "
                                    f"not {value}")


@dataclass(frozen=True)
class Printed:
    text: str
    term: S.Term  # what the text reads as, by the notation: what goi runs for its expected outcome


@functools.lru_cache(maxsize=16)
def _load_table(path: str, key: str, stamp) -> Declared:
    """The notation declared by the table `key` of the TOML file at `path` (a target file)."""
    import tomllib

    from goi.files import read_path
    from goi.semantics.errors import GoiError

    try:
        table = tomllib.loads(read_path(path, 1 << 20, "a target file's 1 MiB").decode("utf-8-sig")).get(key)
    except (GoiError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise NotationError(f"{path}: cannot read its [{key}]: {exc}") from None
    if not isinstance(table, dict):
        raise NotationError(f"{path}: {key}: expected a table ([{key}])")
    return Declared(declared_table(table, f"{path} [{key}]"))


@functools.lru_cache(maxsize=16)
def _load(path: str, name: str, stamp) -> Declared:
    return Declared(declared(Path(path).read_bytes(), name) if name else read_notation(path))


def notation(spec: str) -> Declared:
    """A built-in notation by name, or the declaration in a file, or in a table of a file
    (`FILE#KEY`: a target's inline `[notation]`); NotationError if unusable."""
    names = builtin()
    path, sep, key = spec.rpartition("#")
    if sep and key == "notation" and os.path.isfile(path):
        return _load_table(path, key, _stamp(path))
    if spec in names:
        path, name = str(HERE / f"{spec}.toml"), spec
    elif os.sep in spec or spec.endswith(".toml") or os.path.exists(spec):
        path, name = spec, ""
    else:
        raise NotationError(f"{spec}: no such notation (built in: {', '.join(names)}; or a notation file, "
                            "docs/ORACLE.md, Notation files)")
    return _load(path, name, _stamp(path))


def _stamp(path: str):
    """What tells a file's versions apart for the loaded-notation cache: None if it cannot be read."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size, stat.st_ino


def render(judgement: Judgement, notation_: str = "paper", annotations: bool = True, parenthesize: str = "minimal") -> str:
    """The judgement's program as text in a notation (operators resolved by its types)."""
    term = judgement.surface
    if term is None:
        raise ValueError("the judgement keeps no surface term")
    return notation(notation_).print(term, judgement.operators, annotations, parenthesize).text


def render_term(term: S.Term, notation_: str = "paper", annotations: bool = True, operators: Optional[dict] = None,
                parenthesize: str = "minimal") -> str:
    """A term as text in a notation; without `operators` (an ill-typed program, which has no
    types) each operator is written as the program wrote it."""
    return notation(notation_).print(term, operators, annotations, parenthesize).text


__all__ = ["NOTATIONS", "PARENTHESIZE", "Declared", "Inexpressible", "Notation", "NotationError", "Printed",
           "ReadError", "RoundTripError", "notation", "render", "render_term", "strip_annotations"]
