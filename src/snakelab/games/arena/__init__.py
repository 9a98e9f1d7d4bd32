"""arena — snAIke: multiplayer snake with zombies (see :mod:`.rules`)."""

from snakelab.core.registry import register_agent, register_game
from snakelab.games.arena.agents import GreedyAgent, RandomAgent
from snakelab.games.arena.champion import ChampionAgent
from snakelab.games.arena.lookahead import LookaheadAgent
from snakelab.games.arena.mcts import MctsAgent
from snakelab.games.arena.render import to_rich
from snakelab.games.arena.rules import Action, Config, Game, State, Termination, make_game
from snakelab.games.arena.voronoi import VoronoiAgent

register_game("arena", make_game, "snAIke: 4 snakes, 2 apples, 3 zombies, simultaneous moves", render=to_rich)
register_agent("arena", "random", RandomAgent, "a uniformly random move that does not reverse")
register_agent("arena", "greedy", GreedyAgent, "the original engine's filler: nearest apple, avoid occupied cells")
register_agent(
    "arena",
    "champion",
    ChampionAgent.from_params,
    "best-reply search, timid opponent model, deaths cost the steps left",
)
register_agent(
    "arena", "lookahead", LookaheadAgent, "simulates each move (zombies exactly), flood fill, apple races, look-ahead"
)
register_agent(
    "arena", "voronoi", VoronoiAgent.from_params, "paranoid best-reply alpha-beta, Voronoi territory and apple races"
)
register_agent("arena", "mcts", MctsAgent.from_params, "decoupled UCT over simultaneous moves, Voronoi leaf values")

# The external-program seat, ``arena.bot``, is registered from the harness (external_agents.py):
# the games do not import the harness.

__all__ = ["Action", "Config", "Game", "State", "Termination"]
