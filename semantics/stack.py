"""Room to recurse: the front end and the translation recurse over the term, so deeply
nested programs need more than Python's default 1000 frames and the main thread's C
stack. `with_deep_stack(fn, ...)` runs fn in a thread with a large stack and a high
recursion limit, and returns its result or raises its exception, as a direct call would.
Beyond that, the parser refuses the program with a LimitError (never a crash)."""

from __future__ import annotations

import contextvars
import sys
import threading
from typing import Callable, TypeVar

from .errors import TOO_DEEP, LimitError

T = TypeVar("T")

STACK_BYTES = 1 << 29  # 512 MiB of address space (only the pages touched are used)
RECURSION_LIMIT = 200_000

_lock = threading.Lock()
_active = [0, 0]  # deep calls under way, the recursion limit before the first


def deep(fn: Callable[..., T], *args) -> T:
    """fn(*args) — directly, and again on the deep stack if that runs out of Python's frames
    (fn is a pure function of its arguments: parsing, type checking, translating); running
    out of the deep stack too is a LimitError. Most programs never need the deep stack, and
    starting its thread was most of a small program's start-up (benchmarks/README.md). A
    LimitError on the ordinary stack may be the parser refusing a nesting only the ordinary
    stack cannot walk: the deep stack decides. The one way goi's pipeline reaches the deep
    stack (goi.execution; the CLI runs each command on it from the start)."""
    try:
        return fn(*args)
    except LimitError as exc:  # the parser refuses depths the current limit cannot walk
        if exc.beyond_any_stack:
            raise  # too deep for the deep stack as well: no second try
    except RecursionError:
        pass
    try:
        return with_deep_stack(fn, *args)
    except RecursionError:
        raise LimitError(TOO_DEEP) from None


def with_deep_stack(fn: Callable[..., T], *args, **kwargs) -> T:
    if getattr(_local, "deep", False):  # already on a deep stack: call directly
        return fn(*args, **kwargs)
    if sys.platform == "emscripten":  # the browser playground (Pyodide): no thread to start
        raise LimitError("the program is nested too deeply for the browser's stack (no thread with a larger one "
                         "can start under WebAssembly): run it with the goi command", beyond_any_stack=True)
    result: list = []
    raised: list[BaseException] = []
    done = threading.Event()
    context = contextvars.copy_context()  # the caller's context (the rule set in use, say) goes along

    def work() -> None:
        _local.deep = True
        try:
            result.append(context.run(fn, *args, **kwargs))
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                interrupt_taken()
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


_pending = threading.Event()  # a Ctrl-C was passed on and no handler has taken it yet
_polled = threading.Event()  # the worker asks for Ctrl-C at safe points instead of being sent it


class polled:
    """`with polled():` the worker is not sent a Ctrl-C (which could land between any two
    bytecodes, in the middle of writing a trace step); it asks `interrupt_requested()` at
    points where stopping leaves its output whole, and raises KeyboardInterrupt there."""

    def __enter__(self):
        _polled.set()
        return self

    def __exit__(self, *exc) -> None:
        _polled.clear()


def interrupt_requested() -> bool:
    return _pending.is_set()
RESEND_SECONDS = 0.5


def interrupt_taken() -> None:
    """Called by a handler of KeyboardInterrupt on the worker (goi props' driver, the CLI):
    the Ctrl-C arrived, stop sending it."""
    _pending.clear()


def _send(worker: threading.Thread) -> None:
    import ctypes

    assert worker.ident is not None
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(worker.ident), ctypes.py_object(KeyboardInterrupt))


def _wait(worker: threading.Thread, done: threading.Event) -> None:
    """Wait until the worker is done; a Ctrl-C in the waiting thread is passed on to the
    worker, which stops as it would have (goi props reports what finished). An exception
    passed to a thread can be swallowed where Python ignores exceptions (a garbage
    collector callback, a __del__): it is sent again every RESEND_SECONDS until a handler
    takes it (interrupt_taken) or the worker ends. The wait is on an Event: a Thread.join
    interrupted by Ctrl-C can leave the thread looking finished while it still runs
    (CPython, bpo-21822)."""
    previous_hook = sys.unraisablehook

    def quiet(unraisable) -> None:  # a passed-on Ctrl-C that landed where Python ignores it
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            previous_hook(unraisable)

    try:
        while True:
            try:
                if done.wait(RESEND_SECONDS if _pending.is_set() else None):
                    break
                if _pending.is_set() and not _polled.is_set():
                    _send(worker)
            except KeyboardInterrupt:
                sys.unraisablehook = quiet
                _pending.set()
                if not _polled.is_set():
                    _send(worker)
        worker.join()
    finally:
        sys.unraisablehook = previous_hook
        _pending.clear()


_local = threading.local()
