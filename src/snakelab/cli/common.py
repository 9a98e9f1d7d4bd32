"""Helpers shared by the CLI modules: errors, JSON output, progress bars, live views."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from snakelab.core.errors import ConfigError, SnakelabError
from snakelab.core.game import Event, State
from snakelab.core.registry import game_entry
from snakelab.harness.match import MatchResult, MatchSpec
from snakelab.harness.run import run_many

console = Console()
err_console = Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` on one line of standard error and exit."""
    sys.stderr.write(f"error: {' '.join(message.split())}\n")
    raise typer.Exit(code)


EXECUTOR_HELP = "Where matches run: 'local' (a process pool of --jobs workers, the default)."


def make_executor(spec: str | None, jobs: int) -> Executor | None:
    """Turn an ``--executor`` option into an executor for :func:`run_many`.

    Returns None for the local default (``run_many`` then makes and closes its own
    process pool, or runs in-process when ``jobs == 1``).

    Raises:
        ConfigError: for an executor it does not know.
    """
    del jobs  # the local pool takes jobs from run_many
    if spec in (None, "", "local"):
        return None
    raise ConfigError(f"unknown executor {spec!r}: use 'local'")


def print_json(obj: Any) -> None:
    """Print one JSON document on standard output (no colour, no wrapping)."""
    sys.stdout.write(json.dumps(obj, indent=2) + "\n")


@contextmanager
def progress_bar(total: int, label: str, *, enabled: bool = True) -> Iterator[Progress]:
    """A rich progress bar on standard error (so ``--json`` output stays clean)."""
    prog = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        disable=not enabled,
        transient=False,
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
) -> list[MatchResult]:
    """Run matches for a CLI verb: progress bar, executor choice, results in spec order.

    Every bench, sweep and tournament goes through here, so executors (``--executor``)
    and stored, resumable runs (``--resume``) work the same way for all of them.

    Args:
        specs: The matches, with seeds already derived from the run seed.
        label: Progress bar text.
        executor: The ``--executor`` option (see :func:`make_executor`).
        jobs: Worker processes for the local pool (0: all cores).
        resume: A run id to continue (needs a results store; see ``snakelab results``).
        show_progress: Draw the progress bar on standard error.
    """
    if resume is not None:
        raise ConfigError("--resume needs the results store, which this build does not have")
    ex = make_executor(executor, jobs)
    with progress_bar(len(specs), label, enabled=show_progress) as prog:
        return run_many(specs, ex, jobs=jobs or None, on_result=lambda _r: advance(prog))
