"""Executors for the parallel map beyond the local process pool: all executor construction.

:func:`~snakelab.harness.parallel.parallel_map` (and so ``run_many``, the blind sweep and
``hextris solve``) takes any ``concurrent.futures.Executor``; this module builds them
from the CLI's ``--executor`` strings:

* ``local`` (or nothing): the parallel map's own process pool of ``jobs`` workers.
* ``dask-local``: a Dask ``LocalCluster`` of ``jobs`` worker processes (one thread
  each, dashboard off), started here and closed by :meth:`DaskExecutor.shutdown`.
* ``dask://HOST:PORT``: an existing Dask scheduler (``dask scheduler`` plus
  ``dask worker tcp://HOST:PORT`` on each machine, with snakelab installed there).

Work items are the same picklable specs either way and per-match seeds come from
the run seed, so the executor never changes the results.

Dask (``pip install snakelab[dask]``) is imported only when a Dask executor is asked for.
"""

from __future__ import annotations

import logging
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

from snakelab.core.errors import ConfigError, SnakelabError
from snakelab.harness.parallel import worker_count

P = ParamSpec("P")
T = TypeVar("T")

EXECUTOR_CHOICES = "'local' (a process pool of --jobs workers), 'dask-local' or 'dask://HOST:PORT'"
"""How the ``--executor`` forms are described in help and error messages."""


class ExecutorError(SnakelabError):
    """An executor could not be started: Dask missing, a scheduler unreachable, ..."""


class DaskExecutor(Executor):
    """A ``concurrent.futures.Executor`` running tasks on a Dask cluster.

    Use :func:`dask_executor` to make one. :meth:`shutdown` closes the client, and
    the cluster too when this executor started it (``dask-local``).

    Attributes:
        address: The scheduler address.
        client: The ``distributed.Client``.
    """

    def __init__(self, client: Any, cluster: Any | None = None) -> None:
        self.client = client
        self.address: str = str(client.scheduler.address)
        self._cluster = cluster
        # pure=False: two equal specs are two matches, never one cached task.
        self._inner: Executor = client.get_executor(pure=False)

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Schedule ``fn(*args, **kwargs)`` on the cluster."""
        return self._inner.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop submitting, close the client, and close the cluster if this executor owns it.

        With ``cancel_futures`` (or ``wait=False``) unfinished tasks are cancelled at once
        instead of waited for: after a Ctrl-C the tasks still on the cluster are not wanted,
        and waiting for them would hang if their workers are gone.
        """
        self._inner.shutdown(wait=wait and not cancel_futures)
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None

    def __repr__(self) -> str:
        kind = "local cluster" if self._cluster is not None else "scheduler"
        return f"<DaskExecutor {kind} {self.address}>"


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT while the block runs (main thread only; elsewhere it cannot be set).

    Processes started meanwhile keep SIGINT ignored: a Ctrl-C at the terminal reaches the
    whole process group, and it is the parent's to handle. It cancels the work and closes
    the cluster; a worker killed mid-task would instead leave its task hanging. A Ctrl-C
    in the second or two that a local cluster takes to start is therefore ignored.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ExecutorError("Dask executors need dask[distributed]: pip install 'snakelab[dask]'") from None
    return distributed


PROBE_S = 2.0
"""Longest wait for the scheduler's port to accept a plain connection before Dask tries it."""


def _probe(address: str, timeout_s: float) -> None:
    """Fail at once if nothing accepts connections at a ``tcp://`` scheduler address.

    A Dask client retries a refused connection for its whole timeout; a plain connection
    attempt says in milliseconds that nothing listens there (or in :data:`PROBE_S` that
    the host does not answer). Other protocols are left to Dask.
    """
    scheme, sep, rest = address.partition("://")
    if sep and scheme != "tcp":
        return
    host, _, port = (rest if sep else address).rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=min(PROBE_S, timeout_s)).close()
    except OSError as exc:
        why = "timed out" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise ExecutorError(
            f"cannot reach the Dask scheduler at tcp://{host}:{port} ({why}); "
            "is `dask scheduler` running there and the port open?"
        ) from None


def dask_executor(address: str | None, jobs: int = 0, *, timeout_s: float = 10.0) -> DaskExecutor:
    """Connect to a Dask scheduler, or start a local cluster.

    Args:
        address: ``tcp://HOST:PORT`` (or ``HOST:PORT``) of a running scheduler, or
            None to start a ``LocalCluster``.
        jobs: Worker processes of the local cluster (0: every core).
        timeout_s: How long to try to reach the scheduler.

    Raises:
        ExecutorError: if Dask is not installed, the scheduler cannot be reached or
            the local cluster does not start.
    """
    if address is not None:
        _probe(address, timeout_s)  # before importing Dask: a refused port is known at once
    distributed = _import_distributed()
    if address is None:
        n = worker_count(jobs)
        try:
            with _sigint_ignored():
                cluster = distributed.LocalCluster(
                    host="127.0.0.1",  # loopback only: a local cluster has no business on the network
                    n_workers=n,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    # The scheduler serves HTTP even without a dashboard, by default at
                    # port 8787; a free port instead lets two clusters start side by side.
                    scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
                    silence_logs=logging.CRITICAL,  # task errors reach the client; worker logs are shutdown noise
                )
        except Exception as exc:  # Dask raises many kinds; report any as one error.
            raise ExecutorError(f"cannot start a Dask local cluster of {n} workers: {exc}") from None
        try:
            client = distributed.Client(cluster, set_as_default=False)
        except Exception as exc:
            cluster.close()
            raise ExecutorError(f"cannot connect to the Dask local cluster: {exc}") from None
        return DaskExecutor(client, cluster)
    addr = address if "://" in address else f"tcp://{address}"
    try:
        client = distributed.Client(addr, timeout=timeout_s, set_as_default=False)
    except Exception as exc:
        raise ExecutorError(
            f"cannot reach the Dask scheduler at {addr} within {timeout_s:g} s ({type(exc).__name__}: {exc}); "
            "is `dask scheduler` running there and the port open?"
        ) from None
    return DaskExecutor(client)


def make_executor(spec: str | None, jobs: int = 0) -> Executor | None:
    """Turn an ``--executor`` string into an executor for ``run_many``.

    Args:
        spec: ``None``/``"local"``, ``"dask-local"`` or ``"dask://HOST:PORT"``.
        jobs: Workers for ``dask-local`` (0: every core); the local pool takes its
            worker count from ``run_many`` instead.

    Returns:
        None for the local default (``run_many`` then makes and closes its own pool,
        or runs in-process when ``jobs == 1``); otherwise an executor the caller must
        ``shutdown()`` (or use in a ``with`` block).

    Raises:
        ConfigError: for an executor string it does not know.
        ExecutorError: if a Dask executor cannot be started.
    """
    text = (spec or "").strip()
    if text in ("", "local"):
        return None
    if text == "dask-local":
        return dask_executor(None, jobs)
    if text.startswith("dask://"):
        address = text.removeprefix("dask://")
        host, sep, port = address.rpartition(":")
        if not sep or not host or not port.isdigit():
            raise ConfigError(f"bad Dask scheduler address in executor {spec!r}: expected dask://HOST:PORT")
        if not 1 <= int(port) <= 65535:
            # Refused here: a client would otherwise try to connect for the whole timeout.
            raise ConfigError(f"bad Dask scheduler port in executor {spec!r}: ports run from 1 to 65535")
        return dask_executor(address, jobs)
    raise ConfigError(f"unknown executor {spec!r}: use {EXECUTOR_CHOICES}")
