"""Spawning in the arena: straight lines for snakes, zombies and obstacles, and apples.

A line of ``starting_length`` cells, horizontal or vertical and headed either way with
equal chance, goes on free cells: 64 random tries, then a uniform choice among every
free placement. The k-th line placement draws from ``(seed, "spawn", k)`` and the k-th
apple from ``(seed, "apple", k)`` (the state's counters ``spawns`` and ``apple_draws``).
"""

from __future__ import annotations

from collections import deque

from snakelab.core.errors import ConfigError
from snakelab.core.game import Event
from snakelab.core.rng import rng_for
from snakelab.games.arena.actions import DOWN, LEFT, OBSTACLE, RIGHT, UP
from snakelab.games.arena.state import State


def _place_line(state: State) -> tuple[list[int], int] | None:
    """Draw a free straight line of ``starting_length``: (cells tail→head, heading)."""
    cfg, g = state.config, state.grid
    rng = rng_for(state.seed, "spawn", state.spawns)
    state.spawns += 1
    length, w, h = cfg.starting_length, g.width, g.height
    occ, apples = state.occ, state.apples

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
            return _orient(cells, horizontal, rng.random() < 0.5)
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
    return _orient(cells, horizontal, rng.random() < 0.5)


def _orient(cells: list[int], horizontal: bool, head_last: bool) -> tuple[list[int], int]:
    if head_last:
        return cells, RIGHT if horizontal else DOWN
    return cells[::-1], LEFT if horizontal else UP


def spawn_apple(state: State, slot: int) -> None:
    """Put apple ``slot`` on a random empty cell (-1 when none is left), age 0."""
    rng = rng_for(state.seed, "apple", state.apple_draws)
    state.apple_draws += 1
    occ, apples, size = state.occ, state.apples, state.grid.size
    for _ in range(64):
        c = rng.randrange(size)
        if not occ[c] and c not in apples:
            apples[slot] = c
            state.apple_age[slot] = 0
            return
    free = [c for c in range(size) if not occ[c] and c not in apples]
    apples[slot] = free[rng.randrange(len(free))] if free else -1
    state.apple_age[slot] = 0


def spawn_snake(state: State, i: int, events: list[Event] | None) -> None:
    """Spawn snake ``i`` on a free line (or retry next step), with a ``respawn`` event if ``events``."""
    placed = _place_line(state)
    if placed is None:  # no room at all: try again next step
        state.respawn_at[i] = state.steps + 2
        return
    cells, heading = placed
    body = state.bodies[i]
    body.clear()
    body.extend(cells)
    occ = state.occ
    for c in cells:
        occ[c] = i + 1
    state.heading[i] = heading
    state.growth[i] = 0
    state.alive[i] = True
    state.longest[i] = max(state.longest[i], len(cells))
    if events is not None:
        events.append(Event("respawn", i, {"head": state.xy(cells[-1])}))


def setup(state: State) -> None:
    """The start of a game: obstacles, zombies, snakes, apples, in that order."""
    cfg = state.config
    for _ in range(cfg.num_obstacles):
        placed = _place_line(state)
        if placed is None:
            raise ConfigError("no room for the obstacles on this board")
        state.obstacles.append(placed[0])
        for c in placed[0]:
            state.occ[c] = OBSTACLE
    for j in range(cfg.num_zombies):
        placed = _place_line(state)
        if placed is None:
            raise ConfigError("no room for the zombies on this board")
        state.zombies.append(deque(placed[0]))
        for c in placed[0]:
            state.occ[c] = -2 - j
    for i in range(cfg.num_snakes):
        spawn_snake(state, i, None)
    for k in range(cfg.num_apples):
        spawn_apple(state, k)
