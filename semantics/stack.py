"""Room to recurse: the front end and the translation recurse over the term, so deeply
nested programs need more than Python's default 1000 frames and the main thread's C
stack. `with_deep_stack(fn, ...)` runs fn in a thread with a large stack and a high
recursion limit, and returns its result or raises its exception, as a direct call would.
Beyond that, the parser refuses the program with a LimitError (never a crash)."""

from __future__ import annotations

import sys
import threading
from typing import Callable, TypeVar

T = TypeVar("T")

STACK_BYTES = 1 << 29  # 512 MiB of address space (only the pages touched are used)
RECURSION_LIMIT = 200_000

_lock = threading.Lock()
_active = [0, 0]  # deep calls under way, the recursion limit before the first


def with_deep_stack(fn: Callable[..., T], *args, **kwargs) -> T:
    if getattr(_local, "deep", False):  # already on a deep stack: call directly
        return fn(*args, **kwargs)
    result: list = []
    raised: list[BaseException] = []
    done = threading.Event()

    def work() -> None:
        _local.deep = True
        try:
            result.append(fn(*args, **kwargs))
        except BaseException as exc:
            raised.append(exc)
        finally:
            done.set()

    with _lock:
        if _active[0] == 0:
            _active[1] = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_active[1], RECURSION_LIMIT))
        _active[0] += 1
        previous = threading.stack_size(STACK_BYTES)
        try:
            worker = threading.Thread(target=work, name="goi-deep-stack")
            worker.start()
        finally:
            threading.stack_size(previous)
    try:
        _wait(worker, done)
    finally:
        with _lock:
            _active[0] -= 1
            if _active[0] == 0:
                sys.setrecursionlimit(_active[1])
    if raised:
        raise raised[0]
    return result[0]


def _wait(worker: threading.Thread, done: threading.Event) -> None:
    """Wait until the worker is done; a Ctrl-C in the waiting thread is passed on to the
    worker, which stops as it would have (goi props reports what finished). The wait is on
    an Event: a Thread.join interrupted by Ctrl-C can leave the thread looking finished
    while it still runs (CPython, bpo-21822)."""
    while True:
        try:
            done.wait()
            break
        except KeyboardInterrupt:
            import ctypes

            assert worker.ident is not None
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(worker.ident), ctypes.py_object(KeyboardInterrupt))
    worker.join()


_local = threading.local()
