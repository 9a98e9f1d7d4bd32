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

from snakelab.core.game import Budget
from snakelab.harness import MatchResult, MatchSpec, match_seeds, run_many
from snakelab.harness.ratings import wilson_interval


def rotating_specs(refs: list[str], games: int, seed: int) -> list[MatchSpec]:
    """Game k seats the line-up rotated by k, so every agent sits in every seat equally often."""
    n = len(refs)
    return [
        MatchSpec(
            "arena", tuple(refs[(i - k) % n] for i in range(n)), s, budget=Budget(time_s=0.05), measure=True, index=k
        )
        for k, s in enumerate(match_seeds(seed, games))
    ]


def summarise(results: list[MatchResult]) -> list[dict[str, object]]:
    """Per agent: games, wins, win rate with its 95% Wilson interval, mean longest, p99 move time."""
    stats: dict[str, dict[str, list[float]]] = {}
    for res in results:
        for seat, agent in enumerate(res.agents):
            st = stats.setdefault(agent, {"wins": [], "longest": [], "times": []})
            st["wins"].append(float(res.outcome.winner == seat))
            st["longest"].append(res.outcome.details["longest"][seat])
            if res.move_times:
                st["times"].extend(res.move_times[seat])
    rows: list[dict[str, object]] = []
    for agent, st in stats.items():
        games, wins = len(st["wins"]), int(sum(st["wins"]))
        times = sorted(st["times"])
        rows.append(
            {
                "bot": agent,
                "games": games,
                "wins": wins,
                "win_rate": wins / games,
                "ci95": wilson_interval(wins, games),
                "mean_longest": sum(st["longest"]) / games,
                "p99_move_ms": 1e3 * times[min(len(times) - 1, int(0.99 * len(times)))] if times else float("nan"),
            }
        )
    return sorted(rows, key=lambda r: -float(r["win_rate"]))  # type: ignore[arg-type]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    refs = ["arena.champion", "arena.greedy", "arena.greedy", "arena.greedy"]
    specs = rotating_specs(refs, args.games, args.seed)
    t0 = time.perf_counter()
    done = 0

    def progress(_r: object) -> None:
        nonlocal done
        done += 1
        if done % 10 == 0:
            print(f"# {done}/{args.games} games, {time.perf_counter() - t0:.0f} s", flush=True)

    results = run_many(specs, jobs=args.jobs, on_result=progress)
    wall = time.perf_counter() - t0
    rows = summarise(results)
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
