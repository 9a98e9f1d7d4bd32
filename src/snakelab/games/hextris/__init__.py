"""hextris — the ICFP 2015 hexagonal Tetris with phrases of power (see :mod:`.rules`)."""

from snakelab.core.registry import register_game
from snakelab.games.hextris.rules import Action, Config, Game, State, Termination, make_game

register_game("hextris", make_game, "ICFP 2015 hexagonal Tetris with phrases of power, exact official scoring")

__all__ = ["Action", "Config", "Game", "State", "Termination"]
