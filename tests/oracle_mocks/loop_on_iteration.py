"""Loops forever on an iterated addition (+^L); correct otherwise."""

from common import correctly, serve


def respond(text: str) -> dict:
    while "+^L" in text:
        pass
    return correctly(text)


serve(respond)
