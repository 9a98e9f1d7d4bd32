"""The classic champion's per-move decision, as numba kernels (see :mod:`.champion` for why it is safe).

:func:`decide` picks the square the head moves to next, in three steps:

1. :func:`shortest_plan`: short paths to the apple (through either first move, four BFS
   variants; optionally more, :mod:`~snakelab.games.classic.paths`), each accepted only
   if the position after eating is feasible
   (:func:`~snakelab.games.classic.celltree.end_feasible`); the best replaces the plan:
   the shortest, or with the lookahead on (``WEIGHT > 0``) the one with the least length
   plus weighted :func:`expected_cost` over the next apple.
2. The verified plan already in hand, if none replaced it.
3. Otherwise the position is feasible and stays so: after ``n`` steps without an apple a
   frozen spanning tree's outline is followed (progress); else a two-leg plan through the
   region the failed shortest plan would cut off (:func:`detour_plan`), else the
   feasible move nearest to that region or the apple (:func:`keeping_move`).

The agent's memory between moves is the ``plan`` array and the ``ctl`` counters, indexed
by the named slots below. The board tables travel as a
:class:`~snakelab.games.classic.celltree.CellTables` and the scratch arrays as a
:class:`~snakelab.games.classic.paths.Scratch`; both cross into compiled code as plain
tuples (see :func:`decide`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from snakelab.core.jit import jit
from snakelab.games.classic.celltree import MINUS, CellTables, end_feasible, feasible, find, spanning_tree
from snakelab.games.classic.paths import FAR, Body, Scratch, bfs, body_copy, candidate, first_squares, plan_length

# Slots of the ``ctl`` array (int64, length N_CTL) that :func:`decide` reads and updates.
PLAN_POS = 0
"""Index in ``plan`` of the next square of the verified plan."""
PLAN_LEN = 1
"""Length of the verified plan; ``plan[PLAN_POS:PLAN_LEN]`` is what is left of it."""
FROZEN = 2
"""1 while the outline of the frozen spanning tree is being followed (reset by an apple)."""
N_PLANS = 3
"""Statistics: verified plans adopted."""
N_PLAN_STEPS = 4
"""Statistics: moves taken from a plan already in hand."""
N_FALLBACK = 5
"""Statistics: moves chosen only to keep the position feasible."""
N_DETOURS = 6
"""Statistics: two-leg plans through a cut-off region adopted."""
PLAN_COST = 7
"""The expected cost after the plan in hand (milli-moves; see :func:`expected_cost`)."""
HEAD_SEQ = 8
"""Input: the head's move number (see :class:`Body`)."""
LENGTH = 9
"""Input: body length."""
APPLE = 10
"""Input: the apple's square."""
STRICT = 11
"""Input: 1 under the strict tail rule."""
SINCE_APPLE = 12
"""Input: steps since the last apple."""
WEIGHT = 13
"""Input: the lookahead's weight on the expected cost after a plan, per mille (0: shortest plan wins)."""
SAMPLES = 14
"""Input: how many next-apple squares the lookahead plans for (see :func:`expected_cost`)."""
PENALTY = 15
"""Input: the lookahead's extra cost of a next apple with no verified plan, per mille of a move."""
VARIANTS = 16
"""Input: BFS variants per first move in :func:`shortest_plan` (4: hugging only; 8: plain ones too)."""
HUGGERS = 17
"""Input: :func:`hug_path` candidates per first move (``alpha`` 1, 2, ...) in :func:`shortest_plan`."""
N_CTL = 18
"""Length of ``ctl``."""


@jit
def cut_off_square(fm: int, apple: int, bd: Body, tb: CellTables, sc: Scratch) -> int:
    """The nearest free square in a block that the failed plan's end position (``sc.fseq[:fm]``) cuts off.

    Returns the apple when the failure is not a cut-off (or nothing is reachable).
    """
    in_to, ex_to, eu, ev, blockof = tb.in_to, tb.ex_to, tb.eu, tb.ev, tb.blockof
    mark, parent, dist, queue = sc.mark, sc.parent, sc.dist, sc.queue
    occ, seqno = bd.occ, bd.seqno
    tail_seq = bd.head_seq - bd.length + 1
    n = dist.shape[0]
    head = bd.ring[bd.head_seq % n]
    feasible(sc.fseq, fm, tb, mark, parent)
    for b in range(tb.nblocks):
        parent[b] = b
    for e in range(tb.nedges):
        if mark[e] != MINUS:
            a = find(parent, eu[e])
            b = find(parent, ev[e])
            if a != b:
                parent[a] = b
    ra = find(parent, blockof[apple])
    for i in range(n):
        dist[i] = -1
    dist[head] = 0
    slack = 2 if bd.strict else 1
    qh = 0
    qt = 1
    queue[0] = head
    while qh < qt:
        s = queue[qh]
        qh += 1
        k = dist[s] + 1
        for j in range(2):
            t = in_to[s] if j == 0 else ex_to[s]
            if t < 0 or dist[t] >= 0:
                continue
            if occ[t] and seqno[t] - tail_seq > k - slack:
                continue
            dist[t] = k
            if find(parent, blockof[t]) != ra:
                return t
            queue[qt] = t
            qt += 1
    return apple


@jit
def expected_cost(m: int, strict: bool, look: tuple[int, float], tb: CellTables, sc: Scratch, sc2: Scratch) -> float:
    """The expected number of moves from the end body ``sc.seq[:m]`` to the next apple.

    The next apple is uniform over the squares that body leaves free; ``look[0]`` of them,
    spread evenly over the free squares in board order (a stratified sample, the same for
    the same body), are each planned for as a move would be (:func:`plan_length` from that
    body, on ``sc2``): the verified plan's length, or when none verifies the unrestricted
    distance plus ``look[1]`` (the detours a missing plan costs). It only ranks plans; it
    never makes a move safe. Uses ``sc.vocc``/``sc.vseq``.
    """
    seq, vocc, vseq = sc.seq, sc.vocc, sc.vseq
    n = vocc.shape[0]
    free = n - m
    if free <= 0:
        return 0.0
    for i in range(n):
        vocc[i] = 0
    for i in range(m):
        vocc[seq[i]] = 1
        vseq[seq[i]] = i
    bd = Body(seq, vseq, vocc, m - 1, m, strict)
    samples = min(look[0], free)
    total = 0.0
    c = -1
    seen = -1
    for j in range(samples):
        want = (2 * j + 1) * free // (2 * samples)  # the middle of the j-th stratum
        while seen < want:
            c += 1
            if not vocc[c]:
                seen += 1
        k, d0 = plan_length(bd, c, tb, sc2)
        if k > 0:
            total += k
        elif d0 >= 0:
            total += d0 + look[1]
        else:
            total += n
    return total / samples


@jit
def shortest_plan(
    bd: Body,
    apple: int,
    held: int,
    held_cost: float,
    look: tuple[int, float, float, int, int],
    plan: np.ndarray,
    tb: CellTables,
    sc: Scratch,
    sc2: Scratch,
) -> tuple[int, bool, int, float]:
    """Step 1: a verified path to the apple that beats the plan in hand (``held`` moves left).

    Candidates go through either first move with four BFS variants; each is kept only if
    the position after eating is feasible. A plan's score is its length plus ``look[2]``
    (the weight) times the :func:`expected_cost` of its end position (``held_cost`` for
    the plan in hand; ``look[:2]`` are that function's sample count and penalty); with
    weight 0 the shortest plan wins and ``sc2`` is not touched. The unrestricted time-aware
    distance bounds every candidate's length from below, so when the plan in hand is
    already shorter nothing is tried. Also fills ``sc.bpar`` (the block tree of the body),
    which later steps use.

    Returns:
        ``(k, found, fail_m, cost)``: the length of the best verified path (written to
        ``plan``) or ``held``, whether one was found, the length of the end body of the
        shortest candidate that failed (in ``sc.fseq``; 0 if none), and the chosen end
        position's expected cost.
    """
    path, seq, fseq = sc.path, sc.seq, sc.fseq
    tail_seq = bd.head_seq - bd.length + 1
    weight = look[2]
    best = held
    best_score = held + weight * held_cost if held < FAR else 1e18
    best_cost = held_cost
    found = False
    d0, c0, c1 = first_squares(bd, apple, tb, sc)
    j0 = 2 if d0 < 0 or d0 > best or (weight == 0.0 and d0 == best) else 0
    fail_k = FAR
    fail_m = 0
    for j in range(j0, 2):
        c = c0 if j == 0 else c1
        if c < 0:
            continue
        for v in range(look[3] + look[4]):
            order = v if v < look[3] else 8 + v - look[3]
            if (c == apple and order > 0) or (weight == 0.0 and best == d0):
                continue
            k = candidate(bd, apple, c, order, tb, sc)
            if k < 0 or k >= best_score:
                continue
            m = end_feasible(path, k, bd.ring, tail_seq, bd.head_seq, seq, tb, sc.mark, sc.parent)
            if m > 0:
                cost = expected_cost(m, bd.strict, (look[0], look[1]), tb, sc, sc2) if weight > 0.0 else 0.0
                score = k + weight * cost
                if score < best_score:
                    for i in range(k):
                        plan[i] = path[i]
                    best = k
                    best_score = score
                    best_cost = cost
                    found = True
            elif k < fail_k:
                fail_k = k
                fail_m = -m
                for i in range(fail_m):
                    fseq[i] = seq[i]
    return best, found, fail_m, best_cost


@jit
def detour_plan(bd: Body, apple: int, goal: int, plan: np.ndarray, tb: CellTables, sc: Scratch) -> int:
    """A verified plan through ``goal``: head -> goal, then goal -> apple with the first leg as (virtual) body.

    Returns:
        Its length (written to ``plan``), or 0 if there is none.
    """
    path, prev, vocc, vseq = sc.path, sc.prev, sc.vocc, sc.vseq
    ring, occ, seqno = bd.ring, bd.occ, bd.seqno
    n = ring.shape[0]
    head_seq = bd.head_seq
    tail_seq = head_seq - bd.length + 1
    head = ring[head_seq % n]
    k1 = bfs(head, 0, goal, 0, apple, False, bd, tb, sc)
    if k1 <= 0:
        return 0
    s = goal
    for i in range(k1 - 1, -1, -1):
        path[i] = s
        s = prev[s]
    for i in range(n):
        vocc[i] = occ[i]
        vseq[i] = seqno[i]
    for i in range(k1):
        vocc[path[i]] = 1
        vseq[path[i]] = head_seq + i + 1
    vbd = Body(ring, vseq, vocc, head_seq, bd.length, bd.strict)
    k2 = bfs(goal, k1, apple, 0, -1, False, vbd, tb, sc)
    if k2 <= 0 or k1 + k2 > n:
        return 0
    s = apple
    for i in range(k1 + k2 - 1, k1 - 1, -1):
        path[i] = s
        s = prev[s]
    k = k1 + k2
    if end_feasible(path, k, ring, tail_seq, head_seq, sc.seq, tb, sc.mark, sc.parent) <= 0:
        return 0
    for i in range(k):
        plan[i] = path[i]
    return k


@jit
def keeping_move(bd: Body, apple: int, goal: int, tb: CellTables, sc: Scratch) -> int:
    """The move after which the position is still feasible, nearest to ``goal`` (-1: none).

    Eating the apple is taken at once when it keeps the position feasible.
    """
    in_to, ex_to, seq, occ = tb.in_to, tb.ex_to, sc.seq, bd.occ
    n = bd.ring.shape[0]
    head = bd.ring[bd.head_seq % n]
    m = body_copy(bd, seq)
    best = -1
    best_d = FAR
    for j in range(2):
        t = in_to[head] if j == 0 else ex_to[head]
        if t < 0 or occ[t]:
            continue
        grow = t == apple
        seq[m] = t
        if grow:
            ok = feasible(seq, m + 1, tb, sc.mark, sc.parent)
        else:
            ok = feasible(seq[1:], m, tb, sc.mark, sc.parent)
        if not ok:
            continue
        if grow:
            return t
        d = bfs(t, 1, goal, 2, -1, False, bd, tb, sc)
        if d < 0:
            d = 1 << 29
        if d < best_d:
            best, best_d = t, d
    return best


@jit
def decide(
    ring: np.ndarray,
    seqno: np.ndarray,
    occ: np.ndarray,
    plan: np.ndarray,
    ctl: np.ndarray,
    tables: tuple[Any, ...],
    scratch: tuple[Any, ...],
    scratch2: tuple[Any, ...],
) -> int:
    """The square the head should move to next (see the module docstring).

    Args:
        ring: ``ring[seq % n]`` is the body square entered at move number ``seq``.
        seqno: Per square, the move number at which the body entered it.
        occ: Per square, nonzero if the body holds it (uint8).
        plan: The verified plan, ``plan[ctl[PLAN_POS]:ctl[PLAN_LEN]]`` still to go.
        ctl: The position (``HEAD_SEQ``, ``LENGTH``, ``APPLE``, ``STRICT``,
            ``SINCE_APPLE``, set by the caller), the lookahead ``WEIGHT``, and the
            agent's memory (plan position, frozen-tree flag, statistics), by the slots above.
        tables: The fields of a :class:`~snakelab.games.classic.celltree.CellTables`, as a
            plain tuple: numba types a named tuple coming from Python on its slow path
            (measured: twice the call overhead of the whole decision), so it is rebuilt
            here, where it costs nothing.
        scratch: The fields of a :class:`Scratch`, as a plain tuple, for the same reason.
        scratch2: A second :class:`Scratch` (plain tuple), for the lookahead's plans.
    """
    # Field by field, not ``CellTables(*tables)``: numba's star-unpacking into a named tuple
    # cost about 1 µs a call here, ~4% of a 20×20 move (measured, min of interleaved runs).
    tt, w = tables, scratch
    tb = CellTables(tt[0], tt[1], tt[2], tt[3], tt[4], tt[5], tt[6], tt[7], tt[8])
    sc = Scratch(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], w[12])
    w = scratch2
    sc2 = Scratch(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], w[12])
    bd = Body(ring, seqno, occ, ctl[HEAD_SEQ], ctl[LENGTH], ctl[STRICT] != 0)
    apple = ctl[APPLE]
    n = ring.shape[0]
    head = ring[bd.head_seq % n]
    # 1. Short paths to the apple; the best verified one replaces the plan in hand.
    held = ctl[PLAN_LEN] - ctl[PLAN_POS] if ctl[PLAN_LEN] > ctl[PLAN_POS] else FAR
    look = (ctl[SAMPLES], ctl[PENALTY] / 1000.0, ctl[WEIGHT] / 1000.0, max(4, ctl[VARIANTS]), ctl[HUGGERS])
    best, found, fail_m, cost = shortest_plan(bd, apple, held, ctl[PLAN_COST] / 1000.0, look, plan, tb, sc, sc2)
    if found:
        ctl[PLAN_POS] = 1
        ctl[PLAN_LEN] = best
        ctl[PLAN_COST] = int(cost * 1000.0)
        ctl[N_PLANS] += 1
        return plan[0]
    # 2. The plan already verified.
    if ctl[PLAN_LEN] - ctl[PLAN_POS] > 0:
        nxt = plan[ctl[PLAN_POS]]
        ctl[PLAN_POS] += 1
        ctl[N_PLAN_STEPS] += 1
        return nxt
    ctl[PLAN_POS] = 0
    ctl[PLAN_LEN] = 0
    # 3. The position is feasible: keep it so.
    if ctl[FROZEN] == 0 and ctl[SINCE_APPLE] > n:
        # Guarantee progress: follow one fixed cycle until the apple is eaten.
        m = body_copy(bd, sc.seq)
        spanning_tree(sc.seq, m, tb, sc.mark, sc.parent, sc.tree)
        ctl[FROZEN] = 1
    if ctl[FROZEN] == 1:
        e = tb.ex_edge[head]
        return tb.ex_to[head] if e >= 0 and sc.tree[e] == 1 else tb.in_to[head]
    ctl[N_FALLBACK] += 1
    # Aim first at the region the shortest path would cut off (twanvl's detour), else the apple.
    goal = apple
    if fail_m > 0:
        goal = cut_off_square(fail_m, apple, bd, tb, sc)
    if goal != apple:
        k = detour_plan(bd, apple, goal, plan, tb, sc)
        if k > 0:
            ctl[PLAN_POS] = 1
            ctl[PLAN_LEN] = k
            ctl[PLAN_COST] = 0
            ctl[N_DETOURS] += 1
            return plan[0]
    return keeping_move(bd, apple, goal, tb, sc)
