"""The champion's compiled search: best-reply alpha-beta with a per-opponent model and a clock-aware value.

The search is :func:`.voronoi._ab`'s — one ply is one simultaneous step of the compiled
simulator, the agent maximises over its three moves, the opponents reply with their
default moves or exactly one nearby opponent deviates, the worst reply counts — with
two changes:

* **Timid opponents.** An opponent the agent has seen swerve away from cells another
  head could also enter next step (a head-on kills both; a paranoid searcher such as
  ``arena.voronoi`` or ``arena.mcts`` sees that and never steps there unless forced)
  is modelled as doing so: its default move is the greedy filler's among the free cells
  *no other head is next to* (the greedy filler's own move when there is none), and
  it never deviates into a cell next to the agent's head. The agent may then take a
  contested cell — the apple both heads are one step from, the cell that blocks the
  opponent's path — which a paranoid search of its own would leave to nobody. Every
  other opponent is modelled as the references model everyone: the greedy filler's
  move, any non-suicidal deviation. Which opponents are timid is decided from what a
  bot sees (:class:`ContactModel` in :mod:`.champion`).
* **The clock.** The ranking counts the longest length reached, so a death costs
  only the growth still to come: it is valued ``late_c0 + late_rate × steps left``
  below the length the line had reached (not ``-10^7`` as in the references); an
  apple further than the steps left is worth nothing, pending growth counts only as
  far as the steps left allow, and the game's last step is valued by the longest
  length alone. Early in a game a death stays far worse than any apple; in the last
  few dozen steps the agent takes a contested apple it would otherwise leave.

The evaluation is otherwise :func:`.voronoi.evaluate_w`'s (Voronoi race from snake and
zombie heads, apples reached strictly first, territory, trap and zombie penalties),
copied here rather than shared so that the references stay byte-for-byte what they are.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from snakelab.games.arena import sim
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
from snakelab.games.arena.voronoi import (
    C_ABORT,
    C_CAP,
    C_NODES,
    OPP,
    W_APPLE_OWN,
    W_APPLE_SECOND,
    W_APPLE_STEP,
    W_HORIZON,
    W_SHARE,
    W_TERR,
    W_TERR_CAP,
    W_ZOMBIE,
    now,
)

I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]

# Champion-only weights, after the references' (see voronoi.W_*).
W_LATE_C0, W_LATE_RATE, W_ROOT_LEN, W_TIES, W_INTENT = 8, 9, 10, 11, 12
N_CWEIGHTS = 13


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
def dead_value(st: I32, lay: I32, me: int, wts: F64) -> float:  # pragma: no cover - jitted
    """The value of a line in which the agent has died: the length reached, less the growth it forgoes."""
    left = lay[L_STEPS] - st[lay[L_STEP]]
    left = max(left, 0)
    reached = wts[W_ROOT_LEN] + lay[L_GROWTH] * st[lay[L_SNK] + NF * me + F_EATEN]
    return 1000.0 * reached - wts[W_LATE_C0] - wts[W_LATE_RATE] * left


@_jit
def _unclaimed(st: I32, lay: I32, me: int, a: int, md: int) -> bool:  # pragma: no cover - jitted
    """Whether every opponent at least as near apple ``a`` as we are (Manhattan ``md``) heads for another apple.

    An opponent heads for the live apple nearest its head (Manhattan, as the greedy
    filler and the references' pull do); one equally near two apples may take either.
    """
    n = lay[L_N]
    w = lay[L_W]
    a0 = lay[L_APPLE]
    ax, ay = a % w, a // w
    for j in range(n):
        if j == me or st[lay[L_SNK] + NF * j + F_ALIVE] == 0:
            continue
        h = head_of(st, lay, j)
        hx, hy = h % w, h // w
        dj = abs(ax - hx) + abs(ay - hy)
        if dj > md:
            continue
        nearer = False
        for k in range(lay[L_NA]):
            b = st[a0 + k]
            if b >= 0 and b != a and abs(b % w - hx) + abs(b // w - hy) < dj:
                nearer = True
                break
        if not nearer:
            return False
    return True


@_jit
def evaluate_c(
    st: I32, lay: I32, nbr: I32, me: int, work: I32, wts: F64, timid: I32
) -> float:  # pragma: no cover - jitted
    """The champion's value of a position (see the module docstring); ``work`` as :func:`.voronoi.evaluate_w`.

    With ``wts[W_TIES]`` set, a cell the agent and a timid opponent reach at the same
    time is the agent's: the opponent swerves from the meeting.
    """
    size = lay[L_SIZE]
    n = lay[L_N]
    w = lay[L_W]
    occ0 = lay[L_OCC]
    snk = lay[L_SNK]
    cap = lay[L_CAP]
    fm = snk + NF * me
    if st[fm + F_ALIVE] == 0:
        return dead_value(st, lay, me, wts)
    left = lay[L_STEPS] - st[lay[L_STEP]]
    if left <= 0:
        return 1000.0 * st[fm + F_LONGEST]  # the game is over: only the longest length counts
    dist = work[0:size]
    owner = work[size : 2 * size]
    freet = work[2 * size : 3 * size]
    queue = work[3 * size : 4 * size]
    big = 1 << 20
    for c in range(size):
        dist[c] = -1
        freet[c] = big if st[occ0 + c] != 0 else 0
    for i in range(n):
        f = snk + NF * i
        if st[f + F_ALIVE] == 0:
            continue
        base = lay[L_BODY] + cap * i
        tail = st[f + F_TAIL]
        g = st[f + F_GROWTH]
        for k in range(st[f + F_LEN]):
            freet[st[base + (tail + k) % cap]] = k + 1 + g
    mh = head_of(st, lay, me)
    mx, my = mh % w, mh // w
    zpen = 0.0
    hi = 0
    for i in range(n):
        if st[snk + NF * i + F_ALIVE] != 0:
            h = head_of(st, lay, i)
            dist[h] = 0
            owner[h] = i
            queue[hi] = h
            hi += 1
    for j in range(lay[sim.L_NZ]):
        zh = zombie_head(st, lay, j)
        md = abs(zh % w - mx) + abs(zh // w - my)
        if md <= 4:
            zpen += (5 - md) * (5 - md) * wts[W_ZOMBIE]
        if dist[zh] < 0:
            dist[zh] = 0
            owner[zh] = -3
            queue[hi] = zh
            hi += 1
    lo = 0
    terr = 0
    horizon = wts[W_HORIZON]
    ties = wts[W_TIES] != 0.0
    while lo < hi:
        c = queue[lo]
        lo += 1
        d1 = dist[c] + 1
        if d1 > horizon:
            break
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
                    owner[m] = me
                else:
                    owner[m] = -2
    others = 0
    edge = 0
    for k in range(hi):
        c = queue[k]
        o = owner[c]
        if o == me:
            terr += 1
            if dist[c] >= horizon:
                edge += 1
        elif o >= 0:
            others += 1
    terr -= 1
    g = st[fm + F_GROWTH]
    mlen = st[fm + F_LEN] + min(g, left)  # growth still pending at the end never shows
    v = 1000.0 * mlen
    a0 = lay[L_APPLE]
    best_apple = 0.0
    second = 0.0
    step_w = wts[W_APPLE_STEP]
    intent = wts[W_INTENT]
    for k in range(lay[L_NA]):
        a = st[a0 + k]
        if a < 0:
            val = wts[W_APPLE_OWN] + step_w * 280.0 if left > 20 else 0.0
        else:
            md = abs(a % w - mx) + abs(a // w - my)
            if md >= left:
                val = 0.0  # out of reach before the end
            elif dist[a] >= 0 and owner[a] == me:
                val = wts[W_APPLE_OWN] + step_w * (300.0 - dist[a])
            elif intent > 0.0 and _unclaimed(st, lay, me, a, md):
                val = intent * wts[W_APPLE_OWN] + step_w * (300.0 - md)
            else:
                val = step_w * (300.0 - md)
        if val > best_apple:
            second = best_apple
            best_apple = val
        elif val > second:
            second = val
    v += best_apple + wts[W_APPLE_SECOND] * second
    v += wts[W_TERR] * min(terr, int(wts[W_TERR_CAP]))
    v += wts[W_SHARE] * terr / (terr + others + 1.0)
    # A trap is a region closed within the race's horizon that the body does not fit in.
    # A region still open at the horizon is no trap, however long the snake: counting
    # only the near cells would call every long snake trapped and make it hoard space
    # instead of eating.
    if terr < mlen + 2 and edge == 0:
        v -= 20000.0 + 500.0 * (mlen + 2 - terr)
    v -= zpen
    return v


@numba.njit(cache=True)  # without nogil: it reads the clock in object mode
def search(
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
) -> float:  # pragma: no cover - jitted
    """Best-reply alpha-beta to ``depth`` plies from ``bufs[ply]``; ``timid[j]`` marks timid opponents.

    Arguments as :func:`.voronoi._ab` (the root fills ``root_vals`` in ``root_order``).
    """
    st = bufs[ply]
    n = lay[L_N]
    snk = lay[L_SNK]
    fm = snk + NF * me
    if st[fm + F_ALIVE] == 0:
        return dead_value(st, lay, me, wts)
    if depth == 0 or st[lay[L_STEP]] >= lay[L_STEPS]:
        return evaluate_c(st, lay, nbr, me, work, wts, timid)
    w = lay[L_W]
    mh = head_of(st, lay, me)
    mx, my = mh % w, mh // w
    mv = moves[ply]
    for j in range(n):
        mv[j] = 5
        if j != me and st[snk + NF * j + F_ALIVE] != 0:
            d = timid_dir(st, lay, nbr, j) if timid[j] != 0 else greedy_dir(st, lay, nbr, j)
            mv[j] = st[snk + NF * j + F_HEADING] if d == 5 else d
    my_heading = st[fm + F_HEADING]
    best = -1.0e18
    child = bufs[ply + 1]
    side = 2 if my_heading < 2 else 0
    hj = -1
    for oi in range(3):
        if ply == 0:
            dme = root_order[oi]
        elif oi == 0:
            dme = my_heading
        else:
            dme = side + oi - 1
        a = max(alpha, best)
        worst = 1.0e18
        for j in range(-1, n):
            if j >= 0:
                if j == me or st[snk + NF * j + F_ALIVE] == 0:
                    continue
                hj = head_of(st, lay, j)
                if abs(hj % w - mx) + abs(hj // w - my) > 2 * depth:
                    continue
            for dj in range(4 if j >= 0 else 1):
                if j >= 0:
                    if dj == mv[j] or dj == OPP[st[snk + NF * j + F_HEADING]]:
                        continue
                    c = nbr[4 * hj + dj]
                    if c < 0:
                        continue
                    v0 = st[lay[L_OCC] + c]
                    if v0 < 0 or (v0 > 0 and c != sim.tail_of(st, lay, v0 - 1)):
                        continue
                    if timid[j] != 0 and abs(c % w - mx) + abs(c // w - my) == 1:
                        continue  # a timid opponent never steps where our head could meet it
                counter[C_NODES] += 1
                if counter[C_NODES] > counter[C_CAP] or (
                    deadline < 1.0e300 and (counter[C_NODES] & 3) == 0 and now() > deadline
                ):
                    counter[C_ABORT] = 1
                    return 0.0
                child[:] = st
                save = mv[j] if j >= 0 else 0
                if j >= 0:
                    mv[j] = dj
                mv[me] = dme
                step(child, lay, nbr, mv)
                if j >= 0:
                    mv[j] = save
                val = search(
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
                )
                if counter[C_ABORT] != 0:
                    return 0.0
                worst = min(worst, val)
                if worst <= a:
                    break
            if worst <= a:
                break
        if ply == 0:
            root_vals[oi] = worst
        if worst > best:
            best = worst
            if best >= beta:
                break
    return best


__all__ = [
    "N_CWEIGHTS",
    "W_LATE_C0",
    "W_LATE_RATE",
    "W_ROOT_LEN",
    "W_TIES",
    "dead_value",
    "evaluate_c",
    "search",
    "timid_dir",
]
