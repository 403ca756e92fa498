"""The command line's own errors: a wrong command line (exit 2), and an error in one of
several inputs that is shown with that input's text."""

from __future__ import annotations

from ..semantics.errors import GoiError


class UsageError(GoiError):
    """The command line is wrong: an unknown option, a bad number, FILE and -e together, a
    --params list of the wrong length. Exit code 2 (argparse's convention)."""

    kind = "usage"

    def __init__(self, message: str, prog: str = "goi", usage: str = ""):
        super().__init__(message)
        self.prog = prog
        self.usage = usage


class Sourced(Exception):
    """An error in one of several inputs (goi equiv's two programs), with that input's text
    and name, so that it is shown with a caret under the place."""

    def __init__(self, error: GoiError, source: str, name: str):
        super().__init__(str(error))
        self.error, self.source, self.name = error, source, name

    def to_json(self) -> dict:
        return self.error.to_json()

    def render(self) -> str:
        return self.error.render(self.source, self.name)
