"""Helpers shared by the CLI modules: errors, JSON output, progress bars, live views."""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from rich.console import Console
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from snakelab.cli._grammar import CliConsole
from snakelab.core.errors import SnakelabError
from snakelab.core.game import Event, State

if TYPE_CHECKING:
    from snakelab.harness.match import MatchResult, MatchSpec

console: Console = CliConsole()
err_console: Console = CliConsole(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` on one line of standard error and exit."""
    sys.stderr.write(f"error: {' '.join(message.split())}\n")
    raise typer.Exit(code)


EXECUTOR_HELP = (
    "Where matches run: 'local' (a process pool of --jobs workers, the default), "
    "'dask-local' (a Dask local cluster of --jobs workers) or 'dask://HOST:PORT' (a running Dask scheduler)."
)

RESUME_HELP = "Continue stored run RUN_ID with the same options (see snakelab results list)."


def check_writable(path: Path | None) -> None:
    """Fail now, before any work, if ``path`` could not be written at the end.

    A game played by hand or a long bench must not be lost because its output folder is
    missing or read-only.
    """
    if path is None:
        return
    folder = path.parent
    if path.is_dir():
        fail(f"cannot write {path}: it is a folder")
    if not folder.is_dir():
        fail(f"cannot write {path}: there is no folder {folder}")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        fail(f"cannot write {path}: permission denied")


def print_json(obj: Any) -> None:
    """Print one JSON document on standard output (no colour, no wrapping)."""
    sys.stdout.write(json.dumps(obj, indent=2) + "\n")


PLAIN_EVERY_S = 60.0
"""Without a terminal on standard error, a progress line at most this often."""


def _clock(seconds: float) -> str:
    """``H:MM:SS`` as rich's time columns write it."""
    m, sec = divmod(int(seconds), 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{sec:02d}"


class _Progress(Progress):
    """A rich progress bar that, when standard error is no terminal, also writes plain lines.

    Rich draws nothing live without a terminal (a log file, ``2> file``, a CI job), so a
    long run would say nothing until it ends. Instead, every :data:`PLAIN_EVERY_S`
    seconds of it an update writes one line, e.g. ``arena tournament: 12/100 (0:04:10
    elapsed, about 0:30:35 left)``; the finished bar is printed at the end as usual.
    """

    def __init__(self, *columns: Any, plain: bool, **options: Any) -> None:
        super().__init__(*columns, **options)
        self._plain = plain
        self._last = time.monotonic()

    def advance(self, *args: Any, **kwargs: Any) -> None:
        """Advance a task (as rich does), then perhaps write a plain line."""
        super().advance(*args, **kwargs)
        self._write_plain()

    def update(self, *args: Any, **kwargs: Any) -> None:
        """Update a task (as rich does), then perhaps write a plain line."""
        super().update(*args, **kwargs)
        self._write_plain()

    def _write_plain(self) -> None:
        now = time.monotonic()
        if not self._plain or not self.tasks or now - self._last < PLAIN_EVERY_S:
            return
        task = self.tasks[0]
        if task.finished:
            return  # the final bar says it
        self._last = now
        done = f"{task.completed:g}/{task.total:g}" if task.total is not None else f"{task.completed:g}"
        when = f"{_clock(task.elapsed or 0.0)} elapsed"
        if task.time_remaining is not None:
            when += f", about {_clock(task.time_remaining)} left"
        sys.stderr.write(f"{task.description}: {done} ({when})\n")
        sys.stderr.flush()


@contextmanager
def progress_bar(total: int, label: str, *, enabled: bool = True) -> Iterator[Progress]:
    """A rich progress bar on standard error (so ``--json`` output stays clean).

    Without a terminal there, the bar is drawn once at the end and a plain line is
    written every :data:`PLAIN_EVERY_S` seconds meanwhile (see :class:`_Progress`).
    """
    prog = _Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        disable=not enabled,
        transient=False,
        plain=enabled and not err_console.is_terminal,
    )
    with prog:
        prog.add_task(label, total=total)
        yield prog


def advance(prog: Progress, n: int = 1) -> None:
    """Advance the single task of a :func:`progress_bar`."""
    prog.advance(prog.task_ids[0], n)


class LiveView:
    """Draw a game live in the terminal at a given speed (an ``on_step`` callback).

    Args:
        game_id: The game (its registered renderer draws the state).
        fps: Frames per second; 0 draws only the final state.
    """

    def __init__(self, game_id: str, fps: float) -> None:
        from snakelab.core.registry import game_entry

        entry = game_entry(game_id)
        if entry.render is None:
            raise SnakelabError(f"{game_id} has no terminal renderer")
        self.render = entry.render
        self.fps = fps
        self._live: Live | None = None
        self._next = 0.0
        self._last: State | None = None

    def __enter__(self) -> LiveView:
        if self.fps > 0 and console.is_terminal:
            self._live = Live(console=console, auto_refresh=False, transient=False)
            self._live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            if self._last is not None:
                self._live.update(self.render(self._last), refresh=True)
            self._live.__exit__(None, None, None)
        elif self._last is not None:
            console.print(self.render(self._last))

    def __call__(self, state: State, events: Sequence[Event]) -> None:
        """Draw one frame, pacing to the chosen speed."""
        del events  # the picture shows what matters
        self._last = state
        if self._live is None:
            return
        now = time.monotonic()
        if now < self._next:
            time.sleep(self._next - now)
        self._next = max(now, self._next) + 1.0 / self.fps
        self._live.update(self.render(state), refresh=True)


def run_matches(
    specs: Sequence[MatchSpec],
    label: str,
    *,
    executor: str | None = None,
    jobs: int = 0,
    resume: str | None = None,
    show_progress: bool = True,
    run_seed: int | None = None,
    store: bool | str | os.PathLike[str] = True,
    play: Callable[[MatchSpec], MatchResult] | None = None,
) -> list[MatchResult]:
    """Run matches for a CLI verb: progress bar, executor choice, results in spec order.

    Every bench, sweep and tournament goes through here, so executors (``--executor``)
    and stored, resumable runs (``--resume``) work the same way for all of them.
    Each finished match is written to the results store as it arrives (see
    :mod:`snakelab.harness.store`), and the run id is printed on standard error.

    Args:
        specs: The matches, with seeds already derived from the run seed.
        label: Progress bar text (also the run's label in the store).
        executor: The ``--executor`` option (see :func:`snakelab.harness.executors.make_executor`).
        jobs: Worker processes for the local pool or ``dask-local`` (0: all cores).
        resume: A run id to continue: only its matches not yet stored are played,
            and the result equals an uninterrupted run's.
        show_progress: Draw the progress bar on standard error.
        run_seed: The run seed, recorded with the run.
        store: True for the default store (``$SNAKELAB_STORE``, else the user's data
            folder; ``SNAKELAB_STORE=off`` disables it), a path
            for another store, False to store nothing.
        play: What plays one match (None: an in-process match; see
            :func:`~snakelab.harness.run.run_many`).

    Raises:
        UnknownRunError: for an unknown ``resume`` id.
        ResumeMismatchError: if the options plan different matches than that run.
        StoreError: if ``resume`` is given while storing is disabled.
        ConfigError, ExecutorError: for a bad worker count or a bad or unreachable executor.
    """
    from snakelab.harness.executors import make_executor
    from snakelab.harness.parallel import sigterm_as_interrupt, worker_count
    from snakelab.harness.run import RunHooks, run_many
    from snakelab.harness.store import STORE_ENV, Store, StoreError, default_store_path, parse_run_id, run_stored

    worker_count(jobs)  # a bad --jobs is an error before the progress bar, not inside it
    path: Path | None
    if store is True:
        path = default_store_path()
    elif store is False:
        path = None
    else:
        path = Path(store)
    if path is None:
        if resume is not None:
            raise StoreError(f"--resume needs the results store, which is disabled (${STORE_ENV}=off)")
        ex = make_executor(executor, jobs)
        try:
            with sigterm_as_interrupt(), progress_bar(len(specs), label, enabled=show_progress) as prog:
                extra = {} if play is None else {"play": play}
                return run_many(specs, ex, jobs=jobs or None, on_result=lambda _r: advance(prog), **extra)
        finally:
            if ex is not None:
                ex.shutdown(cancel_futures=True)
    with Store(path) as db:
        if resume is not None:
            db.resume(parse_run_id(resume), specs)  # fail on a bad id before starting workers
        ex = make_executor(executor, jobs)
        try:
            # `kill PID` stops a run as Ctrl-C does: stored matches kept, resume hint printed.
            with sigterm_as_interrupt(), progress_bar(len(specs), label, enabled=show_progress) as prog:
                run: list[int] = []

                def started(run_id: int, done: int) -> None:
                    run.append(run_id)
                    if resume is None:
                        err_console.print(f"run {run_id} stored in {path} (resume with --resume {run_id})")
                    else:
                        err_console.print(f"resuming run {run_id}: {done} of {len(specs)} matches already stored")
                    advance(prog, done)

                try:
                    _, results = run_stored(
                        specs,
                        db,
                        label=label,
                        resume=resume,
                        executor=ex,
                        jobs=jobs or None,
                        command=_command_line(),
                        run_seed=run_seed,
                        hooks=RunHooks(
                            on_start=started,
                            on_result=lambda _r: advance(prog),
                            on_note=lambda note: err_console.print(f"[yellow]note:[/] {note}"),
                            play=play,
                        ),
                    )
                except KeyboardInterrupt:
                    if run:
                        info = db.run(run[0])
                        err_console.print(
                            f"run {info.id}: {info.done} of {info.planned} matches stored; "
                            f"repeat the command with --resume {info.id} to finish it"
                        )
                    raise
                return results
        finally:
            if ex is not None:
                ex.shutdown(cancel_futures=True)


def _command_line() -> str:
    """The command that is running, as a user would retype it."""
    argv = [os.path.basename(sys.argv[0]) if sys.argv else "snakelab", *sys.argv[1:]]
    if argv[0] in ("__main__.py", "-c"):
        argv[0] = "snakelab"
    return shlex.join(argv)
