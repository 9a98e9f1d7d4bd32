"""blind — the blind snake on a torus of unknown size.

Rules (also stated for users in ``docs/blind.md``):

* A torus of ``width`` (A) columns × ``height`` (B) rows, wrapping on all four sides,
  with A·B ≥ 2. The player knows neither A nor B.
* A single head (the snake's body plays no part) starts on a cell drawn from the
  seed, or on (``start_x``, ``start_y``); the apple sits on another cell, drawn from
  the seed, or on (``apple_x``, ``apple_y``).
* Actions: :class:`~snakelab.core.grid.Direction` UP, DOWN, LEFT, RIGHT; all four are
  always legal. RIGHT is x+1, DOWN is y+1 (mod A and B).
* Observation: nothing (``None``). The only feedback is the end of the game: it ends
  when the head reaches the apple (``found``), or after ``max_steps`` moves (default
  35·A·B, the original challenge's limit).

Because nothing is observed, a strategy is one fixed move sequence, and the worst
case over start and apple is the cover time of the torus (see :mod:`.evaluate`).

Events: ``found`` (``cell``), ``max_steps``.

Outcome: ``scores = (1,)`` when found, else ``(0,)``; ``winner = 0`` when found;
details ``found, steps, area, ratio`` (steps / area).

Randomness: start and apple from ``(seed, "place")``, so the state's JSON (which holds
both) restores it exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from snakelab.core.errors import ConfigError, GameOverError, IllegalActionError
from snakelab.core.game import JSON, Dynamics, Event, OnePlayerState, Outcome
from snakelab.core.grid import Direction, DirectionActions
from snakelab.core.registry import config_from_kwargs, game_info
from snakelab.core.rng import rng_for

RULES_VERSION = 1
MAX_AREA = 10**8
"""Largest torus the game accepts (the state is a few integers, so this is generous)."""

Action = Direction
"""An absolute direction; plain ints 0..3 are accepted too."""

_DX = (0, 0, -1, 1)
_DY = (-1, 1, 0, 0)
_NO_EVENTS: tuple[Event, ...] = ()


class Termination(Enum):
    """Why a blind game ended."""

    FOUND = "found"
    """The head reached the apple."""
    MAX_STEPS = "max_steps"
    """``max_steps`` moves were made without finding the apple."""


@dataclass(frozen=True)
class Config:
    """Parameters of a blind game.

    Attributes:
        width: A, columns of the torus (≥ 1). Default 10.
        height: B, rows of the torus (≥ 1; A·B ≥ 2). Default 10.
        max_steps: Moves before the game is lost; None means 35·A·B. Default None.
        start_x: Column of the start, or None to draw it from the seed.
        start_y: Row of the start (give both or neither).
        apple_x: Column of the apple, or None to draw it from the seed.
        apple_y: Row of the apple (give both or neither; not the start cell).
    """

    width: int = 10
    height: int = 10
    max_steps: int | None = None
    start_x: int | None = None
    start_y: int | None = None
    apple_x: int | None = None
    apple_y: int | None = None

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise ConfigError(f"blind torus {self.width}×{self.height} has no cells: width and height must be ≥ 1")
        if self.width * self.height < 2:
            raise ConfigError("a 1×1 torus has no cell for the apple besides the start: use at least 2 cells")
        if self.width * self.height > MAX_AREA:
            raise ConfigError(f"blind torus {self.width}×{self.height} is too large (at most {MAX_AREA:,} cells)")
        if self.max_steps is not None and self.max_steps < 1:
            raise ConfigError(f"max_steps must be ≥ 1, got {self.max_steps}")
        for what, x, y in (("start", self.start_x, self.start_y), ("apple", self.apple_x, self.apple_y)):
            if (x is None) != (y is None):
                raise ConfigError(f"give both {what}_x and {what}_y, or neither")
            if x is not None and y is not None and not (0 <= x < self.width and 0 <= y < self.height):
                raise ConfigError(f"{what} ({x}, {y}) is off the {self.width}×{self.height} torus")
        if (
            self.start_x is not None
            and self.apple_x is not None
            and (self.start_x, self.start_y) == (self.apple_x, self.apple_y)
        ):
            raise ConfigError("the apple cannot start on the head's cell")

    @property
    def area(self) -> int:
        """S = A·B."""
        return self.width * self.height

    @property
    def effective_max_steps(self) -> int:
        """The step limit in force."""
        return self.max_steps if self.max_steps is not None else 35 * self.area


class State(OnePlayerState):
    """A blind position: where the head and the apple are, and how many moves were made.

    Attributes:
        config: The game's parameters.
        seed: The game seed.
        x: Column of the head.
        y: Row of the head.
        apple_x: Column of the apple.
        apple_y: Row of the apple.
        steps: Moves made.
        termination: Why the game ended, or None while it runs.
    """

    __slots__ = ("apple_x", "apple_y", "config", "seed", "steps", "termination", "x", "y")

    def __init__(self, config: Config, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.x = self.y = self.apple_x = self.apple_y = 0
        self.steps = 0
        self.termination: Termination | None = None

    def _setup(self) -> None:
        cfg = self.config
        rng = rng_for(self.seed, "place")
        size = cfg.area
        start = rng.randrange(size) if cfg.start_x is None else cfg.start_y * cfg.width + cfg.start_x  # type: ignore[operator]
        if cfg.apple_x is not None and cfg.apple_y is not None:
            apple = cfg.apple_y * cfg.width + cfg.apple_x
        else:
            # Uniform over the other cells.
            apple = rng.randrange(size - 1)
            if apple >= start:
                apple += 1
        if apple == start:
            raise ConfigError("the apple cannot start on the head's cell")
        self.y, self.x = divmod(start, cfg.width)
        self.apple_y, self.apple_x = divmod(apple, cfg.width)

    # -- the State protocol ------------------------------------------------------------

    def legal_actions(self, player: int = 0) -> list[Direction]:
        """All four directions while the game runs; nothing once it is over."""
        del player  # single player
        return [] if self.termination is not None else list(Direction)

    def is_legal(self, player: int, action: object) -> bool:
        """Whether ``action`` may be applied now."""
        del player  # single player
        return self.termination is None and action in (0, 1, 2, 3)

    def observe(self, player: int = 0) -> None:
        """Nothing: the player is blind."""
        del player  # single player

    def apply(self, actions: Sequence[Any]) -> Sequence[Event]:
        """Move the head one step in ``actions[0]``; see the module docstring."""
        if self.termination is not None:
            raise GameOverError("the blind game is over; no more moves")
        a = actions[0]
        if a not in (0, 1, 2, 3):
            raise IllegalActionError(f"{a!r} is not a direction (UP, DOWN, LEFT, RIGHT)")
        d = int(a)
        cfg = self.config
        self.x = (self.x + _DX[d]) % cfg.width
        self.y = (self.y + _DY[d]) % cfg.height
        self.steps += 1
        if self.x == self.apple_x and self.y == self.apple_y:
            self.termination = Termination.FOUND
            return (Event("found", 0, {"cell": [self.x, self.y]}),)
        if self.steps >= cfg.effective_max_steps:
            self.termination = Termination.MAX_STEPS
            return (Event("max_steps", 0, {}),)
        return _NO_EVENTS

    def outcome(self) -> Outcome:
        """The result of a finished game."""
        if self.termination is None:
            raise IllegalActionError("the game is not over yet")
        found = self.termination is Termination.FOUND
        area = self.config.area
        return Outcome(
            termination=self.termination.name,
            scores=(1.0 if found else 0.0,),
            winner=0 if found else None,
            details={"found": found, "steps": self.steps, "area": area, "ratio": self.steps / area},
        )

    def clone(self) -> State:
        """An independent copy."""
        s = State.__new__(State)
        for name in State.__slots__:
            setattr(s, name, getattr(self, name))
        return s

    def to_json(self) -> dict[str, JSON]:
        """Complete JSON form."""
        return {
            "width": self.config.width,
            "height": self.config.height,
            "seed": self.seed,
            "head": [self.x, self.y],
            "apple": [self.apple_x, self.apple_y],
            "steps": self.steps,
            "termination": self.termination.name if self.termination else None,
        }

    def __repr__(self) -> str:
        cfg = self.config
        return f"<blind.State {cfg.width}×{cfg.height} head=({self.x},{self.y}) step={self.steps}>"


class Game(DirectionActions):
    """A configured blind game; see the module docstring for the rules."""

    def __init__(self, config: Config | None = None) -> None:
        self.config = config or Config()
        self.info = game_info(
            "blind", self.config, num_players=1, dynamics=Dynamics.SINGLE, rules_version=RULES_VERSION
        )

    def new_state(self, seed: int) -> State:
        """A fresh game from ``seed``."""
        s = State(self.config, seed)
        s._setup()
        return s

    def state_from_json(self, data: dict[str, JSON]) -> State:
        """Restore a state written by :meth:`State.to_json`."""
        cfg = self.config
        if (data["width"], data["height"]) != (cfg.width, cfg.height):
            raise ConfigError(f"state is {data['width']}×{data['height']}, game is {cfg.width}×{cfg.height}")
        s = State(cfg, int(data["seed"]))
        s.x, s.y = (int(v) for v in data["head"])
        s.apple_x, s.apple_y = (int(v) for v in data["apple"])
        s.steps = int(data["steps"])
        s.termination = Termination[data["termination"]] if data["termination"] else None
        return s


def make_game(**kwargs: object) -> Game:
    """Registry factory: ``make("blind(width=19,height=436)")``."""
    return Game(config_from_kwargs(Config, "blind", kwargs))
