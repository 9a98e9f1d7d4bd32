"""Throughput of the classic engine plus the `hamilton` agent through the match loop.

The figure is a design constraint on the contracts: the same `harness.match.play`
that `snakelab classic bench` uses, one core, replay recording off. Wall seconds and the
process's CPU seconds are both printed: on a busy machine the CPU figure is the steadier
one for comparing two versions side by side.

    .venv/bin/python benchmarks/classic_throughput.py [--games N] [--size W]
"""

from __future__ import annotations

import argparse
import time

from snakelab import make, make_agent
from snakelab.harness import match_seeds, play


def measure(agent: str, size: int, games: int, seed: int = 1) -> tuple[int, float, float]:
    """Total steps, wall seconds and CPU seconds for ``games`` games of ``agent`` on a size×size board."""
    game = make(f"classic(width={size},height={size})")
    steps = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for s in match_seeds(seed, games):
        steps += play(game, [make_agent(agent)], s).steps
    return steps, time.perf_counter() - t0, time.process_time() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--size", type=int, default=12)
    args = ap.parse_args()
    print("| agent | board | games | steps | wall s | steps/s | CPU s | steps per CPU s |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for agent in ("classic.hamilton", "classic.hamilton-shortcut"):
        steps, secs, cpu = measure(agent, args.size, args.games)
        print(
            f"| {agent} | {args.size}×{args.size} | {args.games} | {steps:,} | {secs:.2f} | {steps / secs:,.0f} "
            f"| {cpu:.2f} | {steps / cpu:,.0f} |"
        )


if __name__ == "__main__":
    main()
