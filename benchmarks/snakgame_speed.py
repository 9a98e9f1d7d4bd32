"""Speed of one snakgame game in-process: wall and CPU seconds, moves per second.

The issue's target: one type-2 game (about 600×600) with `champion` in ≤ 60 s in-process.
The harness's `play` fast path, no replay. CPU seconds (``time.process_time``) are quoted
next to wall seconds because the benchmark machine is shared.

    .venv/bin/python benchmarks/snakgame_speed.py [--type 2] [--seeds 3] [--agents champion,editorial]
"""

from __future__ import annotations

import argparse
import time

from snakelab import make, make_agent
from snakelab.harness import match_seeds, play


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--type", type=int, default=2)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--agents", default="champion,editorial")
    args = ap.parse_args()
    game = make(f"snakgame(type={args.type})")
    # Compile (or load from cache) the numba kernels before timing.
    for a in args.agents.split(","):
        play(make("snakgame(type=0,rows=12,cols=12)"), [make_agent(f"snakgame.{a}")], 0)
    print("| agent | grid | moves | score | wall s | CPU s | moves/s (CPU) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for a in args.agents.split(","):
        for s in match_seeds(args.seed, args.seeds):
            w0, c0 = time.perf_counter(), time.process_time()
            r = play(game, [make_agent(f"snakgame.{a}")], s)
            wall, cpu = time.perf_counter() - w0, time.process_time() - c0
            d = r.outcome.details
            print(
                f"| {a} | {d['rows']}×{d['cols']} | {r.steps:,} | {d['score']:,} | {wall:.1f} | {cpu:.1f} "
                f"| {r.steps / cpu:,.0f} |"
            )


if __name__ == "__main__":
    main()
