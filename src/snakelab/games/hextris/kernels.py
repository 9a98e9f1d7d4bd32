"""Numba kernels for the hextris solvers: placement search, board evaluation, phrase embedding.

Placements are encoded as one integer ``((rot·NY) + py + E)·NX + px + E`` where ``E`` is
the largest member offset from a pivot (so every valid placement's pivot fits) and
``NX = W + 2E``, ``NY = H + 2E``; ``rot`` is always the canonical rotation (the
smallest with the same member set), so one code is one identity for the repeat rule.
Commands are numbered as :class:`~snakelab.games.hextris.rules.Command` (W, E, SW, SE,
CW, CCW).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Feature weights (index into the ``w`` array passed to the evaluators).
W_HOLE, W_TRANS, W_FILL, W_DEPTH, W_TOP, W_CLEAR, W_WELL = 0, 1, 2, 3, 4, 5, 6
N_WEIGHTS = 7
#: Value of a lock after which the next unit cannot spawn (the game ends).
DEAD = -1.0e7


@njit(cache=True)
def fits(board, dl, size, px, py, rot):  # type: ignore[no-untyped-def]
    """Whether the unit with deltas ``dl`` at ``(px, py, rot)`` is on the board and on empty cells."""
    h, w = board.shape
    par = py & 1
    for k in range(size):
        x = px + dl[rot, par, k, 0]
        y = py + dl[rot, par, k, 1]
        if x < 0 or y < 0 or x >= w or y >= h or board[y, x] != 0:
            return False
    return True


@njit(cache=True)
def step(px, py, rot, cmd):  # type: ignore[no-untyped-def]
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


@njit(cache=True)
def encode(px, py, rot, e, nx, ny):  # type: ignore[no-untyped-def]
    """Placement code (see the module docstring)."""
    return (rot * ny + py + e) * nx + px + e


@njit(cache=True)
def decode(code, e, nx, ny):  # type: ignore[no-untyped-def]
    """Inverse of :func:`encode`."""
    px = code % nx - e
    rest = code // nx
    py = rest % ny - e
    rot = rest // ny
    return px, py, rot


@njit(cache=True)
def bfs_locks(board, dl, size, canon, spx, spy, srot, e):  # type: ignore[no-untyped-def]
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


@njit(cache=True)
def row_score(board, y, w_arr):  # type: ignore[no-untyped-def]
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


@njit(cache=True)
def board_rows(board, w_arr):  # type: ignore[no-untyped-def]
    """Per-row evaluation terms of a board."""
    h = board.shape[0]
    out = np.empty(h, np.float64)
    for y in range(h):
        out[y] = row_score(board, y, w_arr)
    return out


@njit(cache=True)
def lock_board(board, dl, size, px, py, rot):  # type: ignore[no-untyped-def]
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


@njit(cache=True)
def lock_points(size, ls, ls_old):  # type: ignore[no-untyped-def]
    """Move points of one lock (with the multi-line bonus of the previous lock)."""
    points = size + 100 * (1 + ls) * ls // 2
    bonus = (ls_old - 1) * points // 10 if ls_old > 1 else 0
    return points + bonus


@njit(cache=True)
def evaluate_locks(board, rows, dl, size, locks, nlocks, e, w_arr, next_cells, n_next):  # type: ignore[no-untyped-def]
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
        lss[i] = ls
    return vals, lss


@njit(cache=True)
def reach_to(board, dl, size, canon, target, e):  # type: ignore[no-untyped-def]
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


@njit(cache=True)
def path_exists(board, dl, size, canon, start, target, e, can, stamp, epoch, seen, queue):  # type: ignore[no-untyped-def]
    """Whether ``target`` is reachable from ``start`` under the repeat rule.

    Placements of the current row already held are marked ``stamp[code] == epoch`` and may
    not be entered again; ``seen`` and ``queue`` are scratch space.
    """
    h, w = board.shape
    nx = w + 2 * e
    ny = h + 2 * e
    if start == target:
        return True
    # ``seen`` holds stamps: the caller's fresh ``epoch`` marks what this search visited.
    seen[start] = epoch
    queue[0] = start
    head = 0
    tail = 1
    while head < tail:
        code = queue[head]
        head += 1
        px, py, rot = decode(code, e, nx, ny)
        for cmd in range(6):
            qx, qy, qr = step(px, py, rot, cmd)
            qr = canon[qr]
            if cmd >= 4 and qr == rot:
                continue
            if qx < -e or qx >= w + e or qy >= h + e:
                continue
            nc = encode(qx, qy, qr, e, nx, ny)
            if seen[nc] == epoch or not can[nc]:
                continue
            if (cmd < 2 or cmd >= 4) and stamp[nc] == epoch:
                continue
            if not fits(board, dl, size, qx, qy, qr):
                continue
            if nc == target:
                return True
            seen[nc] = epoch
            queue[tail] = nc
            tail += 1
    return False


@njit(cache=True)
def first_step(board, dl, size, canon, start, target, e, can, stamp, epoch, seen, queue, par_arr, cmd_arr):  # type: ignore[no-untyped-def]
    """The first command of a shortest allowed path from ``start`` to ``target`` (-1 if none).

    The expansion is :func:`path_exists`'s, written out again on purpose: sharing it
    through a helper kernel made the embedding of problem 24 three times slower (measured).
    """
    h, w = board.shape
    nx = w + 2 * e
    ny = h + 2 * e
    seen[start] = epoch
    queue[0] = start
    head = 0
    tail = 1
    while head < tail:
        code = queue[head]
        head += 1
        px, py, rot = decode(code, e, nx, ny)
        for cmd in range(6):
            qx, qy, qr = step(px, py, rot, cmd)
            qr = canon[qr]
            if cmd >= 4 and qr == rot:
                continue
            if qx < -e or qx >= w + e or qy >= h + e:
                continue
            nc = encode(qx, qy, qr, e, nx, ny)
            if seen[nc] == epoch or not can[nc]:
                continue
            if (cmd < 2 or cmd >= 4) and stamp[nc] == epoch:
                continue
            if not fits(board, dl, size, qx, qy, qr):
                continue
            seen[nc] = epoch
            par_arr[nc] = code
            cmd_arr[nc] = cmd
            if nc == target:
                c = nc
                while par_arr[c] != start:
                    c = par_arr[c]
                return cmd_arr[c]
            queue[tail] = nc
            tail += 1
    return -1


@njit(cache=True)
def sim_phrase(board, dl, size, canon, e, can, start, held, nheld, ph_cmds, ln, p, tmp):  # type: ignore[no-untyped-def]
    """Play phrase ``p`` from ``start`` with ``held[:nheld]`` held on the current row.

    Every command must move (no lock), stay within placements that can reach the target
    (``can``) and respect the repeat rule. On success the placements held afterwards are
    in ``tmp``.

    Returns:
        ``(ok, end code, number held)``.
    """
    h, w = board.shape
    nx = w + 2 * e
    ny = h + 2 * e
    px, py, rot = decode(start, e, nx, ny)
    for k in range(nheld):
        tmp[k] = held[k]
    ntmp = nheld
    for j in range(ln):
        cmd = ph_cmds[p, j]
        qx, qy, qr = step(px, py, rot, cmd)
        qr = canon[qr]
        if cmd >= 4 and qr == rot:
            return False, start, 0
        if qx < -e or qx >= w + e or qy >= h + e:
            return False, start, 0
        nc = encode(qx, qy, qr, e, nx, ny)
        if not can[nc] or not fits(board, dl, size, qx, qy, qr):
            return False, start, 0
        if cmd in (2, 3):
            ntmp = 0
        else:
            for k in range(ntmp):
                if tmp[k] == nc:
                    return False, start, 0
        tmp[ntmp] = nc
        ntmp += 1
        px, py, rot = qx, qy, qr
    return True, encode(px, py, rot, e, nx, ny), ntmp


@njit(cache=True)
def embed_unit(board, dl, size, canon, spawn, target, lockcmd, e, ph_cmds, ph_len, ph_order, ph_after, ph_done, out):  # type: ignore[no-untyped-def]
    """Spell a path from ``spawn`` to ``target`` then lock, trying phrases greedily.

    At each placement the phrases are tried in ``ph_order``; a phrase is taken when every
    one of its commands moves (no lock, no repeat) within placements that can still reach
    the target, and the target stays reachable afterwards under the repeat rule. When none
    fits, a single move is taken: first a sideways move or turn (it costs no row) after
    which some phrase fits, then such a down move, else a step of a shortest allowed path.

    Args:
        board: The board ``(H, W)``.
        dl: The unit's deltas ``(6, 2, K, 2)``.
        size: The unit's member count.
        canon: The unit's canonical rotations.
        spawn: Spawn placement code.
        target: Placement code to lock at.
        lockcmd: A command that locks at ``target``.
        e: Placement code margin.
        ph_cmds: ``(n_phrases, max_len)`` command indices of each phrase.
        ph_len: Length of each phrase.
        ph_order: Phrase indices in the order to try.
        ph_after: Per entry -1, or the phrase that must have been completed by the
            commands just before it: such an entry is the rest of a phrase that overlaps
            the end of that one (``" ia!"`` after ``"Ia! Ia!"``), taken only right after it.
        ph_done: Per entry the phrase its last command completes.
        out: Output buffer ``(n, 2)``: the command, and the phrase index it belongs to
            (-1 for a plain move).

    Returns:
        Number of commands written, or -1 if the target could not be reached.
    """
    h, w = board.shape
    nx = w + 2 * e
    ny = h + 2 * e
    ns = 6 * nx * ny
    can = reach_to(board, dl, size, canon, target, e)
    mark = np.zeros(ns, np.int64)
    seen = np.zeros(ns, np.int64)
    queue = np.empty(ns, np.int64)
    par_arr = np.empty(ns, np.int64)
    cmd_arr = np.empty(ns, np.int8)
    held = np.empty(ns, np.int64)
    tmp = np.empty(ns, np.int64)
    held2 = np.empty(ns, np.int64)
    token = 0
    cur = spawn
    if not can[cur]:
        return -1
    held[0] = cur
    nheld = 1
    n = 0
    last_done = -1  # the phrase the commands so far end with (-1: a plain move)
    limit = out.shape[0] - 64
    tx, ty, tr = decode(target, e, nx, ny)
    while cur != target and n < limit:
        # A phrase whose last command is the lock itself: it reaches the target and locks.
        for oi in range(ph_order.shape[0]):
            p = ph_order[oi]
            ln = ph_len[p]
            if ln < 2 or (ph_after[p] >= 0 and ph_after[p] != last_done):
                continue
            last = ph_cmds[p, ln - 1]
            qx, qy, qr = step(tx, ty, tr, last)
            qr = canon[qr]
            if (last >= 4 and qr == tr) or fits(board, dl, size, qx, qy, qr):
                continue  # the last command would be an error or a move, not a lock
            ok, end, _nt = sim_phrase(board, dl, size, canon, e, can, cur, held, nheld, ph_cmds, ln - 1, p, tmp)
            if ok and end == target:
                for j in range(ln):
                    out[n, 0] = ph_cmds[p, j]
                    out[n, 1] = p
                    n += 1
                return n
        took = False
        for oi in range(ph_order.shape[0]):
            p = ph_order[oi]
            if ph_after[p] >= 0 and ph_after[p] != last_done:
                continue
            ln = ph_len[p]
            ok, end, ntmp = sim_phrase(board, dl, size, canon, e, can, cur, held, nheld, ph_cmds, ln, p, tmp)
            if not ok:
                continue
            token += 1
            for k in range(ntmp):
                mark[tmp[k]] = token
            if path_exists(board, dl, size, canon, end, target, e, can, mark, token, seen, queue):
                for j in range(ln):
                    out[n, 0] = ph_cmds[p, j]
                    out[n, 1] = p
                    n += 1
                for k in range(ntmp):
                    held[k] = tmp[k]
                nheld = ntmp
                cur = end
                last_done = ph_done[p]
                took = True
                break
        if took:
            continue
        # No phrase fits here: look one plain move ahead.
        px, py, rot = decode(cur, e, nx, ny)
        chosen = -1
        for stage in range(2):
            for c in range(6):
                is_down = c in (2, 3)
                if is_down != (stage == 1):
                    continue
                qx, qy, qr = step(px, py, rot, c)
                qr = canon[qr]
                if c >= 4 and qr == rot:
                    continue
                if qx < -e or qx >= w + e or qy >= h + e:
                    continue
                nc = encode(qx, qy, qr, e, nx, ny)
                if not can[nc] or not fits(board, dl, size, qx, qy, qr):
                    continue
                if is_down:
                    nh = 0
                else:
                    rep = False
                    for k in range(nheld):
                        if held[k] == nc:
                            rep = True
                            break
                    if rep:
                        continue
                    for k in range(nheld):
                        held2[k] = held[k]
                    nh = nheld
                held2[nh] = nc
                nh += 1
                fits_one = False
                for oi in range(ph_order.shape[0]):
                    p = ph_order[oi]
                    if ph_after[p] >= 0:
                        continue  # after a plain move no continuation applies
                    ok, _end, _nt = sim_phrase(
                        board, dl, size, canon, e, can, nc, held2, nh, ph_cmds, ph_len[p], p, tmp
                    )
                    if ok:
                        fits_one = True
                        break
                if not fits_one:
                    continue
                token += 1
                for k in range(nh):
                    mark[held2[k]] = token
                if nc == target or path_exists(board, dl, size, canon, nc, target, e, can, mark, token, seen, queue):
                    chosen = c
                    break
            if chosen >= 0:
                break
        cmd = chosen
        if cmd < 0:
            token += 1
            for k in range(nheld):
                mark[held[k]] = token
            cmd = first_step(board, dl, size, canon, cur, target, e, can, mark, token, seen, queue, par_arr, cmd_arr)
        if cmd < 0:
            return -1
        qx, qy, qr = step(px, py, rot, cmd)
        qr = canon[qr]
        cur = encode(qx, qy, qr, e, nx, ny)
        if cmd in (2, 3):
            nheld = 0
        held[nheld] = cur
        nheld += 1
        out[n, 0] = cmd
        out[n, 1] = -1
        n += 1
        last_done = -1
    if cur != target:
        return -1
    out[n, 0] = lockcmd
    out[n, 1] = -1
    return n + 1


@njit(cache=True)
def lost_cells(board, dl, size, canon, spx, spy, srot, e):  # type: ignore[no-untyped-def]
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


@njit(cache=True)
def _dp_run(board, dl, size, rot, x, y, mode, cmds, n):  # type: ignore[no-untyped-def]
    """Play ``cmds[:n]`` for a unit that cannot turn; ``(ok, x, y, mode)``.

    ``mode`` is how the unit has moved on its current row: 0 not at all, 1 east, 2 west.
    Such a unit never revisits a placement as long as it does not go back on a row.
    """
    for j in range(n):
        c = cmds[j]
        if c >= 4:
            return False, x, y, mode  # a turn leaves the cells as they are: a repeat
        if c == 1:
            if mode == 2:
                return False, x, y, mode
            mode = 1
        elif c == 0:
            if mode == 1:
                return False, x, y, mode
            mode = 2
        else:
            mode = 0
        x, y, _r = step(x, y, rot, c)
        if not fits(board, dl, size, x, y, rot):
            return False, x, y, mode
    return True, x, y, mode


@njit(cache=True)
def embed_unit_dp(  # type: ignore[no-untyped-def]
    board, dl, size, spawn, target, lockcmd, e, ph_cmds, ph_len, ph_val, ph_after, ph_done, slot, n_slots, out
):
    """The command string of most power points from ``spawn`` to ``target``, exactly.

    For units whose six rotations are the same cells: their placements are ``(x, y)`` and,
    on a row, a path that never turns back never repeats one, so the repeat rule is the
    three-valued ``mode`` of :func:`_dp_run` and a dynamic programme over
    ``(previous phrase, mode, y, x)`` is exact. Every phrase moves down at least once (an
    entry that would end on its own row is skipped), so rows are solved from the bottom up;
    on a row, east-moving states from the east, west-moving states from the west, then the
    states that have not moved.

    Args:
        board: As for :func:`embed_unit`.
        dl: As for :func:`embed_unit`.
        size: As for :func:`embed_unit`.
        spawn: As for :func:`embed_unit`.
        target: As for :func:`embed_unit`.
        lockcmd: As for :func:`embed_unit`.
        e: As for :func:`embed_unit`.
        ph_cmds: As for :func:`embed_unit`.
        ph_len: As for :func:`embed_unit`.
        ph_val: Points of each entry.
        ph_after: As for :func:`embed_unit`.
        ph_done: As for :func:`embed_unit`.
        slot: Per phrase, its index in the ``previous phrase`` dimension (0: none that
            any entry continues).
        n_slots: Size of that dimension.
        out: As for :func:`embed_unit`.

    Returns:
        Number of commands written, or -1 if the target is unreachable.
    """
    h, w = board.shape
    nx = w + 2 * e
    ny = h + 2 * e
    sx, sy, rot = decode(spawn, e, nx, ny)
    tx, ty, _tr = decode(target, e, nx, ny)
    n_ph = ph_len.shape[0]
    mv = np.arange(4).reshape(4, 1)  # the plain moves as one-command strings
    val = np.full((n_slots, 3, ny, nx), -1, np.int64)
    choice = np.full((n_slots, 3, ny, nx), -1, np.int64)  # -2 lock, 0..3 move, 4+p entry, -3-p lock entry
    for y in range(ty, sy - 1, -1):
        yi = y + e
        for sl in range(n_slots):
            for mode in (1, 2, 0):
                for k in range(nx):
                    xi = nx - 1 - k if mode == 1 else k
                    x = xi - e
                    if not fits(board, dl, size, x, y, rot):
                        continue
                    if x == tx and y == ty:
                        val[sl, mode, yi, xi] = 0
                        choice[sl, mode, yi, xi] = -2
                        continue
                    best = -1
                    ch = -1
                    for p in range(n_ph):
                        a = ph_after[p]
                        if a >= 0 and (slot[a] != sl or sl == 0):
                            continue
                        ln = ph_len[p]
                        ok, ex, ey, em = _dp_run(board, dl, size, rot, x, y, mode, ph_cmds[p], ln - 1)
                        if not ok:
                            continue
                        last = ph_cmds[p, ln - 1]
                        if ex == tx and ey == ty and last < 4:
                            qx, qy, _q = step(ex, ey, rot, last)
                            if not fits(board, dl, size, qx, qy, rot) and ph_val[p] > best:
                                best = ph_val[p]
                                ch = -3 - p
                            continue  # past the target the rest is lost anyway
                        ok, ex, ey, em = _dp_run(board, dl, size, rot, ex, ey, em, ph_cmds[p, ln - 1 :], 1)
                        if not ok or ey > ty or ey == y:
                            continue
                        sub = val[slot[ph_done[p]], em, ey + e, ex + e]
                        if sub >= 0 and sub + ph_val[p] > best:
                            best = sub + ph_val[p]
                            ch = 4 + p
                    for c in range(4):
                        ok, ex, ey, em = _dp_run(board, dl, size, rot, x, y, mode, mv[c], 1)
                        if not ok or ey > ty:
                            continue
                        sub = val[0, em, ey + e, ex + e]
                        if sub > best:
                            best = sub
                            ch = c
                    val[sl, mode, yi, xi] = best
                    choice[sl, mode, yi, xi] = ch
    if val[0, 0, sy + e, sx + e] < 0:
        return -1
    x, y, mode, sl = sx, sy, 0, 0
    n = 0
    limit = out.shape[0] - 64
    while n < limit:
        ch = choice[sl, mode, y + e, x + e]
        if ch == -2:
            out[n, 0] = lockcmd
            out[n, 1] = -1
            return n + 1
        if ch <= -3:
            p = -3 - ch
            for j in range(ph_len[p]):
                out[n, 0] = ph_cmds[p, j]
                out[n, 1] = p
                n += 1
            return n
        if ch >= 4:
            p = ch - 4
            ok, x, y, mode = _dp_run(board, dl, size, rot, x, y, mode, ph_cmds[p], ph_len[p])
            for j in range(ph_len[p]):
                out[n, 0] = ph_cmds[p, j]
                out[n, 1] = p
                n += 1
            sl = slot[ph_done[p]]
        else:
            ok, x, y, mode = _dp_run(board, dl, size, rot, x, y, mode, mv[ch], 1)
            out[n, 0] = ch
            out[n, 1] = -1
            n += 1
            sl = 0
    return -1
