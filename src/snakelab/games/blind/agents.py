"""Agents for the blind game: each plays one strategy's fixed move sequence.

The agent ignores its (empty) observations and emits the next move of the
strategy's lazy generator, so ``blind.dynamic-zigzag(k=11)`` plays exactly the moves
that the evaluators score.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from snakelab.core.errors import SnakelabError
from snakelab.core.game import BaseAgent, Budget, GameInfo
from snakelab.core.grid import Direction
from snakelab.games.blind.strategies import Strategy, make_strategy

_DIRECTION = {"R": Direction.RIGHT, "D": Direction.DOWN, "L": Direction.LEFT, "U": Direction.UP}


class StrategyAgent(BaseAgent):
    """Plays a blind strategy move by move.

    Args:
        strategy: Strategy name, e.g. ``"dynamic-zigzag"``.
        **params: The strategy's parameters (e.g. ``k=11``).
    """

    def __init__(self, strategy: str, **params: Any) -> None:
        self.strategy: Strategy = make_strategy(strategy, **params)
        self._moves: Iterator[str] = iter(())
        self._played = 0

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Start the move sequence from its beginning."""
        super().reset(info, player, seed)
        self._moves = self.strategy.moves()
        self._played = 0

    def act(self, observation: Any, budget: Budget | None) -> Direction:
        """The next move of the sequence (the observation is empty and ignored)."""
        del observation, budget  # blind: nothing to see, nothing to think about
        try:
            letter = next(self._moves)
        except StopIteration:
            raise SnakelabError(f"{self.strategy.spec} ran out of moves after {self._played}") from None
        self._played += 1
        return _DIRECTION[letter]


def agent_factory(strategy: str) -> Any:
    """A registry factory that builds a :class:`StrategyAgent` for ``strategy``."""

    def factory(**params: Any) -> StrategyAgent:
        return StrategyAgent(strategy, **params)

    factory.__name__ = f"{strategy.replace('-', '_')}_agent"
    return factory
