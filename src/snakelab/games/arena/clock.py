"""The search kernels' clock and Ctrl-C through them.

Every timed kernel of the arena's searching agents (:mod:`.search`, :mod:`.mcts`,
:mod:`.survival`) reads the clock in nopython mode
(:func:`snakelab.core.jit.monotonic`, cacheable, so a second process loads the kernels
from the cache) and is called inside :func:`interruptible`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def interruptible() -> Iterator[None]:
    """Let a Ctrl-C (or a SIGTERM turned into one) that lands in a kernel leave it as itself.

    A signal handler raises in the next Python code the main thread runs. The searches
    read their clock in nopython mode, so today no kernel runs Python code; should one do
    so again (an object-mode block), numba would raise a ``SystemError`` caused by the
    interrupt, which no caller would take for one. This raises the interrupt.
    """
    try:
        yield
    except SystemError as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):
            raise exc.__cause__ from None
        raise


__all__ = ["interruptible"]
