"""``play_icfp2015``: the contest's command-line program.

Usage: ``play_icfp2015 -f problem_3.json [-f ...] [-t SECONDS] [-m MEGABYTES] [-c CORES]
[-p PHRASE ...]``. It solves every seed of every problem file with the champion solver
and prints the solution JSON (a list of ``problemId, seed, tag, solution``) on standard
output.

* ``-t``: the whole run's time limit, counted from the moment the process started
  (interpreter start-up and imports included), on the wall clock, so it holds on a
  loaded machine too. The program keeps its own clock: the games are shared out over the
  cores by size, and each game's share is recomputed when it starts from the time really
  left, after reserving the measured per-game overhead of the games still to come and a
  tail for the output. A game returns its best string so far when its share ends; a
  game whose turn comes with no time left is answered with the empty solution (valid,
  it scores 0) rather than overrun. Without ``-t`` each game gets 10 s. It must be a
  positive number.
* ``-c``: processes solving at once (default 1; at most the machine's cores). The extra
  ones are forked from the warmed-up main process, so they cost no start-up.
* ``-m``: the memory limit in megabytes. Each solving process needs about
  :data:`MB_PER_PROCESS` MB (the interpreter, numpy and the compiled kernels are most of
  it), so ``-m`` caps the processes at ``m // MB_PER_PROCESS`` and a value below one
  process's need is refused (exit 2) rather than ignored.
* ``-p``: the phrases of power to use (default: the 18 known ones).

The compiled kernels are cached on disk by the first run on a machine (about a minute,
the contest's build step); a run with a cold cache spends that time before its clock can
do anything about it.

A malformed or missing problem file, or a phrase with characters that are not commands,
is reported on standard error and skipped; the other files are still solved with the
other phrases. Exit status 1 if anything was skipped, 2 for a bad option.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import queue
import sys
import time
from collections.abc import Sequence
from typing import Any, NoReturn

from snakelab.core.errors import CodecError
from snakelab.games.hextris.codec import Problem, SolutionEntry, format_solutions, load_problem
from snakelab.games.hextris.rules import CHAR_TO_COMMAND
from snakelab.games.hextris.scoring import PHRASES

DEFAULT_SECONDS_PER_GAME = 10.0

#: Peak resident memory of one solving process, megabytes (measured about 150 MB on the
#: contest's problems; the rest is headroom for wide beams on big boards).
MB_PER_PROCESS = 200

#: Per-game overhead (preparing the problem, scoring passes, the embedding's tail past
#: its deadline) assumed until some games have been measured, seconds.
INITIAL_OVERHEAD_S = 0.01

Game = tuple[Problem, int]


def process_age() -> float:
    """Seconds since this process started (Linux ``/proc``; 1.5 s where that is unknown).

    The time limit covers the whole program, interpreter start-up and imports included.
    """
    try:
        with open("/proc/self/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        start_ticks = int(fields[19])
        with open("/proc/uptime") as fh:
            uptime = float(fh.read().split()[0])
        return max(0.0, uptime - start_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 1.5


def tail_reserve(seconds: float) -> float:
    """Seconds kept free at the end of a ``seconds`` run.

    They cover writing the output, exiting, and the last game's overrun past its share
    (up to a quarter second on a big board).
    """
    return min(2.0, 0.3 + 0.03 * seconds)


def game_weight(game: Game) -> int:
    """Relative cost of a game: its unit count times its board's row count (the path length)."""
    prob, _seed = game
    return max(1, prob.source_length) * max(1, prob.height)


def partition(games: Sequence[Game], workers: int) -> list[list[int]]:
    """Game indices per worker, balanced by weight (longest first to the least loaded).

    Each list is in decreasing weight, so the games a worker ends with are small ones:
    a small game overruns its share least.
    """
    bins: list[list[int]] = [[] for _ in range(max(1, workers))]
    loads = [0] * len(bins)
    for i in sorted(range(len(games)), key=lambda i: -game_weight(games[i])):
        k = loads.index(min(loads))
        bins[k].append(i)
        loads[k] += game_weight(games[i])
    return [b for b in bins if b]


def plan_budgets(games: Sequence[Game], seconds: float | None, workers: int) -> list[float]:
    """A first plan: seconds for each game if overheads were nil (``seconds`` shared by weight).

    The run itself re-plans each game when it starts (see :func:`solve_games`); this is
    the shape of that plan: each worker's games get its time in proportion to their weight.
    """
    if seconds is None:
        return [DEFAULT_SECONDS_PER_GAME] * len(games)
    out = [0.0] * len(games)
    for part in partition(games, workers):
        total = sum(game_weight(games[i]) for i in part)
        for i in part:
            out[i] = seconds * game_weight(games[i]) / total
    return out


def _empty(game: Game) -> SolutionEntry:
    prob, seed = game
    return SolutionEntry(prob.id, seed, "", "snakelab-champion out of time")


def solve_games(
    games: Sequence[Game],
    order: Sequence[int],
    phrases: tuple[str, ...],
    end: float | None,
    emit: Any,
) -> None:
    """Solve ``games[i]`` for ``i`` in ``order`` one after another, calling ``emit(i, entry)``.

    With an ``end`` (a ``time.monotonic`` value), each game's time is re-planned when it
    starts: the time left, less the estimated overhead of every game still to come, shared
    by weight over those games. The overhead estimate follows what the games really took
    beyond their shares. A game whose turn comes with no time left gets the empty solution.
    """
    from snakelab.games.hextris.solver import solve_champion

    overhead = INITIAL_OVERHEAD_S
    left_weight = sum(game_weight(games[i]) for i in order)
    for n, i in enumerate(order):
        prob, seed = games[i]
        w = game_weight(games[i])
        if end is None:
            share = DEFAULT_SECONDS_PER_GAME
        else:
            left = end - time.monotonic()
            if left < overhead:
                # Not even this game's overhead fits: answer it (and the rest) empty.
                emit(i, _empty(games[i]))
                left_weight -= w
                continue
            # When the overheads of all the games to come do not fit any more, the games
            # run at the least share, one after another, until the time is out.
            share = max(0.001, (left - overhead * (len(order) - n)) * w / left_weight)
        t0 = time.monotonic()
        sol = solve_champion(prob, seed, share, phrases)
        spent = time.monotonic() - t0
        # A smoothed estimate of what a game costs beyond its share.
        overhead = max(0.002, 0.8 * overhead + 0.2 * (spent - share))
        left_weight -= w
        emit(i, SolutionEntry(prob.id, seed, sol.solution, f"snakelab-champion w{sol.width} {sol.score}"))


def _worker(games: Sequence[Game], order: Sequence[int], phrases: tuple[str, ...], end: float | None, q: Any) -> None:
    """A forked solving process: its games' entries go to the queue as they finish."""
    solve_games(games, order, phrases, end, lambda i, e: q.put((i, e)))


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="play_icfp2015",
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
    sys.stderr.write(f"play_icfp2015: error: {msg}\n")
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
        if not p or any(ch.lower() not in CHAR_TO_COMMAND for ch in p):
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
    results = _run(games, tuple(phrases), end, workers)
    sys.stdout.write(format_solutions([results.get(i) or _empty(g) for i, g in enumerate(games)]) + "\n")
    short = sum(1 for i in range(len(games)) if i not in results or not results[i].solution)
    if short and end is not None:
        sys.stderr.write(f"note: {short} of {len(games)} games had no time left and got the empty solution\n")
    return 1 if failed else 0


def main() -> NoReturn:
    """Console entry point of ``play_icfp2015``: :func:`run`, then a prompt exit.

    The process leaves with ``os._exit`` once its output is flushed: the interpreter's
    orderly teardown with the compiled kernels loaded takes close to half a second on a
    loaded machine, time the limit has to cover and nothing needs.
    """
    code = run()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _run(games: list[Game], phrases: tuple[str, ...], end: float | None, workers: int) -> dict[int, SolutionEntry]:
    """Solve every game within ``end``; the entries by game index (missing: no time)."""
    results: dict[int, SolutionEntry] = {}
    if not games or (end is not None and time.monotonic() >= end):
        return results
    from snakelab.games.hextris.solver import warm_up

    # Loading the compiled kernels is start-up: it comes out of the run's time like the
    # rest, and the forked workers inherit it.
    warm_up()
    parts = partition(games, workers)

    def keep(i: int, entry: SolutionEntry) -> None:
        results[i] = entry

    if len(parts) == 1:
        solve_games(games, parts[0], phrases, end, keep)
        return results
    ctx = mp.get_context("fork")
    # A forked child flushes the buffers it inherits when it ends: empty them first.
    sys.stdout.flush()
    sys.stderr.flush()
    q = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(games, part, phrases, end, q), daemon=True) for part in parts[1:]]
    for proc in procs:
        proc.start()
    try:
        solve_games(games, parts[0], phrases, end, keep)
        # The workers' games: wait for them until the run's end (plus their own tail),
        # never longer; a game still missing then is answered with the empty solution.
        expected = sum(len(p) for p in parts[1:])
        got = 0
        hard_end = None if end is None else end + 0.3
        while got < expected:
            timeout = 1.0 if hard_end is None else min(1.0, max(0.0, hard_end - time.monotonic()))
            try:
                i, entry = q.get(timeout=timeout)
            except queue.Empty:
                out_of_time = hard_end is not None and time.monotonic() >= hard_end
                if out_of_time or not any(proc.is_alive() for proc in procs):
                    break  # a worker that died takes its games with it: they get the empty solution
                continue
            results[i] = entry
            got += 1
    finally:
        for proc in procs:
            if proc.is_alive():
                proc.kill()
        for proc in procs:
            proc.join(1.0)
    return results


if __name__ == "__main__":  # pragma: no cover
    main()
