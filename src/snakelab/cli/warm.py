"""Compiled kernels: the one-line first-run notice and ``snakelab warm``.

Every numba kernel in snakelab is compiled with ``cache=True``, so it is compiled once
per installation (and Python and numba version) and loaded from numba's on-disk cache
afterwards. The first run therefore spends seconds to a minute compiling before it
plays anything; it says so on standard error, in one line::

    compiling kernels, first run only

**How a cold cache is detected.** Not by guessing from files: numba announces a
``numba:compile`` event exactly when a kernel is about to be compiled because its cache
has no usable entry (a cache hit loads the kernel without that event). The CLI listens
for that event (:func:`install_compile_notice`) and prints the line at the first one,
before compiling starts, so the notice costs nothing on a warm cache and is never
wrong. Local pool workers are forked from the command and inherit the listener; one
flag in shared memory makes the line appear once per command, whichever process
compiles first. (Dask workers are separate programs and compile silently.)

**Warming ahead.** :func:`warm_kernels` (``snakelab warm``) compiles every game's
kernels by playing one tiny game or evaluation of each kernel-using agent in-process,
so a later run starts at once. ``make run`` and ``make test`` call ``snakelab warm``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import typer

NOTICE = "compiling kernels, first run only"

_installed: list[int] = []


def install_compile_notice() -> None:
    """Print :data:`NOTICE` on standard error once, when this command first compiles a kernel.

    Safe to call more than once (later calls do nothing). Costs no import: a verb that
    never loads numba (every ``--help``, ``results``, ``replay``) pays nothing, and the
    listener is registered when numba is first imported, in this process or in a forked
    worker (:class:`_AfterImport`). Nothing is printed on a warm cache.
    """
    if _installed:
        return
    # One byte in a pipe that forked workers share: whoever reads it first says the line,
    # so it appears once per command whichever process compiles first.
    token, end = os.pipe()
    os.write(end, b"!")
    os.close(end)
    os.set_blocking(token, False)
    _installed.append(token)
    owner = os.getpid()
    if "numba" in sys.modules:
        _listen(token, owner)
    else:
        sys.meta_path.insert(0, _AfterImport("numba", lambda: _listen(token, owner)))


def _listen(token: int, owner: int) -> None:
    """Register the ``numba:compile`` listener that prints the notice (see :func:`install_compile_notice`)."""
    from numba.core import event

    class _Notice(event.Listener):
        def on_start(self, event: Any) -> None:
            del event
            try:
                if not os.read(token, 1):
                    return  # said already
            except (BlockingIOError, OSError):
                return
            if os.getpid() == owner:
                # Through sys.stderr, so a progress bar on screen keeps its place.
                sys.stderr.write(NOTICE + "\n")
                sys.stderr.flush()
            else:
                # A forked worker: its copy of the parent's progress display must not draw.
                os.write(2, (NOTICE + "\n").encode())

        def on_end(self, event: Any) -> None:
            del event

    event.register("numba:compile", _Notice())  # type: ignore[no-untyped-call]


class _AfterImport:
    """A ``sys.meta_path`` finder that runs ``then()`` once module ``name`` has been imported.

    It finds nothing itself: it asks the other finders for the module's spec and wraps the
    loader's ``exec_module``, then leaves ``sys.meta_path``.
    """

    def __init__(self, name: str, then: Callable[[], None]) -> None:
        self.name = name
        self.then = then

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        """The spec of ``name`` from the other finders, its loader made to call ``then``."""
        del path, target  # the other finders search again
        if fullname != self.name:
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module: Any) -> None:
            run(module)
            self.then()

        loader.exec_module = exec_module
        return spec


def warm_kernels(*, verbose: bool = False, on_part: Callable[[str, float | None], None] | None = None) -> float:
    """Compile (or load from numba's cache) the kernels of every game, in this process.

    Plays one tiny game or evaluation with each agent or evaluator that uses compiled
    kernels: classic and snakgame champions, the arena champion, the blind strategies
    and evaluators, and the hextris solvers.

    Args:
        verbose: Print each part and its seconds on standard error.
        on_part: Called with a game's name and None as its part starts, and with its
            name and seconds when it ends (the progress display of ``snakelab warm``).

    Returns:
        Seconds spent.
    """
    t0 = time.monotonic()
    for name, part in _PARTS:
        if on_part is not None:
            on_part(name, None)
        t = time.monotonic()
        part()
        seconds = time.monotonic() - t
        if on_part is not None:
            on_part(name, seconds)
        if verbose:
            sys.stderr.write(f"{name}: {seconds:.1f} s\n")
    return time.monotonic() - t0


def _classic() -> None:
    from snakelab.core.registry import make, make_agent
    from snakelab.harness.match import play

    play(make("classic(width=8,height=8)"), [make_agent("classic.champion")], 1)


def _snakgame() -> None:
    from snakelab.core.registry import make, make_agent
    from snakelab.harness.match import play

    play(make("snakgame(type=0,rows=8,cols=9)"), [make_agent("snakgame.champion")], 1)
    play(make("snakgame(type=0,rows=8,cols=9)"), [make_agent("snakgame.editorial")], 1)
    # The contest program's own turn kernel (snakelab snakgame client).
    import numpy as np

    from snakelab.games.snakgame.policy import ChampionParams, new_memory, play_turn, start_snake

    occ = np.zeros(12, np.uint8)
    p = new_memory(3, 4, 12, 0, ChampionParams())
    mark, queue = np.zeros(12, np.int64), np.empty(48, np.int32)
    start_snake(occ, p, mark, queue)
    play_turn(occ, p, mark, queue, -1)


def _arena() -> None:
    from snakelab.core.game import Budget
    from snakelab.core.registry import make, make_agent
    from snakelab.harness.match import play

    game = make("arena(game_width=12,game_height=12,duration=1,speed=20)")
    agents = [make_agent("arena.champion"), *(make_agent("arena.greedy") for _ in range(3))]
    play(game, agents, 1, budget=Budget(time_s=0.02))


def _blind() -> None:
    from snakelab.games.blind.evaluate import RunTable, fast_covers, reference_covers
    from snakelab.games.blind.strategies import STRATEGIES, make_strategy

    for name, entry in STRATEGIES.items():
        if entry.alias_of is not None or name == "file":  # (a move file: no moves of its own)
            continue
        moves = make_strategy(name).moves_array(35 * 30 + 1)
        for diagonal in (True, False):  # both evaluators, whichever a sweep would pick
            fast_covers(RunTable(moves, diagonal=diagonal), [5, 6], [6, 5])
        reference_covers(moves, [5], [6])


def _hextris() -> None:
    from snakelab.games.hextris.solver import warm_up

    warm_up()


_PARTS = (("classic", _classic), ("snakgame", _snakgame), ("arena", _arena), ("blind", _blind), ("hextris", _hextris))


def register(app: typer.Typer) -> None:
    """Add the top-level ``warm`` command."""

    @app.command("warm")
    def warm_cmd(
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing (errors excepted)."),
    ) -> None:
        """Compile every game's kernels now, so later runs start at once (make run and make test call it).

        Shows which game is compiling and a line per game with its seconds (a first run on
        a machine takes a minute or more; a warm cache, a second or two).
        """
        install_compile_notice()
        if quiet:
            warm_kernels()
            return
        from snakelab.cli.common import advance, err_console, progress_bar

        with progress_bar(len(_PARTS), "kernels") as prog:
            task = prog.task_ids[0]

            def show(name: str, seconds: float | None) -> None:
                if seconds is None:
                    prog.update(task, description=f"kernels: {name}")
                    if not err_console.is_terminal:  # no live bar: say what is being compiled
                        err_console.print(f"{name}…", highlight=False)
                else:
                    err_console.print(f"{name}: {seconds:.1f} s", highlight=False)
                    advance(prog)

            seconds = warm_kernels(on_part=show)
            prog.update(task, description="kernels")
        err_console.print(f"kernels ready ({seconds:.1f} s)", highlight=False)
