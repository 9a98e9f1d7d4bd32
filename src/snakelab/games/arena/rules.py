"""arena — snAIke: multiplayer snake with zombies (the rules below; for users in ``docs/arena.md``).

Board ``width`` × ``height`` (default 50 × 50), (0, 0) top-left, y grows downwards.
``num_snakes`` players (default 4), ``num_zombies`` zombies (3), ``num_apples``
apples (2), ``num_obstacles`` straight obstacles (0). Snakes, zombies and obstacles
spawn as straight lines of ``starting_length`` cells (5), horizontal or vertical and
headed either way with equal chance, on empty cells (random retries, then a uniform
choice among every free placement). At the start: obstacles, zombies, snakes, apples.
The game lasts ``duration * 1000 // speed`` steps (6000).

One step is this ordered list of named stages (:data:`~snakelab.games.arena.stages.STAGES`,
the functions that run it; a variant replaces one of them):

1. ``respawn`` — snakes whose respawn timer ended respawn; eaten, destroyed or
   expired apples (age ≥ ``apple_limit``) respawn on a uniformly random empty cell.
   The agents then see the state (``to_move``/``observe``), so this stage of step
   t+1 runs at the end of ``apply`` for step t, and for step 1 in ``new_state``.
2. ``move`` — crashed agents' snakes leave the board for good; every alive snake
   turns by its move and advances its head. Moves: 0 up, 1 down, 2 left, 3 right,
   4 left of the heading, 5 straight, 6 right of the heading; a move opposite to the
   heading, :data:`TIMEOUT` and :data:`INVALID` mean straight.
3. ``collide`` — resolved simultaneously against the bodies *after* everyone moved:
   a head off the board (``wall``), on an obstacle (``obstacle``) or on a zombie cell
   (``zombie``) dies; a head on a cell some snake's body still holds after moving
   dies (``body``; the owner gets a kill, even if it dies too in this step, unless it
   is the mover: ``self``); two or more heads on one cell otherwise all die
   (``head_on``, no credit; an apple there is consumed). A tail cell is vacated
   unless its snake has pending growth — for the mover's own tail too, unless
   ``own_tail_kills`` (the 2017 engine). Dead bodies leave the board at once.
4. ``eat`` — a surviving head on an apple eats it: ``apple_growth`` pending growth;
   on each later step with growth pending the tail stays put (+1 length per step).
5. ``zombies`` — every ``zombie_speed`` steps, zombies move one after another in
   index order: the in-board neighbours of the zombie head in the order LEFT, RIGHT,
   UP, DOWN, stably sorted by Manhattan distance to the nearest alive snake head; the
   first legal one is taken even if farther. Legal: empty (or an apple), or a snake's
   head. A cell another zombie entered this step, or any other zombie cell (its own
   tail included) is not; a cell a zombie vacated earlier this step is empty. No
   legal cell: it stays. Entering a head kills that snake (``zombie_bite``, no
   credit); entering an apple destroys it. Zombies never grow or die.
6. ``age_apples`` — every apple on the board ages by one step.

A dead snake (length 0, growth cleared, kills kept) gets no state on the next step
and respawns at the start of the one after. An agent that crashed is removed for
good; the game ends after the last step (``TIME_UP``) or as soon as fewer than two
agents are still running (``FORFEIT``; built-in agents count as running).

Actions (ints): the moves 0–6; :data:`TIMEOUT` (no answer in time: straight,
counted), :data:`INVALID` (an unparseable answer: straight, counted), :data:`CRASH`
(the agent's process died or broke the protocol: removed). Every running player
acts every step; a dead snake's move is ignored (its agent is not asked by bots),
but a crash still removes it.

Observation: the state itself (perfect information; agents must not mutate it).

Events: ``eat`` (player, cell), ``death`` (player, cause, ``by`` the credited
killer or null, cell), ``respawn`` (player, head), ``apple_expired`` (cell),
``apple_destroyed`` (zombie, cell), ``timeout``, ``invalid`` and ``crash`` (player).

Ranking: by longest length reached (after any step), then kills, then the higher
index wins the tie. ``Outcome.scores`` are the longest lengths, ``winner`` the
player ranked first, details ``ranking`` (best first) and per-player lists
``longest, kills, deaths, timeouts, invalid, crashes, length``.

Randomness: the k-th line placement (obstacle, zombie or snake, in spawn order)
draws from ``(seed, "spawn", k)`` and the k-th apple from ``(seed, "apple", k)``, so
the state's JSON (seed and counters) restores it exactly.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from snakelab.core.errors import ConfigError, GameOverError, IllegalActionError
from snakelab.core.game import JSON, Dynamics, Event, Outcome
from snakelab.core.grid import Grid
from snakelab.core.registry import config_from_kwargs, game_info
from snakelab.games.arena.actions import (
    ACTIONS,
    CRASH,
    DOWN,
    INVALID,
    LEFT,
    LEFT_OF,
    MOVES,
    OBSTACLE,
    REL_LEFT,
    REL_RIGHT,
    RIGHT,
    RIGHT_OF,
    STRAIGHT,
    TIMEOUT,
    TURN,
    UP,
    ZOMBIE_ORDER,
    Action,
)
from snakelab.games.arena.spawn import setup
from snakelab.games.arena.stages import STAGES, Stage, Step

# Actions, directions and board codes are defined in actions.py and the stages in
# stages.py; the rules export them too, where the agents and codecs have always found them.
__all__ = [
    "ACTIONS",
    "CRASH",
    "DOWN",
    "INVALID",
    "LEFT",
    "LEFT_OF",
    "MOVES",
    "OBSTACLE",
    "REL_LEFT",
    "REL_RIGHT",
    "RIGHT",
    "RIGHT_OF",
    "RULES_VERSION",
    "STAGES",
    "STRAIGHT",
    "TIMEOUT",
    "TURN",
    "UP",
    "ZOMBIE_ORDER",
    "Action",
    "Config",
    "Game",
    "Stage",
    "State",
    "Termination",
    "make_game",
]

RULES_VERSION = 1


class Termination(Enum):
    """Why an arena game ended."""

    TIME_UP = "time_up"
    """All ``duration * 1000 // speed`` steps were played."""
    FORFEIT = "forfeit"
    """Fewer than two agents were still running (the others crashed)."""


@dataclass(frozen=True)
class Config:
    """Parameters of an arena game (the snAIke defaults).

    Attributes:
        game_width: Columns. Default 50.
        game_height: Rows. Default 50.
        num_snakes: Players, ≥ 2. Default 4.
        num_zombies: Zombies. Default 3.
        num_apples: Apples on the board at all times. Default 2.
        num_obstacles: Straight obstacles of ``starting_length``. Default 0.
        starting_length: Length of spawned snakes, zombies and obstacles, ≥ 2. Default 5.
        apple_growth: Cells an apple adds, one per step. Default 3.
        apple_limit: Steps before an uneaten apple respawns elsewhere. Default 600.
        duration: Game length in seconds. Default 300.
        speed: Milliseconds each agent has per step. Default 50.
        zombie_speed: Zombies move every this many steps. Default 1.
        own_tail_kills: Entering the cell your own tail leaves kills (2017 engine).
            Default false.
    """

    game_width: int = 50
    game_height: int = 50
    num_snakes: int = 4
    num_zombies: int = 3
    num_apples: int = 2
    num_obstacles: int = 0
    starting_length: int = 5
    apple_growth: int = 3
    apple_limit: int = 600
    duration: int = 300
    speed: int = 50
    zombie_speed: int = 1
    own_tail_kills: bool = False

    def __post_init__(self) -> None:
        w, h, sl = self.game_width, self.game_height, self.starting_length
        if w < 2 or h < 2 or w * h > 1_000_000:
            raise ConfigError(f"arena board {w}×{h}: width and height must be ≥ 2 and the board ≤ 10^6 cells")
        if not 2 <= self.num_snakes <= 64:
            raise ConfigError(f"num_snakes {self.num_snakes} must be between 2 and 64")
        if sl < 2 or sl > max(w, h):
            raise ConfigError(f"starting_length {sl} must be between 2 and the board's longer side ({max(w, h)})")
        for key in ("num_zombies", "num_apples", "num_obstacles", "apple_growth"):
            if getattr(self, key) < 0:
                raise ConfigError(f"{key} {getattr(self, key)} must be ≥ 0")
        for key in ("apple_limit", "duration", "speed", "zombie_speed"):
            if getattr(self, key) < 1:
                raise ConfigError(f"{key} {getattr(self, key)} must be ≥ 1")
        lines = self.num_snakes + self.num_zombies + self.num_obstacles
        if lines * sl + self.num_apples > (w * h) // 2:
            raise ConfigError(
                f"{lines} lines of length {sl} plus {self.num_apples} apples need more than half of the "
                f"{w}×{h} board; use a bigger board or fewer snakes, zombies or obstacles"
            )
        if self.steps < 1:
            raise ConfigError(f"duration {self.duration} s at speed {self.speed} ms gives no steps")

    @property
    def steps(self) -> int:
        """Number of steps in a game: ``duration * 1000 // speed``."""
        return self.duration * 1000 // self.speed


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
        stages: tuple[Stage, ...] = STAGES,
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


class Game:
    """A configured arena game; see the module docstring for the rules.

    Args:
        config: The parameters (default :class:`Config`).
        stages: The step's stage functions in order; a variant passes
            :data:`~snakelab.games.arena.stages.STAGES` with one stage replaced
            (:func:`~snakelab.games.arena.stages.replace_stage`).
    """

    def __init__(self, config: Config | None = None, stages: tuple[Stage, ...] = STAGES) -> None:
        self.config = config or Config()
        self.stages = stages
        cfg = self.config
        self.grid = Grid(cfg.game_width, cfg.game_height)
        self._xs = [c % cfg.game_width for c in range(self.grid.size)]
        self._ys = [c // cfg.game_width for c in range(self.grid.size)]
        self.info = game_info(
            "arena", cfg, num_players=cfg.num_snakes, dynamics=Dynamics.SIMULTANEOUS, rules_version=RULES_VERSION
        )

    def blank_state(self, seed: int = 0) -> State:
        """An empty board (no snakes, zombies or apples) for building positions by hand."""
        return State(self.config, self.grid, seed, self._xs, self._ys, self.stages)

    def new_state(self, seed: int) -> State:
        """A fresh game from ``seed``."""
        s = self.blank_state(seed)
        setup(s)
        return s

    def state_from_json(self, data: dict[str, JSON]) -> State:
        """Restore a state written by :meth:`State.to_json`."""
        g = self.grid
        if (data["width"], data["height"]) != (g.width, g.height):
            raise ConfigError(f"state is {data['width']}×{data['height']}, game is {g.width}×{g.height}")
        s = self.blank_state(int(data["seed"]))
        s.steps = int(data["steps"])

        def cell(p: list[int]) -> int:
            return g.index(p[0], p[1])

        for i, sn in enumerate(data["snakes"]):
            cells = [cell(p) for p in reversed(sn["body"])]
            s.bodies[i].extend(cells)
            for c in cells:
                s.occ[c] = i + 1
            s.heading[i] = int(sn["heading"])
            s.growth[i] = int(sn["growth"])
            s.alive[i] = bool(sn["alive"])
            s.running[i] = bool(sn["running"])
            s.respawn_at[i] = int(sn["respawn_at"])
            for key in ("kills", "deaths", "timeouts", "invalid", "crashes", "longest"):
                getattr(s, key)[i] = int(sn[key])
        for j, z in enumerate(data["zombies"]):
            cells = [cell(p) for p in reversed(z)]
            s.zombies.append(deque(cells))
            for c in cells:
                s.occ[c] = -2 - j
        for o in data["obstacles"]:
            cells = [cell(p) for p in o]
            s.obstacles.append(cells)
            for c in cells:
                s.occ[c] = OBSTACLE
        s.apples = [cell(p) if p is not None else -1 for p in data["apples"]]
        s.apple_age = [int(a) for a in data["apple_age"]]
        s.spawns = int(data["spawns"])
        s.apple_draws = int(data["apple_draws"])
        s.termination = Termination[data["termination"]] if data["termination"] else None
        return s

    def action_to_json(self, action: object) -> JSON:
        """Actions are written as plain ints."""
        return int(action)  # type: ignore[call-overload]

    def action_from_json(self, data: JSON) -> int:
        """Inverse of :meth:`action_to_json`."""
        return int(data)

    def candidate_actions(self, state: object, player: int) -> list[object]:
        """Every action plus out-of-range values, for conformance tests."""
        del state, player  # the same for every state
        return [*ACTIONS, 10, -1, "5"]


def make_game(**kwargs: object) -> Game:
    """Registry factory: ``make("arena(game_width=20,game_height=20)")``.

    The config-file aliases (``gw``, ``ns``, ``speed``...) are accepted too.
    """
    from snakelab.games.arena.config import canonical_key

    return Game(config_from_kwargs(Config, "arena", {canonical_key(k): v for k, v in kwargs.items()}))
