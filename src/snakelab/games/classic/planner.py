"""The classic champion's per-move decision, as numba kernels (see :mod:`.champion` for why it is safe).

:func:`decide` picks the square the head moves to next, in three steps:

1. :func:`shortest_plan`: short paths to the apple (through either first move, four BFS
   variants), each accepted only if the position after eating is feasible
   (:func:`~snakelab.games.classic.celltree.end_feasible`); the shortest replaces the plan.
2. The verified plan already in hand, if none replaced it.
3. Otherwise the position is feasible and stays so: after ``n`` steps without an apple a
   frozen spanning tree's outline is followed (progress); else a two-leg plan through the
   region the failed shortest plan would cut off (:func:`detour_plan`), else the
   feasible move nearest to that region or the apple (:func:`keeping_move`).

The agent's memory between moves is the ``plan`` array and the ``ctl`` counters, indexed
by the named slots below. The board tables travel as a
:class:`~snakelab.games.classic.celltree.CellTables` and the scratch arrays as a
:class:`Scratch`; both cross into compiled code as plain tuples (see :func:`decide`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from snakelab.core.jit import jit
from snakelab.games.classic.celltree import MINUS, CellTables, end_feasible, feasible, find, spanning_tree

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
N_CTL = 16
"""Length of ``ctl``."""

_FAR = 1 << 30  # longer than any path


class Scratch(NamedTuple):
    """Work arrays of :func:`decide`, allocated once per board.

    Attributes:
        dist: Per square, BFS distance (int64, n).
        prev: Per square, BFS parent (int64, n).
        queue: BFS queue (int64, n + 1).
        seq: A body being tested (int64, n + 1).
        path: A candidate path (int64, n + 1).
        fseq: The end body of the shortest candidate that failed (int64, n + 1).
        vocc: Occupancy with a first leg added as virtual body (uint8, n).
        vseq: Move numbers of that virtual body (int64, n).
        bpar: Per block, the block the body entered it from (int64, blocks).
        pen: Per square, the hugging cost of the BFS path (int64, n).
        mark: Per block edge, the feasibility verdict (int8).
        parent: Per block, union-find parent (int64, blocks).
        tree: Per block edge, 1 if in the frozen spanning tree (int8).
    """

    dist: np.ndarray
    prev: np.ndarray
    queue: np.ndarray
    seq: np.ndarray
    path: np.ndarray
    fseq: np.ndarray
    vocc: np.ndarray
    vseq: np.ndarray
    bpar: np.ndarray
    pen: np.ndarray
    mark: np.ndarray
    parent: np.ndarray
    tree: np.ndarray

    @classmethod
    def allocate(cls, n: int, nblocks: int, nedges: int) -> Scratch:
        """Work arrays for a board of ``n`` squares, ``nblocks`` blocks and ``nedges`` block edges."""
        return cls(
            dist=np.zeros(n, np.int64),
            prev=np.zeros(n, np.int64),
            queue=np.zeros(n + 1, np.int64),
            seq=np.zeros(n + 1, np.int64),
            path=np.zeros(n + 1, np.int64),
            fseq=np.zeros(n + 1, np.int64),
            vocc=np.zeros(n, np.uint8),
            vseq=np.zeros(n, np.int64),
            bpar=np.zeros(nblocks, np.int64),
            pen=np.zeros(n, np.int64),
            mark=np.zeros(max(nedges, 1), np.int8),
            parent=np.zeros(nblocks, np.int64),
            tree=np.zeros(max(nedges, 1), np.int8),
        )


class Body(NamedTuple):
    """The snake as the kernels read it (built inside compiled code, never passed in from Python).

    Attributes:
        ring: ``ring[seq % n]`` is the square entered at move number ``seq``.
        seqno: Per square, the move number at which the body entered it.
        occ: Per square, nonzero if the body holds it (uint8).
        head_seq: The head's move number; the body is ``head_seq - length + 1 .. head_seq``.
        length: Body length.
        strict: The strict tail rule (the head may not enter the square the tail leaves).
    """

    ring: np.ndarray
    seqno: np.ndarray
    occ: np.ndarray
    head_seq: int
    length: int
    strict: bool


@jit
def bfs(start: int, t0: int, goal: int, order: int, avoid: int, hug: bool, bd: Body, tb: CellTables, sc: Scratch) -> int:
    """Time-aware BFS over the allowed moves; the number of moves from ``start`` to ``goal``.

    ``start`` is reached after ``t0`` moves from now. A body square with index ``i``
    from the tail may be entered on move ``k`` (counted from now) once the tail has
    left it: ``i <= k - 2`` (strict) or ``i <= k - 1`` (lenient). ``order & 1`` picks
    which move is tried first; ``order >= 2`` adds twanvl's rule (leave a block only for
    its parent or a fresh block, by ``sc.bpar``). ``avoid`` is never entered. Paths are
    left in ``sc.prev`` and distances in ``sc.dist``; ``goal = -1`` labels every square.
    Returns -1 if the goal is not reached.

    With ``hug``, among the shortest paths the one that hugs walls and body most: entering
    a square costs its number of free neighbours (body squares count as free once the
    tail will have left them), and each square keeps the parent with the least total cost
    (its layer is complete before it is expanded). Hugging keeps the free region compact,
    so fewer later plans cut a region off (twanvl's idea).
    """
    in_to, ex_to, blockof = tb.in_to, tb.ex_to, tb.blockof
    dist, prev, queue, bpar, pen = sc.dist, sc.prev, sc.queue, sc.bpar, sc.pen
    occ, seqno = bd.occ, bd.seqno
    tail_seq = bd.head_seq - bd.length + 1
    n = dist.shape[0]
    w = tb.width
    h = n // w
    for i in range(n):
        dist[i] = -1
    dist[start] = 0
    pen[start] = 0
    prev[start] = -1
    if start == goal:
        return 0
    slack = 2 if bd.strict else 1
    qh = 0
    qt = 1
    queue[0] = start
    found = -1
    while qh < qt:
        s = queue[qh]
        qh += 1
        if found >= 0 and dist[s] >= found:
            break
        k = t0 + dist[s] + 1
        for j in range(2):
            t = in_to[s] if j == (order & 1) else ex_to[s]
            if t < 0 or t == avoid:
                continue
            if dist[t] >= 0 and (not hug or dist[t] != dist[s] + 1):
                continue
            if order >= 2 and j != (order & 1):
                # twanvl's tree rule: leave a block only for its parent or a fresh block.
                bt = blockof[t]
                if bpar[bt] != -1 and bpar[blockof[s]] != bt:
                    continue
            if occ[t] and seqno[t] - tail_seq > k - slack:
                continue
            p = 0
            if hug:
                x = t % w
                y = t // w
                lim = k + 1 - slack
                if x > 0 and not (occ[t - 1] and seqno[t - 1] - tail_seq > lim):
                    p += 1
                if x < w - 1 and not (occ[t + 1] and seqno[t + 1] - tail_seq > lim):
                    p += 1
                if y > 0 and not (occ[t - w] and seqno[t - w] - tail_seq > lim):
                    p += 1
                if y < h - 1 and not (occ[t + w] and seqno[t + w] - tail_seq > lim):
                    p += 1
                p += pen[s]
                if dist[t] >= 0:
                    if p < pen[t]:
                        pen[t] = p
                        prev[t] = s
                    continue
            dist[t] = dist[s] + 1
            pen[t] = p
            prev[t] = s
            if t == goal:
                if not hug:
                    return dist[t]
                found = dist[t]
            queue[qt] = t
            qt += 1
    return found


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
def _body(bd: Body, seq: np.ndarray) -> int:
    """Copy the body, tail first, into ``seq``; its length."""
    ring = bd.ring
    n = ring.shape[0]
    m = 0
    for q in range(bd.head_seq - bd.length + 1, bd.head_seq + 1):
        seq[m] = ring[q % n]
        m += 1
    return m


@jit
def expected_cost(m: int, strict: bool, tb: CellTables, sc: Scratch) -> float:
    """The mean number of moves from the end body ``sc.seq[:m]`` to the next apple, body-aware.

    The next apple is uniform over the squares that body leaves free; each is reached by
    the time-aware BFS over the allowed moves (the tail moving on), so squares the body
    walls in cost the wait for the tail. This is the lookahead's estimate of what an end
    position costs after the apple in hand: it ignores whether the path found verifies,
    so it only ranks plans, it never makes a move safe. Uses ``sc.vocc``/``sc.vseq``.
    """
    seq, vocc, vseq, dist = sc.seq, sc.vocc, sc.vseq, sc.dist
    n = dist.shape[0]
    if m >= n:
        return 0.0
    for i in range(n):
        vocc[i] = 0
    for i in range(m):
        vocc[seq[i]] = 1
        vseq[seq[i]] = i
    bd = Body(seq, vseq, vocc, m - 1, m, strict)
    bfs(seq[m - 1], 0, -1, 0, -1, False, bd, tb, sc)
    total = 0
    for c in range(n):
        if not vocc[c]:
            total += dist[c] if dist[c] >= 0 else 2 * n
    return total / (n - m)


@jit
def shortest_plan(
    bd: Body, apple: int, held: int, held_cost: float, weight: float, plan: np.ndarray, tb: CellTables, sc: Scratch
) -> tuple[int, bool, int, float]:
    """Step 1: a verified path to the apple that beats the plan in hand (``held`` moves left).

    Candidates go through either first move with four BFS variants; each is kept only if
    the position after eating is feasible. A plan's score is its length plus ``weight``
    times the :func:`expected_cost` of its end position (``held_cost`` for the plan in
    hand); with ``weight = 0`` the shortest plan wins. The unrestricted time-aware
    distance bounds every candidate's length from below, so when the plan in hand is
    already shorter nothing is tried. Also fills ``sc.bpar`` (the block tree of the body),
    which later steps use.

    Returns:
        ``(k, found, fail_m, cost)``: the length of the best verified path (written to
        ``plan``) or ``held``, whether one was found, the length of the end body of the
        shortest candidate that failed (in ``sc.fseq``; 0 if none), and the chosen end
        position's expected cost.
    """
    in_to, ex_to, blockof = tb.in_to, tb.ex_to, tb.blockof
    prev, path, seq, fseq, bpar = sc.prev, sc.path, sc.seq, sc.fseq, sc.bpar
    ring, occ, seqno = bd.ring, bd.occ, bd.seqno
    n = ring.shape[0]
    head_seq = bd.head_seq
    tail_seq = head_seq - bd.length + 1
    head = ring[head_seq % n]
    best = held
    best_score = held + weight * held_cost if held < _FAR else 1e18
    best_cost = held_cost
    found = False
    d0 = bfs(head, 0, apple, 0, -1, False, bd, tb, sc)
    j0 = 2 if d0 < 0 or d0 > best or (weight == 0.0 and d0 == best) else 0
    for b in range(tb.nblocks):
        bpar[b] = -1
    pb = -2
    for q in range(tail_seq, head_seq + 1):
        b = blockof[ring[q % n]]
        if bpar[b] == -1:
            bpar[b] = pb
        pb = b
    fail_k = _FAR
    fail_m = 0
    for j in range(j0, 2):
        c = in_to[head] if j == 0 else ex_to[head]
        if c < 0 or (occ[c] and seqno[c] - tail_seq > (-1 if bd.strict else 0)):
            continue
        for order in range(4):
            if (c == apple and order > 0) or (weight == 0.0 and best == d0):
                continue
            if c == apple:
                k = 1
                path[0] = c
            else:
                k1 = bfs(c, 1, apple, order, -1, True, bd, tb, sc)
                if k1 < 0:
                    continue
                k = k1 + 1
                s = apple
                for i in range(k - 1, 0, -1):
                    path[i] = s
                    s = prev[s]
                path[0] = c
            if k >= best_score:
                continue
            m = end_feasible(path, k, ring, tail_seq, head_seq, seq, tb, sc.mark, sc.parent)
            if m > 0:
                cost = expected_cost(m, bd.strict, tb, sc) if weight > 0.0 else 0.0
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
    m = _body(bd, seq)
    best = -1
    best_d = _FAR
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
    """
    # Field by field, not ``CellTables(*tables)``: numba's star-unpacking into a named tuple
    # cost about 1 µs a call here, ~4% of a 20×20 move (measured, min of interleaved runs).
    t, w = tables, scratch
    tb = CellTables(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8])
    sc = Scratch(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], w[12])
    bd = Body(ring, seqno, occ, ctl[HEAD_SEQ], ctl[LENGTH], ctl[STRICT] != 0)
    apple = ctl[APPLE]
    n = ring.shape[0]
    head = ring[bd.head_seq % n]
    # 1. Short paths to the apple; the best verified one replaces the plan in hand.
    held = ctl[PLAN_LEN] - ctl[PLAN_POS] if ctl[PLAN_LEN] > ctl[PLAN_POS] else _FAR
    weight = ctl[WEIGHT] / 1000.0
    best, found, fail_m, cost = shortest_plan(bd, apple, held, ctl[PLAN_COST] / 1000.0, weight, plan, tb, sc)
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
        m = _body(bd, sc.seq)
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
