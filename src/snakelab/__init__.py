"""snakelab: exact rule engines, agents and a harness for snake-family grid games.

>>> from snakelab import make
>>> game = make("classic(width=6,height=4)")
>>> state = game.new_state(seed=1)
>>> state.is_over()
False
"""

from snakelab.core.registry import list_agents, list_games, make, make_agent

__version__ = "0.1.0"

__all__ = ["__version__", "list_agents", "list_games", "make", "make_agent"]
