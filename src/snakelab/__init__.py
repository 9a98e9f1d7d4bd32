"""snakelab: exact rule engines, agents and a harness for snake-family grid games.

>>> from snakelab import make
>>> game = make("classic(width=6,height=4)")
>>> state = game.new_state(seed=1)
>>> state.is_over()
False
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from snakelab.core.registry import list_agents, list_games, make, make_agent

__version__ = "0.1.0"

__all__ = ["__version__", "list_agents", "list_games", "make", "make_agent"]


def __getattr__(name: str) -> Any:
    """The registry's functions, imported on first use.

    Importing a sub-package (``snakelab.cli`` for ``snakelab --help``) then costs no
    registry: every program of the package starts with this import.
    """
    if name in ("list_agents", "list_games", "make", "make_agent"):
        from snakelab.core import registry

        return getattr(registry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
