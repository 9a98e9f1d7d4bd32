"""One process at a time per stored run: a lock next to the results store.

A run is played by the process that started it, or by one ``--resume RUN_ID``. Two at
once would both play the missing matches, so whoever plays a run holds its lock: a
POSIX record lock on byte ``RUN_ID`` of the file ``<store>.lock`` beside the store. The
system drops such a lock when its process ends, however it ends (SIGKILL included),
so a crashed run never leaves a stale lock behind; the small lock file itself stays.
A second process asking for the same run is refused at once with a clear message.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from snakelab.core.errors import SnakelabError


class RunBusyError(SnakelabError):
    """Another process is playing (or resuming) this run right now."""


class RunLock:
    """The lock of one run of one store, held until :meth:`release` (or the process ends).

    Args:
        store: The store file.
        run_id: The run.

    Raises:
        RunBusyError: if another process holds it.
        SnakelabError: if the lock file cannot be opened.
    """

    def __init__(self, store: str | os.PathLike[str], run_id: int) -> None:
        self.path = Path(f"{os.fspath(store)}.lock")
        self.run_id = run_id
        try:
            self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise SnakelabError(f"cannot open the run lock file {self.path}: {exc.strerror or exc}") from None
        try:
            # Byte run_id of the file: one lock per run, all in one file.
            fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, run_id)
        except OSError:
            os.close(self._fd)
            self._fd = None
            raise RunBusyError(
                f"run {run_id} is being played by another process right now; "
                f"wait for it to end (or stop it) before resuming it with --resume {run_id}"
            ) from None

    def release(self) -> None:
        """Let other processes play the run (idempotent)."""
        if self._fd is not None:
            os.close(self._fd)  # closing the file drops this process's locks on it
            self._fd = None

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
