"""Built-in arena agents.

* ``random`` — a uniformly random absolute move that does not reverse.
* ``greedy`` — the original engine's filler for empty seats: target the apple
  nearest the head (Manhattan; ties by apple slot), take the neighbour cell that is
  not occupied (snake, zombie or obstacle; apples are free) with the smallest
  Manhattan distance to it, ties LEFT, RIGHT, UP, DOWN; with no free neighbour go
  straight; with no apple the first free neighbour in that order.
* ``champion`` — see :mod:`snakelab.games.arena.champion`; ``lookahead`` (the champion
  before it) :mod:`snakelab.games.arena.lookahead`.
"""

from __future__ import annotations

import random
from typing import Any

from snakelab.core.game import BaseAgent, Budget, GameInfo
from snakelab.core.grid import OPPOSITE
from snakelab.games.arena.rules import DOWN, LEFT, RIGHT, STRAIGHT, UP, State

ORDER = (LEFT, RIGHT, UP, DOWN)


class RandomAgent(BaseAgent):
    """A uniformly random absolute move other than the reversal."""

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Seed the move generator."""
        super().reset(info, player, seed)
        self._rng = random.Random(seed)

    def act(self, observation: Any, budget: Budget | None) -> int:
        """One move."""
        s: State = observation
        back = OPPOSITE[s.heading[self.player]]
        return self._rng.choice([d for d in range(4) if d != back])


def greedy_move(s: State, i: int) -> int:
    """The greedy filler's move for snake ``i`` (see the module docstring)."""
    body = s.bodies[i]
    if not body:
        return STRAIGHT
    head = body[-1]
    xs, ys, nbr, occ = s._xs, s._ys, s._nbr, s.occ
    hx, hy = xs[head], ys[head]
    target = -1
    best = 1 << 30
    for a in s.apples:
        if a >= 0:
            d = abs(xs[a] - hx) + abs(ys[a] - hy)
            if d < best:
                best, target = d, a
    move = STRAIGHT
    best = 1 << 30
    base = 4 * head
    for d in ORDER:
        c = nbr[base + d]
        if c < 0 or occ[c]:
            continue
        dist = abs(xs[c] - xs[target]) + abs(ys[c] - ys[target]) if target >= 0 else 0
        if dist < best:
            best, move = dist, d
    return move


class GreedyAgent(BaseAgent):
    """The original engine's filler: nearest apple by Manhattan distance, avoiding occupied cells."""

    def act(self, observation: Any, budget: Budget | None) -> int:
        """One move."""
        return greedy_move(observation, self.player)
