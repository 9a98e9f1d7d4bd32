"""snakgame — CodeChef SNAKGAME: you against Chef on a blocked grid (see :mod:`.rules`)."""

from snakelab.core.registry import register_agent, register_game
from snakelab.games.snakgame.agents import (
    ChampionAgent,
    ChefAgent,
    EditorialAgent,
    ExitAgent,
    GreedyAgent,
    RandomAgent,
)
from snakelab.games.snakgame.render import to_rich
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
    make_game,
    parse_move,
    snake_score,
)

register_game("snakgame", make_game, "CodeChef SNAKGAME: build long snakes against Chef", render=to_rich)
register_agent("snakgame", "exit", ExitAgent, "EXIT at once (score 0)")
register_agent("snakgame", "random", RandomAgent, "random extensions; a random new snake when stuck")
register_agent("snakgame", "chef", ChefAgent, "Chef's own strategy, without FREEZE")
register_agent("snakgame", "greedy", GreedyAgent, "direction priority down, right, left, up")
register_agent("snakgame", "editorial", EditorialAgent, "the editorial's long-path following")
register_agent("snakgame", "champion", ChampionAgent, "component-aware gravity fill, the strongest")

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
