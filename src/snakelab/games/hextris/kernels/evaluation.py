"""Board evaluation kernels: the heuristic value of a board and of every lock on it.

The value is a weighted sum of per-row terms (holes, transitions, fill, depth, top rows;
see :func:`row_score`) plus, per lock, the rows it clears and how deep it sits. Weights are
an array indexed by the ``W_*`` constants. Placements are coded as in
:mod:`~snakelab.games.hextris.kernels.placement`.
"""

from __future__ import annotations

import numpy as np

from snakelab.core.jit import jit
from snakelab.games.hextris.kernels.placement import decode, encode, fits, lock_board, step

# Feature weights (index into the ``w`` array passed to the evaluators).
W_HOLE, W_TRANS, W_FILL, W_DEPTH, W_TOP, W_CLEAR, W_WELL = 0, 1, 2, 3, 4, 5, 6
N_WEIGHTS = 7
#: Optional eighth weight: a penalty on a lock that clears exactly one row. A single clear
#: earns 100 points where clearing the same rows together earns more (300 for two, 600 for
#: three, 1000 for four, plus the multi-line bonus of the next lock), so on boards where
#: the stack can wait, deferring single clears pays (weight arrays of length 7 have none).
W_SINGLE = 7
#: Value of a lock after which the next unit cannot spawn (the game ends).
DEAD = -1.0e7


@jit
def row_score(board: np.ndarray, y: int, w_arr: np.ndarray) -> float:
    """The evaluation terms that depend on row ``y`` (and the row above, for holes)."""
    h, w = board.shape
    n = 0
    trans = 0
    holes = 0
    prev = 1  # the wall counts as full
    for x in range(w):
        v = board[y, x]
        n += v
        if v != prev:
            trans += 1
        prev = v
        if v == 0 and y > 0:
            # Covered: a full cell up-left or up-right (odd rows are shifted right).
            if y & 1:
                xl = x
                xr = x + 1
            else:
                xl = x - 1
                xr = x
            if (xl >= 0 and board[y - 1, xl] != 0) or (xr < w and board[y - 1, xr] != 0):
                holes += 1
    if prev == 0:
        trans += 1
    frac = n / w
    depth = (h - y) / h
    s = -w_arr[W_HOLE] * holes - w_arr[W_TRANS] * trans + w_arr[W_FILL] * frac * frac * w
    s -= w_arr[W_DEPTH] * n * depth * depth
    if y < 4 and n > 0:
        s -= w_arr[W_TOP] * n * (4 - y)
    return s


@jit
def board_rows(board: np.ndarray, w_arr: np.ndarray) -> np.ndarray:
    """Per-row evaluation terms of a board."""
    h = board.shape[0]
    out = np.empty(h, np.float64)
    for y in range(h):
        out[y] = row_score(board, y, w_arr)
    return out


@jit
def evaluate_locks(
    board: np.ndarray,
    rows: np.ndarray,
    dl: np.ndarray,
    size: int,
    locks: np.ndarray,
    nlocks: int,
    e: int,
    w_arr: np.ndarray,
    next_cells: np.ndarray,
    n_next: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Heuristic value of the board after each lock, and the rows each lock clears.

    Only the rows a placement touches (and the row below each, for holes) are re-scored,
    so one candidate costs O(size·width) unless it clears rows. A lock after which the
    next unit (its spawn cells in ``next_cells[:n_next]``) cannot spawn ends the game and
    gets :data:`DEAD`.
    """
    h, w = board.shape
    nx = w + 2 * e
    ny = h + 2 * e
    base = 0.0
    for y in range(h):
        base += rows[y]
    vals = np.empty(nlocks, np.float64)
    lss = np.zeros(nlocks, np.int64)
    mark = np.zeros(h, np.int64)
    for i in range(nlocks):
        px, py, rot = decode(locks[i], e, nx, ny)
        par = py & 1
        for k in range(size):
            board[py + dl[rot, par, k, 1], px + dl[rot, par, k, 0]] = 1
        ls = 0
        depth_sum = 0.0
        for k in range(size):
            y = py + dl[rot, par, k, 1]
            depth_sum += y
            full = True
            for x in range(w):
                if board[y, x] == 0:
                    full = False
                    break
            if full and mark[y] != i + 1:
                mark[y] = i + 1
                ls += 1
        if ls == 0:
            v = base
            for k in range(size):
                y = py + dl[rot, par, k, 1]
                for yy in (y, y + 1):
                    if yy < h and mark[yy] != -(i + 1):
                        mark[yy] = -(i + 1)
                        v += row_score(board, yy, w_arr) - rows[yy]
            for k in range(n_next):
                if board[next_cells[k, 1], next_cells[k, 0]] != 0:
                    v += DEAD
                    break
            for k in range(size):
                board[py + dl[rot, par, k, 1], px + dl[rot, par, k, 0]] = 0
        else:
            for k in range(size):
                board[py + dl[rot, par, k, 1], px + dl[rot, par, k, 0]] = 0
            nb, ls2 = lock_board(board, dl, size, px, py, rot)
            ls = ls2
            v = 0.0
            for y in range(h):
                v += row_score(nb, y, w_arr)
            for k in range(n_next):
                if nb[next_cells[k, 1], next_cells[k, 0]] != 0:
                    v += DEAD
                    break
        vals[i] = v + w_arr[W_CLEAR] * ls * ls + w_arr[W_WELL] * depth_sum / size
        if ls == 1 and w_arr.size > W_SINGLE:
            vals[i] -= w_arr[W_SINGLE]
        lss[i] = ls
    return vals, lss


@jit
def lost_cells(
    board: np.ndarray, dl: np.ndarray, size: int, canon: np.ndarray, spx: int, spy: int, srot: int, e: int
) -> int:
    """Empty cells that no placement of the given unit reachable from its spawn covers.

    Cells a unit cannot get to are as good as full for the rest of the game unless rows
    clear; counting them catches sealed-off caves that a per-row view misses.
    """
    h, w = board.shape
    nx = w + 2 * e
    ny = h + 2 * e
    ns = 6 * nx * ny
    seen = np.zeros(ns, np.uint8)
    queue = np.empty(ns, np.int64)
    cover = np.zeros((h, w), np.uint8)
    empties = 0
    for y in range(h):
        for x in range(w):
            if board[y, x] == 0:
                empties += 1
    srot = canon[srot]
    if not fits(board, dl, size, spx, spy, srot):
        return empties
    s0 = encode(spx, spy, srot, e, nx, ny)
    seen[s0] = 1
    queue[0] = s0
    head = 0
    tail = 1
    covered = 0
    while head < tail:
        code = queue[head]
        head += 1
        px, py, rot = decode(code, e, nx, ny)
        par = py & 1
        for k in range(size):
            x = px + dl[rot, par, k, 0]
            y = py + dl[rot, par, k, 1]
            if cover[y, x] == 0:
                cover[y, x] = 1
                covered += 1
        for cmd in range(6):
            qx, qy, qr = step(px, py, rot, cmd)
            qr = canon[qr]
            if cmd >= 4 and qr == rot:
                continue
            if not fits(board, dl, size, qx, qy, qr):
                continue
            nc = encode(qx, qy, qr, e, nx, ny)
            if seen[nc] == 0:
                seen[nc] = 1
                queue[tail] = nc
                tail += 1
    return empties - covered
