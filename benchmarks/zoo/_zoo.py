"""Shared by the zoo's Python implementations: the mocks' `serve` and `correctly`
(tests/oracle_mocks/common.py) and the planted bugs switched on (GOI_BUGS, a comma-separated
list; unset: all of the implementation's bugs)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "oracle_mocks"))

from common import FloatField, correctly, serve, value_payload  # noqa: E402,F401


def bugs(*known: str) -> set:
    chosen = os.environ.get("GOI_BUGS")
    return set(known) if chosen is None else {b for b in chosen.split(",") if b} & set(known)
