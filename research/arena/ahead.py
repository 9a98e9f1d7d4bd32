"""How often the champion's ``doom_ahead`` changes the move it plays, in games against three ``voronoi``.

Each move the champion settles its ranked root moves twice, with the walk kept ahead of
the other heads (``doom_ahead``) and without, plays the first and counts the moves where
the two differ, and the moves where the snake was longer than 80 cells:

    python research/arena/ahead.py --games 2 --seed 41 --budget-ms 10 --game 'arena(duration=60)' --ahead 8
"""

from __future__ import annotations

import argparse
from typing import Any

from snakelab.core.game import Budget
from snakelab.core.registry import make, make_agent
from snakelab.games.arena.champion import ChampionAgent
from snakelab.games.arena.sim import F_LEN, L_SNK, NF
from snakelab.harness import match_seeds
from snakelab.harness.match import play


class _Both(ChampionAgent):
    """The champion that also settles without ``doom_ahead`` and counts the differences."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.moves = self.changed = self.long_moves = self.long_changed = 0

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
        return ahead


def main() -> None:
    """Play the games and print the counts of each."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--budget-ms", type=float, default=10.0)
    ap.add_argument("--game", default="arena(duration=60)")
    ap.add_argument("--ahead", type=int, default=8)
    args = ap.parse_args()
    for k, seed in enumerate(match_seeds(args.seed, args.games)):
        champ = _Both(doom_ahead=args.ahead)
        agents = [champ, *(make_agent("arena.voronoi") for _ in range(3))]
        names = ("arena.champion", "arena.voronoi", "arena.voronoi", "arena.voronoi")
        r = play(make(args.game), agents, seed, agent_names=names, budget=Budget(time_s=args.budget_ms / 1000))
        d = r.outcome.details
        print(
            f"game {k}: moves {champ.moves}, changed {champ.changed}; longer than 80 cells {champ.long_moves}, "
            f"changed {champ.long_changed}; winner {r.outcome.winner}, longest {d['longest']}, deaths {d['deaths']}",
            flush=True,
        )


if __name__ == "__main__":
    main()
