"""Reading a file that someone named, within bounds: at most `limit` bytes, and never blocked
for good. Every path goi reads for its user goes through `read_path` (`goi run FILE`,
`goi test`'s programs and expectations, `goi equiv`, `goi report --from`, `goi oracle
--replay`).

A regular file is read up to `limit + 1` bytes (one more than allowed tells that it is too
large: `/dev/zero`, or a link to it, stops at once). Anything else that can be opened — a
FIFO, a character device, a terminal — is read without blocking: it must come to its end
within `limit` bytes and `timeout` seconds of silence, else the read stops with an error
that says which (a FIFO no one writes to is refused after `timeout` seconds instead of
waiting forever). A directory is refused."""

from __future__ import annotations

import os
import select
import stat
import time

from .semantics.errors import BudgetError, ReadError

MAX_INPUT_BYTES = 16 * 1024 * 1024  # the default bound of a program file
READ_TIMEOUT = 10.0  # seconds a FIFO or device may stay silent before the read gives up
POLL_SLICE = 0.2  # seconds of one wait for bytes: Ctrl-C is answered within about this


def read_path(path: str, limit: int, option: str = "--max-input-bytes", timeout: float | None = None) -> bytes:
    """The bytes of the file at `path`, at most `limit` of them (BudgetError past that, naming
    `option`); ReadError for what cannot be read (a directory, a silent FIFO, an OS error)."""
    timeout = READ_TIMEOUT if timeout is None else timeout
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise ReadError(f"cannot read {path}: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise ReadError(f"cannot read {path}: it is a directory")
        data = _read(fd, path, limit, timeout, _what(mode))
    except OSError as exc:
        raise ReadError(f"cannot read {path}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise BudgetError(f"{path} is larger than {option} {limit}", limit="input")
    return data


def read_text_path(path: str, limit: int, option: str = "--max-input-bytes", timeout: float | None = None) -> str:
    """`read_path`'s bytes as text: UTF-8, a byte-order mark accepted."""
    return decode(read_path(path, limit, option, timeout), path)


def decode(data: bytes, name: str) -> str:
    """Program bytes as text: UTF-8, a byte-order mark accepted."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReadError(f"cannot read {name}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def _read(fd: int, path: str, limit: int, timeout: float, what: str) -> bytes:
    """Read as the bytes come, up to the end, `limit + 1` bytes, or `timeout` seconds without
    a byte. A regular file is always ready (poll never waits on it): read straight through."""
    chunks, size = [], 0
    poller = select.poll()  # not select(): no limit on the descriptor's number
    poller.register(fd, select.POLLIN)
    deadline = time.monotonic() + timeout
    while size <= limit:
        left = deadline - time.monotonic()
        # silence is what the writer left unsaid, not how long this process waited to ask: past
        # the deadline, a last look (poll 0) still takes whatever is there (a loaded machine)
        # in slices of at most POLL_SLICE: the CLI runs a command on a worker thread, to which
        # Ctrl-C is passed as an asynchronous exception, delivered only between bytecodes
        if not poller.poll(max(1, int(min(left, POLL_SLICE) * 1000)) if left > 0 else 0):
            if left <= 0:
                raise ReadError(f"cannot read {path}: {what} gave no end of file within {timeout:g} s "
                                "(goi reads a program to its end; nothing is writing to it?)")
            continue
        try:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
        except BlockingIOError:
            continue
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        deadline = time.monotonic() + timeout
    return b"".join(chunks)


def kind_of(mode: int, article: str = "a") -> str:
    """What a file that is not a regular one is, for a message: "a FIFO (named pipe)", …"""
    if stat.S_ISFIFO(mode):
        return f"{article} FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return f"{article} character device"
    if stat.S_ISBLK(mode):
        return f"{article} block device"
    if stat.S_ISSOCK(mode):
        return f"{article} socket"
    if stat.S_ISDIR(mode):
        return f"{article} directory"
    return f"{article} special file"


def _what(mode: int) -> str:
    return kind_of(mode, "the")


def write_all(fd: int, data: bytes) -> None:
    """Every byte of `data` to the descriptor (os.write may take only part of it)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def write_file(path: str, data, option: str) -> int:
    """Write `data` (text as UTF-8, or bytes) to `path`, made or replaced — but never through a
    link: a link there (even one to nothing) is refused, so a page or a report lands where it
    was named and nowhere else. Returns the bytes written; ReadError names `option` and the
    path for anything the OS refuses."""
    import errno

    if isinstance(data, str):
        data = data.encode("utf-8")
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP or os.path.islink(path):
            raise ReadError(f"{option} {path}: it is a link; goi writes no file through a link it did not make "
                            "(name the file itself)") from None
        raise ReadError(f"{option} {path}: cannot write it: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ReadError(f"{option} {path}: not a regular file; goi writes pages and reports to files")
        os.set_blocking(fd, True)
        write_all(fd, data)
    except OSError as exc:
        raise ReadError(f"{option} {path}: cannot write it: {exc.strerror}") from None
    finally:
        os.close(fd)
    return len(data)
