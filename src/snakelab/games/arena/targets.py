"""Where the champion's pulls lead: the root's apple races, the claimed apples, the spawn spot, the ways round.

Once a move, at the root, every head races alone to every apple (:func:`apple_races`,
a table read by :func:`claims`, the apples a root race says no nearer snake is bound
for, and by :func:`spawn_spot`, where to wait for the next apple); :func:`pull_maps`
then lays the steps round the bodies to each target, which the evaluation
(:func:`.evaluation.evaluate_w`) reads at every leaf instead of the Manhattan distance.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from snakelab.games.arena import sim
from snakelab.games.arena.evaluation import free_times, race_alone
from snakelab.games.arena.sim import (
    F_ALIVE,
    L_APPLE,
    L_N,
    L_NA,
    L_OCC,
    L_SIZE,
    L_SNK,
    L_STEP,
    L_STEPS,
    L_W,
    NF,
    _jit,
    head_of,
    zombie_head,
)

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]


FAR = 1 << 30
"""The steps in an apple race table for a head that cannot reach the apple (or no apple)."""
SPAWN_SAMPLES = 80
"""The most cells :func:`spawn_spot` weighs as the spot (an even sample of those in reach)."""


@_jit
def apple_races(st: I32, lay: I32, nbr: I32, me: int, work: I32, ad: I64) -> None:  # pragma: no cover - jitted
    """Race every snake head, then every zombie head, alone to every apple: the root's table.

    ``ad[src, k]`` becomes the steps from head ``src`` (the snakes ``0 .. n-1``, then
    the zombies) to the apple in slot ``k`` (:data:`FAR`: no apple there, a dead snake,
    or out of reach), a body cell being free from the step its tail passes it.
    While we are alive, ``work[size : 2 * size]`` is left holding our own steps to
    every cell (-1: unreached) for :func:`spawn_spot`. :func:`claims` and
    :func:`spawn_spot` read the table, so the races run once a move.
    """
    size = lay[L_SIZE]
    n = lay[L_N]
    snk = lay[L_SNK]
    a0 = lay[L_APPLE]
    dist = work[0:size]
    mine = work[size : 2 * size]
    freet = work[2 * size : 3 * size]
    queue = work[3 * size : 4 * size]
    free_times(st, lay, freet)
    ad[:, :] = FAR
    for src in range(ad.shape[0]):
        if src < n:
            if st[snk + NF * src + F_ALIVE] == 0:
                continue
            h = head_of(st, lay, src)
        else:
            h = zombie_head(st, lay, src - n)
        race_alone(nbr, h, dist, freet, queue)
        for k in range(ad.shape[1]):
            a = st[a0 + k]
            if a >= 0 and dist[a] >= 0:
                ad[src, k] = dist[a]
        if src == me:
            mine[:] = dist


def race_table(lay: I32) -> I64:
    """An empty table for :func:`apple_races`: a row per snake and zombie, a column per apple slot."""
    return np.empty((int(lay[L_N] + lay[sim.L_NZ]), int(lay[L_NA])), np.int64)


@_jit
def claims(st: I32, lay: I32, me: int, ad: I64) -> int:  # pragma: no cover - jitted
    """The apple slots (a bit mask of the first 52) we can claim: no snake there first heads for it.

    ``ad`` is :func:`apple_races`' table. A snake *owns* an apple it reaches strictly
    before every other head, zombies included; it heads for the nearest apple it owns,
    else for the nearest by Manhattan distance — as the references' evaluation does.
    An apple is ours to claim when we reach it and every snake that reaches it no
    later than we do heads for another.
    """
    n = lay[L_N]
    na = min(lay[L_NA], 52)
    w = lay[L_W]
    snk = lay[L_SNK]
    a0 = lay[L_APPLE]
    target = np.full(n, -1, np.int64)
    for i in range(n):
        if st[snk + NF * i + F_ALIVE] == 0:
            continue
        best = FAR
        for k in range(na):
            if st[a0 + k] < 0 or ad[i, k] >= FAR:
                continue
            mine = True
            for o in range(ad.shape[0]):
                if o != i and ad[o, k] <= ad[i, k]:
                    mine = False
                    break
            if mine and ad[i, k] < best:
                best = ad[i, k]
                target[i] = k
        if target[i] < 0:
            h = head_of(st, lay, i)
            for k in range(na):
                a = st[a0 + k]
                if a >= 0:
                    md = abs(a % w - h % w) + abs(a // w - h // w)
                    if md < best:
                        best = md
                        target[i] = k
    mask = 0
    for k in range(na):
        if st[a0 + k] < 0 or ad[me, k] >= FAR:
            continue
        free = True
        for i in range(n):
            if i != me and ad[i, k] <= ad[me, k] and target[i] == k:
                free = False
                break
        if free:
            mask |= 1 << k
    return mask


@_jit
def spawn_spot(
    st: I32, lay: I32, nbr: I32, me: int, ad: I64, work: I32, paths: int
) -> int:  # pragma: no cover - jitted
    """Where to stand when the next apple appears: the cell we can reach by then that is nearest most free cells.

    ``ad`` and ``work`` are as :func:`apple_races` left them (the snakes' rows of the
    table, and our own steps to every cell). The first apple to be eaten is eaten at
    ``t*``, the least of the snakes' steps to an apple, by the snake that gets there
    first, and a new apple then appears on a uniformly random free cell. At ``t*``
    the eater stands on its apple and every other opponent has walked ``t*`` steps
    straight toward its own target (the apple it reaches first, else the nearest by
    Manhattan distance). Of the cells we reach within ``t*`` steps (a sample of at
    most 80), the one with the most free cells (a checkerboard half of them) nearer to
    it than to any opponent (Manhattan; a tie counts half) is returned: where the next
    apple is likeliest to be ours. With ``paths`` > 0 the ``paths`` best of them by
    that count are ranked again by path distance over the board as it will be at
    ``t*`` (a body cell free from the step its tail passes it), so that a long body
    between a cell and the free cells beyond it counts. -1 when we reach some apple no
    later than every other snake (that race is ours to run), when no apple is eaten in
    the steps left, or when we are dead.
    """
    size = lay[L_SIZE]
    n = lay[L_N]
    na = lay[L_NA]
    w = lay[L_W]
    snk = lay[L_SNK]
    a0 = lay[L_APPLE]
    occ0 = lay[L_OCC]
    if st[snk + NF * me + F_ALIVE] == 0 or na == 0:
        return -1
    mine = work[size : 2 * size]
    freet = work[2 * size : 3 * size]
    queue = work[3 * size : 4 * size]
    t_eat, eater, first = FAR, -1, -1
    for k in range(na):
        if st[a0 + k] < 0:
            continue
        for i in range(n):
            if ad[i, k] < t_eat:
                t_eat, eater, first = ad[i, k], i, k
    left = lay[L_STEPS] - st[lay[L_STEP]]
    if eater < 0 or eater == me or t_eat >= left:
        return -1
    for k in range(na):  # an apple we reach no later than any other snake is ours to race for
        if st[a0 + k] < 0 or ad[me, k] >= FAR:
            continue
        other = FAR
        for i in range(n):
            if i != me:
                other = min(other, ad[i, k])
        if ad[me, k] <= other:
            return -1
    # Where each opponent stands at t*.
    px = np.full(n, -1, np.int64)
    py = np.full(n, -1, np.int64)
    for j in range(n):
        if j == me or st[snk + NF * j + F_ALIVE] == 0:
            continue
        if j == eater:
            a = st[a0 + first]
            px[j], py[j] = a % w, a // w
            continue
        h = head_of(st, lay, j)
        hx, hy = h % w, h // w
        tgt, best = -1, FAR
        for k in range(na):
            a = st[a0 + k]
            if a < 0 or k == first:
                continue
            owned = ad[j, k] < FAR
            for o in range(n):
                if o != j and ad[o, k] <= ad[j, k]:
                    owned = False
                    break
            if owned and ad[j, k] < best:
                tgt, best = a, ad[j, k]
        if tgt < 0:
            for k in range(na):
                a = st[a0 + k]
                if a >= 0 and k != first:
                    md = abs(a % w - hx) + abs(a // w - hy)
                    if md < best:
                        tgt, best = a, md
        if tgt < 0:
            px[j], py[j] = hx, hy
            continue
        tx, ty = tgt % w, tgt // w
        md = abs(tx - hx) + abs(ty - hy)
        if md <= t_eat:
            px[j], py[j] = tx, ty
        else:
            px[j] = hx + (tx - hx) * t_eat // md
            py[j] = hy + (ty - hy) * t_eat // md
    # Each sampled free cell (in ``queue``) and its Manhattan distance to the nearest
    # opponent at t* (in ``freet``): both scratch arrays are done with the races.
    nfree = 0
    for c in range(size):
        if st[occ0 + c] == 0 and (c % w + c // w) % 2 == 0:  # every other cell, a checkerboard sample
            d = FAR
            cx, cy = c % w, c // w
            for j in range(n):
                if px[j] >= 0:
                    d = min(d, abs(cx - px[j]) + abs(cy - py[j]))
            queue[nfree] = c
            freet[nfree] = d
            nfree += 1
    cand = 0
    for c in range(size):
        if 0 <= mine[c] <= t_eat:
            cand += 1
    stride = max(1, (cand + SPAWN_SAMPLES - 1) // SPAWN_SAMPLES)
    cells = np.empty(SPAWN_SAMPLES, np.int64)
    shares = np.empty(SPAWN_SAMPLES, np.int64)
    ns, seen = 0, 0
    for c in range(size):
        if not 0 <= mine[c] <= t_eat:
            continue
        seen += 1
        if seen % stride != 0 or ns == SPAWN_SAMPLES:
            continue
        cx, cy = c % w, c // w
        share = 0
        for q in range(nfree):
            x = queue[q]
            d = abs(x % w - cx) + abs(x // w - cy)
            if d < freet[q]:
                share += 2
            elif d == freet[q]:
                share += 1
        cells[ns], shares[ns] = c, share
        ns += 1
    if ns == 0:
        return -1
    # The first best by count (a stable sort keeps the board order among equals).
    ranked = np.argsort(-shares[:ns], kind="mergesort")
    if paths <= 0:
        return cells[ranked[0]]
    # Path distances at t*: a cell is free from the step its tail passes it, counted
    # from t*, so a race that starts then uses ``freet - t*``.
    later = np.empty(size, np.int32)
    free_times(st, lay, later)
    for c in range(size):
        later[c] = max(0, later[c] - t_eat)
    opp = np.full(size, FAR, np.int64)
    dist = np.empty(size, np.int32)
    bfs = np.empty(size, np.int32)
    for j in range(n):
        if px[j] < 0:
            continue
        race_alone(nbr, py[j] * w + px[j], dist, later, bfs)
        for c in range(size):
            if 0 <= dist[c] < opp[c]:
                opp[c] = dist[c]
    best_c, best_share = -1, -1
    for r in range(min(paths, ns)):
        c = cells[ranked[r]]
        race_alone(nbr, c, dist, later, bfs)
        share = 0
        for x in range(size):
            if st[occ0 + x] != 0 or dist[x] < 0:
                continue
            if dist[x] < opp[x]:
                share += 2
            elif dist[x] == opp[x]:
                share += 1
        if share > best_share:
            best_c, best_share = c, share
    return best_c


@_jit
def pull_maps(st: I32, lay: I32, nbr: I32, me: int, work: I32, spawn_cell: int) -> None:  # pragma: no cover - jitted
    """The steps from every cell to each apple and to the spawn spot, over the cells we can reach: the pulls' distances.

    Beyond the race's horizon the evaluation pulls the head toward a claimed apple, the
    nearest apple or the spawn spot by distance. By Manhattan distance, a long body
    between the head and its target pulls the head against the body, while another
    snake takes the way round. This fills ``work[4 * size + 1 + k * size ...]`` (one
    map per apple slot ``k``, then one for ``spawn_cell``) with breadth-first distances
    to the target, back from it, over the cells our head reaches from the root: a step
    from cell ``m`` into cell ``c`` counts when ``c`` is free one step after the earliest
    we can be at ``m`` (a body cell once its tail has passed). A body still in the way
    when we would get there is a wall, as it is to the head, where a map that let every
    cell we ever reach count would follow Manhattan distance through it. -1 where the
    target is not reachable that way, where the evaluation falls back to Manhattan
    distance. ``work`` must hold ``(5 + number of apples) * size + 1`` ints.
    """
    size = lay[L_SIZE]
    na = lay[L_NA]
    a0 = lay[L_APPLE]
    mine = work[0:size]
    freet = work[2 * size : 3 * size]
    queue = work[3 * size : 4 * size]
    pm0 = 4 * size + 1
    work[pm0 : pm0 + (na + 1) * size] = -1
    if st[lay[L_SNK] + NF * me + F_ALIVE] == 0:
        return
    free_times(st, lay, freet)
    race_alone(nbr, head_of(st, lay, me), mine, freet, queue)
    for k in range(na + 1):
        t = st[a0 + k] if k < na else spawn_cell
        if t < 0:
            continue
        d = work[pm0 + k * size : pm0 + (k + 1) * size]
        d[t] = 0
        queue[0] = t
        lo, hi = 0, 1
        while lo < hi:
            c = queue[lo]
            lo += 1
            for j in range(4 * c, 4 * c + 4):
                m = nbr[j]
                # From m, left at our earliest arrival there, c must be free a step later.
                if m >= 0 and d[m] < 0 and mine[m] >= 0 and mine[m] + 1 >= freet[c]:
                    d[m] = d[c] + 1
                    queue[hi] = m
                    hi += 1


__all__ = ["FAR", "SPAWN_SAMPLES", "apple_races", "claims", "pull_maps", "race_table", "spawn_spot"]
