"""Rejects every program with a dot product, as if it were not in its language."""

from common import correctly, serve


def respond(text: str) -> dict:
    if "•" in text:
        return {"rejected": "dot products are not supported"}
    return correctly(text)


serve(respond)
