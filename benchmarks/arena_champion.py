"""Strength and speed of `arena.champion`: seeded default games against three `arena.greedy`.

Seats rotate (the champion sits in seat k mod 4 in game k); a win is being ranked first
(longest length, then kills, then the higher index). Each agent gets Budget(time_s=0.05),
the engine's default 50 ms, and every decision is timed for the 99th percentile. This is
exactly what `snakelab arena tournament champion greedy greedy greedy` reports.

    .venv/bin/python benchmarks/arena_champion.py [--games 200] [--jobs 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

from snakelab.cli.arena import summarise, tournament_specs
from snakelab.harness.run import run_many


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    refs = ["arena.champion", "arena.greedy", "arena.greedy", "arena.greedy"]
    specs, lineups = tournament_specs(refs, 4, args.games, args.seed, "arena", 50)
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
        print(
            f"| {r['bot']} | {r['games']} | {r['wins']} | {r['win_rate']:.1%} | {lo:.1%}–{hi:.1%} | "
            f"{r['mean_longest']:.1f} | {r['p99_move_ms']:.2f} |"
        )


if __name__ == "__main__":
    main()
