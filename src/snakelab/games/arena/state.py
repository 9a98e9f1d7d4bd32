"""The arena's position (:class:`State`) and what one step's stages share (:class:`Step`).

The rules a step follows are in :mod:`.rules` (stated there stage by stage) and run by
the stage functions of :mod:`.stages`; :class:`State` holds the board and the counters,
and :meth:`State.apply` runs the stages it was made with. It lives apart from the rules
so that the stages and the spawns, which change a state, can import it without
importing the rules that put them in order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from snakelab.core.errors import GameOverError, IllegalActionError
from snakelab.core.game import JSON, Event, Outcome
from snakelab.core.grid import Grid
from snakelab.games.arena.actions import ACTIONS, CRASH
from snakelab.games.arena.config import Config


class Termination(Enum):
    """Why an arena game ended."""

    TIME_UP = "time_up"
    """All ``duration * 1000 // speed`` steps were played."""
    FORFEIT = "forfeit"
    """Fewer than two agents were still running (the others crashed)."""


@dataclass(slots=True)
class Step:
    """What the stages of one step share.

    Attributes:
        actions: One action per snake, as given to ``apply``.
        events: The step's events so far.
        moved: Per snake, its new head after ``move`` (-2: not moving, -1: off the board).
        dead: Per snake, whether it died in ``collide``.
    """

    actions: Sequence[Any]
    events: list[Event]
    moved: list[int]
    dead: list[bool]


Stage = Callable[["State", Step], None]
"""A stage: changes the state, reads and writes the :class:`Step`."""


class State:
    """An arena position, ready for the agents of the current step.

    Attributes:
        config: The game parameters.
        grid: Board geometry (``grid.nbr`` is the flat neighbour table).
        occ: Per-cell owner code: 0 empty, ``i + 1`` snake i, :data:`OBSTACLE`,
            ``-2 - j`` zombie j (apples are not on it; see :attr:`apples`).
        bodies: Per snake, its cells tail first, head last (empty when dead).
        heading: Per snake, the direction of its last move.
        growth: Per snake, pending growth.
        alive: Per snake, whether it is on the board.
        running: Per snake, whether its agent still runs (crashed: False).
        respawn_at: Per snake, the step at whose start a dead snake respawns.
        zombies: Per zombie, its cells tail first, head last.
        obstacles: Per obstacle, its cells.
        apples: Per apple slot, its cell or -1 when eaten or destroyed.
        apple_age: Per apple slot, steps on the board.
        stages: The stage functions one step runs (:data:`~snakelab.games.arena.stages.STAGES`
            unless the game was made with a variant).
    """

    __slots__ = (
        "_nbr",
        "_xs",
        "_ys",
        "alive",
        "apple_age",
        "apple_draws",
        "apples",
        "bodies",
        "config",
        "crashes",
        "deaths",
        "grid",
        "growth",
        "heading",
        "invalid",
        "kills",
        "longest",
        "obstacles",
        "occ",
        "respawn_at",
        "running",
        "seed",
        "spawns",
        "stages",
        "steps",
        "termination",
        "timeouts",
        "zombies",
    )

    def __init__(
        self,
        config: Config,
        grid: Grid,
        seed: int,
        xs: list[int],
        ys: list[int],
        stages: tuple[Stage, ...],
    ) -> None:
        n = config.num_snakes
        self.config = config
        self.grid = grid
        self._nbr = grid.nbr
        self._xs = xs
        self._ys = ys
        self.stages = stages
        self.seed = seed
        self.steps = 0
        self.occ: list[int] = [0] * grid.size
        self.bodies: list[deque[int]] = [deque() for _ in range(n)]
        self.heading = [0] * n
        self.growth = [0] * n
        self.alive = [False] * n
        self.running = [True] * n
        self.respawn_at = [1] * n
        self.kills = [0] * n
        self.deaths = [0] * n
        self.timeouts = [0] * n
        self.invalid = [0] * n
        self.crashes = [0] * n
        self.longest = [0] * n
        self.zombies: list[deque[int]] = []
        self.obstacles: list[list[int]] = []
        self.apples = [-1] * config.num_apples
        self.apple_age = [0] * config.num_apples
        self.spawns = 0
        self.apple_draws = 0
        self.termination: Termination | None = None

    def xy(self, cell: int) -> list[int]:
        """The ``[x, y]`` of a cell (the form events and JSON use)."""
        return [self._xs[cell], self._ys[cell]]

    # -- the State protocol ---------------------------------------------------
    @property
    def step_count(self) -> int:
        """Steps applied so far."""
        return self.steps

    @property
    def num_players(self) -> int:
        """Number of snakes."""
        return len(self.bodies)

    def head(self, i: int) -> int:
        """Head cell of snake ``i`` (-1 when dead)."""
        body = self.bodies[i]
        return body[-1] if body else -1

    def to_move(self) -> Sequence[int]:
        """Every player whose agent still runs; empty once the game is over."""
        if self.termination is not None:
            return ()
        return tuple(i for i, r in enumerate(self.running) if r)

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.termination is not None

    def legal_actions(self, player: int) -> Sequence[int]:
        """All of :data:`ACTIONS` for a running player, nothing otherwise."""
        if self.termination is not None or not self.running[player]:
            return ()
        return ACTIONS

    def is_legal(self, player: int, action: object) -> bool:
        """Whether ``action`` may be applied for ``player`` now."""
        if self.termination is not None or not self.running[player] or type(action) is not int:
            return False
        return 0 <= action <= CRASH

    def observe(self, player: int) -> State:
        """The state itself (perfect information)."""
        del player  # everyone sees everything
        return self

    def apply(self, actions: Sequence[Any]) -> Sequence[Event]:
        """Play one step: the stages after the first, then the next step's first stage (respawn)."""
        if self.termination is not None:
            raise GameOverError("the arena game is over; no more moves")
        running = self.running
        n = len(running)
        if len(actions) != n:
            raise IllegalActionError(f"expected {n} actions (one per snake), got {len(actions)}")
        for i in range(n):
            if running[i]:
                a = actions[i]
                if type(a) is not int or not 0 <= a <= CRASH:
                    raise IllegalActionError(f"{a!r} is not an arena action for snake {i} (0-6, or 7-9)")
        step = Step(actions, [], [-2] * n, [False] * n)
        self.steps += 1
        stages = self.stages
        # The first stage (respawn) of this step ran at the end of the previous apply, so
        # that the agents saw its result; the others run now, in order.
        for stage in stages[1:]:
            stage(self, step)
        alive, longest, bodies = self.alive, self.longest, self.bodies
        for i in range(n):
            if alive[i] and len(bodies[i]) > longest[i]:
                longest[i] = len(bodies[i])
        if sum(running) < 2:
            self.termination = Termination.FORFEIT
        elif self.steps >= self.config.steps:
            self.termination = Termination.TIME_UP
        else:
            stages[0](self, step)  # the next step's first stage
        return step.events

    # -- results --------------------------------------------------------------
    def ranking(self) -> list[int]:
        """Players best first: longest length, then kills, then the higher index."""
        n = len(self.bodies)
        return sorted(range(n), key=lambda i: (self.longest[i], self.kills[i], i), reverse=True)

    def outcome(self) -> Outcome:
        """The result of a finished game."""
        if self.termination is None:
            raise IllegalActionError("the game is not over yet")
        rank = self.ranking()
        return Outcome(
            termination=self.termination.name,
            scores=tuple(float(v) for v in self.longest),
            winner=rank[0],
            details={
                "ranking": rank,
                "longest": list(self.longest),
                "kills": list(self.kills),
                "deaths": list(self.deaths),
                "timeouts": list(self.timeouts),
                "invalid": list(self.invalid),
                "crashes": list(self.crashes),
                "length": [len(b) for b in self.bodies],
                "steps": self.steps,
            },
        )

    def clone(self) -> State:
        """An independent copy."""
        s = State.__new__(State)
        for name in State.__slots__:
            setattr(s, name, getattr(self, name))
        s.occ = self.occ[:]
        s.bodies = [deque(b) for b in self.bodies]
        s.zombies = [deque(z) for z in self.zombies]
        for name in (
            "heading",
            "growth",
            "alive",
            "running",
            "respawn_at",
            "kills",
            "deaths",
            "timeouts",
            "invalid",
            "crashes",
            "longest",
            "apples",
            "apple_age",
        ):
            setattr(s, name, getattr(self, name)[:])
        return s

    def to_json(self) -> dict[str, JSON]:
        """Complete JSON form; cells as ``[x, y]``, bodies listed head first."""
        xy = self.xy
        return {
            "width": self.grid.width,
            "height": self.grid.height,
            "seed": self.seed,
            "steps": self.steps,
            "snakes": [
                {
                    "body": [xy(c) for c in reversed(self.bodies[i])],
                    "heading": self.heading[i],
                    "growth": self.growth[i],
                    "alive": self.alive[i],
                    "running": self.running[i],
                    "respawn_at": self.respawn_at[i],
                    "kills": self.kills[i],
                    "deaths": self.deaths[i],
                    "timeouts": self.timeouts[i],
                    "invalid": self.invalid[i],
                    "crashes": self.crashes[i],
                    "longest": self.longest[i],
                }
                for i in range(len(self.bodies))
            ],
            "zombies": [[xy(c) for c in reversed(z)] for z in self.zombies],
            "obstacles": [[xy(c) for c in o] for o in self.obstacles],
            "apples": [xy(c) if c >= 0 else None for c in self.apples],
            "apple_age": list(self.apple_age),
            "spawns": self.spawns,
            "apple_draws": self.apple_draws,
            "termination": self.termination.name if self.termination else None,
        }

    def __repr__(self) -> str:
        lens = ",".join(str(len(b)) for b in self.bodies)
        return f"<arena.State {self.grid.width}×{self.grid.height} step={self.steps} lengths={lens}>"


__all__ = ["Stage", "State", "Step", "Termination"]
