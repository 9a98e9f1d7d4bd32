"""``arena.voronoi``: paranoid best-reply alpha-beta with a Voronoi evaluation.

Search. One ply is one simultaneous step, played by the compiled simulator
(:mod:`.sim`), so the zombies' sequential chase, bites, kills and head-ons are
exact along every line. At each ply the agent picks one of its three moves (max),
then the opponents reply (min) in the manner of *best-reply search*: every
opponent plays its default move (the greedy filler's, what most simple bots do),
or exactly one opponent whose head is within ``2 × remaining plies`` of ours
deviates to another of its non-suicidal moves. This is paranoid — the replies
minimise our value — but keeps the reply count at ``1 + 2k`` for ``k`` nearby
opponents instead of ``3^k``, and far opponents cost nothing. Alpha-beta prunes
both levels. Iterative deepening orders the root moves by the last depth's values.

Evaluation (from the agent's side only: the ranking is by longest length, which
an opponent's death does not lower). A multi-source breadth-first search from all
snake heads *and all zombie heads* splits the board into Voronoi cells (first to
arrive owns a cell; ties own nothing, so a cell a zombie reaches as soon as we do
is not ours); a body cell counts as free from the step its tail will have passed
it. The race runs on bitboards (:func:`.territory.race_bits`, a row of the board a
word); :func:`race_cells`, the same race a cell at a time, takes the boards and
options the bitboards do not. The value adds, in decreasing weight: length plus pending growth; the nearest
apple the agent reaches strictly first (closer is better), else the Manhattan pull
of the nearest apple (an apple eaten along the line counts as a fairly near new
one, so eating beats standing next to an apple); the territory (capped), which is
also the chance that the next random apple falls on our side; a heavy penalty when
the territory is smaller than the body (a trap: being herded along a wall by
zombies shows up here long before the bite); a penalty growing as a zombie head
comes within four cells. Death scores far below everything, later deaths less
badly.

Simplifications: apples eaten during the search do not reappear (their new place is
random), dead snakes stay dead; pending growth is inferred as a bot would
(:class:`.sim.GrowthTracker`).

Budget: ``Budget(nodes=N)`` caps the nodes (simulated steps) of all iterations
together and makes the agent deterministic (a node budget wins over ``time_s``
when both are given, as with ``--nodes``): the same position, seed and node
budget give the same move. ``Budget(time_s=T)`` searches deeper while the
predicted cost of the next depth fits in ``time_fraction × T`` (the rest is left
for the harness and a busy machine); a depth that runs over is cut off at the
deadline, and its result dropped. The champion (``partial``) searches on to the
deadline instead and keeps what the cut-off depth decided (:func:`_partial_order`),
and tries each ply's killer moves first (``W_KILLERS``). Time-budgeted play
depends on the machine's speed and load, so it is not reproducible. With no
budget the agent uses ``Budget(nodes=default_nodes)``.

Why one module: it is one search — the evaluation (with :func:`apple_races`, the root's
race of every head to every apple, read by :func:`claims`, the apples a
root race says no nearer snake is bound for, :func:`spawn_spot`, where to wait for the
next apple, :func:`pull_maps`, the steps round the bodies to each target that the
champion's pulls read, and :func:`rival_loss`, the champion's
price on the growth of the longest opponent, which :func:`rival_of` picks by the same
:func:`reach`), the alpha-beta kernel and the agent that
drives it (:meth:`VoronoiAgent._deepen`, which the champion also runs from each
opponent's seat to predict its reply) — and the champion (:mod:`.champion`) runs the same kernel with other
weights and timid flags, so the references and the champion cannot drift apart. The
race's bitboard form, a kernel of its own that this module only calls, is :mod:`.territory`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import numpy.typing as npt

from snakelab.core.errors import ConfigError
from snakelab.core.game import BaseAgent, Budget, GameInfo
from snakelab.core.jit import monotonic
from snakelab.games.arena import sim
from snakelab.games.arena.rules import STRAIGHT, State
from snakelab.games.arena.sim import (
    F_ALIVE,
    F_EATEN,
    F_GROWTH,
    F_HEADING,
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
    step,
    zombie_head,
)
from snakelab.games.arena.territory import race_bits

I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]

DEAD = -1.0e7
OPP = np.array([1, 0, 3, 2], dtype=np.int32)  # opposite direction (UP, DOWN, LEFT, RIGHT)
# Counter slots: nodes used, node cap, aborted flag.
C_NODES, C_CAP, C_ABORT = 0, 1, 2

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
move order (``W_KILLERS`` 0; see :func:`_ab`), pulls by Manhattan distance
(``W_PATHS`` 0; see :func:`pull_maps`), and the default replies at the root (``W_PREDICT``
0; when set, snake ``j``'s reply at the root is ``wts[N_WEIGHTS + j]`` where that is a
direction, 0 to 3).
The champion (:mod:`.champion`) sets the rest."""
NO_TIMID = np.zeros(64, dtype=np.int32)
"""No opponent is timid: every one is modelled as the references model everyone (64 entries,
the most snakes the rules allow, so one shared array serves every board)."""


@contextmanager
def interruptible() -> Iterator[None]:
    """Let a Ctrl-C (or a SIGTERM turned into one) that lands in a kernel leave it as itself.

    A signal handler raises in the next Python code the main thread runs. The searches
    read their clock in nopython mode (:func:`snakelab.core.jit.monotonic`), so today no
    kernel runs Python code; should one do so again (an object-mode block), numba would
    raise a ``SystemError`` caused by the interrupt, which no caller would take for one.
    This raises the interrupt.
    """
    try:
        yield
    except SystemError as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):
            raise exc.__cause__ from None
        raise


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
def _body_free_times(st: I32, lay: I32, freet: I32) -> None:  # pragma: no cover - jitted
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
def _free_times(st: I32, lay: I32, freet: I32) -> None:  # pragma: no cover - jitted
    """Set ``freet`` of every cell to the step from which it can be entered.

    A free cell from step 0, a body cell once its tail has passed, any other occupied cell never.
    """
    occ0 = lay[L_OCC]
    for c in range(lay[L_SIZE]):
        freet[c] = (1 << 20) if st[occ0 + c] != 0 else 0
    _body_free_times(st, lay, freet)


@_jit
def _race_alone(
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
    _free_times(st, lay, freet)
    ad[:, :] = FAR
    for src in range(ad.shape[0]):
        if src < n:
            if st[snk + NF * src + F_ALIVE] == 0:
                continue
            h = head_of(st, lay, src)
        else:
            h = zombie_head(st, lay, src - n)
        _race_alone(nbr, h, dist, freet, queue)
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
    _free_times(st, lay, later)
    for c in range(size):
        later[c] = max(0, later[c] - t_eat)
    opp = np.full(size, FAR, np.int64)
    dist = np.empty(size, np.int32)
    bfs = np.empty(size, np.int32)
    for j in range(n):
        if px[j] < 0:
            continue
        _race_alone(nbr, py[j] * w + px[j], dist, later, bfs)
        for c in range(size):
            if 0 <= dist[c] < opp[c]:
                opp[c] = dist[c]
    best_c, best_share = -1, -1
    for r in range(min(paths, ns)):
        c = cells[ranked[r]]
        _race_alone(nbr, c, dist, later, bfs)
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
    _free_times(st, lay, freet)
    _race_alone(nbr, head_of(st, lay, me), mine, freet, queue)
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
    _body_free_times(st, lay, freet)
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


@_jit
def _ab(
    bufs: I32,
    ply: int,
    depth: int,
    lay: I32,
    nbr: I32,
    me: int,
    alpha: float,
    beta: float,
    work: I32,
    moves: I32,
    counter: npt.NDArray[np.int64],
    root_order: I32,
    root_vals: F64,
    deadline: float,
    wts: F64,
    timid: I32,
    killer: I32,
) -> float:  # pragma: no cover - jitted
    """Best-reply alpha-beta to ``depth`` plies from ``bufs[ply]`` (the root fills ``root_vals`` in ``root_order``).

    ``timid[j]`` marks opponents modelled as timid (the champion's; :data:`NO_TIMID`
    for the references): their default move is :func:`timid_dir` and they never
    deviate into a cell next to our head. With ``wts[W_KILLERS]`` set, ``killer``
    (three ints a ply, -2 to start) holds each ply's killer moves: below the root, the
    move last found best at that ply is tried first, and everywhere the reply that last
    refuted a move. The order changes what is searched in a given time, never the value
    of a finished depth.
    """
    st = bufs[ply]
    n = lay[L_N]
    snk = lay[L_SNK]
    fm = snk + NF * me
    if st[fm + F_ALIVE] == 0:
        return dead_value(st, lay, me, ply, wts)
    if depth == 0 or st[lay[L_STEP]] >= lay[L_STEPS]:
        return evaluate_w(st, lay, nbr, me, ply, work, wts, timid)
    w = lay[L_W]
    mh = head_of(st, lay, me)
    mx, my = mh % w, mh // w
    mv = moves[ply]
    # Default replies (greedy filler, or at the root a predicted move) as absolute
    # directions; who may deviate.
    predict = ply == 0 and wts[W_PREDICT] != 0.0
    for j in range(n):
        mv[j] = 5
        if j != me and st[snk + NF * j + F_ALIVE] != 0:
            if predict and wts[N_WEIGHTS + j] >= 0.0:
                mv[j] = int(wts[N_WEIGHTS + j])
                continue
            d = timid_dir(st, lay, nbr, j) if timid[j] != 0 else greedy_dir(st, lay, nbr, j)
            mv[j] = st[snk + NF * j + F_HEADING] if d == 5 else d
    my_heading = st[fm + F_HEADING]
    best = -1.0e18
    child = bufs[ply + 1]
    side = 2 if my_heading < 2 else 0  # the two perpendicular directions: side, side + 1
    # The replies: -1 (everyone plays the default), then one opponent deviating at a time
    # (rj, rd). They do not depend on our move, so they are listed once per node.
    rj = np.empty(1 + 3 * n, np.int32)
    rd = np.empty(1 + 3 * n, np.int32)
    rj[0], rd[0] = -1, 0
    nr = 1
    for j in range(n):
        if j == me or st[snk + NF * j + F_ALIVE] == 0:
            continue
        hj = head_of(st, lay, j)
        if abs(hj % w - mx) + abs(hj // w - my) > 2 * depth:
            continue
        for dj in range(4):
            if dj == mv[j] or dj == OPP[st[snk + NF * j + F_HEADING]]:
                continue
            c = nbr[4 * hj + dj]
            if c < 0:
                continue
            v0 = st[lay[L_OCC] + c]
            if v0 < 0 or (v0 > 0 and c != sim.tail_of(st, lay, v0 - 1)):
                continue  # a suicidal deviation never hurts us more than the default
            if timid[j] != 0 and abs(c % w - mx) + abs(c // w - my) == 1:
                continue  # a timid opponent never steps where our head could meet it
            rj[nr], rd[nr] = j, dj
            nr += 1
    # Our moves: at the root in the order given; below it straight first (usually the
    # safest guess), then the two sides.
    om = np.empty(3, np.int32)
    for oi in range(3):
        if ply == 0:
            om[oi] = root_order[oi]
        elif oi == 0:
            om[oi] = my_heading
        else:
            om[oi] = side + oi - 1
    killers = wts[W_KILLERS] != 0.0
    ko = ply * 3  # this ply's killers in ``killer``: our move, the reply's opponent and direction
    if killers:
        # Killer moves: the move that was best, and the reply that refuted a move, at the
        # last node searched at this ply are likely so here too; trying them first makes
        # alpha-beta cut sooner. Below the root only: the root keeps its given order.
        if ply > 0:
            for oi in range(1, 3):
                if om[oi] == killer[ko]:
                    om[0], om[oi] = om[oi], om[0]
                    break
        for r in range(1, nr):
            if rj[r] == killer[ko + 1] and rd[r] == killer[ko + 2]:
                rj[0], rd[0], rj[r], rd[r] = rj[r], rd[r], rj[0], rd[0]
                break
    for oi in range(3):
        dme = om[oi]
        a = max(alpha, best)
        worst = 1.0e18
        for r in range(nr):
            j = rj[r]
            counter[C_NODES] += 1
            if counter[C_NODES] > counter[C_CAP] or (
                deadline < 1.0e300 and (counter[C_NODES] & 3) == 0 and monotonic() > deadline
            ):
                counter[C_ABORT] = 1
                return 0.0
            child[:] = st
            save = mv[j] if j >= 0 else 0
            if j >= 0:
                mv[j] = rd[r]
            mv[me] = dme
            step(child, lay, nbr, mv)
            if j >= 0:
                mv[j] = save
            val = _ab(
                bufs,
                ply + 1,
                depth - 1,
                lay,
                nbr,
                me,
                a,
                min(beta, worst),
                work,
                moves,
                counter,
                root_order,
                root_vals,
                deadline,
                wts,
                timid,
                killer,
            )
            if counter[C_ABORT] != 0:
                return 0.0
            worst = min(worst, val)
            if worst <= a:
                if killers:
                    killer[ko + 1], killer[ko + 2] = j, rd[r]
                break
        if ply == 0:
            root_vals[oi] = worst
        if worst > best:
            best = worst
            if killers:
                killer[ko] = dme
            if best >= beta:
                break
    return best


def _root_order(heading: int) -> list[int]:
    """The three moves from ``heading``: straight first, then the two turns."""
    return [heading, *(d for d in range(4) if d not in (heading, int(OPP[heading])))]


def _partial_order(order: list[int], vals: F64) -> list[int]:
    """The root order after an iteration cut off part-way: a finished move that beat the first leads.

    The root searches its moves in ``order`` (the last finished iteration's best first)
    and writes each one's value to ``vals`` once its subtree is done (-1e18: not
    finished). The first move's value is exact; a later one is exact where it beat every
    move before it and an upper bound otherwise, so the finished move of highest value is
    the best of those finished at the deeper depth. Unless the first move itself was
    finished and beaten, the order stands.
    """
    done = [k for k in range(3) if vals[k] > -1.0e18]
    if 0 not in done:
        return order
    best = max(done, key=lambda k: vals[k])
    if vals[best] <= vals[0]:
        return order
    return [order[best]] + [d for k, d in enumerate(order) if k != best]


class VoronoiAgent(BaseAgent):
    """Paranoid best-reply alpha-beta over simultaneous moves (see the module docstring).

    Args:
        max_depth: Deepest iteration (plies of simultaneous steps).
        time_fraction: Share of ``Budget.time_s`` the search may plan to use.
        default_nodes: Node budget when the agent is given no budget at all.
    """

    def __init__(self, max_depth: int = 24, time_fraction: float = 0.4, default_nodes: int = 20_000) -> None:
        if not 1 <= max_depth <= 200:
            raise ConfigError(f"arena.voronoi: max_depth {max_depth} must be between 1 and 200")
        if not 0.0 < time_fraction <= 1.0:
            raise ConfigError(f"arena.voronoi: time_fraction {time_fraction} must be in (0, 1]")
        if default_nodes < 1:
            raise ConfigError(f"arena.voronoi: default_nodes {default_nodes} must be ≥ 1")
        self.max_depth = max_depth
        self.time_fraction = time_fraction
        self.default_nodes = default_nodes
        self.last_depth = 0
        """Depth of the last completed iteration (for tests and benchmarks)."""
        self.weights: F64 = WEIGHTS
        """The evaluation's weights (:data:`WEIGHTS`; a subclass may set others)."""
        self.partial = False
        """Search on to the deadline and keep what a cut-off iteration decided (see :meth:`act`).

        Off for the references: they stop before a depth their measured branching says will
        not finish, which leaves on average a third of their planned time unused."""

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Prepare scratch space for this board."""
        super().reset(info, player, seed)
        cfg = info.config
        self._size = cfg.game_width * cfg.game_height
        self._growth = sim.GrowthTracker(cfg.num_snakes, cfg.apple_growth)
        self._work = np.empty(4 * self._size + 1, np.int32)
        self._moves = np.zeros((self.max_depth + 2, cfg.num_snakes), np.int32)
        self._nbr: I32 | None = None

    def _model(self, s: State, growth: list[int]) -> tuple[F64, I32]:
        """The weights and the per-snake timid flags this move searches with (a subclass's hook)."""
        del s, growth
        return self.weights, NO_TIMID

    def _at_root(self, wts: F64, root: I32, lay: I32, nbr: I32) -> F64:
        """The weights after a look at the encoded root position (a subclass's hook)."""
        del root, lay, nbr
        return wts

    def _settle(self, order: list[int], root: I32, lay: I32, nbr: I32, until: float) -> int:
        """The move to play, given the root moves ranked best first (a subclass's hook).

        ``until`` is the ``time.perf_counter()`` by which it must be back (``1e308``
        under a node budget, so that the move does not depend on the machine).
        """
        del root, lay, nbr, until
        return order[0]

    def _deepen(
        self,
        bufs: I32,
        lay: I32,
        nbr: I32,
        me: int,
        wts: F64,
        timid: I32,
        node_cap: int,
        deadline: float,
        foresee: bool,
        partial: bool,
    ) -> list[int]:
        """Iterative deepening from ``bufs[0]`` for snake ``me``: its three moves ranked best first.

        Stops at ``node_cap`` nodes or ``deadline`` (``time.perf_counter()``; depth 1
        always completes). With ``foresee`` it also stops before a depth that its measured
        branching says will not finish by the deadline, as the references do. With
        ``partial`` an iteration cut off part-way still reorders the moves it finished
        (:func:`_partial_order`). Sets :attr:`last_depth` to the last depth completed.
        """
        st = bufs[0]
        heading = int(st[lay[L_SNK] + NF * me + F_HEADING])
        counter = np.zeros(3, np.int64)
        kil = np.full(3 * (self.max_depth + 2), -2, np.int32)  # killer moves, kept from one depth to the next
        order = _root_order(heading)
        self.last_depth = 0
        prev_s = 0.0
        bf = 3.0
        for depth in range(1, self.max_depth + 1):
            if foresee:
                now_s = time.perf_counter()
                if depth > 1 and now_s + prev_s * bf > deadline:
                    break  # the next depth would not finish in time
            vals = np.full(3, -1.0e18)
            ro = np.asarray(order, dtype=np.int32)
            ts = time.perf_counter()
            # Depth 1 always completes (at most 3 × (1 + 2k) nodes): never play a move unexamined.
            counter[C_CAP] = node_cap if depth > 1 else 1 << 60
            limit = deadline if depth > 1 else 1.0e308
            work, moves = self._work, self._moves
            with interruptible():
                _ab(
                    bufs, 0, depth, lay, nbr, me, -1.0e18, 1.0e18, work, moves, counter, ro, vals, limit, wts, timid,
                    kil,
                )  # fmt: skip
            spent = time.perf_counter() - ts
            if counter[C_ABORT]:
                if partial:
                    order = _partial_order(order, vals)
                break
            ranked = sorted(range(3), key=lambda k: -vals[k])
            order = [order[k] for k in ranked]
            self.last_depth = depth
            if prev_s > 0:
                bf = max(1.5, min(12.0, spent / prev_s))
            prev_s = spent
            if vals[ranked[0]] <= DEAD + 1000.0 * (self.max_depth + 1):
                break  # every line loses the snake: deeper cannot change the choice
        return order

    def act(self, observation: Any, budget: Budget | None) -> int:
        """One move: an absolute direction."""
        t0 = time.perf_counter()
        s: State = observation
        growth = self._growth.update(s)
        wts, timid = self._model(s, growth)
        me = self.player
        if not s.alive[me]:
            return STRAIGHT
        if self._nbr is None:
            self._nbr = sim.grid_nbr(s)
        nbr = self._nbr
        longest = max((len(b) + growth[i] for i, b in enumerate(s.bodies)), default=0)
        lay = sim.layout(s, cap=longest + self.max_depth + 4)
        root = sim.encode(s, lay, growth)
        bufs = np.empty((self.max_depth + 2, root.shape[0]), np.int32)
        bufs[0] = root
        wts = self._at_root(wts, root, lay, nbr)
        if budget is None or (budget.time_s is None and budget.nodes is None):
            budget = Budget(nodes=self.default_nodes)
        node_cap = budget.nodes if budget.nodes is not None else 1 << 60
        # A node budget wins over the clock when both are given (``--nodes``): the search
        # must then not depend on the machine at all.
        timed = budget.nodes is None and budget.time_s is not None
        deadline = t0 + self.time_fraction * budget.time_s if timed and budget.time_s is not None else 1.0e308
        order = self._deepen(
            bufs, lay, nbr, me, wts, timid, node_cap, deadline, timed and not self.partial, self.partial
        )
        # What is left of the budget, bar a twentieth for the harness, is the hook's.
        until = t0 + 0.95 * budget.time_s if timed and budget.time_s is not None else 1.0e308
        return self._settle(order, root, lay, nbr, until)


__all__ = ["VoronoiAgent", "dead_value", "evaluate", "evaluate_w", "interruptible", "pull_maps", "timid_dir"]
