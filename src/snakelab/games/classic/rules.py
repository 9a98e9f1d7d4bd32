"""classic — single-player Snake on a walled board.

Rules (also stated for users in ``docs/classic.md``; after the "Snake, Mouse and Hamilton" article):

* Board ``width`` × ``height``, walled, both sides ≥ 2 (default 12 × 12).
* Start: a snake of ``start_length`` cells (default 1) on a random cell, or with its
  head on ``start``; a longer start is a straight line, head first, whose heading
  (neck → head) is chosen at random among those that fit on the board.
* One apple at a time, uniform over the free cells. Eating grows the snake by one:
  its tail stays put on that step.
* Actions: :class:`~snakelab.core.grid.Direction` UP, DOWN, LEFT, RIGHT (absolute).
  Reversing onto the neck (length ≥ 2) is not legal: it is masked from
  ``legal_actions`` and ``apply`` rejects it with ``IllegalActionError``.
* Tail rule: with ``tail_rule="lenient"`` (default, as the seed's engine) the head may
  enter the cell the tail leaves on the same step; ``"strict"`` makes that a death.
* The game ends when the snake fills the board (won), hits a wall or its body, goes
  ``stall_limit`` steps without an apple (default 4·width·height), or reaches
  ``max_steps`` (if set).

Observation: the state itself (perfect information; agents must not mutate it).

Events: ``apple`` (``cell`` eaten, ``next`` apple cell or null), ``death``
(``cause``: wall, body, tail), ``won``, ``stalled``, ``max_steps``.

Outcome: ``scores = (final length,)``, ``winner = 0`` on a win, and details
``won, length, steps, apples, steps_per_apple, eat_steps`` (the step at which each
apple was eaten, in order; for a state restored from JSON only those eaten since).

Randomness: the start from ``(seed, "start")``, the k-th apple from ``(seed, "apple", k)``,
so the state's JSON (seed and counters) restores it exactly.

Why one module of over 400 lines: it is one idea, the game's exact rules. The
configuration, the state with its step function and its JSON form, and the game that
builds them describe the same transition; the step function and the JSON restore must
agree field by field, which is easiest to check when they sit together.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal

from snakelab.core.errors import ConfigError, GameOverError, IllegalActionError
from snakelab.core.game import JSON, Dynamics, Event, OnePlayerState, Outcome
from snakelab.core.grid import OPPOSITE, Direction, DirectionActions, Grid
from snakelab.core.registry import config_from_kwargs, game_info
from snakelab.core.rng import rng_for

RULES_VERSION = 1

Action = Direction
"""An absolute direction; plain ints 0..3 are accepted too."""

_NO_EVENTS: tuple[Event, ...] = ()


class Termination(Enum):
    """Why a classic game ended."""

    WON = "won"
    """The snake fills the board."""
    WALL = "wall"
    """The head left the board."""
    BODY = "body"
    """The head entered a cell of the snake's own body."""
    TAIL = "tail"
    """Strict tail rule: the head entered the cell the tail was leaving."""
    STALLED = "stalled"
    """``stall_limit`` steps passed without an apple."""
    MAX_STEPS = "max_steps"
    """The optional ``max_steps`` cap was reached."""


@dataclass(frozen=True)
class Config:
    """Parameters of a classic game.

    Attributes:
        width: Columns (≥ 2). Default 12, the seed's board.
        height: Rows (≥ 2). Default 12.
        start_length: Initial snake length, 1 ≤ L < width·height. Default 1.
        tail_rule: ``"lenient"`` (head may enter the cell the tail leaves) or
            ``"strict"`` (that is a death). Default lenient.
        stall_limit: Steps without an apple before the game is lost; None means
            4·width·height. Default None.
        max_steps: Hard cap on the number of steps, or None. Default None.
        start_x: Column of the starting head, or None for a random cell.
        start_y: Row of the starting head, or None for a random cell.
    """

    width: int = 12
    height: int = 12
    start_length: int = 1
    tail_rule: Literal["lenient", "strict"] = "lenient"
    stall_limit: int | None = None
    max_steps: int | None = None
    start_x: int | None = None
    start_y: int | None = None

    def __post_init__(self) -> None:
        if self.width < 2 or self.height < 2:
            raise ConfigError(f"classic board {self.width}×{self.height} is too small: width and height must be ≥ 2")
        if self.width * self.height > 1_000_000:
            raise ConfigError(f"classic board {self.width}×{self.height} is too large (at most 10^6 cells)")
        if not 1 <= self.start_length < self.width * self.height:
            raise ConfigError(f"start_length {self.start_length} must be between 1 and {self.width * self.height - 1}")
        if self.tail_rule not in ("lenient", "strict"):
            raise ConfigError(f"tail_rule {self.tail_rule!r} must be 'lenient' or 'strict'")
        if (self.start_x is None) != (self.start_y is None):
            raise ConfigError("give both start_x and start_y, or neither")
        if (
            self.start_x is not None
            and self.start_y is not None
            and not (0 <= self.start_x < self.width and 0 <= self.start_y < self.height)
        ):
            raise ConfigError(f"start ({self.start_x}, {self.start_y}) is off the board")
        if self.stall_limit is not None and self.stall_limit < 1:
            raise ConfigError("stall_limit must be ≥ 1")

    @property
    def cells(self) -> int:
        """Number of cells on the board."""
        return self.width * self.height

    @property
    def effective_stall_limit(self) -> int:
        """The stall limit in force."""
        return self.stall_limit if self.stall_limit is not None else 4 * self.cells


class State(OnePlayerState):
    """A classic position. Mutable; :meth:`clone` is cheap (two array copies).

    Attributes:
        grid: The board geometry.
        body: Cells of the snake, tail at index 0, head at index -1.
        occ: Per-cell occupancy flags (1 = snake).
        head: The head cell.
        heading: Direction of the last move (or of the start line), -1 if none yet.
        apple: The apple cell, or -1 once the board is full.
    """

    __slots__ = (
        "_nbr",
        "_strict",
        "apple",
        "apples",
        "body",
        "config",
        "eat_steps",
        "grid",
        "head",
        "heading",
        "occ",
        "seed",
        "since_apple",
        "steps",
        "termination",
    )

    def __init__(self, config: Config, grid: Grid, seed: int) -> None:
        self.config = config
        self.grid = grid
        self._nbr = grid.nbr
        self._strict = config.tail_rule == "strict"
        self.seed = seed
        self.body: deque[int] = deque()
        self.occ = bytearray(grid.size)
        self.head = -1
        self.heading = -1
        self.apple = -1
        self.steps = 0
        self.apples = 0
        self.eat_steps: list[int] = []
        self.since_apple = 0
        self.termination: Termination | None = None

    # -- construction -------------------------------------------------------
    def _setup(self) -> None:
        cfg, g = self.config, self.grid
        rng = rng_for(self.seed, "start")
        length = cfg.start_length
        if cfg.start_x is not None and cfg.start_y is not None:
            heads = [g.index(cfg.start_x, cfg.start_y)]
        else:
            heads = list(range(g.size))
            rng.shuffle(heads)
        for head in heads:
            dirs = list(range(4))
            rng.shuffle(dirs)
            for d in dirs:
                # The body trails behind the head, opposite to the heading.
                cells = [head]
                back = OPPOSITE[d]
                while len(cells) < length:
                    nxt = g.step(cells[-1], back)
                    if nxt < 0:
                        break
                    cells.append(nxt)
                if len(cells) == length:
                    self.body = deque(reversed(cells))
                    for c in cells:
                        self.occ[c] = 1
                    self.head = head
                    self.heading = d if length > 1 else -1
                    self._place_apple()
                    return
        raise ConfigError(f"a straight snake of length {length} does not fit on {g.width}×{g.height} from that start")

    def _place_apple(self) -> None:
        free = self.grid.size - len(self.body)
        if free == 0:
            self.apple = -1
            return
        rng = rng_for(self.seed, "apple", self.apples)
        occ = self.occ
        if free * 4 >= self.grid.size:
            # Rejection sampling: at least a quarter of the cells are free.
            while True:
                c = rng.randrange(self.grid.size)
                if not occ[c]:
                    self.apple = c
                    return
        k = rng.randrange(free)
        for c in range(self.grid.size):
            if not occ[c]:
                if k == 0:
                    self.apple = c
                    return
                k -= 1

    # -- the State protocol --------------------------------------------------

    @property
    def length(self) -> int:
        """Current snake length."""
        return len(self.body)

    @property
    def tail(self) -> int:
        """The tail cell."""
        return self.body[0]

    def legal_actions(self, player: int = 0) -> list[Direction]:
        """Every direction except the reversal onto the neck; empty when over."""
        del player  # single player
        if self.termination is not None:
            return []
        if len(self.body) < 2:
            return list(Direction)
        back = OPPOSITE[self.heading]
        return [d for d in Direction if d != back]

    def is_legal(self, player: int, action: object) -> bool:
        """Whether ``action`` may be applied now."""
        del player  # single player
        return (
            self.termination is None
            and action in (0, 1, 2, 3)
            and not (len(self.body) >= 2 and action == OPPOSITE[self.heading])
        )

    def observe(self, player: int = 0) -> State:
        """The state itself (perfect information)."""
        del player  # single player
        return self

    def apply(self, actions: Sequence[Any]) -> Sequence[Event]:
        """Move the snake one step in ``actions[0]``; see the module docstring."""
        a = actions[0]
        if self.termination is not None:
            raise GameOverError("the classic game is over; no more moves")
        body = self.body
        if a not in (0, 1, 2, 3) or (len(body) >= 2 and a == OPPOSITE[self.heading]):
            if a in (0, 1, 2, 3):
                raise IllegalActionError(f"{Direction(a).name} reverses onto the neck")
            raise IllegalActionError(f"{a!r} is not a direction (UP, DOWN, LEFT, RIGHT)")
        d: int = a
        self.steps += 1
        self.heading = d
        nh = self._nbr[4 * self.head + d]
        if nh < 0:
            return self._end(Termination.WALL, "death", {"cause": "wall"})
        occ = self.occ
        if nh == self.apple:
            occ[nh] = 1
            body.append(nh)
            self.head = nh
            self.apples += 1
            self.eat_steps.append(self.steps)
            self.since_apple = 0
            eaten = nh
            if len(body) == self.grid.size:
                self.apple = -1
                self.termination = Termination.WON
                g = self.grid
                return (Event("apple", 0, {"cell": list(g.xy(eaten)), "next": None}), Event("won", 0))
            self._place_apple()
            g = self.grid
            return (Event("apple", 0, {"cell": list(g.xy(eaten)), "next": list(g.xy(self.apple))}),)
        tail = body[0]
        if occ[nh]:
            if nh != tail:
                return self._end(Termination.BODY, "death", {"cause": "body"})
            if self._strict:
                return self._end(Termination.TAIL, "death", {"cause": "tail"})
        body.popleft()
        occ[tail] = 0
        occ[nh] = 1
        body.append(nh)
        self.head = nh
        self.since_apple += 1
        if self.since_apple >= self.config.effective_stall_limit:
            return self._end(Termination.STALLED, "stalled", {})
        if self.config.max_steps is not None and self.steps >= self.config.max_steps:
            return self._end(Termination.MAX_STEPS, "max_steps", {})
        return _NO_EVENTS

    def _end(self, why: Termination, kind: str, data: dict[str, JSON]) -> tuple[Event, ...]:
        self.termination = why
        return (Event(kind, 0, data),)

    def outcome(self) -> Outcome:
        """The result of a finished game."""
        if self.termination is None:
            raise IllegalActionError("the game is not over yet")
        won = self.termination is Termination.WON
        length = len(self.body)
        return Outcome(
            termination=self.termination.name,
            scores=(float(length),),
            winner=0 if won else None,
            details={
                "won": won,
                "length": length,
                "steps": self.steps,
                "apples": self.apples,
                "steps_per_apple": self.steps / self.apples if self.apples else None,
                "eat_steps": list(self.eat_steps),
            },
        )

    def clone(self) -> State:
        """An independent copy."""
        s = State.__new__(State)
        for name in State.__slots__:
            setattr(s, name, getattr(self, name))
        s.body = deque(self.body)
        s.occ = bytearray(self.occ)
        s.eat_steps = list(self.eat_steps)
        return s

    def to_json(self) -> dict[str, JSON]:
        """Complete JSON form; cells as ``[x, y]``, the body listed head first."""
        g = self.grid
        return {
            "width": g.width,
            "height": g.height,
            "seed": self.seed,
            "body": [list(g.xy(c)) for c in reversed(self.body)],
            "heading": Direction(self.heading).name if self.heading >= 0 else None,
            "apple": list(g.xy(self.apple)) if self.apple >= 0 else None,
            "steps": self.steps,
            "apples": self.apples,
            "since_apple": self.since_apple,
            "termination": self.termination.name if self.termination else None,
        }

    def __repr__(self) -> str:
        return f"<classic.State {self.grid.width}×{self.grid.height} len={len(self.body)} step={self.steps}>"


class Game(DirectionActions):
    """A configured classic game; see the module docstring for the rules."""

    def __init__(self, config: Config | None = None) -> None:
        self.config = config or Config()
        self.grid = Grid(self.config.width, self.config.height)
        self.info = game_info(
            "classic", self.config, num_players=1, dynamics=Dynamics.SINGLE, rules_version=RULES_VERSION
        )

    def new_state(self, seed: int) -> State:
        """A fresh game from ``seed``."""
        s = State(self.config, self.grid, seed)
        s._setup()
        return s

    def state_from_json(self, data: dict[str, JSON]) -> State:
        """Restore a state written by :meth:`State.to_json`."""
        g = self.grid
        if (data["width"], data["height"]) != (g.width, g.height):
            raise ConfigError(f"state is {data['width']}×{data['height']}, game is {g.width}×{g.height}")
        s = State(self.config, g, int(data["seed"]))
        cells = [g.index(x, y) for x, y in data["body"]]
        s.body = deque(reversed(cells))
        for c in cells:
            s.occ[c] = 1
        s.head = cells[0]
        s.heading = Direction[data["heading"]].value if data["heading"] else -1
        s.apple = g.index(*data["apple"]) if data["apple"] else -1
        s.steps = int(data["steps"])
        s.apples = int(data["apples"])
        s.since_apple = int(data["since_apple"])
        s.termination = Termination[data["termination"]] if data["termination"] else None
        return s


def make_game(**kwargs: object) -> Game:
    """Registry factory: ``make("classic(width=20,height=20)")``."""
    return Game(config_from_kwargs(Config, "classic", kwargs))
