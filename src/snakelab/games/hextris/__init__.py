"""hextris — the ICFP 2015 hexagonal Tetris with phrases of power (see :mod:`.rules`)."""

from snakelab.core.registry import register_agent, register_game
from snakelab.games.hextris.agents import ChampionAgent, RandomAgent, SeedAgent
from snakelab.games.hextris.render import to_text
from snakelab.games.hextris.rules import Action, Config, Game, State, Termination, make_game

register_game(
    "hextris", make_game, "ICFP 2015 hexagonal Tetris with phrases of power, exact official scoring", render=to_text
)
register_agent("hextris", "random", RandomAgent, "a uniformly random legal command")
register_agent("hextris", "seed", SeedAgent, "the seed team's greedy lock search with phrase-first paths")
register_agent(
    "hextris", "champion", ChampionAgent, "anytime beam search over placements with phrase embedding", aliases=("beam",)
)

__all__ = ["Action", "Config", "Game", "State", "Termination"]
