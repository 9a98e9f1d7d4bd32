"""The champion's move as compiled kernels, shared by the in-process agent and the contest program.

One call of :func:`choose` makes the champion's whole decision (both ends' options, the
fill preference, a new snake's start cell), so the in-process
:class:`~snakelab.games.snakgame.agents.ChampionAgent` and the lean contest program
(:mod:`~snakelab.games.snakgame.contest`) play the same moves from the same grid, and a
move costs one call into compiled code. :func:`play_turn` is the contest program's
whole turn in one call: apply Chef's cell, choose, apply the move.

The agent's memory is one ``int64`` array (:func:`new_memory`, the ``P_*`` indices):
its parameters, the ends' sweep directions, the mark base of the breadth-first searches,
its random generator's state and the mirrored snake (ends, length, free cells), so the
agent is reproducible from its seed alone.

Work levels (``P_LEVEL``): at 0 the full policy; each level above tries 4 × fewer random
cells for a new snake. (Smaller caps on the region searches were tried as a cheaper level
and lost badly: a pocket of a few thousand cells then counts as "plenty" and traps the
first snake.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from snakelab.games.snakgame.kernels import (
    BIG,
    CELL_CHEF,
    CELL_EMPTY,
    CELL_MINE,
    FULL,
    P_ALT,
    P_BASE,
    P_CAP,
    P_FIXCAP,
    P_FREE,
    P_HDIR0,
    P_HDIR1,
    P_HEAD,
    P_HUG,
    P_LEN,
    P_LEVEL,
    P_M,
    P_MIDDLE,
    P_N,
    P_RACE,
    P_RNG,
    P_SAMPLES,
    P_SIZE,
    P_STARTED,
    P_STEPS,
    P_TAIL,
    STUCK,
    end_options,
    label_components,
    neighbour,
    region_worth,
    taken_around,
)

# The memory's indices and the turn's codes are the kernels'; callers take them from here.
__all__ = [
    "BIG",
    "FULL",
    "P_FREE",
    "P_HEAD",
    "P_LEN",
    "P_LEVEL",
    "P_STEPS",
    "P_TAIL",
    "STUCK",
    "ChampionParams",
    "choose",
    "new_memory",
    "new_snake",
    "play_turn",
    "start_snake",
]


@dataclass(frozen=True)
class ChampionParams:
    """The champion's settings (see :class:`~snakelab.games.snakgame.agents.ChampionAgent`).

    Attributes:
        hug: Weight of the number of taken neighbours of the target cell.
        cap: Regions of this many cells count as "plenty" (0: free cells / 64).
        samples: Random free cells tried for each new snake after the first.
        middle: Start the first snake at the middle of the top row.
        alternate: Move the two ends in turn instead of keeping the tail in reserve.
        race: A split race between an end's neighbours may visit this many × the cap.
    """

    hug: int = 1
    cap: int = 0
    samples: int = 24
    middle: bool = False
    alternate: bool = False
    race: int = 16


def new_memory(n: int, m: int, free: int, seed: int, params: ChampionParams) -> np.ndarray:
    """The agent's memory for an ``n`` × ``m`` grid with ``free`` empty cells, no snake yet."""
    p = np.zeros(P_SIZE, np.int64)
    p[P_N], p[P_M] = n, m
    p[P_HEAD] = p[P_TAIL] = -1
    p[P_FREE] = free
    p[P_HDIR0] = p[P_HDIR1] = 1
    p[P_FIXCAP] = params.cap
    p[P_CAP] = params.cap or max(256, free // 64)
    p[P_RNG] = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & ((1 << 63) - 1)
    p[P_SAMPLES], p[P_HUG] = params.samples, params.hug
    p[P_MIDDLE], p[P_ALT] = int(params.middle), int(params.alternate)
    p[P_RACE] = params.race
    return p


@njit(cache=True)
def new_snake(occ: np.ndarray, p: np.ndarray, mark: np.ndarray, queue: np.ndarray) -> int:
    """The start cell of a new snake (the caller applies it)."""
    n, m = p[P_N], p[P_M]
    p[P_HDIR0] = 1
    p[P_HDIR1] = 1
    if p[P_STARTED] == 0:
        # The first snake: at the top of the largest region. The head falls and sweeps it
        # from the bottom up while the tail waits at the top, in reserve.
        p[P_STARTED] = 1
        labels, sizes = label_components(occ, n, m)
        if len(sizes) == 0:
            return -1
        big = np.argmax(sizes)
        first = -1
        for c in range(n * m):
            if labels[c] == big:
                first = c
                break
        if p[P_MIDDLE] == 0:
            return first
        # The top cell nearest the middle column: the descent walls the region in halves.
        row = first // m
        best, bestd = first, m
        for c in range(row * m, row * m + m):
            if labels[c] == big and abs(c % m - m // 2) < bestd:
                best, bestd = c, abs(c % m - m // 2)
        return best
    # Later snakes: the roomiest of a few random free cells (a full labelling per new
    # snake would cost O(n·m) thousands of times on a fragmented type-2 grid).
    bw, bt, cell = -1, 0, -1
    size = n * m
    rng = p[P_RNG]
    for _ in range(max(1, p[P_SAMPLES] >> (2 * p[P_LEVEL]))):
        # A random empty cell by rejection, then by a scan on an almost full grid. The
        # generator (a 63-bit LCG, its high bits) is written out here: kernels calling a
        # helper that held it crashed when numba loaded them from its cache.
        c = -1
        for _ in range(4096):
            rng = (rng * 6364136223846793005 + 1442695040888963407) & 0x7FFFFFFFFFFFFFFF
            x = (rng >> 31) % size
            if occ[x] == CELL_EMPTY:
                c = x
                break
        if c < 0:
            rng = (rng * 6364136223846793005 + 1442695040888963407) & 0x7FFFFFFFFFFFFFFF
            k = (rng >> 31) % max(1, p[P_FREE])
            for y in range(size):
                if occ[y] == CELL_EMPTY:
                    if k == 0:
                        c = y
                        break
                    k -= 1
        if c < 0:
            break
        p[P_RNG] = rng
        p[P_BASE] += 8
        w = region_worth(occ, n, m, c, p[P_CAP], mark, p[P_BASE], queue)
        t = 4 - taken_around(occ, n, m, c)
        if w > bw or (w == bw and -t > bt):
            bw, bt, cell = w, -t, c
    return cell


@njit(cache=True)
def choose(occ: np.ndarray, p: np.ndarray, mark: np.ndarray, queue: np.ndarray) -> tuple[int, int]:
    """The champion's move with its current snake: ``(end, target)``, or ``(-1, -1)`` if it is stuck.

    ``p`` holds the snake (``P_HEAD``, ``P_TAIL``, ``P_LEN``), the free cells and the move
    count (``P_STEPS``) as they are now. With no move, the caller asks :func:`new_snake`
    for a start cell. (The two are separate calls from Python: a cached kernel that called
    both this search and the new snake's crashed when numba loaded it from its cache.)
    """
    n, m = p[P_N], p[P_M]
    cap = p[P_CAP]
    head, tail = p[P_HEAD], p[P_TAIL]
    nends = 0 if p[P_LEN] == 0 else 1 if head == tail else 2
    bw, bf, bp = -1, -1, -1
    be, bt, bk = -1, -1, 0
    for k in range(nends):
        e = head if k == 0 else tail
        p[P_BASE] += 32
        room = end_options(occ, n, m, e, cap, mark, p[P_BASE], queue, BIG, p[P_RACE])
        # The head falls (down first), the tail rises (up first); each sweeps along its row.
        down = m if k == 0 else -m
        hd = p[P_HDIR0 + k]
        first = (p[P_STEPS] + k) % 2 if p[P_ALT] else 1 - k
        for d in range(4):
            w = room[d]
            if w < 0:
                continue
            t = neighbour(e, d, n, m)
            step = t - e
            pref = 3 if step == down else 2 if step == hd else 0 if step == -down else 1
            pref += p[P_HUG] * taken_around(occ, n, m, t)
            # Room first (never the smaller part), then head before tail, then the fill preference.
            if w > bw or (w == bw and (first > bf or (first == bf and pref > bp))):
                bw, bf, bp, be, bt, bk = w, first, pref, e, t, k
    if be < 0:
        return -1, -1
    if abs(bt - be) == 1:
        p[P_HDIR0 + bk] = bt - be
    return be, bt


@njit(cache=True)
def play_turn(occ: np.ndarray, p: np.ndarray, mark: np.ndarray, queue: np.ndarray, chef_cell: int) -> int:
    """The contest program's turn: Chef took ``chef_cell`` (-1: none); choose a MOVE and apply it.

    Returns:
        ``end · n·m + target`` for a MOVE, :data:`FULL` if no empty cell is left, or
        :data:`STUCK` if the snake cannot move (then :func:`start_snake` plays a NEW).
    """
    if chef_cell >= 0:
        occ[chef_cell] = CELL_CHEF
        p[P_FREE] -= 1
    if p[P_FREE] <= 0:
        return FULL
    e, t = choose(occ, p, mark, queue)
    if e < 0:
        return STUCK
    p[P_STEPS] += 1
    p[P_FREE] -= 1
    occ[t] = CELL_MINE
    if e == p[P_HEAD]:
        p[P_HEAD] = t
    else:
        p[P_TAIL] = t
    p[P_LEN] += 1
    return e * p[P_N] * p[P_M] + t


def start_snake(occ: np.ndarray, p: np.ndarray, mark: np.ndarray, queue: np.ndarray) -> int:
    """Play the champion's NEW (the grid has an empty cell); returns its cell.

    Plain Python around :func:`new_snake` on purpose: kernels that called the new
    snake's kernel crashed when numba loaded them from its cache (called from Python,
    it loads and runs fine). A NEW is rare, so this costs nothing that matters.
    """
    t = int(new_snake(occ, p, mark, queue))
    p[P_STEPS] += 1
    p[P_FREE] -= 1
    occ[t] = CELL_MINE
    p[P_HEAD] = p[P_TAIL] = t
    p[P_LEN] = 1
    return t
