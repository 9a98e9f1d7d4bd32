"""snakgame — CodeChef SNAKGAME: you against Chef on a blocked grid (see :mod:`.rules`).

The game and its agents are registered here, but the modules behind them load on first
use (a factory that imports its module when called, and the re-exported names through
``__getattr__``): the lean contest program (:mod:`.contest`) lives in this package and
must start without the rules engine, the agents or the terminal drawing.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from snakelab.core.registry import register_agent, register_game

if TYPE_CHECKING:
    from snakelab.games.snakgame.rules import (
        EXIT,
        Action,
        Config,
        Game,
        Move,
        State,
        Termination,
        format_move,
        generate_grid,
        parse_move,
        snake_score,
    )

_RULES_NAMES = (
    "EXIT",
    "Action",
    "Config",
    "Game",
    "Move",
    "State",
    "Termination",
    "format_move",
    "generate_grid",
    "parse_move",
    "snake_score",
)


def __getattr__(name: str) -> Any:
    """The rules' names, imported on first use."""
    if name in _RULES_NAMES:
        return getattr(importlib.import_module("snakelab.games.snakgame.rules"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _make_game(**kwargs: object) -> Any:
    from snakelab.games.snakgame.rules import make_game

    return make_game(**kwargs)


def _render(state: Any) -> Any:
    from snakelab.games.snakgame.render import to_rich

    return to_rich(state)


def _agent(cls_name: str) -> Any:
    def factory(**kwargs: Any) -> Any:
        return getattr(importlib.import_module("snakelab.games.snakgame.agents"), cls_name)(**kwargs)

    factory.__name__ = factory.__qualname__ = cls_name
    return factory


register_game("snakgame", _make_game, "CodeChef SNAKGAME: build long snakes against Chef", render=_render)
register_agent("snakgame", "exit", _agent("ExitAgent"), "EXIT at once (score 0)")
register_agent("snakgame", "random", _agent("RandomAgent"), "random extensions; a random new snake when stuck")
register_agent("snakgame", "chef", _agent("ChefAgent"), "Chef's own strategy, without FREEZE")
register_agent("snakgame", "greedy", _agent("GreedyAgent"), "direction priority down, right, left, up")
register_agent("snakgame", "editorial", _agent("EditorialAgent"), "the editorial's long-path following")
register_agent("snakgame", "champion", _agent("ChampionAgent"), "component-aware gravity fill, the strongest")

__all__ = [
    "EXIT",
    "Action",
    "Config",
    "Game",
    "Move",
    "State",
    "Termination",
    "format_move",
    "generate_grid",
    "parse_move",
    "snake_score",
]
