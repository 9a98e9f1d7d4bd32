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

import heapq
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
SAMPLES = 14
"""Input: how many next-apple squares the lookahead plans for (see :func:`expected_cost`)."""
PENALTY = 15
"""Input: the lookahead's extra cost of a next apple with no verified plan, per mille of a move."""
DEPTH = 16
"""Input: how many moves deep :func:`search_move` looks when no plan verifies (0: no search)."""
VARIANTS = 17
"""Input: BFS variants per first move in :func:`shortest_plan` (4: hugging only; 8: plain ones too)."""
HUGGERS = 18
"""Input: :func:`hug_path` candidates per first move (``alpha`` 1, 2, ...) in :func:`shortest_plan`."""
WAYPOINTS = 19
"""Input: how many waypoints :func:`waypoint_plan` may try when no plan verifies (0: none)."""
N_CTL = 20
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
def bfs(
    start: int, t0: int, goal: int, order: int, avoid: int, hug: bool, bd: Body, tb: CellTables, sc: Scratch
) -> int:
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
def hug_path(start: int, t0: int, goal: int, alpha: int, bd: Body, tb: CellTables, sc: Scratch) -> int:
    """A path that trades length for hugging: Dijkstra with step cost ``4 + alpha * free neighbours``.

    The same moves and time-aware body rule as :func:`bfs` (each square is entered at the
    move count of its own path, which is final once the square is settled). With
    ``alpha = 0`` it is a shortest path; larger ``alpha`` prefers paths along walls and
    body even when they are longer, which leaves the free region more compact: a different
    re-shaping for the lookahead to weigh. Steps in ``sc.dist``, parents in ``sc.prev``.
    Returns the number of moves to ``goal``, -1 if unreachable.
    """
    in_to, ex_to = tb.in_to, tb.ex_to
    dist, prev, pen, queue = sc.dist, sc.prev, sc.pen, sc.queue
    occ, seqno = bd.occ, bd.seqno
    tail_seq = bd.head_seq - bd.length + 1
    n = dist.shape[0]
    w = tb.width
    h = n // w
    big = 1 << 40
    for i in range(n):
        dist[i] = -1
        pen[i] = big
        queue[i] = 0  # settled flag
    pen[start] = 0
    dist[start] = 0
    prev[start] = -1
    slack = 2 if bd.strict else 1
    heap = [(np.int64(0), np.int64(start))]
    while len(heap) > 0:
        p, s = heapq.heappop(heap)
        if queue[s] == 1 or p > pen[s]:
            continue
        queue[s] = 1
        if s == goal:
            return dist[s]
        k = t0 + dist[s] + 1
        for j in range(2):
            t = in_to[s] if j == 0 else ex_to[s]
            if t < 0 or queue[t] == 1:
                continue
            if occ[t] and seqno[t] - tail_seq > k - slack:
                continue
            x = t % w
            y = t // w
            lim = k + 1 - slack
            free = 0
            if x > 0 and not (occ[t - 1] and seqno[t - 1] - tail_seq > lim):
                free += 1
            if x < w - 1 and not (occ[t + 1] and seqno[t + 1] - tail_seq > lim):
                free += 1
            if y > 0 and not (occ[t - w] and seqno[t - w] - tail_seq > lim):
                free += 1
            if y < h - 1 and not (occ[t + w] and seqno[t + w] - tail_seq > lim):
                free += 1
            q = p + 4 + alpha * free
            if q < pen[t]:
                pen[t] = q
                dist[t] = dist[s] + 1
                prev[t] = s
                heapq.heappush(heap, (q, np.int64(t)))
    return -1


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
def _first_squares(bd: Body, apple: int, tb: CellTables, sc: Scratch) -> tuple[int, int, int]:
    """The unrestricted time-aware distance to the apple and the two first squares (-1: not enterable).

    Also fills ``sc.bpar`` (the block tree of the body), which the BFS variants use.
    """
    ring, occ, seqno, blockof, bpar = bd.ring, bd.occ, bd.seqno, tb.blockof, sc.bpar
    n = ring.shape[0]
    tail_seq = bd.head_seq - bd.length + 1
    head = ring[bd.head_seq % n]
    d0 = bfs(head, 0, apple, 0, -1, False, bd, tb, sc)
    for b in range(tb.nblocks):
        bpar[b] = -1
    pb = -2
    for q in range(tail_seq, bd.head_seq + 1):
        b = blockof[ring[q % n]]
        if bpar[b] == -1:
            bpar[b] = pb
        pb = b
    c0 = tb.in_to[head]
    c1 = tb.ex_to[head]
    lim = -1 if bd.strict else 0
    if occ[c0] and seqno[c0] - tail_seq > lim:
        c0 = -1
    if c1 >= 0 and occ[c1] and seqno[c1] - tail_seq > lim:
        c1 = -1
    return d0, c0, c1


@jit
def _candidate(bd: Body, apple: int, c: int, order: int, tb: CellTables, sc: Scratch) -> int:
    """Candidate path to the apple through first square ``c``, BFS variant ``order``, into ``sc.path``.

    Variants 0-3 hug walls and body (``order & 3`` as in :func:`bfs`), 4-7 are the plain
    BFS of the same orders, 8 and up trade length for hugging (:func:`hug_path` with
    ``alpha = order - 7``).

    Returns its length, or -1 when the apple cannot be reached that way.
    """
    path, prev = sc.path, sc.prev
    if c == apple:
        path[0] = c
        return 1
    if order < 8:
        k1 = bfs(c, 1, apple, order & 3, -1, order < 4, bd, tb, sc)
    else:
        k1 = hug_path(c, 1, apple, order - 7, bd, tb, sc)
    if k1 < 0:
        return -1
    k = k1 + 1
    s = apple
    for i in range(k - 1, 0, -1):
        path[i] = s
        s = prev[s]
    path[0] = c
    return k


@jit
def plan_length(bd: Body, apple: int, tb: CellTables, sc: Scratch) -> tuple[int, int]:
    """The length of the shortest verified candidate plan to ``apple`` (-1: none) and the unrestricted distance.

    The same candidates as :func:`shortest_plan` with weight 0, without writing a plan.
    """
    ring = bd.ring
    tail_seq = bd.head_seq - bd.length + 1
    d0, c0, c1 = _first_squares(bd, apple, tb, sc)
    if d0 < 0:
        return -1, d0
    best = _FAR
    for j in range(2):
        c = c0 if j == 0 else c1
        if c < 0:
            continue
        for order in range(4):
            if (c == apple and order > 0) or best == d0:
                continue
            k = _candidate(bd, apple, c, order, tb, sc)
            if k < 0 or k >= best:
                continue
            if end_feasible(sc.path, k, ring, tail_seq, bd.head_seq, sc.seq, tb, sc.mark, sc.parent) > 0:
                best = k
    return (best if best < _FAR else -1), d0


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
    best_score = held + weight * held_cost if held < _FAR else 1e18
    best_cost = held_cost
    found = False
    d0, c0, c1 = _first_squares(bd, apple, tb, sc)
    j0 = 2 if d0 < 0 or d0 > best or (weight == 0.0 and d0 == best) else 0
    fail_k = _FAR
    fail_m = 0
    for j in range(j0, 2):
        c = c0 if j == 0 else c1
        if c < 0:
            continue
        for v in range(look[3] + look[4]):
            order = v if v < look[3] else 8 + v - look[3]
            if (c == apple and order > 0) or (weight == 0.0 and best == d0):
                continue
            k = _candidate(bd, apple, c, order, tb, sc)
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
def waypoint_plan(
    bd: Body,
    apple: int,
    look: tuple[int, float, float, int],
    plan: np.ndarray,
    tb: CellTables,
    sc: Scratch,
    sc2: Scratch,
) -> int:
    """The best verified two-leg plan head -> waypoint -> apple over up to ``look[3]`` waypoints.

    Waypoints are tried in order of a lower bound on the plan through them (moves to the
    waypoint plus its Manhattan distance to the apple), so the search stops as soon as
    that bound reaches the best score found. A plan's score is its length plus ``look[2]``
    times the :func:`expected_cost` of its end position (``look[:2]``: that function's
    samples and penalty); with weight 0 the shortest plan wins. Each plan is built and
    verified as in :func:`detour_plan` (the first leg is virtual body for the second). A
    larger budget tries more waypoints: the search is anytime and deterministic. Uses
    ``sc2.fseq`` and ``sc2.vseq`` for the first legs.

    Returns:
        Its length (written to ``plan``), or 0 if none verifies.
    """
    path, vocc, vseq = sc.path, sc.vocc, sc.vseq
    d1, p1 = sc2.fseq, sc2.vseq
    budget = look[3]
    weight = look[2]
    ring, occ, seqno = bd.ring, bd.occ, bd.seqno
    n = ring.shape[0]
    w = tb.width
    head_seq = bd.head_seq
    tail_seq = head_seq - bd.length + 1
    head = ring[head_seq % n]
    bfs(head, 0, -1, 0, apple, False, bd, tb, sc)
    ax = apple % w
    ay = apple // w
    key = np.empty(n, np.int64)
    for c in range(n):
        d1[c] = sc.dist[c]
        p1[c] = sc.prev[c]
        key[c] = d1[c] + abs(c % w - ax) + abs(c // w - ay) if d1[c] > 0 else _FAR
    order = np.argsort(key, kind="mergesort")
    best = _FAR
    best_score = 1e18
    tried = 0
    for i in range(n):
        g = order[i]
        if key[g] >= best_score or tried >= budget:
            break
        tried += 1
        k1 = d1[g]
        s = g
        for j in range(k1 - 1, -1, -1):
            path[j] = s
            s = p1[s]
        for j in range(n):
            vocc[j] = occ[j]
            vseq[j] = seqno[j]
        for j in range(k1):
            vocc[path[j]] = 1
            vseq[path[j]] = head_seq + j + 1
        vbd = Body(ring, vseq, vocc, head_seq, bd.length, bd.strict)
        k2 = bfs(g, k1, apple, 0, -1, True, vbd, tb, sc)
        if k2 <= 0 or k1 + k2 >= best_score:
            continue
        s = apple
        for j in range(k1 + k2 - 1, k1 - 1, -1):
            path[j] = s
            s = sc.prev[s]
        k = k1 + k2
        m = end_feasible(path, k, ring, tail_seq, head_seq, sc.seq, tb, sc.mark, sc.parent)
        if m > 0:
            score = k + weight * expected_cost(m, bd.strict, (look[0], look[1]), tb, sc, sc2) if weight > 0.0 else k
            if score < best_score:
                for j in range(k):
                    plan[j] = path[j]
                best = k
                best_score = score
    return best if best < _FAR else 0


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
def search_move(bd: Body, apple: int, look: tuple[int, float], tb: CellTables, sc: Scratch, sc2: Scratch) -> int:
    """With no verified plan: the feasibility-keeping move that starts the cheapest way to the apple.

    A depth-first search over the moves after which the position stays feasible (at most
    two per square), ``look[0]`` moves deep: each position reached is scored by the moves
    so far plus its :func:`plan_length` to the apple (or the unrestricted distance plus
    ``look[1]`` when no plan verifies there); a position with a verified plan is not
    expanded further. The apple is fixed until eaten, so this is exact planning, not a
    guess; every move it returns keeps the position feasible, so safety does not depend on
    it. Runs on ``sc2`` (its ``fseq``/``vseq``/``vocc`` hold the moving body). Returns -1
    when no move keeps the position feasible (never, by the safety argument).
    """
    in_to, ex_to = tb.in_to, tb.ex_to
    ring, seqno, occ = sc2.fseq, sc2.vseq, sc2.vocc
    seq = sc.seq
    cap = ring.shape[0]
    n = occ.shape[0]
    length = bd.length
    for i in range(n):
        occ[i] = bd.occ[i]
    m = _body(bd, seq)
    for i in range(m):
        ring[i] = seq[i]
        seqno[seq[i]] = i
    ts = 0
    hs = m - 1
    depth = max(1, look[0])
    choice = np.zeros(depth + 1, np.int64)
    moved = np.zeros(depth + 1, np.int64)
    tails = np.zeros(depth + 1, np.int64)
    best = 1e18
    best_first = -1
    d = 0
    while True:
        if choice[d] >= 2:
            if d == 0:
                break
            d -= 1
            # undo the move made at depth d
            t = moved[d]
            occ[t] = 0
            ts -= 1
            hs -= 1
            ring[ts % cap] = tails[d]
            occ[tails[d]] = 1
            choice[d] += 1
            continue
        head = ring[hs % cap]
        t = in_to[head] if choice[d] == 0 else ex_to[head]
        if t < 0 or occ[t]:
            choice[d] += 1
            continue
        # feasibility of the position after the move (eating keeps the tail)
        k = 0
        for q in range(ts if t == apple else ts + 1, hs + 1):
            seq[k] = ring[q % cap]
            k += 1
        seq[k] = t
        if not feasible(seq, k + 1, tb, sc.mark, sc.parent):
            choice[d] += 1
            continue
        first = t if d == 0 else moved[0]
        if t == apple:
            if d + 1 < best:
                best = d + 1.0
                best_first = first
            choice[d] += 1
            continue
        moved[d] = t
        tails[d] = ring[ts % cap]
        occ[tails[d]] = 0
        ts += 1
        hs += 1
        ring[hs % cap] = t
        seqno[t] = hs
        occ[t] = 1
        pk, d0 = plan_length(Body(ring, seqno, occ, hs, length, bd.strict), apple, tb, sc2)
        if pk > 0:
            val = d + 1.0 + pk
        elif d0 >= 0:
            val = d + 1.0 + d0 + look[1]
        else:
            val = d + 1.0 + n
        if val < best:
            best = val
            best_first = first
        if pk <= 0 and d + 1 < depth:
            d += 1
            choice[d] = 0
            continue
        occ[t] = 0
        ts -= 1
        hs -= 1
        ring[ts % cap] = tails[d]
        occ[tails[d]] = 1
        choice[d] += 1
    return best_first


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
    t, w = tables, scratch
    tb = CellTables(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8])
    sc = Scratch(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], w[12])
    w = scratch2
    sc2 = Scratch(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], w[12])
    bd = Body(ring, seqno, occ, ctl[HEAD_SEQ], ctl[LENGTH], ctl[STRICT] != 0)
    apple = ctl[APPLE]
    n = ring.shape[0]
    head = ring[bd.head_seq % n]
    # 1. Short paths to the apple; the best verified one replaces the plan in hand.
    held = ctl[PLAN_LEN] - ctl[PLAN_POS] if ctl[PLAN_LEN] > ctl[PLAN_POS] else _FAR
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
        m = _body(bd, sc.seq)
        spanning_tree(sc.seq, m, tb, sc.mark, sc.parent, sc.tree)
        ctl[FROZEN] = 1
    if ctl[FROZEN] == 1:
        e = tb.ex_edge[head]
        return tb.ex_to[head] if e >= 0 and sc.tree[e] == 1 else tb.in_to[head]
    ctl[N_FALLBACK] += 1
    if ctl[DEPTH] > 0:
        t = search_move(bd, apple, (ctl[DEPTH], ctl[PENALTY] / 1000.0), tb, sc, sc2)
        if t >= 0:
            return t
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
    if goal == apple and ctl[WAYPOINTS] > 0:
        # No region is cut off (or no plan through it): the best plan through a waypoint.
        k = waypoint_plan(bd, apple, (look[0], look[1], look[2], ctl[WAYPOINTS]), plan, tb, sc, sc2)
        if k > 0:
            ctl[PLAN_POS] = 1
            ctl[PLAN_LEN] = k
            ctl[PLAN_COST] = 0
            ctl[N_DETOURS] += 1
            return plan[0]
    return keeping_move(bd, apple, goal, tb, sc)
