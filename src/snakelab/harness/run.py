"""Many matches over any ``concurrent.futures.Executor``.

Work items are small picklable :class:`MatchSpec` objects; workers rebuild games and
agents from the registry. Per-match seeds derive from one run seed
(:func:`match_seeds`), so results never depend on scheduling or on the executor.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import TypeVar

from snakelab.core.errors import ConfigError
from snakelab.core.rng import derive_seed
from snakelab.harness.match import MatchResult, MatchSpec, run_match

T = TypeVar("T")
R = TypeVar("R")


def match_seeds(run_seed: int, count: int) -> list[int]:
    """The seeds of matches ``0..count-1`` of a run with seed ``run_seed``."""
    return [derive_seed(run_seed, "match", i) for i in range(count)]


def default_jobs() -> int:
    """Worker processes to use when none is asked for: every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def worker_count(jobs: int | None) -> int:
    """The number of worker processes a ``jobs`` option asks for: None or 0 means every core.

    Raises:
        ConfigError: for a negative count.
    """
    if jobs is not None and jobs < 0:
        raise ConfigError(f"--jobs must be ≥ 0 (0: every core), got {jobs}")
    return jobs or default_jobs()


def map_unordered(
    fn: Callable[[T], R],
    items: Iterable[T],
    executor: Executor | None = None,
    *,
    jobs: int | None = None,
    on_done: Callable[[R], None] | None = None,
) -> Iterator[tuple[int, R]]:
    """Apply ``fn`` to every item, yielding ``(position, result)`` as results arrive.

    With no executor and ``jobs == 1`` everything runs in this process (no pickling,
    easy to debug); otherwise a process pool of ``jobs`` workers is made and shut
    down at the end. A passed-in executor is used as is and left open. When the
    consumer stops early (or Ctrl-C), pending work is cancelled.
    """
    items = list(items)
    workers = worker_count(jobs)
    if executor is None and workers == 1:
        for i, item in enumerate(items):
            out = fn(item)
            if on_done is not None:
                on_done(out)
            yield i, out
        return
    own = executor is None
    ex = executor if executor is not None else ProcessPoolExecutor(max_workers=workers)
    futures: dict[Future[R], int] = {}
    try:
        futures = {ex.submit(fn, item): i for i, item in enumerate(items)}
        for fut in as_completed(futures):
            out = fut.result()
            if on_done is not None:
                on_done(out)
            yield futures[fut], out
    finally:
        for fut in futures:
            fut.cancel()
        if own:
            ex.shutdown(wait=True, cancel_futures=True)


def run_many(
    specs: Iterable[MatchSpec],
    executor: Executor | None = None,
    *,
    jobs: int | None = None,
    on_result: Callable[[MatchResult], None] | None = None,
) -> list[MatchResult]:
    """Play every match and return the results in spec order.

    Args:
        specs: The matches.
        executor: Any ``concurrent.futures.Executor`` (a Dask client's executor
            works too); by default a local process pool of ``jobs`` workers.
        jobs: Worker count for the default pool (1 runs in this process).
        on_result: Called in this process as each result arrives (progress bars).
    """
    spec_list = [s if s.index else _with_index(s, i) for i, s in enumerate(specs)]
    out: list[MatchResult | None] = [None] * len(spec_list)
    for i, res in map_unordered(run_match, spec_list, executor, jobs=jobs, on_done=on_result):
        out[i] = res
    return [r for r in out if r is not None]


def _with_index(spec: MatchSpec, i: int) -> MatchSpec:
    from dataclasses import replace

    return replace(spec, index=i)
