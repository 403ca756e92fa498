"""Reads the reversed notation of reversed_printer.py and answers correctly; with --crash-on-minus,
crashes on a subtraction."""

import sys

from common import correctly, serve


def respond(text: str) -> dict:
    program = text.removeprefix("REVERSED:")[::-1]
    if "--crash-on-minus" in sys.argv and " - " in program:
        raise NotImplementedError("subtraction is not implemented")
    return correctly(program)


serve(respond)
