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
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])


def jit(fn: F) -> F:
    """Compile ``fn`` with numba in nopython mode, cached on disk (``njit(cache=True)``)."""
    return cast(F, numba.njit(cache=True)(fn))
