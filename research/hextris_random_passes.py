"""The champion with and without its random-weight passes, side by side at equal time.

    .venv/bin/python research/hextris_random_passes.py --seconds 20

For each ICFP 2015 problem whose board has at most 1000 cells (the boards where the passes
run), the first seed is solved twice with ``--seconds`` each: once as the champion runs
(``random_passes=True``) and once stopping when the widening is done. The games run two
at a time, the two of a problem next to each other, so both see about the same machine
load. Prints per problem both official scores, the width of the pass that won and the
change.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from snakelab.games.hextris.codec import Problem, load_problem_id


def _init() -> None:
    from snakelab.games.hextris.solver import warm_up

    warm_up()


def _solve(job: tuple[Problem, bool, float]) -> tuple[int, int]:
    from snakelab.games.hextris.scoring import PHRASES
    from snakelab.games.hextris.solver import ChampionSearch, solve_champion

    prob, random_passes, seconds = job
    sol = solve_champion(prob, prob.source_seeds[0], seconds, PHRASES, ChampionSearch(random_passes=random_passes))
    return sol.score, sol.width


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="seconds per game")
    ap.add_argument("--problems", type=int, nargs="*", default=list(range(25)))
    args = ap.parse_args()
    from snakelab.games.hextris.solver import LOST_MAX_CELLS

    probs = [load_problem_id(p) for p in args.problems]
    probs = [p for p in probs if p.width * p.height <= LOST_MAX_CELLS]
    jobs = [(p, flag, args.seconds) for p in probs for flag in (False, True)]
    t0 = time.monotonic()
    print(f"{'problem':>7} {'widening only':>16} {'+ random passes':>16} {'change':>8}")
    totals = [0, 0]
    with ProcessPoolExecutor(max_workers=2, initializer=_init) as pool:
        results = list(pool.map(_solve, jobs))
    for i, p in enumerate(probs):
        (old, w_old), (new, w_new) = results[2 * i], results[2 * i + 1]
        totals[0] += old
        totals[1] += new
        print(f"{p.id:>7} {old:>10} (w{w_old:<3}) {new:>10} (w{w_new:<3}) {new / old - 1:>+8.1%}")
    print(f"{'total':>7} {totals[0]:>16} {totals[1]:>16} {totals[1] / totals[0] - 1:>+8.2%}")
    print(f"wall {time.monotonic() - t0:.0f} s")


if __name__ == "__main__":
    main()
