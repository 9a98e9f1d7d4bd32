"""``play_icfp2015``: the ICFP 2015 contest's command-line program.

Usage: ``play_icfp2015 -f problem_3.json [-f ...] [-t SECONDS] [-m MEGABYTES] [-c CORES]
[-p PHRASE ...]``. It solves every seed of every problem file with the champion solver
and prints the solution JSON (a list of ``problemId, seed, tag, solution``) on standard
output. (Also ``python -m snakelab.cli.icfp2015``.)

* ``-t``: the whole run's time limit, counted from the moment the process started
  (interpreter start-up and imports included), on the wall clock, so it holds on a
  loaded machine too. The time plan is :mod:`snakelab.games.hextris.contest`'s: the
  games are shared out over the processes by size, each game's share is recomputed
  when it starts from the time really left, and a game whose turn comes with no time
  left is answered with the empty solution (valid, it scores 0) rather than overrun.
  Without ``-t`` each game gets 10 s. It must be a positive number.
* ``-c``: processes solving at once (default 1; at most the machine's cores). With
  one, the games are solved in this process. With more, each process's share of the
  games is one task of the harness's parallel map
  (:func:`snakelab.harness.parallel.parallel_map`): its workers are forked from this
  process once the compiled kernels are loaded, so they cost no start-up, and they die
  with it. This process only waits for them, and not past the end of the run: a share
  still unanswered a moment after the run's end (a stalled or killed worker) is
  answered with empty solutions, and its worker is stopped.
* ``-m``: the memory limit in megabytes. Each solving process needs about
  :data:`~snakelab.games.hextris.contest.MB_PER_PROCESS` MB, so ``-m`` caps the
  processes at ``m // MB_PER_PROCESS``, and a value below one process's need is
  refused (exit 2) rather than ignored. (The waiting process shares its loaded
  kernels with the forked workers, page for page, so it adds little of its own.)
* ``-p``: the phrases of power to use (default: the 18 known ones).

The compiled kernels are cached on disk by the first run on a machine (about a minute,
the contest's build step); a run with a cold cache spends that time before its clock can
do anything about it.

A malformed or missing problem file, or a phrase with characters that are not commands,
is reported on standard error and skipped; the other files are still solved with the
other phrases. Exit status 1 if anything was skipped, 2 for a bad option, 130 when
interrupted with Ctrl-C and 143 when stopped by SIGTERM (nothing is printed on standard
output then), as every ``snakelab`` verb.

This module is imported by the program's entry point only: it is no ``snakelab``
sub-command (it defines no ``app``).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import NoReturn

from snakelab.core.errors import CodecError
from snakelab.games.hextris.codec import SolutionEntry, format_solutions, load_problem
from snakelab.games.hextris.contest import (
    MB_PER_PROCESS,
    Game,
    empty_entry,
    part_task,
    partition,
    process_age,
    solve_part,
    tail_reserve,
)
from snakelab.games.hextris.rules import CHAR_TO_COMMAND
from snakelab.games.hextris.scoring import PHRASES

PROG = "play_icfp2015"

#: Seconds past the run's end that this process waits for its workers' answers.
WORKER_GRACE_S = 0.3

INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT, as shells report it)."""

TERMINATED = 143
"""Exit status after SIGTERM (128 + SIGTERM)."""


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog=PROG,
        description="Solve ICFP 2015 problems; print solution JSON.",
        epilog=(
            "The time limit counts from the program's start and is kept on the wall clock: "
            "games with no time left are answered with the empty solution. Bad problem files "
            "and bad phrases are reported and skipped (exit 1); bad options exit 2."
        ),
    )
    ap.add_argument("-f", dest="files", action="append", default=[], help="problem JSON file (repeatable)")
    ap.add_argument(
        "-t",
        dest="seconds",
        type=float,
        default=None,
        help="time limit for the whole run in seconds, start-up included (> 0; default: 10 s per game)",
    )
    ap.add_argument(
        "-m",
        dest="megabytes",
        type=int,
        default=None,
        help=(
            f"memory limit in megabytes: each solving process needs about {MB_PER_PROCESS} MB, so fewer "
            f"cores are used to stay within it, and values below {MB_PER_PROCESS} are refused"
        ),
    )
    ap.add_argument("-c", dest="cores", type=int, default=1, help="processor cores to use (default 1)")
    ap.add_argument(
        "-p",
        dest="phrases",
        action="append",
        default=None,
        help=(
            "phrase of power (repeatable; default: the 18 known ones); "
            "a phrase with characters that are not commands is skipped"
        ),
    )
    return ap


def _usage_error(msg: str) -> int:
    sys.stderr.write(f"{PROG}: error: {msg}\n")
    return 2


def run(argv: Sequence[str] | None = None, start: float | None = None) -> int:
    """Parse ``argv``, solve, print the solution JSON; the exit status (0, 1 or 2).

    Args:
        argv: The arguments (default ``sys.argv[1:]``).
        start: The ``time.monotonic`` value the time limit counts from (default: this
            process's start).
    """
    if start is None:
        start = time.monotonic() - process_age()
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # --help, or argparse's own usage error
        return int(exc.code or 0)
    if args.seconds is not None and not (math.isfinite(args.seconds) and args.seconds > 0):
        return _usage_error(f"-t must be a positive number of seconds, got {args.seconds:g}")
    if args.cores < 1:
        return _usage_error(f"-c must be at least 1, got {args.cores}")
    # More processes than cores only share the same cores, each game then searching slower.
    workers = min(args.cores, os.cpu_count() or 1)
    if args.megabytes is not None:
        if args.megabytes < MB_PER_PROCESS:
            return _usage_error(
                f"-m {args.megabytes}: one solving process needs about {MB_PER_PROCESS} MB; "
                f"give -m {MB_PER_PROCESS} or more"
            )
        workers = min(workers, args.megabytes // MB_PER_PROCESS)
    failed = False
    phrases: list[str] = []
    for p in args.phrases if args.phrases is not None else PHRASES:
        if not p:
            sys.stderr.write("error: phrase '' is empty; not used\n")
            failed = True
        elif any(ch.lower() not in CHAR_TO_COMMAND for ch in p):
            sys.stderr.write(f"error: phrase {p!r} has characters that are not commands; not used\n")
            failed = True
        elif p not in phrases:
            phrases.append(p)
    games: list[Game] = []
    for f in args.files:
        try:
            prob = load_problem(f)
        except CodecError as exc:
            sys.stderr.write(f"error: {' '.join(str(exc).split())}\n")
            failed = True
            continue
        games.extend((prob, s) for s in dict.fromkeys(prob.source_seeds))
    end = None if args.seconds is None else start + args.seconds - tail_reserve(args.seconds)
    results = solve(games, tuple(phrases), end, workers)
    sys.stdout.write(format_solutions([results.get(i) or empty_entry(g) for i, g in enumerate(games)]) + "\n")
    short = sum(1 for i in range(len(games)) if i not in results or not results[i].solution)
    if short and end is not None:
        sys.stderr.write(f"note: {short} of {len(games)} games had no time left and got the empty solution\n")
    return 1 if failed else 0


class _OutOfTimeError(Exception):
    """The run's end (plus the workers' grace) passed while waiting for workers."""


@contextmanager
def _deadline(at: float | None) -> Iterator[None]:
    """Raise :class:`_OutOfTimeError` in this (main) thread once ``time.monotonic()`` passes ``at``.

    An alarm signal, because waiting for the workers blocks inside the parallel map:
    the exception leaves the map there, which stops its workers at once. Nothing is
    armed outside the main thread or without ``at``.
    """
    if at is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(_signum: int, _frame: object) -> None:
        raise _OutOfTimeError

    previous = signal.signal(signal.SIGALRM, expire)
    armed = time.monotonic()
    other, _ = signal.setitimer(signal.ITIMER_REAL, max(0.001, at - armed))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if other > 0:  # someone else's alarm was pending: give it back what is left of it
            signal.setitimer(signal.ITIMER_REAL, max(0.001, other - (time.monotonic() - armed)))


def solve(games: list[Game], phrases: tuple[str, ...], end: float | None, workers: int) -> dict[int, SolutionEntry]:
    """Solve every game within ``end`` over ``workers`` processes; the entries by game index.

    A game missing from the result got no time (or its worker was lost): the caller
    answers it with the empty solution.
    """
    results: dict[int, SolutionEntry] = {}
    if not games or (end is not None and time.monotonic() >= end):
        return results
    from snakelab.games.hextris.solver import warm_up

    # Loading the compiled kernels is start-up: it comes out of the run's time like the
    # rest, and the forked workers inherit it.
    warm_up()
    tasks = [part_task(games, part, phrases, end) for part in partition(games, workers)]
    if len(tasks) == 1:
        # In this process: the share keeps the run's end by itself, game by game.
        results.update(solve_part(tasks[0]))
        return results
    # (Imported here: a run on one core loads no process pool.)
    from concurrent.futures.process import BrokenProcessPool

    from snakelab.harness.parallel import parallel_map

    # A forked worker flushes the buffers it inherits when it ends: empty them first.
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        with _deadline(None if end is None else end + WORKER_GRACE_S):
            for _, entries in parallel_map(solve_part, tasks, jobs=len(tasks), initializer=warm_up):
                results.update(entries)
    except _OutOfTimeError:
        pass  # the shares not in yet get empty solutions (the map has stopped their workers)
    except BrokenProcessPool:
        sys.stderr.write(f"{PROG}: a solving process died; its games get the empty solution\n")
    return results


def _interrupted(signum: int, _frame: object) -> None:
    """Ctrl-C or SIGTERM: stop the solving processes and leave at once, with one line.

    Leaving from the handler itself, rather than raising into whatever runs (an
    exception raised inside the compiled kernels' loading comes out wrapped, as a
    traceback), is safe here: the program has nothing to save, since its output is
    written only at the end. ``os.write``, because the interrupted code may be inside
    a write to ``sys.stderr`` itself.
    """
    # No import in a signal handler: without multiprocessing loaded there is no worker.
    mp = sys.modules.get("multiprocessing")
    for child in mp.active_children() if mp is not None else ():
        with contextlib.suppress(OSError):
            child.terminate()
    os.write(2, f"{PROG}: interrupted\n".encode())
    os._exit(TERMINATED if signum == signal.SIGTERM else INTERRUPTED)


def main() -> NoReturn:
    """Console entry point of ``play_icfp2015``: :func:`run`, then a prompt exit.

    The process leaves with ``os._exit`` once its output is flushed: the interpreter's
    orderly teardown with the compiled kernels loaded takes close to half a second on a
    loaded machine, time the limit has to cover and nothing needs. Ctrl-C or SIGTERM
    stops the run with one line on standard error, nothing on standard output and exit
    status 130 (SIGTERM: 143), and no solving process outlives it.
    """
    signal.signal(signal.SIGINT, _interrupted)
    signal.signal(signal.SIGTERM, _interrupted)
    code = run()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    main()
