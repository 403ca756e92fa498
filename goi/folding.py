"""Failure messages folded so that one cause reads the same on every program: numbers, quoted
text, paths, addresses and the program's own names become `N`, `'…'`, `PATH`, `N` and `NAME`;
an id with a number in it (`n42`) `nN`; a list, stack or tuple of such things (`[1, 2, 3]`,
`(x y)`, `1 :: 2 :: 3`), whatever its length, `[…]` (or `…`), so that an adapter that prints
the implementation's data stack gives one bucket, not one per depth.
A campaign groups its shards' failures by the folded message (properties/campaign.py);
oracle mode's signatures fold an implementation's messages (goi.oracle.classification)."""

from __future__ import annotations

import re

from goi.semantics.words import WORDS  # a message's words: never taken for a program's name

MESSAGE_CHARS = 120

# a single quote between two letters is an apostrophe (can't, it's), not the start or end of a quotation
_QUOTED = re.compile(r"(?<!\w)'[^'\n]*'(?!\w)|\"[^\"\n]*\"|`[^`\n]*`|‘[^’\n]*’|“[^”\n]*”")
_PATH = re.compile(r"(?:[A-Za-z]:)?(?:\.{0,2}/[\w.@+~-]+)+/?(?::\d+)*")
_HEX = re.compile(r"\b0x[0-9a-fA-F]+\b")
# a comma always separates (a stack `[*,0,0]` is three items, never the number `0,0`)
_NUMBER = re.compile(r"(?<![A-Za-z_0-9.])[-+]?\d+(?:[./]\d+)*(?:e[-+]?\d+)?")
_WORD = re.compile(r"[A-Za-z_'][\w']*")
_NUMBERED = re.compile(r"\b([A-Za-z_]+)\d+\b")  # an id with a number in it: n42, node_17, t3
# a sequence of what was folded (a stack, a list, a tuple): one bucket whatever its length
# an item: what was folded, a bracket already folded, or a marker a machine puts on its
# stacks among the numbers (`*`, `@`, `λ`, `<fun>`, null …)
_MARKER = r"(?:[*@#$%&!?~^=+\-]{1,3}|λ|<[A-Za-z_]*>|null|undefined|nil|None|true|false|unit|fun|closure)"
_ITEM = r"(?:N|NAME|'…'|PATH|[A-Za-z_]+N|\[…\]|\(…\)|\{…\}|<…>|…|" + _MARKER + ")"
_BRACKETED = re.compile(r"([\[({<])\s*(?:" + _ITEM + r"(?:\s*(?:,|;|:|::|\||\s)\s*" + _ITEM + r")*)?\s*[\])}>]")
_RUN = re.compile(_ITEM + r"(?:\s*(?:,|;|::)\s*" + _ITEM + r")+")  # not N:N (a line and column stays)
_CLOSE = {"[": "]", "(": ")", "{": "}", "<": ">"}
_SPACES = re.compile(r"\s+")

# our notations' keywords: never a program name to fold
_KEYWORDS = {"let", "in", "abs", "fold", "A", "lambda", "fun"}



def fold(message: str, names: frozenset = frozenset()) -> str:
    """The message with what changes from one program to the next folded (module docstring):
    its first non-empty line, numbers, quoted text, paths and addresses, and the program's
    own names."""
    line = next((l.strip() for l in message.splitlines() if l.strip()), "")
    line = _QUOTED.sub("'…'", line)
    line = _PATH.sub("PATH", line)
    if names:
        line = _WORD.sub(lambda m: "NAME" if m.group(0) in names else m.group(0), line)
    line = _HEX.sub("N", line)
    line = _NUMBER.sub("N", line)
    line = _NUMBERED.sub(lambda m: m.group(1) + "N", line)
    for _ in range(MESSAGE_CHARS):  # innermost brackets first: a stack of stacks is one item
        folded = _BRACKETED.sub(lambda m: m.group(1) + "…" + _CLOSE[m.group(1)], line)
        if folded == line:
            break
        line = folded
    line = _RUN.sub("…", line)
    line = _SPACES.sub(" ", line).strip()
    return line[:MESSAGE_CHARS] or "(no message)"


def program_names(text: str) -> frozenset:
    """The identifiers of a program's text (its variables), to fold out of messages."""
    return frozenset(w for w in _WORD.findall(text) if w not in _KEYWORDS and w.lower() not in WORDS)
