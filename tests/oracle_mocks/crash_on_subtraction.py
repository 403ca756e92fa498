"""Crashes (a traceback, exit status 1) on any program with a subtraction; correct otherwise."""

from common import correctly, serve


def respond(text: str) -> dict:
    if " - " in text:
        raise NotImplementedError("subtraction is not implemented")
    return correctly(text)


serve(respond)
