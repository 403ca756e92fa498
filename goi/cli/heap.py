"""What CPython's cyclic garbage collector is spared of a goi command: the objects its imports
made (modules, their classes and functions, the property declarations), which live as long as
the process. Two collections walked all of them for nothing (issue 53, item 1):

- Hypothesis makes a full collection when its first test starts (it registers its random
  generator and counts the references to it: `hypothesis.internal.entropy.register_random`).
  `with loaded():` around a command's work puts what was made before it out of the
  collector's sight (`gc.freeze`, the permanent generation) and hands it back when the work
  ends (`gc.unfreeze`): a process that runs commands one after another (the tests call
  `main`) is left as it was, its garbage collected as before, only later. `goi props`,
  `goi oracle` and `goi report` draw with Hypothesis.
- The interpreter's exit collects twice over everything. `leaving()`, called by the `goi`
  program once its command is done (goi.cli.main.program, never by `main`), freezes what is
  left: the exit then frees the process's memory without walking it. What such a collection
  would still have done is run the finalizers of garbage in cycles, which Python does not
  promise at exit in any case ("It is not guaranteed that __del__() methods are called for
  objects that still exist when the interpreter exits", the language reference); goi closes
  what it opens where it opens it, and `atexit` handlers run before either collection.

Instructions (callgrind, bytecode cached): `goi run -e 1` 493M → 464M; `goi props soundness
--examples 1 --profile ci` 930M → 870M (benchmarks/README.md).
A process that froze objects of its own before calling goi is left as it is.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def loaded():
    if gc.get_freeze_count():  # the caller's own: not goi's to hand back
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def leaving() -> None:
    gc.freeze()
