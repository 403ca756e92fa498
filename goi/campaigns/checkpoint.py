"""A campaign's checkpoint: one JSON line per finished shard, after a head line that says which
campaign it belongs to (docs/CAMPAIGNS.md, "Checkpoints").

    {"format": "goi.checkpoint/1", "campaign": {…the campaign's description…}}
    {"shard": "5:0-400", "result": {…}}
    …

What it promises, each tested (tests/test_checkpoint.py):

- **Nothing is overwritten.** A fresh campaign creates its file and refuses a path where a
  file (or a link, even a dangling one) already is, unless it is empty; `--resume` continues a
  file of the same campaign and refuses any other.
- **Nothing is trusted whole.** Reading is bounded: only a regular file is read (a device, a
  FIFO or a socket is refused by name, before anything blocks), of at most `MAX_BYTES`, line
  by line, each line at most `MAX_LINE` bytes. Every record is checked — its shape, that its
  shard is one of the campaign's, and, through the campaign's work (`check_result`), that its
  counts are what that shard can hold. A damaged record is reported by line number and its
  shard run again; it is never counted.
- **A record is whole or absent.** Each record is one write of one line on a file opened for
  appending; a resumed campaign whose last line was cut short ends that line first, so the
  cut line stays one damaged line and the next record its own.
- **Every OS error names the file** (CheckpointIOError, its own exit code).
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional

from goi.files import kind_of, write_all

from .faults import CheckpointExists, CheckpointIOError, CheckpointRefused

FORMAT = "goi.checkpoint/1"
MAX_BYTES = 1 << 30  # a checkpoint larger than this is refused (size 9's 200,000 shards fit in far less)
MAX_LINE = 64 << 20  # one record's line: a longer one is damaged


@dataclass
class Damage:
    line: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


def check_record(entry, keys: Optional[set], check_result: Optional[Callable]) -> str:
    """The shard key of a record, or ValueError saying what is wrong with it."""
    if not isinstance(entry, dict):
        raise ValueError(f"a record is a JSON object, not {type(entry).__name__}")
    key = entry.get("shard")
    if not isinstance(key, str):
        raise ValueError('no "shard" key (a string)')
    result = entry.get("result")
    if not isinstance(result, dict):
        raise ValueError(f'shard {key}: no "result" object')
    programs = result.get("programs")
    if type(programs) is not int or programs < 0:
        raise ValueError(f'shard {key}: "programs" is not a whole number ≥ 0')
    if keys is not None and key not in keys:
        raise ValueError(f"shard {key} is not one of this campaign's shards")
    if check_result is not None:
        check_result(key, result)
    return key


@dataclass
class Checkpoint:
    """Finished shards of one campaign in a JSON-lines file (module docstring)."""

    path: str
    description: dict
    damaged: list = field(default_factory=list)  # Damage of the last load
    duplicates: int = 0  # records of a shard already recorded (the first one counts)

    def __post_init__(self):
        self.description = json.loads(json.dumps(self.description))  # as it reads back: lists, not tuples

    # ---- reading -----------------------------------------------------------------------
    def _open_for_reading(self):
        """A handle on the file if it is a regular file of bounded size; None if there is none."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
        except FileNotFoundError:
            if os.path.islink(self.path):
                raise CheckpointIOError(f"checkpoint {self.path}: a link to nothing") from None
            return None
        except OSError as exc:
            raise CheckpointIOError(f"checkpoint {self.path}: cannot read it: {exc.strerror}") from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise CheckpointIOError(f"checkpoint {self.path}: {kind_of(info.st_mode)}, not a file goi wrote")
            if info.st_size > MAX_BYTES:
                raise CheckpointIOError(f"checkpoint {self.path}: {info.st_size:,} bytes, more than a checkpoint "
                                        f"may have ({MAX_BYTES:,})")
            os.set_blocking(fd, True)
            return os.fdopen(fd, "rb")
        except BaseException:
            os.close(fd)
            raise

    def load(self, shards: Optional[Iterable] = None, check_result: Optional[Callable] = None) -> dict:
        """The results of the well-formed records, by shard key; the damaged lines in
        `self.damaged`. Refused whole (CheckpointRefused) when the head is not this campaign's."""
        self.damaged, self.duplicates = [], 0
        keys = None if shards is None else {s.key for s in shards}
        handle = self._open_for_reading()
        if handle is None:
            return {}
        done: dict = {}
        read = 0
        try:
            with handle:
                number = 0
                head_seen = False
                while True:
                    raw = handle.readline(MAX_LINE + 1)
                    if not raw:
                        break
                    number += 1
                    read += len(raw)
                    if read > MAX_BYTES:
                        raise CheckpointIOError(f"checkpoint {self.path}: grew past {MAX_BYTES:,} bytes while read")
                    if len(raw) > MAX_LINE:
                        while raw and not raw.endswith(b"\n"):  # skip the rest of the long line
                            raw = handle.readline(MAX_LINE + 1)
                            read += len(raw)
                        self.damaged.append(Damage(number, f"longer than {MAX_LINE:,} bytes"))
                        if not head_seen:
                            break
                        continue
                    if not raw.strip():
                        continue
                    if not head_seen:
                        self._check_head(raw, number)
                        head_seen = True
                        continue
                    try:
                        entry = json.loads(raw.decode("utf-8"))
                        key = check_record(entry, keys, check_result)
                    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
                        reason = "cut short or not JSON" if isinstance(exc, json.JSONDecodeError) else str(exc)
                        self.damaged.append(Damage(number, reason))
                        continue
                    if key in done:
                        self.duplicates += 1
                        continue
                    done[key] = entry["result"]
                if not head_seen and number:
                    raise CheckpointRefused(f"checkpoint {self.path}: it has no head line (is it a checkpoint?)")
        except OSError as exc:
            raise CheckpointIOError(f"checkpoint {self.path}: cannot read it: {exc.strerror}") from None
        return done

    def _check_head(self, raw: bytes, number: int) -> None:
        try:
            head = json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise CheckpointRefused(f"checkpoint {self.path}: line {number} is not a checkpoint's head "
                                    "(not JSON): not a file goi wrote, or damaged") from None
        if not isinstance(head, dict) or "campaign" not in head:
            raise CheckpointRefused(f"checkpoint {self.path}: line {number} is not a checkpoint's head "
                                    '(no "campaign"): not a file goi wrote')
        if head.get("format", FORMAT) != FORMAT:
            raise CheckpointRefused(f"checkpoint {self.path}: format {head.get('format')!r}, not {FORMAT}")
        if head["campaign"] != self.description:
            raise CheckpointRefused(f"checkpoint {self.path} is the checkpoint of another campaign "
                                    f"({json.dumps(head['campaign'], ensure_ascii=False)[:300]}); start this one "
                                    "with another --checkpoint, or without --resume and another name")

    # ---- writing -----------------------------------------------------------------------
    def start(self, resume: bool, shards: Optional[Iterable] = None, check_result: Optional[Callable] = None) -> dict:
        """The shards already done (resume), after making sure the file is this campaign's;
        a fresh campaign creates the file and never overwrites one (module docstring)."""
        if resume:
            done = self.load(shards, check_result)
            if os.path.lexists(self.path) and os.path.getsize(self.path) > 0:
                self._end_cut_line()
                return done
        else:
            self.damaged, self.duplicates = [], 0
        self._create()
        return {}

    def _create(self) -> None:
        """The file made with its head line; an empty regular file already there is taken."""
        head = (json.dumps({"format": FORMAT, "campaign": self.description}, ensure_ascii=False) + "\n").encode("utf-8")
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(self.path, flags, 0o644)
        except FileExistsError:
            try:
                info = os.lstat(self.path)
            except OSError:
                info = None
            if info is not None and stat.S_ISREG(info.st_mode) and info.st_size == 0:
                fd = self._open_append()
            else:
                what = ("a link" if info is not None and stat.S_ISLNK(info.st_mode) else
                        kind_of(info.st_mode) if info is not None and not stat.S_ISREG(info.st_mode) else "a file")
                raise CheckpointExists(f"checkpoint {self.path}: {what} is already there; goi does not overwrite "
                                       "it (--resume continues a checkpoint of this campaign; or name another file)") from None
        except OSError as exc:
            raise CheckpointIOError(f"checkpoint {self.path}: cannot create it: {exc.strerror}") from None
        self._write(fd, head)

    def _open_append(self) -> int:
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except OSError as exc:
            raise CheckpointIOError(f"checkpoint {self.path}: cannot write to it: {exc.strerror}") from None
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            raise CheckpointIOError(f"checkpoint {self.path}: {kind_of(info.st_mode)}, not a file goi wrote")
        os.set_blocking(fd, True)
        return fd

    def _end_cut_line(self) -> None:
        """A last line cut short (an interruption mid-write) gets its end, so the next record
        starts a line of its own."""
        try:
            with open(self.path, "rb") as handle:
                handle.seek(-1, os.SEEK_END)
                last = handle.read(1)
        except OSError as exc:
            raise CheckpointIOError(f"checkpoint {self.path}: cannot read it: {exc.strerror}") from None
        if last != b"\n":
            self._write(self._open_append(), b"\n")

    def _write(self, fd: int, data: bytes) -> None:
        try:
            write_all(fd, data)
            os.fsync(fd)
        except OSError as exc:
            raise CheckpointIOError(f"checkpoint {self.path}: cannot write to it: {exc.strerror}") from None
        finally:
            os.close(fd)

    def record(self, shard, result: dict) -> None:
        """One finished shard, as one line written at once and flushed to the disk."""
        line = json.dumps({"shard": shard.key, "result": result}, ensure_ascii=False) + "\n"
        self._write(self._open_append(), line.encode("utf-8", "backslashreplace"))

    def report(self) -> list[str]:
        """What the last load found wrong, for people: one line per damaged record."""
        lines = [f"checkpoint {self.path}: {d} — not counted; its shard runs again" for d in self.damaged]
        if self.duplicates:
            lines.append(f"checkpoint {self.path}: {self.duplicates} shard(s) recorded twice; each counted once")
        return lines


# ---- what a shard's result may hold: the works' check_result use these -------------------

def need(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(message)


def programs_of_range(shard, result: dict) -> int:
    """An index-range shard's program count, which its record must say (none more, none less)."""
    programs = shard.stop - shard.start
    need(result["programs"] == programs, f"shard {shard.key} has {programs} programs, the record says {result['programs']}")
    return programs


def whole(value, least: int = 0) -> bool:
    return type(value) is int and value >= least


def counts_of(result: dict, field_name: str, names) -> dict:
    """result[field_name]: an object from names to whole numbers ≥ 0 (a missing name is 0)."""
    table = result.get(field_name)
    need(isinstance(table, dict), f'no "{field_name}" object')
    need(set(table) <= set(names), f'"{field_name}" names {sorted(set(table) - set(names))[:3]}, not of this campaign')
    need(all(whole(v) for v in table.values()), f'"{field_name}" holds something other than whole numbers ≥ 0')
    return {n: table.get(n, 0) for n in names}


def list_of_objects(result: dict, field_name: str) -> list:
    items = result.get(field_name)
    need(isinstance(items, list) and all(isinstance(i, dict) for i in items), f'"{field_name}" is not a list of objects')
    return items
