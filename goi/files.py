"""The folders goi writes into (`--out`, `--dot`): made and tried before any work, so that a
folder that cannot be written is refused at once, not after a long run."""

from __future__ import annotations

import os
import tempfile

from .semantics.errors import ReadError


def writable_directory(option: str, directory: str) -> None:
    """Make `directory` if needed and write (then remove) a file in it; a ReadError naming
    the option otherwise. (A real write: os.access says yes to root on a read-only file
    system.)"""
    try:
        os.makedirs(directory, exist_ok=True)
    except FileExistsError:
        raise ReadError(f"{option} {directory}: it exists and is not a directory") from None
    except OSError as exc:
        raise ReadError(f"{option} {directory}: cannot make the directory: {exc.strerror}") from None
    try:
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".goi-probe-"):
            pass
    except OSError as exc:
        raise ReadError(f"{option} {directory}: cannot write in it: {exc.strerror}") from None
