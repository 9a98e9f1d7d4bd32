"""Strength and speed of `arena.champion`: a line-up against three references, seats rotating.

The bar's settings by default: `arena(duration=60)` (50×50, 4 seats, 3 zombies, 1,200
steps), every agent 10 ms a move, three `arena.voronoi`, seats rotating (game k seats
the line-up rotated by k); a win is being ranked first (longest length, then kills, then
the higher index). Every decision is timed for the 99th percentile. The line-ups and
their table are the harness's (`snakelab.harness.tournament`), so this prints what
`snakelab arena tournament champion voronoi voronoi voronoi -n 100 -j 1 -c
benchmarks/arena/duration60.txt --budget-ms 10 --seed 99` reports.

    .venv/bin/python benchmarks/arena_champion.py [--games 100] [--jobs 1] [--seed 99] [--opponent voronoi]
"""

from __future__ import annotations

import argparse
import time

from snakelab.harness import run_many
from snakelab.harness.tournament import summarise, tournament_specs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=99)
    ap.add_argument("--opponent", default="voronoi", help="the three references (voronoi, mcts, greedy)")
    ap.add_argument("--game", default="arena(duration=60)", help="the game string (the bar's: 1,200 steps)")
    ap.add_argument("--budget-ms", type=float, default=10.0, help="each agent's time a move")
    args = ap.parse_args()
    refs = ["arena.champion", *[f"arena.{args.opponent}"] * 3]
    specs, lineups = tournament_specs(refs, 4, args.games, args.seed, args.game, args.budget_ms)
    t0 = time.perf_counter()
    done = 0

    def progress(_r: object) -> None:
        nonlocal done
        done += 1
        if done % 10 == 0:
            print(f"# {done}/{args.games} games, {time.perf_counter() - t0:.0f} s", flush=True)

    results = run_many(specs, jobs=args.jobs, on_result=progress)
    wall = time.perf_counter() - t0
    rows = summarise(refs, results, lineups)
    print(f"| bot | games | wins | win rate | 95% CI (Wilson) | mean longest | p99 move ms |  ({wall:.0f} s)")
    print("|---|---:|---:|---:|---|---:|---:|")
    for r in rows:
        lo, hi = r["ci95"]
        p99 = "-" if r["p99_move_ms"] is None else f"{r['p99_move_ms']:.2f}"
        print(
            f"| {r['bot']} | {r['games']} | {r['wins']} | {r['win_rate']:.1%} | {lo:.1%}–{hi:.1%} | "
            f"{r['mean_longest']:.1f} | {p99} |"
        )


if __name__ == "__main__":
    main()
