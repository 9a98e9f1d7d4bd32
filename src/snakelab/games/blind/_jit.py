"""Typed wrappers around numba so that mypy keeps the signatures of compiled kernels.

Every kernel of the blind game is compiled with ``cache=True`` so that worker
processes and later runs load the machine code instead of compiling it again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.extending import intrinsic

F = TypeVar("F", bound=Callable[..., Any])


def jit(fn: F) -> F:
    """Compile ``fn`` with numba in nopython mode, cached on disk."""
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


def jit_inline(fn: F) -> F:
    """Like :func:`jit`, inlined into its callers (small helpers in hot loops)."""
    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(fn))


def _popcount(typingctx: Any, x: Any) -> Any:
    """Number of set bits of a uint64 (the CPU's popcnt via LLVM's ctpop)."""
    del typingctx  # required by the intrinsic protocol
    sig = types.uint64(types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        del context, signature  # unused
        return builder.ctpop(args[0])

    return sig, codegen


def _trailing_zeros(typingctx: Any, x: Any) -> Any:
    """Index of the lowest set bit of a non-zero uint64 (LLVM's cttz)."""
    del typingctx  # required by the intrinsic protocol
    sig = types.uint64(types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        del context, signature  # unused
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


popcount = cast(Callable[[Any], Any], intrinsic(_popcount))
"""Number of set bits of a uint64, inside compiled code."""
trailing_zeros = cast(Callable[[Any], Any], intrinsic(_trailing_zeros))
"""Index of the lowest set bit of a non-zero uint64, inside compiled code."""
