"""The contracts every game and agent implements.

A :class:`Game` is a configured factory; ``game.new_state(seed)`` gives a mutable
:class:`State` with a cheap ``clone()`` (the python-chess / OpenSpiel model, chosen
for speed in Python). Players are numbered 0..n-1. Each step the harness asks
``state.to_move()`` who acts, collects one action per listed player, and calls
``state.apply(actions)`` with a sequence indexed by player (``None`` for players that
do not act this step). ``apply`` returns the events of that step.

A State owns its randomness (seed plus counters, see :mod:`snakelab.core.rng`), so
a seed plus the actions reproduces a game exactly and ``clone()`` copies it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol, runtime_checkable

JSON = Any
"""A value that ``json.dumps`` accepts."""


class Dynamics(Enum):
    """Who moves when."""

    SINGLE = "single"
    """One player acts every step."""
    SEQUENTIAL = "sequential"
    """Players take turns; ``to_move()`` lists exactly one player."""
    SIMULTANEOUS = "simultaneous"
    """Every listed player acts at once each step."""


@dataclass(frozen=True)
class GameInfo:
    """Static facts about a configured game.

    Attributes:
        id: Registry id of the game (``"classic"``).
        name: Canonical game string with its parameters (``"classic(width=20)"``).
        num_players: Number of agent seats.
        dynamics: Who moves when.
        rules_version: Bumped whenever behaviour changes; recorded in every replay.
        config: The game's frozen ``Config`` dataclass.
    """

    id: str
    name: str
    num_players: int
    dynamics: Dynamics
    rules_version: int
    config: Any


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened during a step (an apple eaten, a snake died, ...).

    Attributes:
        kind: Short snake_case name, documented in the game's rules module.
        player: The player concerned, if any.
        data: JSON-ready details.
    """

    kind: str
    player: int | None = None
    data: dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        """The event as one JSON object (``kind``, ``player`` and the data keys)."""
        out: dict[str, JSON] = {"kind": self.kind}
        if self.player is not None:
            out["player"] = self.player
        out.update(self.data)
        return out

    @classmethod
    def from_json(cls, obj: dict[str, JSON]) -> Event:
        """Inverse of :meth:`to_json`."""
        data = {k: v for k, v in obj.items() if k not in ("kind", "player")}
        return cls(obj["kind"], obj.get("player"), data)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    Attributes:
        termination: Name of the game's ``Termination`` member (``"WON"``).
        scores: One number per player; higher is better.
        winner: The winning player, or None for a loss (single player) or a draw.
        details: Game-specific figures (length, apples, kills, ...), JSON-ready.
    """

    termination: str
    scores: tuple[float, ...]
    winner: int | None = None
    details: dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        """The outcome as a JSON object."""
        return {
            "termination": self.termination,
            "scores": list(self.scores),
            "winner": self.winner,
            "details": self.details,
        }

    @classmethod
    def from_json(cls, obj: dict[str, JSON]) -> Outcome:
        """Inverse of :meth:`to_json`."""
        return cls(obj["termination"], tuple(obj["scores"]), obj.get("winner"), dict(obj.get("details", {})))


@runtime_checkable
class State(Protocol):
    """A mutable game position. See the module docstring for the step protocol."""

    def to_move(self) -> Sequence[int]:
        """Players that act this step; empty exactly when the game is over."""
        ...

    def legal_actions(self, player: int) -> Sequence[Any]:
        """Every action ``player`` may take now (may be a lazy sequence for huge spaces)."""
        ...

    def is_legal(self, player: int, action: Any) -> bool:
        """Whether ``action`` is legal for ``player`` now."""
        ...

    def apply(self, actions: Sequence[Any]) -> Sequence[Event]:
        """Apply one step; raise IllegalActionError (state unchanged) on a bad action."""
        ...

    def is_over(self) -> bool:
        """Whether the game has ended."""
        ...

    def outcome(self) -> Outcome:
        """The result; only valid once :meth:`is_over` is true."""
        ...

    def observe(self, player: int) -> Any:
        """What ``player`` sees.

        Perfect-information games may return the state itself (agents must treat
        it as read-only).
        """
        ...

    def clone(self) -> State:
        """An independent copy, randomness included."""
        ...

    def to_json(self) -> dict[str, JSON]:
        """A complete JSON form; ``Game.state_from_json`` restores it exactly."""
        ...

    @property
    def step_count(self) -> int:
        """Steps applied so far."""
        ...


class OnePlayerState:
    """What every one-player state shares: player 0 moves until the game has ended.

    A subclass keeps ``termination`` (None while the game runs) and ``steps`` (the steps
    applied), as slots or properties of its own; this base adds the :class:`State`
    protocol's turn-keeping over them (:meth:`to_move`, :meth:`is_over`, :attr:`step_count`).
    """

    __slots__ = ()
    termination: Any
    steps: int

    @property
    def step_count(self) -> int:
        """Steps applied so far."""
        return self.steps

    def to_move(self) -> Sequence[int]:
        """``(0,)`` while the game runs, ``()`` once it is over."""
        return () if self.termination is not None else (0,)

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.termination is not None


@runtime_checkable
class Game(Protocol):
    """A configured game: a factory of states plus action codecs."""

    info: GameInfo

    def new_state(self, seed: int) -> State:
        """A fresh game whose randomness derives from ``seed``."""
        ...

    def state_from_json(self, data: dict[str, JSON]) -> State:
        """Restore a state written by ``State.to_json``."""
        ...

    def action_to_json(self, action: Any) -> JSON:
        """Encode one action for replays."""
        ...

    def action_from_json(self, data: JSON) -> Any:
        """Decode one action written by :meth:`action_to_json`."""
        ...

    def candidate_actions(self, state: State, player: int) -> Sequence[Any]:
        """A small set of well-formed actions, legal or not, for conformance tests."""
        ...


@dataclass(frozen=True)
class Budget:
    """How much an agent may spend on one decision.

    Attributes:
        time_s: Wall-clock seconds, or None for no time limit.
        nodes: Search nodes (the agent defines what a node is), or None.
    """

    time_s: float | None = None
    nodes: int | None = None


@runtime_checkable
class Agent(Protocol):
    """A player. Built-in agents are registered as ``"<game>.<method>"``.

    ``notice`` (optional attribute) is a one-line remark for the user, e.g. that the
    agent fell back to another policy on this board; the CLI prints it.
    """

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Prepare for a new game as ``player``; ``seed`` drives any randomness."""
        ...

    def act(self, observation: Any, budget: Budget | None) -> Any:
        """Choose an action for the current step within ``budget``."""
        ...

    def close(self) -> None:
        """Release resources (processes, files); called once after the game."""
        ...


class BaseAgent:
    """Convenience base: no-op ``reset``/``close`` and a ``notice`` slot."""

    notice: str | None = None
    player: int = 0
    info: GameInfo | None = None

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Remember the game and seat; subclasses extend this."""
        del seed  # unused here
        self.info = info
        self.player = player

    def act(self, observation: Any, budget: Budget | None) -> Any:  # pragma: no cover - abstract
        """Subclasses choose the action."""
        raise NotImplementedError

    def close(self) -> None:
        """Nothing to release by default."""
