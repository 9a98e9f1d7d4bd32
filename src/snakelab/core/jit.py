"""The one typing shim for numba: compiled kernels that keep their Python signatures.

numba ships no type information, so ``numba.njit`` is ``Any`` to mypy and a function it
decorates loses its signature at every call site. :func:`jit` is ``numba.njit(cache=True)``
typed as the identity on the function, so a kernel is written as ordinary annotated Python
(``def fits(board: np.ndarray, ...) -> bool``), checked by ``mypy --strict`` like any other
function, and its callers see the real parameter and return types. numba itself ignores the
annotations and compiles from the arguments' runtime types, exactly as with a bare ``njit``.

Caching: ``cache=True`` writes the machine code next to the source file
(``__pycache__/<module>.<function>-<line>.py<ver>.nbi/.nbc``), under ``NUMBA_CACHE_DIR``
when that is set, or in the user's cache directory when the source tree is read-only, so
the first run compiles and later runs and worker processes load. numba checks only the timestamp of the file that
defines a kernel: a kernel that calls kernels of another module keeps its cached code when
only that other module is edited. After editing a kernel module, delete the
``__pycache__/*.nbi`` files of the modules that call into it (an installed package is
written as a whole, so this only concerns working copies).

A kernel that needs the clock (a timed search) reads :data:`monotonic`, which stays in
nopython mode and in the cache; an object-mode block would be compiled again in every
process, and the CLI would say "compiling kernels" on every run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
from numba.extending import intrinsic

F = TypeVar("F", bound=Callable[..., Any])


def jit(fn: F) -> F:
    """Compile ``fn`` with numba in nopython mode, cached on disk (``njit(cache=True)``)."""
    return cast(F, numba.njit(cache=True)(fn))


def _monotonic_clock(typingctx: Any) -> Any:
    """The intrinsic behind :func:`monotonic`: a direct call of the C library's ``clock_gettime``."""
    del typingctx  # required by the intrinsic protocol
    from llvmlite import ir  # type: ignore[import-untyped]
    from numba import types
    from numba.core import cgutils as _cgutils

    cgutils: Any = _cgutils  # (untyped)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        del context, signature, args  # no arguments; the result is built here
        long = ir.IntType(64)
        timespec = ir.LiteralStructType([long, long])  # struct timespec {tv_sec; tv_nsec} on 64-bit Linux
        fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(32), timespec.as_pointer()])
        # Declared by name: the machine code holds a relocation the loader resolves in each
        # process, no address of this one, so numba's on-disk cache can keep it.
        fn = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        ts = cgutils.alloca_once(builder, timespec)  # in the entry block: no stack growth in a loop
        builder.call(fn, [ir.Constant(ir.IntType(32), _CLOCK_ID), ts])
        sec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 0))
        nsec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 1))
        dbl = ir.DoubleType()
        return builder.fadd(builder.sitofp(sec, dbl), builder.fmul(builder.sitofp(nsec, dbl), ir.Constant(dbl, 1e-9)))

    return types.float64(), codegen


_CLOCK_ID = int(getattr(time, "CLOCK_MONOTONIC", 1))
"""The clock ``time.perf_counter`` and ``time.monotonic`` read on Linux."""

monotonic = cast(Callable[[], float], intrinsic(_monotonic_clock))
"""``time.perf_counter()`` inside compiled code (Linux: ``CLOCK_MONOTONIC``, the same clock).

A numba intrinsic, so it stays in nopython mode (no object-mode block, no GIL taken) and
costs a few tens of nanoseconds. It declares the C function by name, so a kernel that
calls it is cached on disk like any other (``cache=True``): an object-mode block would be
compiled again in every process. Python code reads the same clock with
``time.perf_counter()``, so a deadline computed there can be compared here.
"""
