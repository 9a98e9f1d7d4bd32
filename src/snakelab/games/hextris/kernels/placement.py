"""Placement kernels: where a unit fits, how commands move it, which locks it can reach.

A placement is encoded as one integer ``((rot·NY) + py + E)·NX + px + E`` where ``E`` is
the largest member offset from a pivot (so every valid placement's pivot fits) and
``NX = W + 2E``, ``NY = H + 2E``; ``rot`` is always the canonical rotation (the
smallest with the same member set), so one code is one identity for the repeat rule.
Commands are numbered as :class:`~snakelab.games.hextris.rules.Command` (W, E, SW, SE,
CW, CCW).
"""

from __future__ import annotations

import numpy as np

from snakelab.core.jit import jit


@jit
def fits(board: np.ndarray, dl: np.ndarray, size: int, px: int, py: int, rot: int) -> bool:
    """Whether the unit with deltas ``dl`` at ``(px, py, rot)`` is on the board and on empty cells."""
    h, w = board.shape
    par = py & 1
    for k in range(size):
        x = px + dl[rot, par, k, 0]
        y = py + dl[rot, par, k, 1]
        if x < 0 or y < 0 or x >= w or y >= h or board[y, x] != 0:
            return False
    return True


@jit
def step(px: int, py: int, rot: int, cmd: int) -> tuple[int, int, int]:
    """The placement after ``cmd`` (not canonicalised)."""
    if cmd == 0:
        return px - 1, py, rot
    if cmd == 1:
        return px + 1, py, rot
    if cmd == 2:
        return px - (1 - (py & 1)), py + 1, rot
    if cmd == 3:
        return px + (py & 1), py + 1, rot
    if cmd == 4:
        return px, py, (rot + 1) % 6
    return px, py, (rot + 5) % 6


@jit
def encode(px: int, py: int, rot: int, e: int, nx: int, ny: int) -> int:
    """Placement code (see the module docstring)."""
    return (rot * ny + py + e) * nx + px + e


@jit
def decode(code: int, e: int, nx: int, ny: int) -> tuple[int, int, int]:
    """Inverse of :func:`encode`."""
    px = code % nx - e
    rest = code // nx
    py = rest % ny - e
    rot = rest // ny
    return px, py, rot


@jit
def bfs_locks(
    board: np.ndarray, dl: np.ndarray, size: int, canon: np.ndarray, spx: int, spy: int, srot: int, e: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Every placement reachable from the spawn, and those where the unit can lock.

    Returns:
        ``(parent, pcmd, locks, lockcmd, nlocks)``: per placement code the parent code
        (-1 unreached, -2 the spawn) and the command from it; the lock placements found
        and, for each, one command that locks there.
    """
    h, w = board.shape
    nx = w + 2 * e
    ny = h + 2 * e
    ns = 6 * nx * ny
    parent = np.full(ns, -1, np.int64)
    pcmd = np.zeros(ns, np.int8)
    queue = np.empty(ns, np.int64)
    locks = np.empty(ns, np.int64)
    lockcmd = np.empty(ns, np.int8)
    nlocks = 0
    srot = canon[srot]
    if not fits(board, dl, size, spx, spy, srot):
        return parent, pcmd, locks, lockcmd, 0
    s0 = encode(spx, spy, srot, e, nx, ny)
    parent[s0] = -2
    queue[0] = s0
    head = 0
    tail = 1
    while head < tail:
        code = queue[head]
        head += 1
        px, py, rot = decode(code, e, nx, ny)
        lc = -1
        for cmd in range(6):
            qx, qy, qr = step(px, py, rot, cmd)
            qr = canon[qr]
            if cmd >= 4 and qr == rot:
                continue  # turning a symmetric unit onto itself is an error, never a move
            if not fits(board, dl, size, qx, qy, qr):
                if lc < 0:
                    lc = cmd
                continue
            nc = encode(qx, qy, qr, e, nx, ny)
            if parent[nc] == -1:
                parent[nc] = code
                pcmd[nc] = cmd
                queue[tail] = nc
                tail += 1
        if lc >= 0:
            locks[nlocks] = code
            lockcmd[nlocks] = lc
            nlocks += 1
    return parent, pcmd, locks, lockcmd, nlocks


@jit
def reach_to(board: np.ndarray, dl: np.ndarray, size: int, canon: np.ndarray, target: int, e: int) -> np.ndarray:
    """Placements from which ``target`` can be reached (ignoring the repeat rule): reverse BFS."""
    h, w = board.shape
    nx = w + 2 * e
    ny = h + 2 * e
    ns = 6 * nx * ny
    can = np.zeros(ns, np.uint8)
    queue = np.empty(ns, np.int64)
    can[target] = 1
    queue[0] = target
    head = 0
    tail = 1
    preds = np.empty((12, 3), np.int64)
    while head < tail:
        code = queue[head]
        head += 1
        qx, qy, qr = decode(code, e, nx, ny)
        m = 0
        # Lateral moves.
        preds[m, 0] = qx + 1
        preds[m, 1] = qy
        preds[m, 2] = qr
        m += 1
        preds[m, 0] = qx - 1
        preds[m, 1] = qy
        preds[m, 2] = qr
        m += 1
        # Down moves from the row above: SW keeps x from an odd row, SE keeps x from an even row.
        py = qy - 1
        if py & 1:
            preds[m, 0] = qx
            preds[m, 1] = py
            preds[m, 2] = qr
            m += 1
            preds[m, 0] = qx - 1
            preds[m, 1] = py
            preds[m, 2] = qr
            m += 1
        else:
            preds[m, 0] = qx + 1
            preds[m, 1] = py
            preds[m, 2] = qr
            m += 1
            preds[m, 0] = qx
            preds[m, 1] = py
            preds[m, 2] = qr
            m += 1
        # Turns.
        for r in range(6):
            if canon[r] != r or r == qr:
                continue
            if canon[(r + 1) % 6] == qr or canon[(r + 5) % 6] == qr:
                preds[m, 0] = qx
                preds[m, 1] = qy
                preds[m, 2] = r
                m += 1
        for i in range(m):
            px = preds[i, 0]
            py2 = preds[i, 1]
            pr = preds[i, 2]
            if px < -e or px >= w + e or py2 < -e or py2 >= h + e:
                continue
            pc = encode(px, py2, pr, e, nx, ny)
            if can[pc] or not fits(board, dl, size, px, py2, pr):
                continue
            can[pc] = 1
            queue[tail] = pc
            tail += 1
    return can


@jit
def lock_board(board: np.ndarray, dl: np.ndarray, size: int, px: int, py: int, rot: int) -> tuple[np.ndarray, int]:
    """A new board with the unit locked at ``(px, py, rot)`` and full rows cleared; and the rows cleared."""
    h, w = board.shape
    b = board.copy()
    par = py & 1
    for k in range(size):
        b[py + dl[rot, par, k, 1], px + dl[rot, par, k, 0]] = 1
    out = np.zeros_like(b)
    dst = h - 1
    ls = 0
    for y in range(h - 1, -1, -1):
        full = True
        for x in range(w):
            if b[y, x] == 0:
                full = False
                break
        if full:
            ls += 1
        else:
            out[dst, :] = b[y, :]
            dst -= 1
    return out, ls


@jit
def lock_points(size: int, ls: int, ls_old: int) -> int:
    """Move points of one lock (with the multi-line bonus of the previous lock)."""
    points = size + 100 * (1 + ls) * ls // 2
    bonus = (ls_old - 1) * points // 10 if ls_old > 1 else 0
    return points + bonus
