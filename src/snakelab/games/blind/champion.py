"""The champion strategy (provisional: the best exact dynamic zig-zag, k = 21)."""

from __future__ import annotations

from snakelab.games.blind.strategies import DynamicZigzag, register_strategy


class Champion(DynamicZigzag):
    """Provisional champion."""

    name = "champion"

    def __init__(self) -> None:
        super().__init__(k=21)
        self.params = {}


register_strategy("champion", Champion, "the strongest strategy")
