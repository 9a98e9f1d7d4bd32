"""Agents for classic Snake.

* ``random`` — a uniformly random legal move.
* ``greedy`` — the first step of a shortest path to the apple (body blocked), else
  the safe move with the most room.
* ``safe`` — greedy with a look-ahead: take the shortest path only if, after eating,
  the head can still reach the tail; otherwise follow the tail; otherwise the move
  with the most room. The best general policy here for boards without a
  Hamiltonian cycle.
* ``hamilton`` — follow a fixed Hamiltonian cycle. Certain to win from length 1 on
  any board with an even side (and under either tail rule: the body always lies
  contiguously behind the head on the cycle). On odd×odd boards there is no such
  cycle; the agent says so in its ``notice`` and plays ``safe``.
* ``hamilton-shortcut`` — the seed article's idea made safe: the perturbed-cycle
  rule. Keep the body in cycle order (tail … head along the cycle); a move may skip
  ahead along the cycle, but never past the apple. See :class:`ShortcutAgent`.

The champion (``cell-tree`` / ``champion``) lives in :mod:`snakelab.games.classic.champion`,
which builds on the agents here (it hands odd boards to ``hamilton-shortcut``); this module
does not import it, so the two never import each other.
"""

from __future__ import annotations

import random
from typing import Any

from snakelab.core.game import BaseAgent, Budget, GameInfo
from snakelab.core.grid import OPPOSITE, Grid
from snakelab.games.classic.cycles import successor_table, zigzag_cycle
from snakelab.games.classic.rules import Config, State


class RandomAgent(BaseAgent):
    """A uniformly random legal move."""

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Seed the move generator."""
        super().reset(info, player, seed)
        self._rng = random.Random(seed)

    def act(self, observation: Any, budget: Budget | None) -> int:
        """Pick any legal move."""
        return int(self._rng.choice(observation.legal_actions()))


def _free_for_head(s: State, c: int) -> bool:
    """Whether the head may enter cell ``c`` next step, apple growth considered."""
    if c < 0:
        return False
    if not s.occ[c]:
        return True
    # The tail cell is free next step unless the snake grows now or the rule is strict.
    return c == s.body[0] and len(s.body) > 1 and s.config.tail_rule == "lenient" and s.apple != c


def _safe_moves(s: State) -> list[tuple[int, int]]:
    nbr = s.grid.nbr
    out: list[tuple[int, int]] = []
    for d in s.legal_actions():
        c = nbr[4 * s.head + d]
        if _free_for_head(s, c):
            out.append((d, c))
    return out


def _room(s: State, c: int) -> int:
    """Cells reachable from ``c`` with the current body (tail excluded) as walls."""
    blocked = bytearray(s.occ)
    blocked[s.body[0]] = 0
    return s.grid.flood_fill(c, blocked)


class GreedyAgent(BaseAgent):
    """Shortest path to the apple, else the safe move with the most room."""

    def act(self, observation: Any, budget: Budget | None) -> int:
        """One move."""
        s: State = observation
        if s.apple >= 0:
            blocked = bytearray(s.occ)
            if s.config.tail_rule == "lenient" and len(s.body) > 1:
                blocked[s.body[0]] = 0
            path = s.grid.path(s.head, s.apple, blocked)
            if path is not None and len(path) > 1:
                d = s.grid.direction_to(s.head, path[1])
                if s.is_legal(0, d):
                    return d
        return _most_room(s)


def _most_room(s: State) -> int:
    moves = _safe_moves(s)
    if not moves:
        return int(s.legal_actions()[0])
    return max(moves, key=lambda m: _room(s, m[1]))[0]


class SafeAgent(BaseAgent):
    """Greedy with a tail-reachability check (the best policy without a cycle)."""

    def act(self, observation: Any, budget: Budget | None) -> int:
        """One move."""
        s: State = observation
        g = s.grid
        strict = s.config.tail_rule == "strict"
        if s.apple >= 0:
            blocked = bytearray(s.occ)
            blocked[s.body[0]] = 0 if not strict else 1
            path = g.path(s.head, s.apple, blocked)
            if (
                path is not None
                and len(path) > 1
                and s.is_legal(0, g.direction_to(s.head, path[1]))  # at length 2 the tail is the neck
                and self._tail_reachable_after(s, path)
            ):
                return g.direction_to(s.head, path[1])
        # Follow the tail: the move from which the tail stays reachable, farthest from the apple.
        best, best_key = -1, (-1, -1)
        for d, c in _safe_moves(s):
            body = list(s.body)
            grow = c == s.apple
            if not grow:
                body.pop(0)
            body.append(c)
            if len(body) == g.size:
                return d
            if self._reaches_tail(g, body, strict):
                dist_apple = g.manhattan(c, s.apple) if s.apple >= 0 else 0
                key = (1, dist_apple)
                if key > best_key:
                    best, best_key = d, key
        if best >= 0:
            return best
        return _most_room(s)

    def _tail_reachable_after(self, s: State, path: list[int]) -> bool:
        body = list(s.body)
        for c in path[1:-1]:
            body.pop(0)
            body.append(c)
        body.append(path[-1])  # eat: the tail stays
        if len(body) == s.grid.size:
            return True
        return self._reaches_tail(s.grid, body, s.config.tail_rule == "strict")

    @staticmethod
    def _reaches_tail(g: Grid, body: list[int], strict: bool) -> bool:
        blocked = bytearray(g.size)
        for c in body:
            blocked[c] = 1
        head, tail = body[-1], body[0]
        p = g.path(head, tail, blocked)
        if p is None:
            return False
        # Under the strict rule the head may not step straight onto the leaving tail.
        return not strict or len(p) > 2 or len(body) == 1


class HamiltonAgent(BaseAgent):
    """Follow a fixed Hamiltonian cycle; on odd×odd boards fall back to :class:`SafeAgent`.

    A longer start may not lie along the cycle in order; the agent then plays
    ``safe`` until the body is in cycle order, and follows the cycle from there on.
    """

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Build the cycle for this board."""
        super().reset(info, player, seed)
        cfg: Config = info.config
        grid = Grid(cfg.width, cfg.height)
        cycle = zigzag_cycle(grid)
        self._fallback = SafeAgent()
        self._fallback.reset(info, player, seed)
        self.notice = None
        if cycle is None:
            self.notice = (
                f"{cfg.width}×{cfg.height} has no Hamiltonian cycle (both sides odd); "
                "playing the safe greedy policy instead"
            )
            self._dir: list[int] = []
            self._pos: list[int] = []
            self._aligned = False
            return
        self._pos, self._dir = successor_table(grid, cycle)
        self._n = len(cycle)
        self._aligned = False

    def _check_aligned(self, s: State) -> bool:
        if not self._dir:
            return False
        pos, n = self._pos, self._n
        pt = pos[s.body[0]]
        last = -1
        for c in s.body:
            r = (pos[c] - pt) % n
            if r <= last:
                return False
            last = r
        return True

    def act(self, observation: Any, budget: Budget | None) -> int:
        """One move."""
        s: State = observation
        if self._aligned:
            return self._dir[s.head]
        if self._contiguous(s):
            self._aligned = True
            return self._dir[s.head]
        return int(self._fallback.act(s, budget))

    def _contiguous(self, s: State) -> bool:
        """Whether the body lies on consecutive cycle cells, tail to head."""
        if not self._dir:
            return False
        body = s.body
        pos, n = self._pos, self._n
        return all((pos[body[i + 1]] - pos[body[i]]) % n == 1 for i in range(len(body) - 1))


class ShortcutAgent(HamiltonAgent):
    """Cycle following with safe shortcuts (the perturbed Hamiltonian cycle).

    Safety argument. Number the cycle from the tail: ``rel(c) = pos(c) - pos(tail)
    (mod n)``. Invariant: walking the body from tail to head, ``rel`` strictly
    increases, so every body cell lies in the arc [tail, head] and every cell
    strictly between head and tail going forward (the *gap*) is free. A move to a
    neighbour ``c`` with ``rel(head) < rel(c)`` keeps the invariant (the tail only
    moves forward along the body). From any such state plain cycle following is
    safe under the lenient rule: the next cell is free or is the leaving tail.
    Shortcuts never pass the apple, so they only save steps.

    Under the strict tail rule the head must never reach the tail while free cells
    remain behind it (holes skipped by shortcuts). A shortcut is therefore taken
    only while the gap left after it exceeds ``hole_factor·holes + margin`` and the
    snake fills at most ``max_fill`` of the board; apples eaten in the gap are the
    only way the gap shrinks. The same gate pays under the lenient rule too: holes
    that catch the next apple cost a whole lap, so fewer, earlier shortcuts win
    (measured: 3,254 mean steps on 12×12 against 4,629 with unlimited shortcuts).

    Among the allowed moves the agent takes the one with the shortest *monotone*
    path to the apple (forward along the cycle, never past the apple), not merely
    the longest jump.

    Args:
        max_fill: No shortcuts once the snake is longer than this share of the board.
        hole_factor: Required gap per hole left behind.
        margin: Extra gap required.
    """

    def __init__(
        self,
        max_fill: float = 0.5,
        hole_factor: float = 1.0,
        margin: int = 2,
        strict_factor: float = 1.5,
        strict_margin: int = 6,
    ) -> None:
        self.strict_factor = strict_factor
        self.strict_margin = strict_margin
        self.max_fill = max_fill
        self.hole_factor = hole_factor
        self.margin = margin

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Build the cycle and forget any cached distances."""
        super().reset(info, player, seed)
        self._dist_apple = -2
        self._dist: dict[int, int] = {}
        self._cycle = [0] * len(self._pos)
        for c, p in enumerate(self._pos):
            self._cycle[p] = c

    def _distances(self, s: State) -> dict[int, int]:
        """Shortest monotone-path lengths to the apple from each cell ahead of the head.

        A path may only move forward along the cycle and never past the apple, so the
        cells of the arc (head, apple] form a DAG; cells only change from free to
        body behind the head, so the table stays valid until the apple moves.
        """
        if self._dist_apple == s.apple:
            return self._dist
        pos, n, cyc, nbr = self._pos, self._n, self._cycle, s.grid.nbr
        pa = pos[s.apple]
        span = (pa - pos[s.head]) % n
        dist: dict[int, int] = {s.apple: 0}
        for back in range(1, span):
            k = (pa - back) % n
            c = cyc[k]
            best = n
            base = 4 * c
            for j in range(base, base + 4):
                x = nbr[j]
                if x >= 0:
                    ahead = (pos[x] - k) % n
                    if 0 < ahead <= back:
                        dx = dist[x] + 1
                        best = min(best, dx)
            dist[c] = best
        self._dist, self._dist_apple = dist, s.apple
        return dist

    def act(self, observation: Any, budget: Budget | None) -> int:
        """One move."""
        s: State = observation
        if not self._dir:
            return int(self._fallback.act(s, budget))
        if not self._aligned:
            if not self._check_aligned(s):
                return int(self._fallback.act(s, budget))
            self._aligned = True
        pos, n = self._pos, self._n
        nbr = s.grid.nbr
        occ = s.occ
        body = s.body
        head = s.head
        pt = pos[body[0]]
        rh = (pos[head] - pt) % n
        apple = s.apple
        ra = (pos[apple] - pt) % n if apple >= 0 else -1
        ahead = ra > rh
        dist = self._distances(s) if ahead else None
        strict = s.config.tail_rule == "strict"
        length = len(body)
        best_d = self._dir[head]
        best_key = (-dist[self._cycle[(pos[head] + 1) % n]], rh + 1) if dist is not None else (0, rh + 1)
        back = OPPOSITE[s.heading] if length > 1 else -1
        base = 4 * head
        for d in range(4):
            c = nbr[base + d]
            if c < 0 or d == back or occ[c]:
                continue
            rc = (pos[c] - pt) % n
            if rc <= rh + 1 or (ahead and rc > ra):
                continue
            key = (-dist[c], rc) if dist is not None else (0, rc)
            if key <= best_key:
                continue
            grown = length + (1 if c == apple else 0)
            if rc == n - 1 and grown == 2:
                continue  # the cycle successor would be the neck: no legal way on
            gap = n - 1 - rc
            holes = (n - grown) - gap
            if grown > self.max_fill * n or gap <= self.hole_factor * holes + self.margin:
                continue
            if strict and gap <= self.strict_factor * (holes + 1) + self.strict_margin:
                continue
            best_d, best_key = d, key
        return best_d
