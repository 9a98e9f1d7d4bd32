"""classic — single-player Snake on a walled board (see :mod:`.rules`)."""

from snakelab.core.registry import register_agent, register_game
from snakelab.games.classic.agents import GreedyAgent, HamiltonAgent, RandomAgent, SafeAgent, ShortcutAgent
from snakelab.games.classic.champion import CellTreeAgent, ChampionAgent
from snakelab.games.classic.render import to_rich
from snakelab.games.classic.rules import Action, Config, Game, State, Termination, make_game

register_game("classic", make_game, "Snake on a walled board; win by filling it", render=to_rich)
register_agent("classic", "random", RandomAgent, "a uniformly random legal move")
register_agent("classic", "greedy", GreedyAgent, "shortest path to the apple, else the roomiest safe move")
register_agent("classic", "safe", SafeAgent, "greedy that keeps its tail reachable")
register_agent("classic", "hamilton", HamiltonAgent, "follow a fixed Hamiltonian cycle")
register_agent("classic", "hamilton-shortcut", ShortcutAgent, "cycle with safe shortcuts (perturbed cycle)")
register_agent("classic", "cell-tree", CellTreeAgent, "re-shapes a cell-tree Hamiltonian cycle around each apple")
register_agent("classic", "champion", ChampionAgent, "the strongest classic agent (cell-tree)")

__all__ = ["Action", "Config", "Game", "State", "Termination"]
