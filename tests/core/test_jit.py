"""The numba shim: kernels keep their signatures and their on-disk cache."""

import inspect
import os
import subprocess
import sys

from snakelab.core.jit import jit

CODE = """
import numpy as np
from snakelab.games.classic.celltree import block_tables, feasible
t = block_tables(4, 4)
ok = feasible(np.array([0, t.in_to[0]], np.int64), 2, t, np.zeros(t.nedges, np.int8), np.zeros(t.nblocks, np.int64))
print(bool(ok), sum(feasible.stats.cache_hits.values()), sum(feasible.stats.cache_misses.values()))
"""


def test_jit_compiles_and_keeps_the_python_function():
    @jit
    def add(a: int, b: int) -> int:
        return a + b

    assert add(2, 3) == 5
    assert add.py_func(2, 3) == 5  # still the numba dispatcher around the same function


def test_a_moved_kernel_compiles_once_then_loads_from_the_cache(tmp_path):
    """A fresh cache directory: the first process compiles and writes, the second only loads."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}

    def run():
        out = subprocess.run(
            [sys.executable, "-c", CODE], check=False, env=env, capture_output=True, text=True, timeout=600
        )
        assert out.returncode == 0, out.stderr
        ok, hits, misses = out.stdout.split()
        return ok, int(hits), int(misses)

    assert run() == ("True", 0, 1)
    assert run() == ("True", 1, 0)
    assert any(p.suffix == ".nbi" and p.name.startswith("celltree.feasible") for p in tmp_path.rglob("*"))


CLOCK = """
import time
from snakelab.core.jit import jit, monotonic


@jit
def read() -> float:
    return monotonic()

before = time.perf_counter()
t = read()
after = time.perf_counter()
print(before <= t <= after, sum(read.stats.cache_hits.values()), sum(read.stats.cache_misses.values()))
"""


def test_the_compiled_clock_reads_perf_counter_and_is_cached(tmp_path):
    """A kernel reading :func:`monotonic` compiles in the first process and loads in the next."""
    module = tmp_path / "clock_probe.py"
    module.write_text(CLOCK)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def run():
        out = subprocess.run(
            [sys.executable, str(module)], check=False, env=env, capture_output=True, text=True, timeout=600
        )
        assert out.returncode == 0, out.stderr
        within, hits, misses = out.stdout.split()
        return within, int(hits), int(misses)

    assert run() == ("True", 0, 1)
    assert run() == ("True", 1, 0)


def test_the_searches_read_no_clock_in_object_mode():
    # An object-mode block is compiled again in every process (numba cannot cache it),
    # which made every arena run with a searching agent compile and say so.
    from snakelab.games.arena import mcts, search, survival

    for kernel in (search.alphabeta, mcts.search, survival.alone_moves):
        assert "objmode" not in inspect.getsource(kernel.py_func)
        assert kernel.targetoptions.get("nogil"), kernel
