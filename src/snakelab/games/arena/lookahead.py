"""``arena.lookahead``: a fast, safety-first arena agent (the champion before the searching agents).

Each step, for every move that does not reverse, it simulates the step as the rules
would play it — its own move, each opponent's likeliest move (the greedy filler's),
and the zombies' exact sequential chase — and scores the result:

1. certain death (wall, body, zombie cell, bitten by a zombie) is ruled out;
2. a head with no zombie-safe continuation next step is next to worst, then a head
   whose reachable room (flood fill, vacating tails considered) is smaller than the
   snake plus its pending growth;
3. a possible head-on (a cell an opponent's head can also enter) is avoided, more so
   when that opponent is predicted to go there;
4. among the rest: the apple it reaches strictly before every opponent (breadth-first
   distances from all heads), else the nearest, plus room and distance from zombies.
   A look-ahead over its own next moves (zombies simulated, depth ``depth``) breaks
   ties toward lines that stay safe.

Pending growth is inferred from what any bot could see (a head on last step's apple
grows, one cell a step), not read from the state. Breadth-first searches and flood
fills are numba kernels, so a move costs about a millisecond, far inside the 50 ms
budget (the budget is honoured: the look-ahead stops when it runs out).

The budget is either time or nodes. By time (``Budget(time_s=...)``, 30 % of it, or
15 ms without a budget) the look-ahead stops on the wall clock, so how deep it sees
depends on the machine's load and two runs can differ. By nodes
(``Budget(nodes=N)``, which wins when both are given) it stops after visiting ``N``
look-ahead positions in a decision, whatever the clock: the same game and seeds then
play exactly the same moves on any machine (``--nodes`` on the arena verbs).

Why one module over 400 lines: one agent and the exact one-step simulation it scores its
moves with.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from snakelab.core.game import BaseAgent, Budget, GameInfo
from snakelab.core.grid import OPPOSITE
from snakelab.games.arena.agents import greedy_move
from snakelab.games.arena.rules import DOWN, LEFT, RIGHT, STRAIGHT, TURN, UP, ZOMBIE_ORDER, State

F = TypeVar("F", bound=Callable[..., Any])
I32 = npt.NDArray[np.int32]
U8 = npt.NDArray[np.uint8]


def _jit(fn: F) -> F:
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


@_jit
def bfs(blocked: U8, nbr: I32, start: int, dist: I32, queue: I32) -> None:  # pragma: no cover - jitted
    """Distances from ``start`` (-1 unreachable) avoiding blocked cells; ``start`` is searched anyway."""
    n = blocked.shape[0]
    for k in range(n):
        dist[k] = -1
    dist[start] = 0
    queue[0] = start
    lo, hi = 0, 1
    while lo < hi:
        c = queue[lo]
        lo += 1
        nd = dist[c] + 1
        for k in range(4 * c, 4 * c + 4):
            m = nbr[k]
            if m >= 0 and dist[m] < 0 and blocked[m] == 0:
                dist[m] = nd
                queue[hi] = m
                hi += 1


@_jit
def multi_bfs(blocked: U8, nbr: I32, starts: I32, dist: I32, queue: I32) -> None:  # pragma: no cover - jitted
    """Distance from the nearest of ``starts`` (-1 unreachable)."""
    n = blocked.shape[0]
    for k in range(n):
        dist[k] = -1
    hi = 0
    for s in starts:
        if dist[s] < 0:
            dist[s] = 0
            queue[hi] = s
            hi += 1
    lo = 0
    while lo < hi:
        c = queue[lo]
        lo += 1
        nd = dist[c] + 1
        for k in range(4 * c, 4 * c + 4):
            m = nbr[k]
            if m >= 0 and dist[m] < 0 and blocked[m] == 0:
                dist[m] = nd
                queue[hi] = m
                hi += 1


@_jit
def flood(blocked: U8, nbr: I32, start: int, cap: int, seen: I32, queue: I32, stamp: int) -> int:  # pragma: no cover
    """Cells reachable from ``start`` (itself included), stopping at ``cap``; ``seen`` holds stamps."""
    seen[start] = stamp
    queue[0] = start
    lo, hi = 0, 1
    while lo < hi < cap:
        c = queue[lo]
        lo += 1
        for k in range(4 * c, 4 * c + 4):
            m = nbr[k]
            if m >= 0 and seen[m] != stamp and blocked[m] == 0:
                seen[m] = stamp
                queue[hi] = m
                hi += 1
    return hi


class LookaheadAgent(BaseAgent):
    """Safety-first arena agent (see the module docstring).

    Args:
        depth: Plies of the own-move look-ahead (zombies simulated).
        deep: Plies of that look-ahead while a zombie is within 4 cells.
    """

    def __init__(self, depth: int = 4, deep: int = 8) -> None:
        self.depth = depth
        self.deep = deep
        self._t_end = 0.0
        self._nodes_left: int | None = None

    def _more(self) -> bool:
        """Whether the decision's budget has room for one more look-ahead position."""
        if self._nodes_left is not None:
            return self._nodes_left > 0
        return time.perf_counter() < self._t_end

    def _take(self) -> bool:
        """Spend one look-ahead position of the budget; False when there was none left."""
        if self._nodes_left is not None:
            self._nodes_left -= 1
            return self._nodes_left >= 0
        return time.perf_counter() <= self._t_end

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Prepare the scratch arrays for this board."""
        super().reset(info, player, seed)
        cfg = info.config
        size = cfg.game_width * cfg.game_height
        self._size = size
        self._growth_gain = cfg.apple_growth
        self._dist = np.empty(size, np.int32)
        self._odist = np.empty(size, np.int32)
        self._queue = np.empty(size + 8, np.int32)
        self._seen = np.zeros(size, np.int32)
        self._stamp = 0
        self._nbr: I32 | None = None
        n = cfg.num_snakes
        self._growth = [0] * n
        self._prev_len = [0] * n
        self._prev_apples: list[int] = []

    # -- what a bot could see ------------------------------------------------------
    def _infer_growth(self, s: State) -> None:
        prev_apples = set(self._prev_apples)
        for j, body in enumerate(s.bodies):
            n = len(body)
            g = self._growth[j]
            if n == 0 or self._prev_len[j] == 0 or n < self._prev_len[j]:
                g = 0
            else:
                g = max(0, g - (n - self._prev_len[j]))
                if body[-1] in prev_apples:
                    g += self._growth_gain
            self._growth[j] = g
            self._prev_len[j] = n
        self._prev_apples = [a for a in s.apples if a >= 0]

    # -- zombies -------------------------------------------------------------------
    @staticmethod
    def _zombies(
        s: State, over: dict[int, int], zbodies: list[list[int]], heads: list[int], me_head: int
    ) -> tuple[bool, list[list[int]]]:
        """Play the zombie stage exactly on ``s.occ`` plus ``over`` (updated in place).

        Args:
            s: The position (its occupancy and geometry).
            over: Cell overrides on ``s.occ`` after the snakes' moves.
            zbodies: Zombie cells, tail first, as they stand before this stage.
            heads: Snake heads after the snakes' moves (the agent's first).
            me_head: The agent's head.

        Returns:
            Whether the agent's head was bitten, and the zombies' new cells.
        """
        occ, nbr, xs, ys = s.occ, s._nbr, s._xs, s._ys
        hxs = [xs[h] for h in heads]
        hys = [ys[h] for h in heads]
        head_set = set(heads)
        out: list[list[int]] = []
        bitten = False
        for j, z in enumerate(zbodies):
            base = 4 * z[-1]
            nheads = len(hxs)
            moved = -1
            best = 1 << 31
            for d in ZOMBIE_ORDER:  # the legal cell nearest a head, ties in this order
                c = nbr[base + d]
                if c < 0:
                    continue
                v = over.get(c, occ[c])
                if v != 0 and not (v > 0 and c in head_set):
                    continue
                dist = 0
                if nheads:
                    dist = 1 << 30
                    cx, cy = xs[c], ys[c]
                    for k in range(nheads):
                        t = abs(cx - hxs[k]) + abs(cy - hys[k])
                        if t < dist:  # noqa: PLR1730 - hot loop
                            dist = t
                if dist < best:
                    best, moved = dist, c
            if moved < 0:
                out.append(z)
                continue
            if moved == me_head:
                bitten = True
            over[z[0]] = 0
            over[moved] = -2 - j
            out.append([*z[1:], moved])
            if moved in head_set:
                head_set.discard(moved)
                hxs = [xs[h] for h in head_set]
                hys = [ys[h] for h in head_set]
        return bitten, out

    # -- the decision --------------------------------------------------------------
    def act(self, observation: Any, budget: Budget | None) -> int:
        """One move (an absolute direction)."""
        s: State = observation
        me = self.player
        if budget is not None and budget.nodes is not None:
            self._nodes_left = budget.nodes
        else:
            self._nodes_left = None
            self._t_end = time.perf_counter() + (0.3 * budget.time_s if budget and budget.time_s else 0.015)
        self._infer_growth(s)
        if not s.alive[me]:
            return STRAIGHT
        if self._nbr is None:
            self._nbr = np.asarray(s.grid.nbr, dtype=np.int32)
        nbr = self._nbr
        pnbr = s._nbr
        occ = s.occ
        bodies = s.bodies
        growth = self._growth
        blocked = (np.asarray(occ, dtype=np.int32) != 0).astype(np.uint8)
        for j, b in enumerate(bodies):
            if b and growth[j] == 0:
                blocked[b[0]] = 0  # a tail that moves on is free next step
        body = bodies[me]
        head = body[-1]
        my_len = len(body)
        heading = s.heading[me]

        # Opponents: their heads, their possible next cells, their likeliest move.
        opp_heads = [b[-1] for j, b in enumerate(bodies) if b and j != me]
        contested: dict[int, int] = {}
        predicted: dict[int, int] = {}
        over_opp: dict[int, int] = {}
        opp_next_heads: list[int] = []
        for j, b in enumerate(bodies):
            if not b or j == me:
                continue
            h = b[-1]
            back = OPPOSITE[s.heading[j]]
            for d in range(4):
                c = pnbr[4 * h + d]
                if c >= 0 and d != back:
                    contested[c] = contested.get(c, 0) + 1
            pd = TURN[s.heading[j]][greedy_move(s, j)]
            pc = pnbr[4 * h + pd]
            if pc >= 0 and (occ[pc] == 0 or (blocked[pc] == 0)):
                predicted[pc] = j
                over_opp[pc] = j + 1
                opp_next_heads.append(pc)
                if growth[j] == 0:
                    over_opp[b[0]] = 0
            else:
                opp_next_heads.append(h)
        if opp_heads:
            multi_bfs(blocked, nbr, np.asarray(opp_heads, dtype=np.int32), self._odist, self._queue)
        odist = self._odist

        best_move, best_score = STRAIGHT, -1e18
        apples = [a for a in s.apples if a >= 0]
        for d in (LEFT, RIGHT, UP, DOWN):
            if d == OPPOSITE[heading]:
                continue
            nh = pnbr[4 * head + d]
            if nh < 0 or blocked[nh]:
                continue
            eats = nh in apples
            my_growth = growth[me] + (self._growth_gain if eats else 0)
            over = dict(over_opp)
            over[nh] = me + 1
            if growth[me] == 0:
                over[body[0]] = 0
            zb0 = [list(z) for z in s.zombies]
            bitten, zb = self._zombies(s, over, zb0, [nh, *opp_next_heads], nh)
            zheads = [z[-1] for z in zb]
            if bitten:
                score = -1e12
            else:
                score = 0.0
                # Room after this move (the zombies' new cells included).
                b2 = blocked.copy()
                for c, v in over.items():
                    b2[c] = 1 if v != 0 else 0
                danger = set()
                for zh in zheads:
                    for k in range(4):
                        c = pnbr[4 * zh + k]
                        if c >= 0:
                            danger.add(c)
                safe_next = 0
                for k in range(4):
                    c = pnbr[4 * nh + k]
                    if c >= 0 and not b2[c] and c not in danger:
                        safe_next += 1
                if safe_next == 0:
                    score -= 1e10
                need = my_len + my_growth + 2
                self._stamp += 1
                b2[nh] = 0
                room = flood(b2, nbr, nh, 2 * need + 40, self._seen, self._queue, self._stamp) - 1
                b2[nh] = 1
                if room < need:
                    score -= 1e9 - 1e5 * room
                if nh in contested:
                    score -= 3e8 if nh in predicted else 1.5e8
                # Apples: prefer one we reach strictly first.
                bfs(b2, nbr, nh, self._dist, self._queue)
                dist = self._dist
                best_apple = 0.0
                for a in apples:
                    da = 0 if a == nh else int(dist[a])
                    if da < 0:
                        continue
                    od = int(odist[a]) if opp_heads else -1
                    wins = od < 0 or da + 1 < od
                    value = (200.0 - da) * (10.0 if wins else 2.0)
                    best_apple = max(best_apple, value)
                if eats:
                    best_apple = max(best_apple, 2000.0)
                score += best_apple
                score += min(room, need + 40) * 2.0
                score += 3.0 * safe_next
                zd = min((s.grid.manhattan(nh, zh) for zh in zheads), default=20)
                score += 15.0 * min(zd, 6)
                depth = self.deep if zd <= 4 else self.depth
                if depth > 0 and zd <= 2 * depth + 1 and self._more():
                    surv = self._lookahead(s, over, zb, nh, d, opp_next_heads, depth)
                    score -= 1e8 * (depth - surv)
                if zd <= 4:
                    score += 60.0 * safe_next  # keep away from walls and corners while chased
            if score > best_score:
                best_score, best_move = score, d
        return best_move

    def _lookahead(
        self,
        s: State,
        over: dict[int, int],
        zbodies: list[list[int]],
        head: int,
        heading: int,
        opp: list[int],
        depth: int,
        ext: int = 60,
    ) -> int:
        """Free plies (up to ``depth``) the snake survives the zombies' exact chase from here.

        A forced move (the only one that survives) costs no depth, up to ``ext`` of
        them, so being herded into a wall by two zombies is seen however far the wall
        is. Opponents stand still and the own tail stays (pessimistic but cheap).
        """
        if depth == 0 or not self._take():
            return depth
        pnbr, occ = s._nbr, s.occ
        me = self.player + 1
        children = []
        for d in range(4):
            if d == OPPOSITE[heading]:
                continue
            c = pnbr[4 * head + d]
            if c < 0 or over.get(c, occ[c]) != 0:
                continue
            o2 = dict(over)
            o2[c] = me
            bitten, zb = self._zombies(s, o2, zbodies, [c, *opp], c)
            if not bitten:
                children.append((c, d, o2, zb))
        if not children:
            return 0
        if len(children) == 1 and ext > 0:
            c, d, o2, zb = children[0]
            return self._lookahead(s, o2, zb, c, d, opp, depth, ext - 1)
        best = 0
        for c, d, o2, zb in children:
            got = 1 + self._lookahead(s, o2, zb, c, d, opp, depth - 1, ext)
            if got > best:
                best = got
                if best >= depth:
                    break
        return best


__all__ = ["LookaheadAgent", "bfs", "flood", "multi_bfs"]
