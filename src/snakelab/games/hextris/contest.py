"""The time plan of ``play_icfp2015``, the contest's command-line program.

The program itself (options, output, exit status, the processes it runs) is
:mod:`snakelab.cli.icfp2015`; this module is the game-side part it plans with, which
needs no processes of its own: how games are weighed and shared out over the solving
processes (:func:`partition`), and how one process solves its share of the games
within the run's end (:func:`solve_games`, :func:`solve_part`).

**The time plan.** The time limit counts from the moment the process started
(:func:`process_age`: interpreter start-up and imports included), on the wall clock, so
it holds on a loaded machine too. The games are shared out over the processes by
weight (units × rows: the length of the path to search), biggest first; each game's
share is recomputed when it starts from the time really left, after reserving the
measured per-game overhead of the games still to come and a tail for the output
(:func:`tail_reserve`). A game returns its best string so far when its share ends; a
game whose turn comes with no time left is answered with the empty solution (valid, it
scores 0) rather than overrun. Without a limit each game gets
:data:`DEFAULT_SECONDS_PER_GAME`.

Each solving process needs about :data:`MB_PER_PROCESS` MB (the interpreter, numpy and
the compiled kernels are most of it), which is how the program turns its memory limit
into a number of processes.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence

from snakelab.games.hextris.codec import Problem, SolutionEntry

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


def empty_entry(game: Game) -> SolutionEntry:
    """The answer of a game that got no time: the empty solution (valid; it scores 0)."""
    prob, seed = game
    return SolutionEntry(prob.id, seed, "", "snakelab-champion out of time")


def solve_games(
    games: Sequence[Game],
    order: Sequence[int],
    phrases: tuple[str, ...],
    end: float | None,
    emit: Callable[[int, SolutionEntry], None],
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
                emit(i, empty_entry(games[i]))
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


PartTask = tuple[list[tuple[int, Game]], tuple[str, ...], float | None]
"""One process's share: its games with their positions in the run, the phrases, the end."""


def part_task(games: Sequence[Game], order: Sequence[int], phrases: tuple[str, ...], end: float | None) -> PartTask:
    """The picklable task of a process solving ``games[i]`` for ``i`` in ``order`` (see :func:`solve_part`)."""
    return ([(i, games[i]) for i in order], phrases, end)


def solve_part(task: PartTask) -> list[tuple[int, SolutionEntry]]:
    """Solve one process's share of the games (a :func:`part_task`); the entries by run position.

    A module-level function of one picklable argument, so a process map can run it;
    ``end`` is a ``time.monotonic`` value, which is the same clock in every process of
    the machine.
    """
    indexed, phrases, end = task
    games = [g for _, g in indexed]
    out: list[tuple[int, SolutionEntry]] = []
    solve_games(games, range(len(games)), phrases, end, lambda k, entry: out.append((indexed[k][0], entry)))
    return out
