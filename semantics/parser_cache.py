"""The LALR tables of a grammar kept between runs (Lark's own cache, `Lark(cache=PATH)`).

Programs are read by `lalr.py` with the tables shipped in `parse_tables.json`, without Lark;
Lark is built only to word the error in a program those tables reject (or where they are
missing or made from another grammar). Analysing `grammar.lark` then costs tens of
milliseconds (issue 41: it was a fifth of `goi run -e 1`); loading the tables Lark wrote on
an earlier run costs a few. The
tables live in the user's cache directory (`$XDG_CACHE_HOME/goi`, else `~/.cache/goi`; the
directory `GOI_CACHE_DIR` names instead, or none at all when it is empty), in a file named by
the SHA-256 of the grammar with Lark's and Python's versions, so a changed grammar or library
never reads another's tables; Lark checks the grammar's hash written inside as well, and a
file that does not load (corrupt, truncated) is analysed again, silently.

The cache only ever saves time, and it is handled as every file goi writes (issue 52):
- the directory is used only if it is a directory (not a link to one) that this user owns
  and no one else may write to — the tables are a pickle, and a pickle someone else could
  have written is code someone else chose;
- a file at the cache's name is read only if it is a regular file (not a link, a FIFO or a
  device), this user's, of at most MAX_CACHE_BYTES; anything else there is left alone and
  the grammar is analysed in memory;
- a missing cache file is made by this process (O_EXCL | O_NOFOLLOW: never through a link,
  never over anything already there) and Lark writes the tables into that regular file; two
  processes at once write the same bytes, and one that reads a file half written analyses
  the grammar again. No command writes through a link, or replaces what it did not make.
Where no directory can be made or used, the grammar is analysed in memory, as before.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from typing import Optional, Union

import lark
from lark import Lark

MAX_CACHE_BYTES = 4 * 1024 * 1024  # goi's grammar's tables are about 26 KB

# Paths are os.path strings, not pathlib's: every command that reads a program comes here, and
# pathlib with what it imports was a tenth of `goi run -e 1`'s start-up (issue 53).
PathLike = Union[str, "os.PathLike[str]"]


def cache_directory() -> Optional[str]:
    """Where goi keeps what it can rebuild (None: nowhere)."""
    chosen = os.environ.get("GOI_CACHE_DIR")
    if chosen is not None:
        return chosen or None
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        home = os.path.expanduser("~")
        if home == "~" or not os.path.isabs(home):  # no home directory (a bare container, a browser's file system)
            return None
        base = os.path.join(home, ".cache")
    return os.path.join(base, "goi")


def _private(info: os.stat_result) -> bool:
    """A file or directory only this user could have written."""
    mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return mine and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def usable_directory(directory: PathLike) -> bool:
    """Whether the cache may live in `directory`: made (mode 0700) when missing; used when it
    is a directory itself, this user's, writable by no one else."""
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        info = os.lstat(directory)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and _private(info)


def readable_tables(path: PathLike) -> Optional[bool]:
    """True: a cache file to load; None: nothing there yet (write one); False: something
    goi will neither read nor replace (a link, a FIFO, a device, another's file, too large)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and _private(info) and info.st_size <= MAX_CACHE_BYTES


def cached_lark(grammar: str, **options) -> Lark:
    """`Lark(grammar, parser="lalr", **options)`, its analysis loaded from the cache when kept."""
    directory = cache_directory()
    if directory is None or not usable_directory(directory):
        return Lark(grammar, parser="lalr", **options)
    plain = sorted((k, v) for k, v in options.items() if isinstance(v, (str, bool, int)))  # not callbacks
    key = hashlib.sha256(f"{grammar}\0{plain}".encode("utf-8")).hexdigest()[:32]
    path = os.path.join(directory, f"grammar-{key}-lark{lark.__version__}-py{sys.version_info[0]}{sys.version_info[1]}.cache")
    state = readable_tables(path)
    if state is None:  # made here, empty, by this process: Lark finds nothing to load and writes its tables into it
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600))
        except OSError:
            pass  # another process made it first (or the directory refuses): looked at again below
        state = readable_tables(path)
    if not state:
        return Lark(grammar, parser="lalr", **options)
    return Lark(grammar, parser="lalr", cache=path, **options)  # a file that does not load is analysed again
