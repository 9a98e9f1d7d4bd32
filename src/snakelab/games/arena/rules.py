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

from snakelab.core.errors import ConfigError
from snakelab.core.game import JSON, Dynamics
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
from snakelab.games.arena.config import Config, canonical_key
from snakelab.games.arena.spawn import setup
from snakelab.games.arena.stages import STAGES
from snakelab.games.arena.state import Stage, State, Termination

# Actions, directions and board codes are defined in actions.py, the Config in config.py,
# the State in state.py and the stages in stages.py; the rules export them too, where the
# agents and codecs have always found them.
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
    return Game(config_from_kwargs(Config, "arena", {canonical_key(k): v for k, v in kwargs.items()}))
