"""Can a snake, alone on the board, still make a body's length of moves? A depth-first proof.

A long snake that coils in its own region can close itself in: its head ends up inside
a ring of its own body, and it dies there 40 or more steps later, whatever it does.
The searches' room test (a region smaller than the body is a trap) counts the cells
a breadth-first race reaches, every body cell as free from the step its tail passes
it; it cannot tell a region the snake can reach from one it can *walk*, because a
walk lays new body behind the head. Nor can a search a few plies deep see a death 40
steps away. At the contest's budget (3,000 steps, snakes of 100–200 cells) such
self-made traps were the costliest deaths.

:func:`alone_moves` answers the question exactly for the snake alone: is there a
self-avoiding walk of ``need`` moves starting with a given first move, where a body
cell (any snake's) may be entered from the step its tail has passed it, the cells the
walk lays stay occupied, obstacles never free up and a zombie's cells free up as the
zombie moves on? Other heads are left out, so a walk it finds may not exist in play,
but one it proves impossible (``need`` no longer than the body, so the walk never
meets its own new tail) is a death. The search is Warnsdorff-ordered (the neighbour
with the fewest onward moves first, which finds a walk at once in open space) and
pruned by a count of the cells still reachable in time; it gives up after ``cap``
nodes.

Other heads move, though: a walk out of a pocket between bodies can pass a mouth that
another snake or a zombie closes first, and at the contest's budget that was how most
proved-open moves still ended in a self-collision. :func:`opponent_reach` gives the
proof the steps at which other heads (the other snakes', and the zombies' when asked)
could first stand on each cell, so it can ask for a walk that keeps strictly ahead of
them for the first few steps.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from snakelab.core.jit import monotonic
from snakelab.games.arena.evaluation import body_free_times, race_alone
from snakelab.games.arena.sim import (
    F_ALIVE,
    L_APPLE,
    L_GROWTH,
    L_N,
    L_NA,
    L_NZ,
    L_OCC,
    L_SIZE,
    L_SNK,
    L_STEP,
    L_W,
    L_ZBODY,
    L_ZCAP,
    L_ZHDR,
    L_ZSPEED,
    NF,
    ZORDER,
    _jit,
    head_of,
    zombie_head,
)

I32 = npt.NDArray[np.int32]

ZOMBIE_FREE = 6
"""Steps after which a zombie's cells count as free (a zombie is five cells long and moves on)."""


SHUT_NEVER = 1 << 20
"""A cell of :func:`opponent_reach`'s table that no opponent reaches within the steps looked ahead."""


def work_size(size: int, need: int, zombie_cells: int = 0) -> int:
    """Scratch ints :func:`alone_moves` needs on a board of ``size`` cells for walks of ``need`` moves.

    With ``chase``, :func:`alone_moves` keeps every zombie's cells at every depth of the
    walk: pass ``zombie_cells``, the zombies' count times their longest length.
    """
    return 5 * size + (7 + zombie_cells) * (need + 2) + 1


@_jit
def _walk_free_times(st: I32, lay: I32, freet: I32, zombie_free: int) -> None:  # pragma: no cover - jitted
    """Set ``freet`` to the step from which a walk may enter each cell.

    A free cell from step 0, a body cell once its tail has passed, a zombie's cell after
    ``zombie_free`` steps, an obstacle never.
    """
    occ0 = lay[L_OCC]
    for c in range(lay[L_SIZE]):
        v = st[occ0 + c]
        freet[c] = 0 if v == 0 else (zombie_free if v <= -2 else SHUT_NEVER)
    body_free_times(st, lay, freet)


@_jit
def _on_zombie(lay: I32, st: I32, zc: I32, at: int, c: int) -> bool:  # pragma: no cover - jitted
    """Whether cell ``c`` is one of the zombies' cells stored at ``zc[at:]``."""
    zcap = lay[L_ZCAP]
    for j in range(lay[L_NZ]):
        for r in range(st[lay[L_ZHDR] + 2 * j + 1]):
            if zc[at + j * zcap + r] == c:
                return True
    return False


@_jit
def _chase(
    st: I32, lay: I32, nbr: I32, t: int, head: int, freet: I32, onpath: I32, others: I32, zc: I32, at: int
) -> bool:  # pragma: no cover - jitted
    """Move the zombies of walk step ``t`` as the rules do; False when one bites the head.

    ``zc[at - nzc : at]`` holds the zombies' cells after step ``t - 1`` (each zombie at
    ``j * zcap``, tail first; ``nzc`` is their count times ``zcap``) and
    ``zc[at : at + nzc]`` receives them after step ``t``. Each zombie steps to its
    legal neighbour nearest the walking head or one of ``others`` (the other snakes'
    heads, held where they stand), ties LEFT, RIGHT, UP, DOWN; a cell is legal when it
    is free at step ``t`` (``freet``, off the walk) and no zombie's, or when it is a head.
    It is :func:`.sim.zombies` played on the walk's free times instead of a position,
    which the walk never builds.
    """
    nz, zcap, w = lay[L_NZ], lay[L_ZCAP], lay[L_W]
    nzc = nz * zcap
    zc[at : at + nzc] = zc[at - nzc : at]
    if (st[lay[L_STEP]] + t) % lay[L_ZSPEED] != 0:
        return True
    hx, hy = head % w, head // w
    for j in range(nz):
        zlen = st[lay[L_ZHDR] + 2 * j + 1]
        zb = at + j * zcap
        zhead = zc[zb + zlen - 1]
        best, move = 1 << 30, -1
        for o in range(4):
            m = nbr[4 * zhead + ZORDER[o]]
            if m < 0:
                continue
            is_head = m == head
            for k in range(others.shape[0]):
                if others[k] == m:
                    is_head = True
            if not is_head and (onpath[m] != 0 or freet[m] > t or _on_zombie(lay, st, zc, at, m)):
                continue
            mx, my = m % w, m // w
            dist = abs(mx - hx) + abs(my - hy)
            for k in range(others.shape[0]):
                dist = min(dist, abs(mx - others[k] % w) + abs(my - others[k] // w))
            if dist < best:
                best, move = dist, m
        if move < 0:
            continue
        if move == head:
            return False
        for r in range(zlen - 1):
            zc[zb + r] = zc[zb + r + 1]
        zc[zb + zlen - 1] = move
    return True


@_jit
def _reachable(
    start: int, t0: int, limit: int, nbr: I32, freet: I32, shut: I32, onpath: I32, mark: I32, stamp: int, queue: I32
) -> int:  # pragma: no cover - jitted
    """Cells a walk at ``start`` at step ``t0`` could still enter, counted up to ``limit``."""
    dist = queue  # queue[2k] = cell, queue[2k + 1] = its distance
    mark[start] = stamp
    dist[0] = start
    dist[1] = 0
    lo, hi, count = 0, 1, 0
    while lo < hi:
        c = dist[2 * lo]
        d1 = dist[2 * lo + 1] + 1
        lo += 1
        for k in range(4 * c, 4 * c + 4):
            m = nbr[k]
            if m < 0 or mark[m] == stamp or onpath[m] != 0 or freet[m] > t0 + d1 or t0 + d1 >= shut[m]:
                continue
            mark[m] = stamp
            count += 1
            if count >= limit:
                return count
            dist[2 * hi] = m
            dist[2 * hi + 1] = d1
            hi += 1
    return count


class Ask(NamedTuple):
    """The walk :func:`alone_moves` asks for (a named tuple, so the compiled kernel takes it whole).

    Attributes:
        first: The walk's first direction.
        need: The moves it must make.
        shut: Per cell, the step from which it may not be entered (:data:`SHUT_NEVER`: never).
        chase: 1 to move the zombies along the walk as the rules do, 0 to free their cells late.
    """

    first: int
    need: int
    shut: I32
    chase: int = 0


@_jit
def alone_moves(  # pragma: no cover - jitted
    st: I32, lay: I32, nbr: I32, me: int, ask: Ask, cap: int, work: I32, until: float
) -> int:
    """Whether snake ``me`` alone can make ``ask.need`` moves, the first in direction ``ask.first``.

    Returns 1 (a walk exists), 0 (none does: the snake dies within ``need`` steps
    whatever it does, if no other snake's head is in its way) or -1 (undecided after
    ``cap`` nodes or at ``until``, a ``time.perf_counter()`` reading: ``1e308`` never).
    ``work`` is scratch of :func:`work_size` ints. ``shut[c]`` is the step from which
    cell ``c`` may not be entered: :data:`SHUT_NEVER` everywhere asks the lone-snake
    question; :func:`opponent_reach`'s table asks for a walk that also keeps ahead of
    every other head (a 0 then proves nothing). With ``chase`` (1) the zombies move
    along the walk as the rules move them (:func:`_chase`: each steps toward the
    nearest head, the walking one or another snake's held where it stands), and a walk
    that enters a zombie's cell or is bitten is no walk (a 0 then proves nothing
    either); ``work`` then holds :func:`work_size` with ``zombie_cells``. Without it a
    zombie's cells free up after :data:`ZOMBIE_FREE` steps. Call it inside
    :func:`.clock.interruptible`.
    """
    first, need, shut, chase = ask.first, ask.need, ask.shut, ask.chase
    size = lay[L_SIZE]
    f = lay[L_SNK] + NF * me
    if st[f + F_ALIVE] == 0:
        return 0
    freet = work[0:size]
    onpath = work[size : 2 * size]
    mark = work[2 * size : 3 * size]
    queue = work[3 * size : 5 * size]  # the reachability count's (cell, distance) pairs
    rest = work[5 * size :]
    path = rest[0 : need + 2]
    idx = rest[need + 2 : 2 * (need + 2)]
    ncand = rest[2 * (need + 2) : 3 * (need + 2)]
    cand = rest[3 * (need + 2) : 7 * (need + 2)]
    nzc = lay[L_NZ] * lay[L_ZCAP] if chase else 0
    zc = rest[7 * (need + 2) : (7 + nzc) * (need + 2)]  # per depth, the zombies' cells
    occ0 = lay[L_OCC]
    _walk_free_times(st, lay, freet, 0 if chase else ZOMBIE_FREE)
    onpath[:] = 0
    mark[:] = 0
    h = head_of(st, lay, me)
    c1 = nbr[4 * h + first]
    if c1 < 0 or freet[c1] > 1 or shut[c1] <= 1:
        return 0
    heads = np.empty(lay[L_N] if chase else 0, np.int32)  # the lone walk allocates nothing
    nothers = 0
    if chase:
        for i in range(lay[L_N]):
            if i != me and st[lay[L_SNK] + NF * i + F_ALIVE] != 0:
                heads[nothers] = head_of(st, lay, i)
                nothers += 1
    others = heads[:nothers]
    a0 = lay[L_APPLE]
    ate = False
    for k in range(lay[L_NA]):
        if st[a0 + k] == c1:
            ate = True
    if ate:
        # The apple's growth holds our tail still: every cell of ours frees that much later.
        for c in range(size):
            if st[occ0 + c] == me + 1:
                freet[c] += lay[L_GROWTH]
    if chase:
        zcap = lay[L_ZCAP]
        for j in range(lay[L_NZ]):
            zh = lay[L_ZHDR] + 2 * j
            start, zlen = st[zh], st[zh + 1]
            for r in range(zlen):
                zc[j * zcap + r] = st[lay[L_ZBODY] + zcap * j + (start + r) % zlen]
        if _on_zombie(lay, st, zc, 0, c1) or not _chase(st, lay, nbr, 1, c1, freet, onpath, others, zc, nzc):
            return 0
    if need <= 1:
        return 1
    path[0] = h
    onpath[h] = 1
    path[1] = c1
    onpath[c1] = 1
    sp = 1
    stamp = 0
    nodes = 0
    result = -2
    # Expand the node at depth sp: its candidates, fewest onward moves first.
    expand = True
    degs = np.empty(4, np.int64)
    while result == -2:
        if expand:
            expand = False
            if sp >= need:
                result = 1
                break
            c = path[sp]
            t = sp + 1  # the step at which the next cell is entered
            n = 0
            stamp += 1
            if _reachable(c, sp, need - sp, nbr, freet, shut, onpath, mark, stamp, queue) < need - sp:
                ncand[sp] = 0  # too few cells left in time: no walk from here
            else:
                for k in range(4 * c, 4 * c + 4):
                    m = nbr[k]
                    if m < 0 or onpath[m] != 0 or freet[m] > t or t >= shut[m]:
                        continue
                    deg = 0
                    for q in range(4 * m, 4 * m + 4):
                        o = nbr[q]
                        if o >= 0 and o != c and onpath[o] == 0 and freet[o] <= t + 1 and t + 1 < shut[o]:
                            deg += 1
                    j = n
                    while j > 0 and degs[j - 1] > deg:  # insertion sort: stable, 4 entries at most
                        degs[j] = degs[j - 1]
                        cand[4 * sp + j] = cand[4 * sp + j - 1]
                        j -= 1
                    degs[j] = deg
                    cand[4 * sp + j] = m
                    n += 1
                ncand[sp] = n
            idx[sp] = 0
        if idx[sp] < ncand[sp]:
            m = cand[4 * sp + idx[sp]]
            idx[sp] += 1
            nodes += 1
            if nodes > cap or (until < 1.0e300 and (nodes & 63) == 0 and monotonic() > until):
                result = -1
                break
            if chase:
                onpath[m] = 1
                bitten = _on_zombie(lay, st, zc, sp * nzc, m) or not _chase(
                    st, lay, nbr, sp + 1, m, freet, onpath, others, zc, (sp + 1) * nzc
                )
                onpath[m] = 0
                if bitten:
                    continue
            sp += 1
            path[sp] = m
            onpath[m] = 1
            expand = True
        else:
            onpath[path[sp]] = 0
            sp -= 1
            if sp == 0:
                result = 0
    for k in range(sp + 1):
        onpath[path[k]] = 0
    onpath[h] = 0
    return result


@_jit
def opponent_reach(  # pragma: no cover - jitted
    st: I32, lay: I32, nbr: I32, me: int, ahead: int, work: I32, shut: I32, zombies: int
) -> None:
    """Set ``shut[c]`` to the fewest steps in which another snake's (or, asked, a zombie's) head reaches ``c``.

    Each head races alone (bodies free as their tails pass, as in :func:`alone_moves`);
    a cell none reaches within ``ahead`` steps gets :data:`SHUT_NEVER`. Given to
    :func:`alone_moves`, it keeps a walk strictly ahead of every other snake's head for
    the first ``ahead`` steps: a walk out of a pocket whose mouth another snake can
    close first is no walk. With ``zombies`` (1) the zombies' heads race too, as if
    they could go anywhere. Their moves are fixed and the search plays them exactly,
    but a pocket's mouth a zombie passes is as closed as one a snake passes. Raced this
    way, a zombie that runs alongside a short snake up a wall shuts every way across
    its front and steers it on into the corner (zombies raced at every length, the
    champion died almost four times as often at 10 ms a move), which is why the champion
    asks for them only when it is long (``doom_ahead_len``). ``work`` is scratch of
    ``3 * size`` ints.
    """
    size = lay[L_SIZE]
    freet = work[0:size]
    dist = work[size : 2 * size]
    queue = work[2 * size : 3 * size]
    _walk_free_times(st, lay, freet, ZOMBIE_FREE)
    shut[:] = SHUT_NEVER
    n = lay[L_N]
    for i in range(n + (lay[L_NZ] if zombies else 0)):
        if i == me or (i < n and st[lay[L_SNK] + NF * i + F_ALIVE] == 0):
            continue
        h = head_of(st, lay, i) if i < n else zombie_head(st, lay, i - n)
        race_alone(nbr, h, dist, freet, queue, ahead)  # cells further off are not shut
        for c in range(size):
            if dist[c] > 0:
                shut[c] = min(shut[c], dist[c])


__all__ = ["SHUT_NEVER", "ZOMBIE_FREE", "Ask", "alone_moves", "opponent_reach", "work_size"]
