"""Process time a move of the champion at a node budget, for each ``paths`` setting.

Usage (with ``round26_leaf_paths.patch`` applied, which has ``paths=2``)::

    python research/arena/pathspeed.py 0 1 2

Each setting plays the same two 200-step games (``arena(duration=10)``, seeds 1 and 2)
against three ``voronoi`` at 400 nodes a move, and prints the champion's mean process
time a move. A node budget fixes the work, so the ratio between settings is the cost of
a node; process time, not wall time, so a busy machine slows it less.
"""

import sys
import time
from typing import Any

from snakelab.core.game import Budget
from snakelab.core.registry import make, make_agent
from snakelab.harness.match import play


def timed_games(paths: str) -> tuple[float, int]:
    """The champion's process seconds and moves over the two games."""
    total, moves = 0.0, 0
    for seed in (1, 2):
        agent = make_agent(f"arena.champion(paths={paths})")
        act = agent.act
        spent = [0.0, 0]

        def timed(obs: Any, budget: Budget | None, act: Any = act, spent: list[Any] = spent) -> int:
            t0 = time.process_time()
            move = act(obs, budget)
            spent[0] += time.process_time() - t0
            spent[1] += 1
            return int(move)

        agent.act = timed  # type: ignore[method-assign]
        agents = [agent] + [make_agent("arena.voronoi") for _ in range(3)]
        play(make("arena(duration=10)"), agents, seed, budget=Budget(time_s=1.0, nodes=400))
        total += spent[0]
        moves += spent[1]
    return total, moves


if __name__ == "__main__":
    for setting in sys.argv[1:]:
        seconds, n = timed_games(setting)
        print(f"paths={setting}: {1000 * seconds / n:.2f} ms a move over {n} moves", flush=True)
