"""Speed of the arena engine: full default games (6000 steps) with four built-in greedy agents.

The match loop is the one `snakelab arena run` and tournaments use (`harness.match.play`,
built-in agents are lockstep by nature), one core, replay recording off.

    .venv/bin/python benchmarks/arena_engine.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import statistics
import time

from snakelab import make, make_agent
from snakelab.harness import match_seeds, play


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    game = make("arena")
    walls, steps = [], 0
    for s in match_seeds(args.seed, args.games):
        agents = [make_agent("arena.greedy") for _ in range(4)]
        t0 = time.perf_counter()
        res = play(game, agents, s)
        walls.append(time.perf_counter() - t0)
        steps += res.steps
    print("| game | agents | games | steps/game | mean s/game | max s/game | steps/s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    print(
        f"| arena (default, 6000 steps) | 4 × arena.greedy | {args.games} | {steps // args.games} | "
        f"{statistics.mean(walls):.3f} | {max(walls):.3f} | {steps / sum(walls):,.0f} |"
    )


if __name__ == "__main__":
    main()
