"""How often the champion's ``doom_ahead`` changes the move it plays, in games against three ``voronoi``.

Each move the champion settles its ranked root moves twice, with the walk kept ahead of
the other heads (``doom_ahead``, asked from ``--ahead-len`` cells) and without, plays the
first and counts the moves where the two differ, and the moves where the snake was longer
than 80 cells; for each move changed it prints the step, the snake's length and the
Manhattan distance from its head to the nearest other snake's head and zombie's head:

    python research/arena/ahead.py --games 2 --seed 41 --budget-ms 10 --ahead 8 --ahead-len 0
"""

from __future__ import annotations

import argparse
from typing import Any

from snakelab.core.game import Budget
from snakelab.core.registry import make, make_agent
from snakelab.games.arena.champion import ChampionAgent
from snakelab.games.arena.sim import F_ALIVE, F_LEN, L_N, L_NZ, L_SNK, L_W, NF, head_of, zombie_head
from snakelab.harness import match_seeds
from snakelab.harness.match import play


class _Both(ChampionAgent):
    """The champion that also settles without ``doom_ahead`` and counts the differences."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.moves = self.changed = self.long_moves = self.long_changed = 0
        self.where: list[tuple[int, int, int, int]] = []

    def _settle(self, order: list[int], root: Any, lay: Any, nbr: Any, until: float) -> int:
        ahead = super()._settle(order, root, lay, nbr, until)
        keep, self.doom_ahead = self.doom_ahead, 0
        plain = super()._settle(order, root, lay, nbr, until)
        self.doom_ahead = keep
        long = int(root[lay[L_SNK] + NF * self.player + F_LEN]) > 80
        self.moves += 1
        self.changed += ahead != plain
        self.long_moves += long
        self.long_changed += long and ahead != plain
        if ahead != plain:
            self.where.append(self._situation(root, lay))
        return ahead

    def _situation(self, root: Any, lay: Any) -> tuple[int, int, int, int]:
        """This move's step, our length, and the distances to the nearest snake's and zombie's heads."""
        w, me = int(lay[L_W]), self.player
        h = int(head_of(root, lay, me))

        def dist(c: int) -> int:
            return abs(c % w - h % w) + abs(c // w - h // w)

        snakes = [int(head_of(root, lay, j)) for j in range(int(lay[L_N]))
                  if j != me and root[lay[L_SNK] + NF * j + F_ALIVE]]  # fmt: skip
        zombies = [int(zombie_head(root, lay, z)) for z in range(int(lay[L_NZ]))]
        step = self.moves
        length = int(root[lay[L_SNK] + NF * me + F_LEN])
        return step, length, min(map(dist, snakes), default=-1), min(map(dist, zombies), default=-1)


def main() -> None:
    """Play the games and print the counts of each."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--budget-ms", type=float, default=10.0)
    ap.add_argument("--game", default="arena(duration=60)")
    ap.add_argument("--ahead", type=int, default=8)
    ap.add_argument("--ahead-len", type=int, default=100)
    args = ap.parse_args()
    for k, seed in enumerate(match_seeds(args.seed, args.games)):
        champ = _Both(doom_ahead=args.ahead, doom_ahead_len=args.ahead_len)
        agents = [champ, *(make_agent("arena.voronoi") for _ in range(3))]
        names = ("arena.champion", "arena.voronoi", "arena.voronoi", "arena.voronoi")
        r = play(make(args.game), agents, seed, agent_names=names, budget=Budget(time_s=args.budget_ms / 1000))
        d = r.outcome.details
        print(
            f"game {k}: moves {champ.moves}, changed {champ.changed}; longer than 80 cells {champ.long_moves}, "
            f"changed {champ.long_changed}; winner {r.outcome.winner}, longest {d['longest']}, deaths {d['deaths']}",
            flush=True,
        )
        for step, length, snake, zombie in champ.where:
            print(f"  move {step}: {length} cells, nearest head {snake}, nearest zombie {zombie}")


if __name__ == "__main__":
    main()
