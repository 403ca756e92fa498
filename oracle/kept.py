"""Oracle mode, the buckets kept between runs: each bucket's minimal program, in Hypothesis'
example database, replayed by later runs of the same configuration (docs/ORACLE.md, Shrinking).

Kept as program texts (not Hypothesis' choice sequences, which a changed generator would read
as other programs), under one key per configuration. What is read back is validated: an entry
that is not ours (or from an older goi) is deleted, never trusted."""

from __future__ import annotations

import json
from typing import Optional


def database_key(config, signature: str) -> bytes:
    """The key of one configuration's entries: the command, notation, fragments, tolerance,
    division, whether ill-typed programs are drawn, and the signature."""
    c = config
    parts = [" ".join(c.command), c.notation, ",".join(sorted(c.all_fragments)), str(c.tolerance), c.division,
             str(c.ill_typed), signature]
    return ("goi.oracle:" + "|".join(parts)).encode("utf-8")


class Kept:
    """The minimal programs kept for one configuration (`database` None: nothing is kept)."""

    def __init__(self, database, config):
        self.database = database
        self.key = database_key(config, "(buckets)")

    def saved(self) -> list[tuple[str, str, bytes]]:
        """(signature, program, stored value) of every bucket kept by earlier runs."""
        if self.database is None:
            return []
        out = []
        for value in self.database.fetch(self.key):
            try:
                entry = json.loads(value.decode("utf-8"))
                out.append((str(entry["signature"]), str(entry["program"]), value))
            except (ValueError, KeyError, TypeError, AttributeError):
                self.forget(value)  # not ours, or from an older goi
        return sorted(out)

    def remember(self, signature: str, text: str) -> None:
        """The bucket's minimal program, in place of the one kept before."""
        if self.database is None:
            return
        for old, _, value in self.saved():
            if old == signature:
                self.forget(value)
        self.database.save(self.key, json.dumps({"signature": signature, "program": text},
                                                ensure_ascii=False).encode("utf-8"))

    def forget(self, value: Optional[bytes]) -> None:
        if self.database is not None:
            self.database.delete(self.key, value)
