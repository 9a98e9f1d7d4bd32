"""One exception tree for the whole package.

Every message says what was wrong and, where it helps, what to do instead. The CLI
prints ``str(error)`` on one line and exits non-zero for any :class:`SnakelabError`.
"""

from __future__ import annotations


class SnakelabError(Exception):
    """Base class of every error snakelab raises on purpose."""


class ConfigError(SnakelabError, ValueError):
    """A game, agent or tool was given parameters it cannot work with."""


class UnknownNameError(SnakelabError, LookupError):
    """A game, agent, strategy or other registry name does not exist."""

    def __str__(self) -> str:
        # LookupError would quote the message like a dict key; keep it plain.
        return str(self.args[0]) if self.args else ""


class IllegalActionError(SnakelabError):
    """An action that the rules do not allow in this state.

    The state is left exactly as it was before the rejected action.
    """


class GameOverError(IllegalActionError):
    """An action was applied to a state whose game has already ended."""


class ReplayError(SnakelabError):
    """A replay file is unreadable, truncated or not a snakelab replay."""


class ReplayMismatchError(ReplayError):
    """Re-simulating a replay gave a different step, event or outcome."""


class CodecError(SnakelabError):
    """An external format (bot protocol line, problem or solution file) is malformed."""


class BotError(SnakelabError):
    """An external bot process failed in a way the harness could not absorb."""
