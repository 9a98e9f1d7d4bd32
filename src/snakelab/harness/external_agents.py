"""Agents that run external programs, registered when the registry loads.

The games must not import the harness, so the seats that run a program through the
process layer (:mod:`snakelab.harness.process`) are registered from here; the
registry imports this module after the game packages. Every entry is registered
with ``external=True``: it starts whatever program its parameters name, which a
server exposed to others must refuse.
"""

from __future__ import annotations

from typing import Any

from snakelab.core.errors import ConfigError
from snakelab.core.game import Agent
from snakelab.core.registry import config_from_kwargs, register_agent


def arena_bot(**kwargs: Any) -> Agent:
    """An external program over the snAIke protocol: ``arena.bot(path=my_bot.py,lockstep=true)``.

    ``path`` names the program; the other parameters are :class:`~snakelab.harness.arena_bot.BotOptions`.
    """
    from snakelab.harness.arena_bot import BotAgent, BotOptions

    path = kwargs.pop("path", None)
    if path is None:
        raise ConfigError("arena.bot needs path=FILE, the program to run")
    return BotAgent(str(path), config_from_kwargs(BotOptions, "arena.bot", kwargs))


register_agent(
    "arena",
    "bot",
    arena_bot,
    "an external program (python, java or any executable) over stdin/stdout",
    external=True,
)

__all__ = ["arena_bot"]
