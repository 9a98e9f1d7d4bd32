"""How often cheap guesses name the move a reference then plays.

Plays the champion against three ``arena.voronoi`` at a time budget (seats fixed, the
champion in seat 0) and, on every move of every reference, asks before it searches:
what would the greedy filler play (the default reply in the search), what would the
timid filler play (the default for an opponent seen to swerve), and what would the
references' own search pick from that seat after N nodes, for each N given. Prints the
share of moves each guess got right after each game (thirty-second round):

    python research/arena/predict.py --seed 5 --games 2 --nodes 30,100,300 --champion 'arena.champion(predict=0)'

The guesses run before the reference's own clock starts, so its moves are what it plays
unprobed; the champion's games are slower in wall time, not in what it sees.
"""

from __future__ import annotations

import argparse
import collections
from typing import Any

from snakelab.core.game import Budget, GameInfo
from snakelab.core.registry import make, make_agent
from snakelab.games.arena import sim
from snakelab.games.arena.evaluation import timid_dir
from snakelab.games.arena.voronoi import VoronoiAgent
from snakelab.harness import match_seeds
from snakelab.harness.match import play

HITS: collections.Counter[str] = collections.Counter()


class Probed(VoronoiAgent):
    """A reference that scores the guesses at its move before it plays it."""

    def __init__(self, nodes: list[int]) -> None:
        super().__init__()
        self.nodes = nodes

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        super().reset(info, player, seed)
        self.guessers = {n: VoronoiAgent() for n in self.nodes}
        for g in self.guessers.values():
            g.reset(info, player, seed)
        self.tracker = sim.GrowthTracker(info.config.num_snakes, info.config.apple_growth)

    def act(self, observation: Any, budget: Budget | None) -> int:
        s = observation
        growth = self.tracker.update(s)
        me = self.player
        guesses = {f"search {n}": g.act(s, Budget(nodes=n)) for n, g in self.guessers.items()}
        move = super().act(s, budget)
        if s.alive[me]:
            nbr = sim.grid_nbr(s)
            lay = sim.layout(s, cap=max(len(b) for b in s.bodies) + 8)
            st = sim.encode(s, lay, growth)
            for name, d in (("greedy", sim.greedy_dir(st, lay, nbr, me)), ("timid", timid_dir(st, lay, nbr, me))):
                guesses[name] = s.heading[me] if d == 5 else d
            HITS["moves"] += 1
            for name, d in guesses.items():
                HITS[name] += d == move
        return move


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--nodes", default="30,100,300")
    ap.add_argument("--budget-ms", type=float, default=10.0)
    ap.add_argument("--champion", default="arena.champion", help="seat 0's agent string")
    args = ap.parse_args()
    nodes = [int(x) for x in args.nodes.split(",")]
    for k, seed in enumerate(match_seeds(args.seed, args.games)):
        agents = [make_agent(args.champion), *(Probed(nodes) for _ in range(3))]
        budget = Budget(time_s=args.budget_ms / 1000)
        play(make("arena(duration=60)"), agents, seed, budget=budget, max_steps=args.steps)
        shares = ", ".join(f"{name} {HITS[name] / HITS['moves']:.3f}" for name in HITS if name != "moves")
        print(f"game {k}: {HITS['moves']} reference moves; right: {shares}", flush=True)


if __name__ == "__main__":
    main()
