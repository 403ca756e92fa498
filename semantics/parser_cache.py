"""The LALR tables of a grammar kept between runs (Lark's own cache, `Lark(cache=PATH)`).

Analysing `grammar.lark` costs a command tens of milliseconds on every start (issue 41: a
fifth of `goi run -e 1`); loading the tables Lark wrote on an earlier run costs a few. The
tables live in the user's cache directory (`$XDG_CACHE_HOME/goi`, else `~/.cache/goi`; the
directory `GOI_CACHE_DIR` names instead, or none at all when it is empty), in a file named by
the SHA-256 of the grammar with Lark's and Python's versions, so a changed grammar or library
never reads another's tables; Lark checks the grammar's hash written inside as well, and a
file that does not load (corrupt, truncated, half written by a process beside) is analysed
again and rewritten, silently (two processes writing at once write the same bytes).
Where no directory can be made or written, the grammar is analysed in memory, as before: the
cache only ever saves time.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Optional

import lark
from lark import Lark


def cache_directory() -> Optional[Path]:
    """Where goi keeps what it can rebuild (None: nowhere)."""
    chosen = os.environ.get("GOI_CACHE_DIR")
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME")
    try:
        return (Path(base) if base else Path.home() / ".cache") / "goi"
    except (RuntimeError, KeyError):  # no home directory (a bare container, a browser's file system)
        return None


def cached_lark(grammar: str, **options) -> Lark:
    """`Lark(grammar, parser="lalr", **options)`, its analysis loaded from the cache when kept."""
    directory = cache_directory()
    if directory is None:
        return Lark(grammar, parser="lalr", **options)
    plain = sorted((k, v) for k, v in options.items() if isinstance(v, (str, bool, int)))  # not callbacks
    key = hashlib.sha256(f"{grammar}\0{plain}".encode("utf-8")).hexdigest()[:32]
    path = directory / f"grammar-{key}-lark{lark.__version__}-py{sys.version_info[0]}{sys.version_info[1]}.cache"
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return Lark(grammar, parser="lalr", **options)
    return Lark(grammar, parser="lalr", cache=str(path), **options)
