"""The one parallel map: many independent tasks over local processes or Dask.

:func:`parallel_map` applies a function to every item and yields ``(position, result)``
as results arrive. Benches and tournaments (:func:`~snakelab.harness.run.run_many`),
the blind sweep, ``snakelab hextris solve`` and the contest program all run through it,
so workers, interrupts and resumes behave the same everywhere.

**Where tasks run.**

* No executor and ``jobs == 1``: in this process, in order (no pickling, easy to debug).
* No executor otherwise: a local process pool of ``min(jobs, len(items))`` workers
  (``jobs`` 0 or None: every core this process may use), made here and shut down at
  the end. An ``initializer`` runs once in each worker (e.g. compiling kernels).
* An executor (a Dask one from :func:`snakelab.harness.executors.make_executor`, or
  any ``concurrent.futures.Executor``): used as is and left open for its owner. The
  ``initializer`` is not run there; the function must prepare what it needs itself.

Work items must be picklable and carry their own seeds, so the results never depend
on the executor or on scheduling.

**Workers die with their parent.** Local workers ignore SIGINT (a Ctrl-C at the
terminal reaches the whole process group; it is the parent's to handle) and watch
their parent: if it is gone, killed by SIGKILL included, they exit within about half
a second instead of idling under init. Dask's workers are looked after by Dask.

**Interrupts.** Two ways to stop early:

* *Stop gracefully*: set the ``stop`` event (e.g. from a SIGINT handler). No new task
  starts; tasks already running finish and are yielded, then the iteration ends. (A
  task on a Dask cluster cannot be told to finish and then stop: those are dropped.)
* *Stop at once*: leave the loop (``break``, an exception, a ``KeyboardInterrupt``, or
  SIGTERM turned into :class:`Terminated` by :func:`sigterm_as_interrupt`). Pending
  tasks are cancelled and the workers of a pool made here are terminated at once.
  While a pool is in use, a SIGINT or SIGTERM is raised by the map itself, within
  :data:`POLL_S` seconds, never inside the executor's code (where it could leave a
  lock held) or in code that would swallow it.

**Resume.** The map itself keeps nothing: each caller records every result the moment
it is yielded, and passes only the unfinished items on the next run. ``run_many``
callers use the results store (one SQLite transaction per match; ``--resume RUN_ID``,
see :mod:`snakelab.harness.store`), the blind sweep a JSON-lines checkpoint of chunk
summaries, ``hextris solve`` its ``--out`` solution file (``--resume``). A resumed run
gives the same results as an uninterrupted one.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from types import FrameType
from typing import Protocol, TypeVar

from snakelab.core.errors import ConfigError

T = TypeVar("T")
R = TypeVar("R")


class Mapper(Protocol):
    """:func:`parallel_map` with its executor and options bound (see :func:`mapper`)."""

    def __call__(self, fn: Callable[[T], R], items: Iterable[T], /) -> Iterator[tuple[int, R]]:
        """Apply ``fn`` to every item, yielding ``(position, result)`` as results arrive."""
        ...


PARENT_POLL_S = 0.5
"""How often a local worker checks that its parent is still alive."""


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived while :func:`sigterm_as_interrupt` was active.

    A ``KeyboardInterrupt``, so every handler that keeps finished work and prints how to
    resume after a Ctrl-C does the same after ``kill PID``.
    """


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


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(PARENT_POLL_S)
        if os.getppid() != parent:
            # The parent is gone: nobody will collect our results. Exit without cleanup,
            # which could block on pipes to the dead parent.
            os._exit(1)


def _init_worker(parent: int, initializer: Callable[[], object] | None) -> None:
    """Runs first in every local worker: leave Ctrl-C to the parent, die with it, then ``initializer``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the parent's handlers; SIGTERM (how the parent stops its
    # workers) must simply end it, not raise Terminated and print a traceback.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if os.getppid() != parent:  # the parent died while this worker was starting
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="snakelab-parent-watch", daemon=True).start()
    if initializer is not None:
        initializer()


def parallel_map(
    fn: Callable[[T], R],
    items: Iterable[T],
    executor: Executor | None = None,
    *,
    jobs: int | None = None,
    initializer: Callable[[], object] | None = None,
    stop: threading.Event | None = None,
) -> Iterator[tuple[int, R]]:
    """Apply ``fn`` to every item, yielding ``(position, result)`` as results arrive.

    Args:
        fn: A picklable (module-level) function of one item.
        items: The work items, submitted in this order (put the longest first so a
            pool ends evenly).
        executor: Run here instead of a local pool (left open).
        jobs: Workers of the local pool (0 or None: every core; 1: in this process).
        initializer: Run once in each local worker before any task.
        stop: When set, no new task starts and the iteration ends after the running
            ones (see the module docstring).

    Raises:
        ConfigError: for a negative ``jobs``.
        Exception: whatever ``fn`` raised, for the first failing item (the rest are
            cancelled).
    """
    todo = list(items)
    workers = worker_count(jobs)
    if executor is None and workers == 1:
        for i, item in enumerate(todo):
            if stop is not None and stop.is_set():
                return
            yield i, fn(item)
        return
    if not todo:
        return
    own = executor is None
    before = {p.pid for p in multiprocessing.active_children()}
    # Signals are only noted while the pool is in use and raised at the checks below,
    # where this thread holds none of concurrent.futures' locks (see _interrupts_deferred).
    with _interrupts_deferred() as check:
        pool = executor
        if pool is None:
            pool = ProcessPoolExecutor(
                max_workers=min(workers, len(todo)), initializer=_init_worker, initargs=(os.getpid(), initializer)
            )
        futures: dict[Future[R], int] = {}
        finished = False
        try:
            for i, item in enumerate(todo):
                futures[pool.submit(fn, item)] = i
                check()
            pending: set[Future[R]] = set(futures)
            stopping = False
            while pending:
                # Wake up now and then to notice a stop event or a signal, even while
                # every task runs long.
                done, pending = wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
                check()
                if not stopping and stop is not None and stop.is_set():
                    stopping = True
                    for fut in pending:
                        fut.cancel()  # only tasks not started locally; every unfinished one on Dask
                for fut in sorted(done, key=futures.__getitem__):
                    if not fut.cancelled():
                        yield futures[fut], fut.result()
            finished = True
        finally:
            if not own:
                for fut in futures:
                    fut.cancel()
            elif finished:
                pool.shutdown(wait=True)
            else:
                _stop_now(pool, before)


def mapper(
    executor: Executor | None = None,
    *,
    jobs: int | None = None,
    initializer: Callable[[], object] | None = None,
    stop: threading.Event | None = None,
) -> Mapper:
    """:func:`parallel_map` bound to an executor and options, for code that takes a map as a parameter.

    Game modules never import the harness; a driver that needs a pool takes a map
    argument instead (the blind sweep's ``map_chunks``), and the caller passes this.

    Raises:
        ConfigError: for a negative ``jobs`` (at once, not at the first call).
    """
    worker_count(jobs)

    def bound(fn: Callable[[T], R], items: Iterable[T], /) -> Iterator[tuple[int, R]]:
        return parallel_map(fn, items, executor, jobs=jobs, initializer=initializer, stop=stop)

    return bound


def _stop_now(pool: Executor, before: set[int | None]) -> None:
    """Shut the local pool down, its pending tasks cancelled and its workers killed.

    The order matters. The pool's manager thread, seeing a worker die, marks every
    future it still holds broken, and a future cancelled meanwhile by another thread
    makes it raise ``InvalidStateError`` (printed as a thread's traceback, on the
    Pythons this package supports). Told of the shutdown first, the manager cancels and
    drops the pending futures itself; only then are the workers killed, and this returns
    once the manager has seen them go.
    """
    # Kept now: shutdown(wait=False) forgets it (typeshed mistypes it, hence getattr).
    manager: threading.Thread | None = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    _terminate_new_children(before)
    if manager is not None:
        manager.join()


def _terminate_new_children(before: set[int | None]) -> None:
    """Stop at once the worker processes started since ``before`` was taken (this pool's).

    The pool's own shutdown would wait for the tasks in progress, which after an
    interrupt are no longer wanted.
    """
    for proc in multiprocessing.active_children():
        if proc.pid not in before:
            proc.terminate()


#: How often the map wakes while waiting for results (a stop event, a lost interrupt).
POLL_S = 0.25


@contextmanager
def _interrupts_deferred() -> Iterator[Callable[[], None]]:
    """While the block runs, SIGINT and SIGTERM are noted, and raised only where the map checks.

    A Python signal handler raises in whatever code the main thread runs next, and two
    kinds of code there hang a run. Code that discards exceptions (a garbage-collector
    callback, which Dask installs; a ``__del__``; a weakref callback) printed the Ctrl-C
    as "Exception ignored" and the map went on waiting for a sweep of hours. Code of
    ``concurrent.futures`` that takes locks one by one (``wait`` acquires every
    future's condition in turn) kept the ones it held when the exception cut it short,
    so the pool's manager thread blocked on them and the shutdown waited for it
    forever. So the Python handlers in force are replaced by one that only notes the
    signal, and the function this yields, called where nothing is held, calls the noted
    signal's own handler in the map's frame, where its exception propagates. A signal
    still noted when the block ends is raised then. Handlers that are not Python
    callables (ignored, default) are left alone, as is everything outside the main
    thread.
    """
    noted: list[int] = []
    previous: dict[int, Callable[[int, FrameType | None], object]] = {}

    def check() -> None:
        # Each noted signal in turn (a first Ctrl-C may only ask to stop gently, the second
        # to stop at once); once one raises, the rest are part of the same interrupt.
        while noted:
            signum = noted.pop(0)
            try:
                previous[signum](signum, None)
            except BaseException:
                noted.clear()
                raise

    if threading.current_thread() is not threading.main_thread():
        yield check
        return

    def note(signum: int, _frame: FrameType | None) -> None:
        noted.append(signum)

    for signum in (signal.SIGINT, signal.SIGTERM):
        handler = signal.getsignal(signum)
        if callable(handler):
            previous[signum] = handler
            signal.signal(signum, note)
    try:
        yield check
    finally:
        for num, kept in previous.items():
            # Unless replaced meanwhile: a map closed late (its consumer held it past an
            # exception) must not put back a handler its caller has since taken down.
            if signal.getsignal(num) is note:
                signal.signal(num, kept)
        check()


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While the block runs, SIGTERM raises :class:`Terminated` (a ``KeyboardInterrupt``).

    ``kill PID`` then stops a run as a Ctrl-C does: finished work is kept, workers are
    stopped, and the resume hint is printed. Outside the main thread it does nothing
    (signal handlers can only be set there).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(_signum: int, _frame: object) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
