"""``play_icfp2015``: the contest's command-line program.

Usage: ``play_icfp2015 -f problem_3.json [-f ...] [-t SECONDS] [-m MEGABYTES] [-c CORES]
[-p PHRASE ...]``. It solves every seed of every problem file with the champion solver
and prints the solution JSON (a list of ``problemId, seed, tag, solution``) on standard
output.

* ``-t``: the whole run's time limit. The time is shared out over the games (weighted by
  their size) and the cores, with a safety margin for start-up and output; every game
  returns its best string so far when its share ends. Without ``-t`` each game gets 10 s.
* ``-c``: worker processes (default 1).
* ``-m``: the memory limit; the solvers need well under 100 MB per worker, so it only
  caps the number of workers (about 200 MB each).
* ``-p``: the phrases of power to use (default: the 18 known ones).

A malformed or missing problem file is reported on standard error and skipped; the other
files are still solved. Exit status 1 if any file was skipped.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from snakelab.core.errors import CodecError
from snakelab.games.hextris.codec import Problem, SolutionEntry, format_solutions, load_problem
from snakelab.games.hextris.rules import CHAR_TO_COMMAND
from snakelab.games.hextris.scoring import PHRASES

DEFAULT_SECONDS_PER_GAME = 10.0
_MARGIN_S = 3.0


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


def _init_worker() -> None:
    from snakelab.games.hextris.solver import warm_up

    warm_up()


def _solve_one(args: tuple[Problem, int, float, tuple[str, ...], float | None]) -> SolutionEntry:
    from snakelab.games.hextris.solver import solve_champion

    prob, seed, seconds, phrases, end_at = args
    if end_at is not None:
        # Never run past the whole run's end, whatever the queue did to this game's start.
        seconds = max(0.05, min(seconds, end_at - time.time()))
    sol = solve_champion(prob, seed, seconds, phrases)
    return SolutionEntry(prob.id, seed, sol.solution, f"snakelab-champion w{sol.width} {sol.score}")


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="play_icfp2015", description="Solve ICFP 2015 problems; print solution JSON.")
    ap.add_argument("-f", dest="files", action="append", default=[], help="problem JSON file (repeatable)")
    ap.add_argument("-t", dest="seconds", type=float, default=None, help="time limit for the whole run, seconds")
    ap.add_argument("-m", dest="megabytes", type=int, default=None, help="memory limit, megabytes")
    ap.add_argument("-c", dest="cores", type=int, default=1, help="processor cores to use")
    ap.add_argument("-p", dest="phrases", action="append", default=None, help="phrase of power (repeatable)")
    return ap


def plan_budgets(games: Sequence[tuple[Problem, int]], seconds: float | None, workers: int) -> list[float]:
    """Seconds for each game: an equal-cost share of ``seconds`` over ``workers`` cores.

    A game's weight is its unit count times its board's row count (the path length), so
    big boards get more time.
    """
    if seconds is None:
        return [DEFAULT_SECONDS_PER_GAME] * len(games)
    usable = max(0.2, seconds - _MARGIN_S - 0.15 * seconds) * workers
    weights = [max(1, p.source_length) * max(1, p.height) for p, _ in games]
    total = sum(weights)
    # A worker runs games one after another; shares are cut a little so the last one ends in time.
    return [max(0.05, 0.9 * usable * w / total) for w in weights]


def main(argv: Sequence[str] | None = None) -> None:
    """Console entry point of ``play_icfp2015``."""
    start = time.monotonic() - process_age()
    args = _parser().parse_args(argv)
    if args.cores < 1:
        sys.stderr.write("error: -c must be at least 1\n")
        sys.exit(2)
    workers = args.cores
    if args.megabytes is not None:
        workers = max(1, min(workers, args.megabytes // 200))
    phrases = tuple(args.phrases) if args.phrases is not None else PHRASES
    bad = [p for p in phrases if not p or any(ch.lower() not in CHAR_TO_COMMAND for ch in p)]
    for p in bad:
        sys.stderr.write(f"error: phrase {p!r} has characters that are not commands; not used\n")
    phrases = tuple(p for p in phrases if p not in bad)
    failed = False
    games: list[tuple[Problem, int]] = []
    for f in args.files:
        try:
            prob = load_problem(f)
        except CodecError as exc:
            sys.stderr.write(f"error: {' '.join(str(exc).split())}\n")
            failed = True
            continue
        games.extend((prob, s) for s in dict.fromkeys(prob.source_seeds))
    from snakelab.games.hextris.solver import warm_up

    warm = warm_up()
    # Workers pay the same start-up again; keep it out of the games' shares.
    remaining = None if args.seconds is None else args.seconds - (time.monotonic() - start) - 1.5 * warm
    budgets = plan_budgets(games, remaining, workers)
    end_at = None if remaining is None else time.time() + max(0.1, remaining - _MARGIN_S)
    jobs = [(p, s, b, phrases, end_at) for (p, s), b in zip(games, budgets, strict=True)]
    # Longest first, so the pool ends evenly.
    order = sorted(range(len(jobs)), key=lambda i: -budgets[i])
    results: dict[int, SolutionEntry] = {}
    if workers == 1 or len(jobs) <= 1:
        for i in order:
            results[i] = _solve_one(jobs[i])
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), initializer=_init_worker) as pool:
            futs = {i: pool.submit(_solve_one, jobs[i]) for i in order}
            for i, fut in futs.items():
                results[i] = fut.result()
    sys.stdout.write(format_solutions([results[i] for i in range(len(jobs))]) + "\n")
    if failed:
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
