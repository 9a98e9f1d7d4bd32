"""A compiled, array-based simulator of the arena step, for searching agents.

The rules in :mod:`.rules` are written for clarity: deques, dicts and events. A search
needs thousands of steps per decision, so this module keeps a whole position in one
flat ``int32`` array (copying a position is one ``memcpy``) and plays a step in a numba
kernel: a copy plus a step costs about 2 µs of CPU on the default 50 × 50 board
(a clone and a step of the rules, about 45 µs), and the searches' Voronoi evaluation,
a race of every head over the whole board (:mod:`.territory`, on bitboards), 6–9 µs.

Exactness: :func:`step` plays the ``move``, ``collide``, ``eat``, ``zombies`` and
``age_apples`` stages exactly as the rules do (turns, wall, obstacle, zombie-cell,
body, self and head-on deaths with the same kill credits, vacating tails, pending
growth, the zombies' sequential chase with bites and destroyed apples,
``own_tail_kills``, ``zombie_speed``, crashes). The ``respawn`` stage is
deliberately simplified, because its outcome is random and unknown to an agent:

* a dead snake stays dead (the rules respawn it two steps later at a random place);
* an eaten, destroyed or expired apple leaves an empty slot (``-1``) instead of
  reappearing at a random cell (an expired apple is removed where the rules would
  move it).

``tests/games/arena/test_sim.py`` replays random games through both and compares
every field step by step, apart from exactly these two.

Layout of a position (:func:`layout` returns the offsets in an ``int32`` array
``lay``, indexed by the ``L_*`` constants): the board codes ``occ`` as in the rules
(0 empty, ``i + 1`` snake i, -1 obstacle, ``-2 - j`` zombie j); per snake
``NF`` scalars (``F_*``); per snake a ring buffer of ``cap`` cells (tail at
``F_TAIL``, ``F_LEN`` cells); per zombie a full ring buffer of its fixed length
(oldest cell, the tail, at its start index); the apples, their ages and the step
counter.

Why one module over 400 lines: the encoding and the kernels that read it are one data
layout; apart, each would have to know the other's offsets.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from snakelab.games.arena.rules import TURN, ZOMBIE_ORDER, State

F = TypeVar("F", bound=Callable[..., Any])
I32 = npt.NDArray[np.int32]


def _jit(fn: F) -> F:
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


# Layout indices (entries of ``lay``).
L_W, L_H, L_SIZE, L_N, L_NZ, L_NA, L_CAP, L_ZCAP = 0, 1, 2, 3, 4, 5, 6, 7
L_GROWTH, L_LIMIT, L_ZSPEED, L_OWNTAIL, L_STEPS = 8, 9, 10, 11, 12
L_OCC, L_SNK, L_BODY, L_ZHDR, L_ZBODY, L_APPLE, L_AGE, L_STEP, L_TOTAL = 13, 14, 15, 16, 17, 18, 19, 20, 21
L_OBST = 22  # 1: some occupied cell is no snake's or zombie's listed cell (an obstacle), else 0
LAY_LEN = 23

# Per-snake fields.
F_HEADING, F_GROWTH, F_ALIVE, F_RUNNING, F_LEN, F_TAIL, F_KILLS, F_DEATHS, F_LONGEST, F_EATEN = range(10)
NF = 10
"""Scalars per snake: heading, growth, alive, running, length, tail index, kills,
deaths, longest, apples eaten (the last counts eats within the simulation only)."""

CRASH = 9
TURN_TABLE = np.array(TURN, dtype=np.int32)
"""``TURN_TABLE[heading, action]``: the direction taken, as in the rules."""
ZORDER = np.array(ZOMBIE_ORDER, dtype=np.int32)


def layout(state: State, cap: int | None = None) -> I32:
    """Offsets for positions of ``state``'s game; snakes hold up to ``cap`` cells.

    ``cap`` defaults to the board size, which no snake can outgrow; a search that
    plays at most ``k`` steps from a position may pass the longest body plus
    pending growth plus ``k`` to make positions (and their copies) smaller.
    """
    cfg = state.config
    size = state.grid.size
    n = cfg.num_snakes
    nz = len(state.zombies)
    na = len(state.apples)
    cap = size if cap is None else max(2, min(size, cap))
    zcap = max((len(z) for z in state.zombies), default=1)
    lay = np.zeros(LAY_LEN, np.int32)
    lay[L_W], lay[L_H], lay[L_SIZE], lay[L_N], lay[L_NZ], lay[L_NA] = cfg.game_width, cfg.game_height, size, n, nz, na
    lay[L_CAP], lay[L_ZCAP] = cap, zcap
    lay[L_GROWTH], lay[L_LIMIT], lay[L_ZSPEED] = cfg.apple_growth, cfg.apple_limit, cfg.zombie_speed
    lay[L_OWNTAIL], lay[L_STEPS] = int(cfg.own_tail_kills), cfg.steps
    # Read from the board, not the obstacle list (a position may be set up either way): an
    # occupied cell no body or zombie lists is an obstacle, so the territory race reads the board.
    listed = sum(len(b) for b in state.bodies) + sum(len(z) for z in state.zombies)
    lay[L_OBST] = int(np.count_nonzero(np.asarray(state.occ)) != listed)
    off = 0
    lay[L_OCC] = off
    off += size
    lay[L_SNK] = off
    off += NF * n
    lay[L_BODY] = off
    off += cap * n
    lay[L_ZHDR] = off
    off += 2 * nz
    lay[L_ZBODY] = off
    off += zcap * nz
    lay[L_APPLE] = off
    off += na
    lay[L_AGE] = off
    off += na
    lay[L_STEP] = off
    off += 1
    lay[L_TOTAL] = off
    return lay


def encode(state: State, lay: I32, growth: Sequence[int] | None = None) -> I32:
    """The position of ``state`` as a flat array for :func:`step`.

    Args:
        state: A rules state (not modified).
        lay: Its :func:`layout`.
        growth: Pending growth per snake; defaults to the state's own (an agent
            that plays on what a bot could see passes its inferred values).
    """
    st = np.zeros(int(lay[L_TOTAL]), np.int32)
    size, cap, zcap = int(lay[L_SIZE]), int(lay[L_CAP]), int(lay[L_ZCAP])
    st[:size] = state.occ
    snk, body = int(lay[L_SNK]), int(lay[L_BODY])
    g = state.growth if growth is None else growth
    for i, b in enumerate(state.bodies):
        f = snk + NF * i
        st[f + F_HEADING] = state.heading[i]
        st[f + F_GROWTH] = g[i]
        st[f + F_ALIVE] = int(state.alive[i])
        st[f + F_RUNNING] = int(state.running[i])
        if len(b) > cap:
            raise ValueError(f"snake {i} has {len(b)} cells, more than the layout's {cap}")
        st[f + F_LEN] = len(b)
        st[f + F_TAIL] = 0
        st[f + F_KILLS] = state.kills[i]
        st[f + F_DEATHS] = state.deaths[i]
        st[f + F_LONGEST] = state.longest[i]
        st[body + cap * i : body + cap * i + len(b)] = list(b)
    zh, zb = int(lay[L_ZHDR]), int(lay[L_ZBODY])
    for j, z in enumerate(state.zombies):
        st[zh + 2 * j] = 0
        st[zh + 2 * j + 1] = len(z)
        st[zb + zcap * j : zb + zcap * j + len(z)] = list(z)
    na = int(lay[L_NA])
    st[int(lay[L_APPLE]) : int(lay[L_APPLE]) + na] = state.apples
    st[int(lay[L_AGE]) : int(lay[L_AGE]) + na] = state.apple_age
    st[int(lay[L_STEP])] = state.steps
    return st


def snake_cells(st: I32, lay: I32, i: int) -> list[int]:
    """Snake ``i``'s cells, tail first (for tests and debugging)."""
    f = int(lay[L_SNK]) + NF * i
    cap, base = int(lay[L_CAP]), int(lay[L_BODY]) + int(lay[L_CAP]) * i
    tail, n = int(st[f + F_TAIL]), int(st[f + F_LEN])
    return [int(st[base + (tail + k) % cap]) for k in range(n)]


def zombie_cells(st: I32, lay: I32, j: int) -> list[int]:
    """Zombie ``j``'s cells, tail first."""
    zh, zcap = int(lay[L_ZHDR]) + 2 * j, int(lay[L_ZCAP])
    start, n = int(st[zh]), int(st[zh + 1])
    base = int(lay[L_ZBODY]) + zcap * j
    return [int(st[base + (start + k) % n]) for k in range(n)]


def grid_nbr(state: State) -> I32:
    """The rules' flat neighbour table (``4 * cell + direction``, -1 off the board)."""
    return np.asarray(state.grid.nbr, dtype=np.int32)


# -- kernels ---------------------------------------------------------------------------


@_jit
def head_of(st: I32, lay: I32, i: int) -> int:  # pragma: no cover - jitted
    """Snake ``i``'s head cell, -1 when it is not on the board."""
    f = lay[L_SNK] + NF * i
    n = st[f + F_LEN]
    if n == 0:
        return -1
    cap = lay[L_CAP]
    return st[lay[L_BODY] + cap * i + (st[f + F_TAIL] + n - 1) % cap]


@_jit
def tail_of(st: I32, lay: I32, i: int) -> int:  # pragma: no cover - jitted
    """Snake ``i``'s tail cell, -1 when it is not on the board."""
    f = lay[L_SNK] + NF * i
    if st[f + F_LEN] == 0:
        return -1
    return st[lay[L_BODY] + lay[L_CAP] * i + st[f + F_TAIL]]


@_jit
def zombie_head(st: I32, lay: I32, j: int) -> int:  # pragma: no cover - jitted
    """Zombie ``j``'s head cell."""
    zh = lay[L_ZHDR] + 2 * j
    n = st[zh + 1]
    return st[lay[L_ZBODY] + lay[L_ZCAP] * j + (st[zh] + n - 1) % n]


@_jit
def _kill(st: I32, lay: I32, i: int) -> None:  # pragma: no cover - jitted
    f = lay[L_SNK] + NF * i
    cap = lay[L_CAP]
    base = lay[L_BODY] + cap * i
    tail = st[f + F_TAIL]
    for k in range(st[f + F_LEN]):
        st[lay[L_OCC] + st[base + (tail + k) % cap]] = 0
    st[f + F_LEN] = 0
    st[f + F_TAIL] = 0
    st[f + F_ALIVE] = 0
    st[f + F_GROWTH] = 0
    st[f + F_DEATHS] += 1


@_jit
def _apple_slot(st: I32, lay: I32, c: int) -> int:  # pragma: no cover - jitted
    a = lay[L_APPLE]
    for k in range(lay[L_NA]):
        if st[a + k] == c:
            return k
    return -1


@_jit
def step(st: I32, lay: I32, nbr: I32, moves: I32) -> None:  # pragma: no cover - jitted
    """Play one step in place: ``moves[i]`` is snake i's action (0–9, as the rules).

    Everything but the random ``respawn`` stage is exact (see the module docstring).
    """
    n = lay[L_N]
    cap = lay[L_CAP]
    snk = lay[L_SNK]
    occ0 = lay[L_OCC]
    body = lay[L_BODY]
    st[lay[L_STEP]] += 1
    # move
    moved = np.empty(n, np.int32)
    for i in range(n):
        moved[i] = -2
        f = snk + NF * i
        if st[f + F_RUNNING] == 0:
            continue
        a = moves[i]
        if a == CRASH:
            st[f + F_RUNNING] = 0
            if st[f + F_ALIVE] != 0:
                # Leaves the board without a death (as the rules' move stage).
                tail = st[f + F_TAIL]
                for k in range(st[f + F_LEN]):
                    st[occ0 + st[body + cap * i + (tail + k) % cap]] = 0
                st[f + F_LEN] = 0
                st[f + F_TAIL] = 0
                st[f + F_ALIVE] = 0
                st[f + F_GROWTH] = 0
            continue
        if st[f + F_ALIVE] == 0:
            continue
        d = TURN_TABLE[st[f + F_HEADING], a]
        st[f + F_HEADING] = d
        moved[i] = nbr[4 * head_of(st, lay, i) + d]
    # collide: decide every death against the bodies after moving
    own_tail_kills = lay[L_OWNTAIL] != 0
    dead = np.zeros(n, np.bool_)
    killer = np.full(n, -1, np.int32)
    headon = np.zeros(n, np.bool_)
    for i in range(n):
        c = moved[i]
        if c == -2:
            continue
        if c < 0:
            dead[i] = True
            continue
        heads = 0
        for k in range(n):
            if moved[k] == c:
                heads += 1
        v = st[occ0 + c]
        if v < 0:
            dead[i] = True  # obstacle or zombie cell
        elif v > 0:
            j = v - 1
            fj = snk + NF * j
            vacated = (
                c == tail_of(st, lay, j)
                and st[fj + F_GROWTH] == 0
                and moved[j] != -2
                and not (own_tail_kills and j == i)
            )
            if not vacated:
                dead[i] = True
                if j != i:
                    killer[i] = j
            elif heads > 1:
                dead[i] = True
                headon[i] = True
        elif heads > 1:
            dead[i] = True
            headon[i] = True
    for i in range(n):
        if dead[i]:
            if killer[i] >= 0:
                st[snk + NF * killer[i] + F_KILLS] += 1
            if headon[i]:
                k = _apple_slot(st, lay, moved[i])
                if k >= 0:
                    st[lay[L_APPLE] + k] = -1
    for i in range(n):
        if dead[i]:
            _kill(st, lay, i)
    for i in range(n):  # survivors: tails first (a head may enter a vacated tail)
        if moved[i] >= 0 and not dead[i]:
            f = snk + NF * i
            if st[f + F_GROWTH] > 0:
                st[f + F_GROWTH] -= 1
            else:
                st[occ0 + tail_of(st, lay, i)] = 0
                st[f + F_TAIL] = (st[f + F_TAIL] + 1) % cap
                st[f + F_LEN] -= 1
    for i in range(n):
        c = moved[i]
        if c >= 0 and not dead[i]:
            f = snk + NF * i
            st[body + cap * i + (st[f + F_TAIL] + st[f + F_LEN]) % cap] = c
            st[f + F_LEN] += 1
            st[occ0 + c] = i + 1
    # eat
    for i in range(n):
        c = moved[i]
        if c >= 0 and not dead[i]:
            k = _apple_slot(st, lay, c)
            if k >= 0:
                st[lay[L_APPLE] + k] = -1
                f = snk + NF * i
                st[f + F_GROWTH] += lay[L_GROWTH]
                st[f + F_EATEN] += 1
    # zombies
    if st[lay[L_STEP]] % lay[L_ZSPEED] == 0:
        zombies(st, lay, nbr)
    # age apples; expired ones leave (the rules would move them to a random cell)
    a0, g0 = lay[L_APPLE], lay[L_AGE]
    for k in range(lay[L_NA]):
        if st[a0 + k] >= 0:
            st[g0 + k] += 1
    for i in range(n):
        f = snk + NF * i
        if st[f + F_ALIVE] != 0 and st[f + F_LEN] > st[f + F_LONGEST]:
            st[f + F_LONGEST] = st[f + F_LEN]
    running = 0
    for i in range(n):
        running += st[snk + NF * i + F_RUNNING]
    if st[lay[L_STEP]] < lay[L_STEPS] and running >= 2:
        for k in range(lay[L_NA]):
            if st[a0 + k] >= 0 and st[g0 + k] >= lay[L_LIMIT]:
                st[a0 + k] = -1


@_jit
def zombies(st: I32, lay: I32, nbr: I32) -> None:  # pragma: no cover - jitted
    """The zombie stage, exactly as the rules.

    In index order, each zombie moves to the legal neighbour nearest (Manhattan) an
    alive snake head, ties LEFT, RIGHT, UP, DOWN.
    """
    n = lay[L_N]
    w = lay[L_W]
    occ0 = lay[L_OCC]
    snk = lay[L_SNK]
    zcap = lay[L_ZCAP]
    hx = np.empty(n, np.int32)
    hy = np.empty(n, np.int32)
    for j in range(lay[L_NZ]):
        nheads = 0
        for i in range(n):
            if st[snk + NF * i + F_ALIVE] != 0:
                h = head_of(st, lay, i)
                hx[nheads] = h % w
                hy[nheads] = h // w
                nheads += 1
        zh = lay[L_ZHDR] + 2 * j
        zlen = st[zh + 1]
        zbase = lay[L_ZBODY] + zcap * j
        head = st[zbase + (st[zh] + zlen - 1) % zlen]
        c = -1
        best = 1 << 31
        for o in range(4):
            m = nbr[4 * head + ZORDER[o]]
            if m < 0:
                continue
            v = st[occ0 + m]
            if v != 0 and not (v > 0 and head_of(st, lay, v - 1) == m):
                continue
            dist = 0
            if nheads > 0:
                dist = 1 << 30
                mx, my = m % w, m // w
                for k in range(nheads):
                    t = abs(mx - hx[k]) + abs(my - hy[k])
                    dist = min(dist, t)
            if dist < best:
                best = dist
                c = m
        if c < 0:
            continue
        v = st[occ0 + c]
        if v > 0:
            _kill(st, lay, v - 1)  # zombie_bite
        old = st[zbase + st[zh]]
        st[occ0 + old] = 0
        st[zbase + st[zh]] = c
        st[zh] = (st[zh] + 1) % zlen
        st[occ0 + c] = -2 - j
        k = _apple_slot(st, lay, c)
        if k >= 0:
            st[lay[L_APPLE] + k] = -1


@_jit
def nearest_apple(st: I32, lay: I32, hx: int, hy: int) -> int:  # pragma: no cover - jitted
    """The apple cell nearest ``(hx, hy)`` by Manhattan distance (the first of equals), or -1."""
    w = lay[L_W]
    target = -1
    best = 1 << 30
    a0 = lay[L_APPLE]
    for k in range(lay[L_NA]):
        a = st[a0 + k]
        if a >= 0:
            d = abs(a % w - hx) + abs(a // w - hy)
            if d < best:
                best = d
                target = a
    return target


@_jit
def greedy_dir(st: I32, lay: I32, nbr: I32, i: int) -> int:  # pragma: no cover - jitted
    """The greedy filler's move (an absolute direction) for snake ``i``, as ``agents.greedy_move``."""
    h = head_of(st, lay, i)
    if h < 0:
        return 5
    w = lay[L_W]
    hx, hy = h % w, h // w
    target = nearest_apple(st, lay, hx, hy)
    move = 5
    best = 1 << 30
    for o in range(4):
        d = ZORDER[o]
        c = nbr[4 * h + d]
        if c < 0 or st[lay[L_OCC] + c] != 0:
            continue
        dist = 0
        if target >= 0:
            dist = abs(c % w - target % w) + abs(c // w - target // w)
        if dist < best:
            best = dist
            move = d
    return move


class GrowthTracker:
    """Pending growth per snake, inferred from what any bot could see.

    The bot protocol does not send pending growth, so the searching agents infer it
    as a bot would: a head that lands on last step's apple grows by ``apple_growth``,
    one cell a step (the same inference as ``arena.lookahead``).
    """

    def __init__(self, num_snakes: int, apple_growth: int) -> None:
        self.gain = apple_growth
        self.growth = [0] * num_snakes
        self._prev_len = [0] * num_snakes
        self._prev_apples: set[int] = set()

    def update(self, s: State) -> list[int]:
        """Take in this step's position; return the inferred pending growth."""
        for j, body in enumerate(s.bodies):
            n = len(body)
            prev = self._prev_len[j]
            if n == 0 or prev == 0 or n < prev:
                g = 0
            else:
                g = max(0, self.growth[j] - (n - prev))
                if body[-1] in self._prev_apples:
                    g += self.gain
            self.growth[j] = g
            self._prev_len[j] = n
        self._prev_apples = {a for a in s.apples if a >= 0}
        return self.growth


__all__ = [
    "GrowthTracker",
    "encode",
    "greedy_dir",
    "grid_nbr",
    "head_of",
    "layout",
    "snake_cells",
    "step",
    "tail_of",
    "zombie_cells",
    "zombie_head",
    "zombies",
]
