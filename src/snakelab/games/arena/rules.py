"""arena — snAIke: multiplayer snake with zombies (the rules below; for users in ``docs/arena.md``).

Board ``width`` × ``height`` (default 50 × 50), (0, 0) top-left, y grows downwards.
``num_snakes`` players (default 4), ``num_zombies`` zombies (3), ``num_apples``
apples (2), ``num_obstacles`` straight obstacles (0). Snakes, zombies and obstacles
spawn as straight lines of ``starting_length`` cells (5), horizontal or vertical and
headed either way with equal chance, on empty cells (random retries, then a uniform
choice among every free placement). At the start: obstacles, zombies, snakes, apples.
The game lasts ``duration * 1000 // speed`` steps (6000).

One step is this ordered list of named stages (:data:`STAGES`):

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from snakelab.core.errors import ConfigError, GameOverError, IllegalActionError
from snakelab.core.game import JSON, Dynamics, Event, Outcome
from snakelab.core.grid import OPPOSITE, Grid
from snakelab.core.registry import config_from_kwargs, game_info
from snakelab.core.rng import rng_for

RULES_VERSION = 1

UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
REL_LEFT, STRAIGHT, REL_RIGHT = 4, 5, 6
TIMEOUT = 7
"""No answer arrived in time: the snake goes straight; counted as a timeout."""
INVALID = 8
"""The answer did not parse as a move: the snake goes straight; counted."""
CRASH = 9
"""The agent's process exited, was killed or broke the protocol: removed for good."""
ACTIONS = tuple(range(10))
MOVES = tuple(range(7))

Action = int
"""A move 0–6 or one of :data:`TIMEOUT`, :data:`INVALID`, :data:`CRASH`."""

STAGES = ("respawn", "move", "collide", "eat", "zombies", "age_apples")
"""The stages of one step, in order (see the module docstring)."""

# Relative turns: LEFT_OF[heading] and RIGHT_OF[heading] (screen coordinates, y down).
LEFT_OF = (LEFT, RIGHT, DOWN, UP)
RIGHT_OF = (RIGHT, LEFT, UP, DOWN)
# Zombie neighbour order LEFT, RIGHT, UP, DOWN.
ZOMBIE_ORDER = (LEFT, RIGHT, UP, DOWN)

OBSTACLE = -1
"""Board code of an obstacle cell; zombie ``j`` is ``-2 - j``, snake ``i`` is ``i + 1``."""


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


def _turn(heading: int, move: int) -> int:
    """The absolute direction a move leads to from ``heading``."""
    if move < 4:
        return heading if move == OPPOSITE[heading] else move
    if move == REL_LEFT:
        return LEFT_OF[heading]
    if move == REL_RIGHT:
        return RIGHT_OF[heading]
    return heading


TURN = tuple(tuple(_turn(h, m) if m < 7 else h for m in ACTIONS) for h in range(4))
"""``TURN[heading][action]``: the direction taken (non-moves go straight)."""


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
        "steps",
        "termination",
        "timeouts",
        "zombies",
    )

    def __init__(self, config: Config, grid: Grid, seed: int, xs: list[int], ys: list[int]) -> None:
        n = config.num_snakes
        self.config = config
        self.grid = grid
        self._nbr = grid.nbr
        self._xs = xs
        self._ys = ys
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

    # -- spawning -------------------------------------------------------------
    def _place_line(self) -> tuple[list[int], int] | None:
        """Draw a free straight line of ``starting_length``: (cells tail→head, heading)."""
        cfg, g = self.config, self.grid
        rng = rng_for(self.seed, "spawn", self.spawns)
        self.spawns += 1
        length, w, h = cfg.starting_length, g.width, g.height
        occ, apples = self.occ, self.apples

        def cells_of(x: int, y: int, horizontal: bool) -> list[int] | None:
            step = 1 if horizontal else w
            start = y * w + x
            out = [start + k * step for k in range(length)]
            for c in out:
                if occ[c] or c in apples:
                    return None
            return out

        for _ in range(64):
            horizontal = rng.random() < 0.5
            if horizontal:
                x, y = rng.randrange(w - length + 1) if w >= length else -1, rng.randrange(h)
            else:
                x, y = rng.randrange(w), rng.randrange(h - length + 1) if h >= length else -1
            if x < 0 or y < 0:
                continue
            cells = cells_of(x, y, horizontal)
            if cells is not None:
                return self._orient(cells, horizontal, rng.random() < 0.5)
        # Crowded board: choose uniformly among every free placement.
        options = []
        for horizontal in (True, False):
            for y in range(h - (0 if horizontal else length - 1)):
                for x in range(w - (length - 1 if horizontal else 0)):
                    if cells_of(x, y, horizontal) is not None:
                        options.append((x, y, horizontal))
        if not options:
            return None
        x, y, horizontal = options[rng.randrange(len(options))]
        cells = cells_of(x, y, horizontal)
        assert cells is not None
        return self._orient(cells, horizontal, rng.random() < 0.5)

    @staticmethod
    def _orient(cells: list[int], horizontal: bool, head_last: bool) -> tuple[list[int], int]:
        if head_last:
            return cells, RIGHT if horizontal else DOWN
        return cells[::-1], LEFT if horizontal else UP

    def _spawn_apple(self, slot: int) -> None:
        rng = rng_for(self.seed, "apple", self.apple_draws)
        self.apple_draws += 1
        occ, apples, size = self.occ, self.apples, self.grid.size
        for _ in range(64):
            c = rng.randrange(size)
            if not occ[c] and c not in apples:
                apples[slot] = c
                self.apple_age[slot] = 0
                return
        free = [c for c in range(size) if not occ[c] and c not in apples]
        apples[slot] = free[rng.randrange(len(free))] if free else -1
        self.apple_age[slot] = 0

    def _spawn_snake(self, i: int, events: list[Event] | None) -> None:
        placed = self._place_line()
        if placed is None:  # no room at all: try again next step
            self.respawn_at[i] = self.steps + 2
            return
        cells, heading = placed
        body = self.bodies[i]
        body.clear()
        body.extend(cells)
        occ = self.occ
        for c in cells:
            occ[c] = i + 1
        self.heading[i] = heading
        self.growth[i] = 0
        self.alive[i] = True
        self.longest[i] = max(self.longest[i], len(cells))
        if events is not None:
            events.append(Event("respawn", i, {"head": self._xy(cells[-1])}))

    def _setup(self) -> None:
        cfg = self.config
        for _ in range(cfg.num_obstacles):
            placed = self._place_line()
            if placed is None:
                raise ConfigError("no room for the obstacles on this board")
            self.obstacles.append(placed[0])
            for c in placed[0]:
                self.occ[c] = OBSTACLE
        for j in range(cfg.num_zombies):
            placed = self._place_line()
            if placed is None:
                raise ConfigError("no room for the zombies on this board")
            self.zombies.append(deque(placed[0]))
            for c in placed[0]:
                self.occ[c] = -2 - j
        for i in range(cfg.num_snakes):
            self._spawn_snake(i, None)
        for k in range(cfg.num_apples):
            self._spawn_apple(k)

    def _xy(self, cell: int) -> list[int]:
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
        """Play one step: move, collide, eat, zombies, age apples, then the next respawn."""
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
        events: list[Event] = []
        self.steps += 1
        moved = self._stage_move(actions, events)
        dead = self._stage_collide(moved, events)
        self._stage_eat(moved, dead, events)
        if self.steps % self.config.zombie_speed == 0:
            self._stage_zombies(events)
        self._stage_age_apples()
        alive, longest, bodies = self.alive, self.longest, self.bodies
        for i in range(n):
            if alive[i] and len(bodies[i]) > longest[i]:
                longest[i] = len(bodies[i])
        if sum(running) < 2:
            self.termination = Termination.FORFEIT
        elif self.steps >= self.config.steps:
            self.termination = Termination.TIME_UP
        else:
            self._stage_respawn(events)
        return events

    # -- stages ---------------------------------------------------------------
    def _kill(self, i: int) -> None:
        occ = self.occ
        for c in self.bodies[i]:
            occ[c] = 0
        self.bodies[i].clear()
        self.alive[i] = False
        self.growth[i] = 0
        self.deaths[i] += 1
        self.respawn_at[i] = self.steps + 2

    def _stage_respawn(self, events: list[Event]) -> None:
        nxt = self.steps + 1
        for i in range(len(self.bodies)):
            if self.running[i] and not self.alive[i] and self.respawn_at[i] <= nxt:
                self._spawn_snake(i, events)
        limit = self.config.apple_limit
        for k, c in enumerate(self.apples):
            if c < 0:
                self._spawn_apple(k)
            elif self.apple_age[k] >= limit:
                events.append(Event("apple_expired", None, {"cell": self._xy(c)}))
                self.apples[k] = -1
                self._spawn_apple(k)

    def _stage_move(self, actions: Sequence[Any], events: list[Event]) -> list[int]:
        """Remove crashed snakes, count faults; return each snake's new head (-2: not moving)."""
        n = len(self.bodies)
        moved = [-2] * n
        nbr, heading, alive = self._nbr, self.heading, self.alive
        for i in range(n):
            if not self.running[i]:
                continue
            a = actions[i]
            if a == CRASH:
                self.running[i] = False
                self.crashes[i] += 1
                events.append(Event("crash", i))
                if alive[i]:
                    occ = self.occ
                    for c in self.bodies[i]:
                        occ[c] = 0
                    self.bodies[i].clear()
                    alive[i] = False
                    self.growth[i] = 0
                continue
            if not alive[i]:
                continue
            if a == TIMEOUT:
                self.timeouts[i] += 1
                events.append(Event("timeout", i))
            elif a == INVALID:
                self.invalid[i] += 1
                events.append(Event("invalid", i))
            d = TURN[heading[i]][a]
            heading[i] = d
            moved[i] = nbr[4 * self.bodies[i][-1] + d]
        return moved

    def _stage_collide(self, moved: list[int], events: list[Event]) -> list[bool]:
        """Decide every death against the bodies after moving, then apply them together."""
        n = len(moved)
        occ, bodies, growth = self.occ, self.bodies, self.growth
        own_tail_kills = self.config.own_tail_kills
        dead = [False] * n
        causes: list[tuple[int, str, int | None, int]] = []
        heads: dict[int, int] = {}
        for c in moved:
            if c >= 0:
                heads[c] = heads.get(c, 0) + 1
        for i in range(n):
            c = moved[i]
            if c == -2:
                continue
            if c < 0:
                causes.append((i, "wall", None, c))
                continue
            v = occ[c]
            if v == OBSTACLE:
                causes.append((i, "obstacle", None, c))
            elif v < 0:
                causes.append((i, "zombie", None, c))
            elif v > 0:
                j = v - 1
                body = bodies[j]
                vacated = c == body[0] and growth[j] == 0 and moved[j] != -2 and not (own_tail_kills and j == i)
                if not vacated:
                    causes.append((i, "self" if j == i else "body", None if j == i else j, c))
                elif heads[c] > 1:
                    causes.append((i, "head_on", None, c))
            elif heads[c] > 1:
                causes.append((i, "head_on", None, c))
        apples = self.apples
        for i, cause, by, c in causes:
            dead[i] = True
            if by is not None:
                self.kills[by] += 1
            if cause == "head_on" and c in apples:
                apples[apples.index(c)] = -1
            events.append(Event("death", i, {"cause": cause, "by": by, "cell": self._xy(c) if c >= 0 else None}))
        for i, _cause, _by, _c in causes:
            self._kill(i)
        # Survivors: tails first (a head may enter a vacated tail), then heads.
        for i in range(n):
            if moved[i] >= 0 and not dead[i]:
                if growth[i]:
                    growth[i] -= 1
                else:
                    occ[bodies[i].popleft()] = 0
        for i in range(n):
            c = moved[i]
            if c >= 0 and not dead[i]:
                bodies[i].append(c)
                occ[c] = i + 1
        return dead

    def _stage_eat(self, moved: list[int], dead: list[bool], events: list[Event]) -> None:
        apples = self.apples
        for i, c in enumerate(moved):
            if c >= 0 and not dead[i] and c in apples:
                apples[apples.index(c)] = -1
                self.growth[i] += self.config.apple_growth
                events.append(Event("eat", i, {"cell": self._xy(c)}))

    def _stage_zombies(self, events: list[Event]) -> None:
        occ, nbr, xs, ys = self.occ, self._nbr, self._xs, self._ys
        bodies, alive = self.bodies, self.alive
        for j, z in enumerate(self.zombies):
            hxs = [xs[b[-1]] for i, b in enumerate(bodies) if alive[i]]
            hys = [ys[b[-1]] for i, b in enumerate(bodies) if alive[i]]
            nheads = len(hxs)
            base = 4 * z[-1]
            # The first legal cell in the stably sorted order is the legal cell with the
            # smallest distance, ties going to the earlier of LEFT, RIGHT, UP, DOWN.
            c = -1
            best = 1 << 31
            for d in ZOMBIE_ORDER:
                n = nbr[base + d]
                if n < 0:
                    continue
                v = occ[n]
                if v != 0 and not (v > 0 and bodies[v - 1][-1] == n):
                    continue
                dist = 0
                if nheads:
                    dist = 1 << 30
                    nx, ny = xs[n], ys[n]
                    for k in range(nheads):
                        t = abs(nx - hxs[k]) + abs(ny - hys[k])
                        if t < dist:  # noqa: PLR1730 - cheaper than a min() call in the hot loop
                            dist = t
                if dist < best:
                    best, c = dist, n
            if c < 0:
                continue  # no legal cell: the zombie stays
            v = occ[c]
            if v > 0:
                victim = v - 1
                events.append(Event("death", victim, {"cause": "zombie_bite", "by": None, "cell": self._xy(c)}))
                self._kill(victim)
            occ[z.popleft()] = 0
            z.append(c)
            occ[c] = -2 - j
            if c in self.apples:
                self.apples[self.apples.index(c)] = -1
                events.append(Event("apple_destroyed", None, {"zombie": j, "cell": self._xy(c)}))

    def _stage_age_apples(self) -> None:
        ages = self.apple_age
        for k, c in enumerate(self.apples):
            if c >= 0:
                ages[k] += 1

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
        xy = self._xy
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


STAGE_METHODS: dict[str, Callable[..., Any]] = {
    "respawn": State._stage_respawn,
    "move": State._stage_move,
    "collide": State._stage_collide,
    "eat": State._stage_eat,
    "zombies": State._stage_zombies,
    "age_apples": State._stage_age_apples,
}
"""Each named stage and the method that implements it."""


class Game:
    """A configured arena game; see the module docstring for the rules."""

    def __init__(self, config: Config | None = None) -> None:
        self.config = config or Config()
        cfg = self.config
        self.grid = Grid(cfg.game_width, cfg.game_height)
        self._xs = [c % cfg.game_width for c in range(self.grid.size)]
        self._ys = [c // cfg.game_width for c in range(self.grid.size)]
        self.info = game_info(
            "arena", cfg, num_players=cfg.num_snakes, dynamics=Dynamics.SIMULTANEOUS, rules_version=RULES_VERSION
        )

    def blank_state(self, seed: int = 0) -> State:
        """An empty board (no snakes, zombies or apples) for building positions by hand."""
        return State(self.config, self.grid, seed, self._xs, self._ys)

    def new_state(self, seed: int) -> State:
        """A fresh game from ``seed``."""
        s = self.blank_state(seed)
        s._setup()
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
