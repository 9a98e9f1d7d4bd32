"""The arena's searching agents' evaluation: the value of a position from one snake's side.

A multi-source breadth-first race from all snake heads *and all zombie heads* splits the
board into Voronoi cells (first to arrive owns a cell; ties own nothing, so a cell a
zombie reaches as soon as we do is not ours); a body cell counts as free from the step
its tail will have passed it. The race runs on bitboards (:func:`.territory.race_bits`, a
row of the board a word); :func:`race_cells`, the same race a cell at a time, takes the
boards and options the bitboards do not. :func:`evaluate_w` adds, in decreasing weight:
length plus pending growth; the nearest apple the agent reaches strictly first (closer is
better), else the pull of the nearest apple (an apple eaten along the line counts as a
fairly near new one, so eating beats standing next to an apple); the territory (capped),
which is also the chance that the next random apple falls on our side; a heavy penalty
when the territory is smaller than the body (a trap); a penalty growing as a zombie head
comes within four cells. Death scores far below everything, later deaths less badly.

The weights are one float64 array indexed by the ``W_*`` constants, so that the compiled
search (:mod:`.search`) carries them as one argument: :data:`WEIGHTS` are the reference
agents' (``arena.voronoi``, ``arena.mcts``); the champion (:mod:`.champion`) builds its own
from :class:`.champion.ChampionOptions`. The same module holds what every head's race
needs besides the value — the opponents' default replies (:func:`timid_dir`), the rival's
reach and the free times of body cells (:func:`free_times`, :func:`race_alone`), which the
root's apple races (:mod:`.targets`) and the survival proof (:mod:`.survival`) reuse.

Why one module over 400 lines: it is the one value the references, the champion and the
tree search all read; its helpers are the race it is made of, and splitting them off would
leave each half meaningless alone.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from snakelab.games.arena import sim
from snakelab.games.arena.sim import (
    F_ALIVE,
    F_EATEN,
    F_GROWTH,
    F_LEN,
    F_LONGEST,
    F_TAIL,
    L_APPLE,
    L_BODY,
    L_CAP,
    L_GROWTH,
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
    greedy_dir,
    head_of,
    nearest_apple,
    zombie_head,
)
from snakelab.games.arena.territory import race_bits

I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]

DEAD = -1.0e7
OPP = np.array([1, 0, 3, 2], dtype=np.int32)  # opposite direction (UP, DOWN, LEFT, RIGHT)

# Evaluation weights (entries of a float64 array; see evaluate_w). The first eight are the
# references'; the rest switch on and tune the champion's clock-aware value and its
# timid-opponent ties (``W_CLOCK`` 0 leaves the references' evaluation exactly as it is).
W_TERR, W_TERR_CAP, W_APPLE_STEP, W_APPLE_OWN, W_ZOMBIE, W_APPLE_SECOND, W_SHARE, W_HORIZON = range(8)
W_LATE_C0, W_LATE_RATE, W_ROOT_LEN, W_TIES, W_CLOCK, W_CLAIM = range(8, 14)
W_RIVAL, W_RIVAL_IDX, W_RIVAL_ROOT = range(14, 17)
W_SPAWN, W_SPAWN_CELL, W_KILLERS, W_PATHS, W_PREDICT = range(17, 22)
N_WEIGHTS = 22
WEIGHTS = np.array(
    [
        *(0.5, 400.0, 15.0, 2000.0, 100.0, 0.0, 0.0, 1.0e9),  # the references' eight
        *(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0),  # the champion's, off
    ],
    dtype=np.float64,
)
"""The reference agents' weights: territory 0.5 a cell up to 400 cells, 15 a step to the
nearest apple, 2,000 for one we reach strictly first, zombie heads 100 × (5 − distance)²,
no second apple, no territory share, and a race over the whole board (``W_HORIZON``:
the race stops at this distance; cells and apples beyond it are nobody's); no clock
(``W_CLOCK`` 0: a death is :data:`DEAD`), no ties, no claims, no rival (``W_RIVAL`` 0), no spawn spot
(``W_SPAWN`` 0: with no apple ours, the nearest apple pulls), the search's fixed
move order (``W_KILLERS`` 0; see :func:`.search.alphabeta`), pulls by Manhattan distance
(``W_PATHS`` 0; see :func:`pull_maps`), and the default replies at the root (``W_PREDICT``
0; when set, snake ``j``'s reply at the root is ``wts[N_WEIGHTS + j]`` where that is a
direction, 0 to 3).
The champion (:mod:`.champion`) sets the rest."""
NO_TIMID = np.zeros(64, dtype=np.int32)
"""No opponent is timid: every one is modelled as the references model everyone (64 entries,
the most snakes the rules allow, so one shared array serves every board)."""


@_jit
def timid_dir(st: I32, lay: I32, nbr: I32, j: int) -> int:  # pragma: no cover - jitted
    """Snake ``j``'s move if it is timid: the greedy filler's among cells no other head is next to.

    Falls back to :func:`.sim.greedy_dir` when every free neighbour is contested.
    """
    h = head_of(st, lay, j)
    if h < 0:
        return 5
    n = lay[L_N]
    w = lay[L_W]
    hx, hy = h % w, h // w
    target = nearest_apple(st, lay, hx, hy)
    move = -1
    best = 1 << 30
    for o in range(4):
        d = sim.ZORDER[o]
        c = nbr[4 * h + d]
        if c < 0 or st[lay[L_OCC] + c] != 0:
            continue
        cx, cy = c % w, c // w
        contested = False
        for i in range(n):
            if i == j or st[lay[L_SNK] + NF * i + F_ALIVE] == 0:
                continue
            oh = head_of(st, lay, i)
            if abs(oh % w - cx) + abs(oh // w - cy) == 1:
                contested = True
                break
        if contested:
            continue
        dist = 0
        if target >= 0:
            dist = abs(cx - target % w) + abs(cy - target // w)
        if dist < best:
            best = dist
            move = d
    if move < 0:
        return greedy_dir(st, lay, nbr, j)
    return move


@_jit
def reach(st: I32, lay: I32, j: int, left: int) -> int:  # pragma: no cover - jitted
    """Snake ``j``'s longest length, its pending growth counted as far as ``left`` steps allow."""
    f = lay[L_SNK] + NF * j
    length = int(st[f + F_LONGEST])
    if st[f + F_ALIVE] != 0:
        length = max(length, int(st[f + F_LEN] + min(st[f + F_GROWTH], left)))
    return length


@_jit
def rival_of(st: I32, lay: I32, me: int) -> tuple[int, int]:  # pragma: no cover - jitted
    """The champion's rival at the root: the opponent of greatest :func:`reach` and that reach.

    The first such opponent on a tie; ``(-1, 0)`` with no opponent.
    """
    left = max(lay[L_STEPS] - st[lay[L_STEP]], 0)
    best, best_reach = -1, 0
    for j in range(lay[L_N]):
        if j != me:
            r = reach(st, lay, j, left)
            if best < 0 or r > best_reach:
                best, best_reach = j, r
    return best, best_reach


@_jit
def rival_loss(st: I32, lay: I32, wts: F64, left: int) -> float:  # pragma: no cover - jitted
    """What the rival's growth since the root costs us: ``W_RIVAL`` × 1,000 a cell.

    The rival (``wts[W_RIVAL_IDX]``, set at the root by :func:`rival_of`) is the longest
    opponent; its length is its :func:`reach`. 0 with no rival.
    """
    j = int(wts[W_RIVAL_IDX])
    if wts[W_RIVAL] == 0.0 or j < 0:
        return 0.0
    return wts[W_RIVAL] * 1000.0 * (reach(st, lay, j, left) - wts[W_RIVAL_ROOT])


@_jit
def death_cost(wts: F64, left: int) -> float:  # pragma: no cover - jitted
    """With the clock, what a death forgoes: ``late_c0 + late_rate × steps left`` (``left`` ≥ 0)."""
    return wts[W_LATE_C0] + wts[W_LATE_RATE] * left


@_jit
def dead_value(st: I32, lay: I32, me: int, ply: int, wts: F64) -> float:  # pragma: no cover - jitted
    """The value of a line in which the agent has died.

    The references' :data:`DEAD` (later deaths a little less bad); with the clock
    (``wts[W_CLOCK]``), the length reached less the growth the death forgoes:
    ``late_c0 + late_rate × steps left``.
    """
    if wts[W_CLOCK] == 0.0:
        return DEAD + 1000.0 * ply
    left = lay[L_STEPS] - st[lay[L_STEP]]
    left = max(left, 0)
    reached = wts[W_ROOT_LEN] + lay[L_GROWTH] * st[lay[L_SNK] + NF * me + F_EATEN]
    return 1000.0 * reached - death_cost(wts, left) - rival_loss(st, lay, wts, left)


@_jit
def body_free_times(st: I32, lay: I32, freet: I32) -> None:  # pragma: no cover - jitted
    """Set ``freet`` of every live snake's body cell to the step from which it is free (its tail passed)."""
    snk = lay[L_SNK]
    cap = lay[L_CAP]
    for i in range(lay[L_N]):
        f = snk + NF * i
        if st[f + F_ALIVE] == 0:
            continue
        base = lay[L_BODY] + cap * i
        tail = st[f + F_TAIL]
        g = st[f + F_GROWTH]
        for k in range(st[f + F_LEN]):
            freet[st[base + (tail + k) % cap]] = k + 1 + g


@_jit
def free_times(st: I32, lay: I32, freet: I32) -> None:  # pragma: no cover - jitted
    """Set ``freet`` of every cell to the step from which it can be entered.

    A free cell from step 0, a body cell once its tail has passed, any other occupied cell never.
    """
    occ0 = lay[L_OCC]
    for c in range(lay[L_SIZE]):
        freet[c] = (1 << 20) if st[occ0 + c] != 0 else 0
    body_free_times(st, lay, freet)


@_jit
def race_alone(
    nbr: I32, h: int, dist: I32, freet: I32, queue: I32, limit: int = 1 << 30
) -> None:  # pragma: no cover - jitted
    """Set ``dist`` to the steps from ``h`` to every cell, alone on the board (-1: unreached).

    A cell can be entered from step ``freet[cell]`` on (a body cell once its tail has passed).
    The race stops after ``limit`` steps: cells further away stay unreached.
    """
    for c in range(dist.shape[0]):
        dist[c] = -1
    dist[h] = 0
    queue[0] = h
    lo, hi = 0, 1
    while lo < hi:
        c = queue[lo]
        lo += 1
        d1 = dist[c] + 1
        if d1 > limit:
            break
        for k in range(4 * c, 4 * c + 4):
            m = nbr[k]
            if m >= 0 and dist[m] < 0 and freet[m] <= d1:
                dist[m] = d1
                queue[hi] = m
                hi += 1


@_jit
def race_cells(
    st: I32, lay: I32, nbr: I32, me: int, work: I32, horizon: float, mlen: int, ties: bool, timid: I32
) -> tuple[int, int, int, int]:  # pragma: no cover - jitted
    """The territory race of :func:`evaluate_w` cell by cell: what :func:`.territory.race_bits` computes on bitboards.

    Every snake head and every zombie head races at once (first to arrive owns a cell,
    a cell two owners reach at the same step is nobody's, -2; the zombies own theirs
    as -3), a body cell free from the step its tail has passed, to ``horizon`` steps,
    and on over the whole board when our cells are fewer than ``mlen + 2`` but some
    lie at the horizon. ``work`` is scratch of ``4 * size`` ints; it is left holding each
    cell's step and owner (``work[0:size]``, ``work[size:2 * size]``). With ``ties``, a
    cell we reach as soon as a timid opponent (``timid[j]``) is ours. Returns our cells
    within the horizon less the head, the other snakes' within it, ours at the horizon
    and ours at the end less the head.
    """
    size = lay[L_SIZE]
    n = lay[L_N]
    occ0 = lay[L_OCC]
    snk = lay[L_SNK]
    dist = work[0:size]
    owner = work[size : 2 * size]
    freet = work[2 * size : 3 * size]
    queue = work[3 * size : 4 * size]
    big = 1 << 20
    for c in range(size):
        dist[c] = -1
        freet[c] = big if st[occ0 + c] != 0 else 0
    body_free_times(st, lay, freet)
    hi = 0
    for i in range(n):
        if st[snk + NF * i + F_ALIVE] != 0:
            h = head_of(st, lay, i)
            dist[h] = 0
            owner[h] = i
            queue[hi] = h
            hi += 1
    # Zombies race for cells too (a tie is theirs in effect: contested cells are nobody's),
    # so a snake being herded along a wall sees its side of the board shrink.
    for j in range(lay[sim.L_NZ]):
        zh = zombie_head(st, lay, j)
        if dist[zh] < 0:
            dist[zh] = 0
            owner[zh] = -3
            queue[hi] = zh
            hi += 1
    lo = 0
    limit = horizon
    terr = 0
    others = 0
    edge = 0
    room = 0  # our cells in the whole race, for the trap test
    for _ in range(2):
        while lo < hi:
            c = queue[lo]
            d1 = dist[c] + 1
            if d1 > limit:
                break  # the queue is in distance order: every later cell is as far
            lo += 1
            o = owner[c]
            for k in range(4 * c, 4 * c + 4):
                m = nbr[k]
                if m < 0:
                    continue
                if dist[m] < 0:
                    if freet[m] <= d1:
                        dist[m] = d1
                        owner[m] = o
                        queue[hi] = m
                        hi += 1
                elif dist[m] == d1 and owner[m] != o:
                    if ties and (
                        (o == me and owner[m] >= 0 and timid[owner[m]] != 0)
                        or (owner[m] == me and o >= 0 and timid[o] != 0)
                    ):
                        owner[m] = me  # a timid opponent swerves from the meeting
                    else:
                        owner[m] = -2
        room = 0
        for k in range(hi):
            c = queue[k]
            o = owner[c]
            if o == me:
                room += 1
                if limit == horizon and dist[c] >= horizon:
                    edge += 1
            elif o >= 0 and limit == horizon:
                others += 1
        room -= 1  # the head itself
        if limit == horizon:
            terr = room
        # A near race that cannot tell a trap (our cells fewer than the body, but some at
        # the horizon) goes on over the whole board: a long snake's region may close far
        # beyond the horizon. Only the trap test reads the rest.
        if room >= mlen + 2 or edge == 0 or lo >= hi:
            break
        limit = 1.0e18
    return terr, others, edge, room


@_jit
def evaluate_w(
    st: I32, lay: I32, nbr: I32, me: int, ply: int, work: I32, wts: F64, timid: I32
) -> float:  # pragma: no cover - jitted
    """The agent's value of a position with the weights ``wts`` (indexed by the ``W_*`` constants).

    ``work`` is scratch of ``4 * size + 1`` ints: distances, owners, free times
    and a queue. :data:`WEIGHTS` gives the reference agents' evaluation. With
    ``wts[W_CLOCK]`` set it is the champion's (:mod:`.champion`): a death is
    :func:`dead_value`, the game's last step is valued by the longest length alone,
    an apple further than the steps left is worth nothing, pending growth counts
    only as far as the steps left allow, and a trap costs at most 0.9 of a death. With
    ``wts[W_TIES]`` set, a cell the agent and a timid opponent (``timid[j]``) reach at
    the same time is the agent's.
    """
    size = lay[L_SIZE]
    w = lay[L_W]
    snk = lay[L_SNK]
    fm = snk + NF * me
    if st[fm + F_ALIVE] == 0:
        return dead_value(st, lay, me, ply, wts)
    clock = wts[W_CLOCK] != 0.0
    left = lay[L_STEPS] - st[lay[L_STEP]]
    if clock and left <= 0:
        return 1000.0 * st[fm + F_LONGEST]  # the game is over: only the longest length counts
    dist = work[0:size]
    owner = work[size : 2 * size]
    mh = head_of(st, lay, me)
    mx, my = mh % w, mh // w
    zpen = 0.0
    for j in range(lay[sim.L_NZ]):
        zh = zombie_head(st, lay, j)
        md = abs(zh % w - mx) + abs(zh // w - my)
        if md <= 4:
            zpen += (5 - md) * (5 - md) * wts[W_ZOMBIE]
    g = st[fm + F_GROWTH]
    mlen = st[fm + F_LEN] + (min(g, left) if clock else g)  # growth pending at the end never shows
    horizon = wts[W_HORIZON]
    ties = wts[W_TIES] != 0.0
    ok, terr, others, room = False, 0, 0, 0
    if not ties:
        ok, terr, others, _, room = race_bits(st, lay, me, horizon, mlen, dist, owner)
    if not ok:
        terr, others, _, room = race_cells(st, lay, nbr, me, work, horizon, mlen, ties, timid)
    v = 1000.0 * mlen
    a0 = lay[L_APPLE]
    best_apple = 0.0
    second = 0.0
    step_w = wts[W_APPLE_STEP]
    claim = int(wts[W_CLAIM])
    spawn_cell = int(wts[W_SPAWN_CELL]) if wts[W_SPAWN] != 0.0 else -1
    spawn_md = 0
    paths = wts[W_PATHS] != 0.0
    pm0 = 4 * size + 1  # the pulls' distance maps (pull_maps), when paths is set
    if spawn_cell >= 0:
        spawn_md = abs(spawn_cell % w - mx) + abs(spawn_cell // w - my)
        if paths and work[pm0 + lay[L_NA] * size + mh] >= 0:
            spawn_md = work[pm0 + lay[L_NA] * size + mh]
    for k in range(lay[L_NA]):
        a = st[a0 + k]
        if a < 0:
            # Eaten in this line: a new apple appears somewhere random. Valuing the gap as a
            # fairly near apple keeps eating worth more than standing next to the apple.
            val = wts[W_APPLE_OWN] + step_w * 280.0 if not clock or left > 20 else 0.0
        else:
            md = abs(a % w - mx) + abs(a // w - my)
            if paths and work[pm0 + k * size + mh] >= 0:
                md = work[pm0 + k * size + mh]
            if clock and md >= left:
                val = 0.0  # out of reach before the end
            elif 0 <= dist[a] <= horizon and owner[a] == me:
                val = wts[W_APPLE_OWN] + step_w * (300.0 - dist[a])  # we get there strictly first
            elif k < 52 and (claim >> k) & 1:
                val = wts[W_APPLE_OWN] + step_w * (300.0 - md)  # no snake there first heads for it
            elif spawn_cell >= 0:
                val = wts[W_SPAWN] * (300.0 - spawn_md)  # idle: stand where the next apple is likeliest ours
            else:
                val = step_w * (300.0 - md)
        if val > best_apple:
            second = best_apple
            best_apple = val
        elif val > second:
            second = val
    v += best_apple + wts[W_APPLE_SECOND] * second
    # The ranking is a race against the longest opponent: its growth, and the apple it
    # reaches strictly first, cost us W_RIVAL times what ours would be worth.
    rj = int(wts[W_RIVAL_IDX])
    if wts[W_RIVAL] != 0.0 and rj >= 0:
        v -= rival_loss(st, lay, wts, left)
        if st[snk + NF * rj + F_ALIVE] != 0:
            rh = head_of(st, lay, rj)
            worst = 0.0
            for k in range(lay[L_NA]):
                a = st[a0 + k]
                if a >= 0 and owner[a] == rj and 0 <= dist[a] <= horizon:
                    md = abs(a % w - rh % w) + abs(a // w - rh // w)
                    if not clock or md < left:
                        worst = max(worst, wts[W_APPLE_OWN] + step_w * (300.0 - dist[a]))
            v -= wts[W_RIVAL] * worst
    v += wts[W_TERR] * min(terr, int(wts[W_TERR_CAP]))
    # Territory relative to the snakes' together: the share of the random apples to come.
    v += wts[W_SHARE] * terr / (terr + others + 1.0)
    # A trap is a region the body does not fit in (being herded along a wall by zombies
    # shows up here long before the bite). With a race horizon the near cells alone would
    # call every long snake trapped and make it hoard space instead of eating: the race
    # went on over the whole board where the near one could not tell (above).
    if room < mlen + 2:
        pen = 20000.0 + 500.0 * (mlen + 2 - room)
        if clock:
            # A trap is a death foretold, never worse than the death: late in a game a long
            # snake's shortfall would otherwise cost more than dying, and the search would
            # take a death (a self-collision) over room it judged too small.
            pen = min(pen, 0.9 * death_cost(wts, left))
        v -= pen
    v -= zpen
    return v


@_jit
def evaluate(st: I32, lay: I32, nbr: I32, me: int, ply: int, work: I32) -> float:  # pragma: no cover - jitted
    """The agent's value of a position with the reference weights :data:`WEIGHTS` (see the module docstring)."""
    return evaluate_w(st, lay, nbr, me, ply, work, WEIGHTS, NO_TIMID)


__all__ = [
    "DEAD",
    "NO_TIMID",
    "N_WEIGHTS",
    "OPP",
    "WEIGHTS",
    "body_free_times",
    "dead_value",
    "evaluate",
    "evaluate_w",
    "free_times",
    "race_alone",
    "race_cells",
    "reach",
    "rival_loss",
    "rival_of",
    "timid_dir",
]
