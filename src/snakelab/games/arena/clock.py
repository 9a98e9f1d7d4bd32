"""The search kernels' clock: ``time.perf_counter()`` read from compiled code, and Ctrl-C through it.

Every timed kernel of the arena's searching agents (:mod:`.search`, :mod:`.mcts`,
:mod:`.survival`) reads the clock through :func:`now` and is called inside
:func:`interruptible`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import numba


@numba.njit(cache=True)  # no nogil: an object-mode block cannot release the GIL anyway
def now() -> float:  # pragma: no cover - jitted
    """``time.perf_counter()`` from compiled code (about a microsecond; called every 4 nodes).

    Call the kernels that read it inside :func:`interruptible`.
    """
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


@contextmanager
def interruptible() -> Iterator[None]:
    """Let a Ctrl-C (or a SIGTERM turned into one) that lands in :func:`now` leave a kernel as itself.

    A signal handler raises in the next Python code the main thread runs, and inside a
    timed search that is :func:`now`'s object-mode block; numba then raises a
    ``SystemError`` caused by the interrupt, which no caller would take for one (a
    traceback instead of a stopped run and its resume hint). This raises the interrupt.
    """
    try:
        yield
    except SystemError as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):
            raise exc.__cause__ from None
        raise


__all__ = ["interruptible", "now"]
