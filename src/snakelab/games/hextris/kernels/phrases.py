"""Phrase embedding kernels: spell a path from the spawn to a chosen lock with phrases of power.

:func:`embed_unit` is the greedy speller for any unit; :func:`embed_unit_dp` the exact
dynamic programme for units that cannot turn. Both honour the repeat rule (no placement
held twice on one row) and write ``(command, phrase index)`` pairs. Placements are coded
as in :mod:`~snakelab.games.hextris.kernels.placement`.

Why one module: it is one idea, spelling one unit's descent, and its kernels call one
another (both spellers share :class:`Piece`, :class:`PhraseTable` and the repeat-rule
path search :func:`allowed_path`); numba's cache is checked per defining file, so keeping
callers and callees together also keeps a stale compiled caller from outliving an edit.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from snakelab.core.jit import jit
from snakelab.games.hextris.kernels.placement import decode, encode, fits, reach_to, step


class Piece(NamedTuple):
    """One unit type on one board, as the kernels take it.

    Attributes:
        board: The board ``(H, W)``.
        dl: The unit's deltas ``(6, 2, K, 2)``.
        size: The unit's member count.
        canon: The unit's canonical rotations.
        e: Placement code margin.
    """

    board: np.ndarray
    dl: np.ndarray
    size: int
    canon: np.ndarray
    e: int


class PhraseTable(NamedTuple):
    """What a unit may spell, as the kernels take it (built by ``embedding.Tokens``).

    Attributes:
        cmds: ``(n_entries, max_len)`` command indices of each entry.
        lens: Length of each entry.
        values: Points of each entry (used by :func:`embed_unit_dp` only).
        after: Per entry -1, or the phrase that must have been completed by the commands
            just before it: such an entry is the rest of a phrase that overlaps the end of
            that one (``" ia!"`` after ``"Ia! Ia!"``), taken only right after it.
        done: Per entry the phrase its last command completes.
        slot: Per phrase, its index in the exact programme's ``previous phrase``
            dimension (0: none that any entry continues).
        n_slots: Size of that dimension.
    """

    cmds: np.ndarray
    lens: np.ndarray
    values: np.ndarray
    after: np.ndarray
    done: np.ndarray
    slot: np.ndarray
    n_slots: int


#: :func:`allowed_path`'s answer when the start is the target (no command needed).
ARRIVED = 6


@jit
def allowed_path(
    piece: Piece,
    can: np.ndarray,
    start: int,
    target: int,
    stamp: np.ndarray,
    epoch: int,
    scratch: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> int:
    """The first command of a shortest allowed path from ``start`` to ``target``.

    Returns -1 when the repeat rule leaves no path and :data:`ARRIVED` when ``start`` is
    ``target``, so ``>= 0`` answers whether the target is reachable. Placements of the
    current row already held are marked ``stamp[code] == epoch`` and may not be entered
    again; ``scratch`` is ``(seen, queue, par_arr, cmd_arr)``, arrays of one entry per
    placement code (``seen`` holds stamps: the caller's fresh ``epoch`` marks what this
    search visited). Only placements with ``can[code]`` are entered.
    """
    if start == target:
        return ARRIVED
    board, dl, size, canon, e = piece
    seen, queue, par_arr, cmd_arr = scratch
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


@jit
def sim_phrase(
    piece: Piece,
    can: np.ndarray,
    start: int,
    held: np.ndarray,
    nheld: int,
    ph_cmds: np.ndarray,
    ln: int,
    p: int,
    tmp: np.ndarray,
) -> tuple[bool, int, int]:
    """Play phrase ``p`` from ``start`` with ``held[:nheld]`` held on the current row.

    Every command must move (no lock), stay within placements that can reach the target
    (``can``) and respect the repeat rule. On success the placements held afterwards are
    in ``tmp``.

    Returns:
        ``(ok, end code, number held)``.
    """
    board, dl, size, canon, e = piece
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


@jit
def embed_unit(
    piece: Piece,
    spawn: int,
    target: int,
    lockcmd: int,
    table: PhraseTable,
    ph_order: np.ndarray,
    out: np.ndarray,
) -> int:
    """Spell a path from ``spawn`` to ``target`` then lock, trying phrases greedily.

    At each placement the phrases are tried in ``ph_order``; a phrase is taken when every
    one of its commands moves (no lock, no repeat) within placements that can still reach
    the target, and the target stays reachable afterwards under the repeat rule. When none
    fits, a single move is taken: first a sideways move or turn (it costs no row) after
    which some phrase fits, then such a down move, else a step of a shortest allowed path.

    Args:
        piece: The unit type on the board.
        spawn: Spawn placement code.
        target: Placement code to lock at.
        lockcmd: A command that locks at ``target``.
        table: The entries it may spell (phrases, then overlap continuations).
        ph_order: Entry indices in the order to try.
        out: Output buffer ``(n, 2)``: the command, and the entry index it belongs to
            (-1 for a plain move).

    Returns:
        Number of commands written, or -1 if the target could not be reached.
    """
    board, dl, size, canon, e = piece
    ph_cmds, ph_len, ph_after, ph_done = table.cmds, table.lens, table.after, table.done
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
    scratch = (seen, queue, par_arr, cmd_arr)
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
            ok, end, _nt = sim_phrase(piece, can, cur, held, nheld, ph_cmds, ln - 1, p, tmp)
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
            ok, end, ntmp = sim_phrase(piece, can, cur, held, nheld, ph_cmds, ln, p, tmp)
            if not ok:
                continue
            token += 1
            for k in range(ntmp):
                mark[tmp[k]] = token
            if allowed_path(piece, can, end, target, mark, token, scratch) >= 0:
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
                    ok, _end, _nt = sim_phrase(piece, can, nc, held2, nh, ph_cmds, ph_len[p], p, tmp)
                    if ok:
                        fits_one = True
                        break
                if not fits_one:
                    continue
                token += 1
                for k in range(nh):
                    mark[held2[k]] = token
                if allowed_path(piece, can, nc, target, mark, token, scratch) >= 0:
                    chosen = c
                    break
            if chosen >= 0:
                break
        cmd = chosen
        if cmd < 0:
            token += 1
            for k in range(nheld):
                mark[held[k]] = token
            cmd = allowed_path(piece, can, cur, target, mark, token, scratch)
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


@jit
def _dp_run(
    board: np.ndarray, dl: np.ndarray, size: int, rot: int, x: int, y: int, mode: int, cmds: np.ndarray, n: int
) -> tuple[bool, int, int, int]:
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


@jit
def embed_unit_dp(
    piece: Piece,
    spawn: int,
    target: int,
    lockcmd: int,
    table: PhraseTable,
    out: np.ndarray,
) -> int:
    """The command string of most power points from ``spawn`` to ``target``, exactly.

    For units whose six rotations are the same cells: their placements are ``(x, y)`` and,
    on a row, a path that never turns back never repeats one, so the repeat rule is the
    three-valued ``mode`` of :func:`_dp_run` and a dynamic programme over
    ``(previous phrase, mode, y, x)`` is exact. Every phrase moves down at least once (an
    entry that would end on its own row is skipped), so rows are solved from the bottom up;
    on a row, east-moving states from the east, west-moving states from the west, then the
    states that have not moved.

    Args:
        piece: As for :func:`embed_unit` (``canon`` unused: the unit cannot turn).
        spawn: As for :func:`embed_unit`.
        target: As for :func:`embed_unit`.
        lockcmd: As for :func:`embed_unit`.
        table: As for :func:`embed_unit`, with ``values``, ``slot`` and ``n_slots``.
        out: As for :func:`embed_unit`.

    Returns:
        Number of commands written, or -1 if the target is unreachable.
    """
    board, dl, size, _canon, e = piece
    ph_cmds, ph_len, ph_val, ph_after = table.cmds, table.lens, table.values, table.after
    ph_done, slot, n_slots = table.done, table.slot, table.n_slots
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
