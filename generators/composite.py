"""`@composite`: Hypothesis' `st.composite`, applied when the strategy is first asked for.

Wrapping a function with `st.composite` reads its source file and parses it (Hypothesis warns
when `draw` is never used), a few milliseconds each; at import time every command that loads
the generators paid that for every composite, used or not (issue 53: about a twentieth of
`goi props`' fixed cost). The strategy is the same object Hypothesis makes, made once on the
first call, with the same arguments checked then.
"""

from __future__ import annotations

from functools import cache
from typing import Callable

from hypothesis import strategies as st


def composite(f: Callable) -> Callable:
    made = cache(lambda: st.composite(f))  # two threads at once may each wrap it: the same strategy either way

    def strategy(*args, **kwargs):
        return made()(*args, **kwargs)

    strategy.__name__, strategy.__qualname__ = f.__name__, f.__qualname__
    strategy.__module__, strategy.__doc__ = f.__module__, f.__doc__
    return strategy
