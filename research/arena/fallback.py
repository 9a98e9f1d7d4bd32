"""How often round 25's pull maps fall back to Manhattan distance near the champion's head, by its length.

Reads :func:`snakelab.games.arena.targets.pull_maps` (``round25_paths.patch`` added it).
Plays one game of the champion against three ``arena.voronoi`` at a node budget, keeps the
position every 25 steps, and counts, once per apple, the free cells within 6 of the
champion's head whose map has no path distance (where the pull falls back):

    python research/arena/fallback.py --steps 3000 --seed 5
"""

import argparse
import collections
import copy
from typing import Any

import numpy as np

from snakelab import make, make_agent
from snakelab.core.game import Budget
from snakelab.games.arena import sim, targets
from snakelab.harness import match_seeds
from snakelab.harness.match import play


def main() -> None:
    """Play the game and print the counts by length."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=3000)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--nodes", type=int, default=200)
    args = p.parse_args()
    game = make(f"arena(duration={args.steps * 50 / 1000:g})")
    agents = [make_agent("arena.champion")] + [make_agent("arena.voronoi") for _ in range(3)]
    states: list[Any] = []
    first = agents[0].act

    def act(obs: Any, budget: Any) -> int:
        if obs.steps % 25 == 0:
            states.append(copy.deepcopy(obs))
        return first(obs, budget)

    agents[0].act = act  # type: ignore[method-assign]
    play(game, agents, match_seeds(args.seed, 1)[0], budget=Budget(nodes=args.nodes))
    counts: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    for s in states:
        if not s.alive[0]:
            continue
        lay = sim.layout(s)
        st = sim.encode(s, lay)
        nbr = sim.grid_nbr(s)
        size, w = int(lay[sim.L_SIZE]), s.config.game_width
        work = np.empty((5 + int(lay[sim.L_NA])) * size + 1, np.int32)
        targets.pull_maps(st, lay, nbr, 0, work, -1)
        h = s.bodies[0][-1]
        n = len(s.bodies[0])
        band = "under 60" if n < 60 else "60-119" if n < 120 else "120 or more"
        for k, apple in enumerate(s.apples):
            if apple < 0:
                continue
            m = work[4 * size + 1 + k * size : 4 * size + 1 + (k + 1) * size]
            for c in range(size):
                if abs(c % w - h % w) + abs(c // w - h // w) <= 6 and s.occ[c] == 0:
                    counts[band][0] += 1
                    counts[band][1] += int(m[c] < 0)
    for band, (total, back) in sorted(counts.items()):
        print(f"length {band}: {back} of {total} free cells within 6 of the head fall back")


if __name__ == "__main__":
    main()
