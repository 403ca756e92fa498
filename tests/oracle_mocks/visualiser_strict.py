"""An implementation that reads the visualiser's notation as the authors' parser does: the
recogniser tests/visualiser_grammar.py (written apart from goi's notations) refuses what it
would refuse; what it accepts is run by goi's machine."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from common import correctly, serve  # noqa: E402
from visualiser_grammar import NotVisualiser, recognise  # noqa: E402


def respond(text: str) -> dict:
    try:
        recognise(text)
    except NotVisualiser as exc:
        return {"rejected": f"syntax error: {exc}"}
    return correctly(text)


serve(respond)
