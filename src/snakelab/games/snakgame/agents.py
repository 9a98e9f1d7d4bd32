"""Agents for snakgame (see ``docs/snakgame.md`` for how each plays and how well).

* ``exit`` — EXIT at once (score 0), the editorial's dummy.
* ``random`` — extend a random end into a random empty neighbour; when stuck, a new
  snake on a random empty cell.
* ``chef`` — Chef's own strategy without FREEZE: extend into a random entry of the
  head-then-tail neighbour list with probability 99/100, else (or when stuck) a new
  snake on a random empty cell.
* ``greedy`` — a direction priority (down, right, left, up), head before tail; when
  stuck, a new snake on the first empty cell in row-major order.
* ``editorial`` — the editorial's approach: a candidate path per end, moving the end
  with the longer remaining path; paths cut where Chef takes a cell and recomputed
  (left-hand-rule long-path DFS) when exhausted, or now and then when cut; new snakes
  from the middle of the longest of several long paths.
* ``champion`` — component-aware gravity fill: never enter the smaller side when a move
  splits the free region, fill from the bottom up preferring down > along > up, the
  tail kept in reserve; new snakes where the largest region is.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from snakelab.core.game import BaseAgent, Budget, GameInfo
from snakelab.games.snakgame.kernels import long_path
from snakelab.games.snakgame.policy import (
    P_FREE,
    P_HEAD,
    P_LEN,
    P_STEPS,
    P_TAIL,
    ChampionParams,
    choose,
    new_memory,
    new_snake,
)
from snakelab.games.snakgame.rules import EXIT, Move, State


def _occ(s: State) -> np.ndarray:
    """A zero-copy uint8 view of the state's grid (read-only by convention)."""
    return np.frombuffer(s.occ, dtype=np.uint8)


def _move(s: State, frm: int, to: int) -> Move:
    m = s.m
    fr, fc = divmod(frm, m)
    tr, tc = divmod(to, m)
    return Move("MOVE", fr + 1, fc + 1, tr + 1, tc + 1)


def _new(s: State, cell: int) -> Move:
    r, c = divmod(cell, s.m)
    return Move("NEW", r + 1, c + 1)


class ExitAgent(BaseAgent):
    """EXIT at once."""

    def act(self, observation: Any, budget: Budget | None) -> Move:
        """Always EXIT."""
        return EXIT


class RandomAgent(BaseAgent):
    """A random extension of a random end; a new snake on a random cell when stuck."""

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Seed the move generator."""
        super().reset(info, player, seed)
        self._rng = random.Random(seed)

    def act(self, observation: Any, budget: Budget | None) -> Move:
        """One move."""
        s: State = observation
        rng = self._rng
        if s.length:
            opts = [(s.head, t) for t in s.empty_neighbours(s.head)]
            if s.tail != s.head:
                opts += [(s.tail, t) for t in s.empty_neighbours(s.tail)]
            if opts:
                return _move(s, *opts[rng.randrange(len(opts))])
        return _new(s, s.kth_empty(rng.randrange(s.free)))


class ChefAgent(BaseAgent):
    """Chef's strategy on your side, without FREEZE.

    Args:
        restart: Probability of a voluntary new snake each turn (Chef's 1/100).
    """

    def __init__(self, restart: float = 0.01) -> None:
        self.restart = float(restart)

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Seed the move generator."""
        super().reset(info, player, seed)
        self._rng = random.Random(seed)

    def act(self, observation: Any, budget: Budget | None) -> Move:
        """One move."""
        s: State = observation
        rng = self._rng
        if s.length:
            hn = s.empty_neighbours(s.head)
            cands = hn + s.empty_neighbours(s.tail)
            if cands and rng.random() >= self.restart:
                i = rng.randrange(len(cands))
                return _move(s, s.head if i < len(hn) else s.tail, cands[i])
        return _new(s, s.kth_empty(rng.randrange(s.free)))


class GreedyAgent(BaseAgent):
    """A fixed direction priority: down, right, left, up; head first, then tail."""

    def act(self, observation: Any, budget: Budget | None) -> Move:
        """One move."""
        s: State = observation
        if s.length:
            n, m, occ = s.n, s.m, s.occ
            for e in (s.head, s.tail):
                r, c = divmod(e, m)
                for ok, t in ((r < n - 1, e + m), (c < m - 1, e + 1), (c > 0, e - 1), (r > 0, e - m)):
                    if ok and not occ[t]:
                        return _move(s, e, t)
        return _new(s, s.kth_empty(0))


class EditorialAgent(BaseAgent):
    """The editorial's path-following approach (see the module docstring).

    Args:
        starts: Random start cells tried for each new snake.
        short: A cut path shorter than this is recomputed (after ``cooldown``).
        cooldown: Own moves between two recomputations of a cut path; 0 scales it
            with the grid (n·m / 2000, at least 5), because each DFS costs O(n·m).
    """

    def __init__(self, starts: int = 8, short: int = 30, cooldown: int = 0) -> None:
        self.starts = int(starts)
        self.short = int(short)
        self.cooldown = int(cooldown)

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Forget any previous game."""
        super().reset(info, player, seed)
        self._rng = random.Random(seed)
        self._size = -1

    def _setup(self, s: State) -> None:
        size = s.n * s.m
        self._size = size
        self._owner = np.full(size, -1, np.int8)
        self._pos = np.zeros(size, np.int32)
        self._paths: list[np.ndarray] = [np.empty(0, np.int32), np.empty(0, np.int32)]
        self._ptr = [0, 0]
        self._end = [0, 0]
        self._dirty = [False, False]
        self._last = [-(10**9), -(10**9)]
        self._cool = self.cooldown or max(5, size // 2000)
        self._snakes = 0

    def _set_path(self, k: int, path: np.ndarray) -> None:
        old = self._paths[k]
        if len(old):
            self._owner[old[self._ptr[k] : self._end[k]]] = -1
        self._paths[k] = path
        self._ptr[k] = 0
        self._end[k] = len(path)
        if len(path):
            self._owner[path] = k
            self._pos[path] = np.arange(len(path), dtype=np.int32)
        self._dirty[k] = False

    def _swap(self) -> None:
        for k in (0, 1):
            self._owner[self._paths[k][self._ptr[k] : self._end[k]]] = 1 - k
        for lst in (self._paths, self._ptr, self._end, self._dirty, self._last):
            lst.reverse()

    def _remaining(self, k: int) -> int:
        return self._end[k] - self._ptr[k]

    def _cut(self, cell: int) -> None:
        """Chef took ``cell``: shorten the path through it to just before it."""
        k = int(self._owner[cell])
        if k < 0:
            return
        self._owner[cell] = -1
        p = int(self._pos[cell])
        if self._ptr[k] <= p < self._end[k]:
            self._owner[self._paths[k][p : self._end[k]]] = -1
            self._end[k] = p
            self._dirty[k] = True

    def _recompute(self, s: State, k: int, ends: tuple[int, int]) -> None:
        other = 1 - k
        excl = self._paths[other][self._ptr[other] : self._end[other]]
        e = ends[k]
        best = np.empty(0, np.int32)
        occ = _occ(s)
        for d in range(4):
            p = long_path(occ, s.n, s.m, e, d, excl)[1:]
            if len(p) > len(best):
                best = p
            if len(best) >= self._remaining(k) * 4 + 64:
                break  # long enough; spare the other directions
        self._last[k] = s.steps
        if len(best) > self._remaining(k):
            self._set_path(k, best)
        else:
            self._dirty[k] = False

    def act(self, observation: Any, budget: Budget | None) -> Move:
        """One move."""
        s: State = observation
        if self._size != s.n * s.m:
            self._setup(s)
        if s.last_chef_cell >= 0:
            self._cut(s.last_chef_cell)
        if s.length and self._snakes:
            ends = (s.head, s.tail)
            for k in (0, 1):
                rem = self._remaining(k)
                if (k == 1 and s.head == s.tail) or (rem == 0 and s.steps - self._last[k] < 1):
                    continue
                due = rem == 0 or (self._dirty[k] and rem < self.short and s.steps - self._last[k] >= self._cool)
                if due and s.empty_neighbours(ends[k]):
                    self._recompute(s, k, ends)
            for _ in range(2):
                k = 0 if self._remaining(0) >= self._remaining(1) else 1
                if self._remaining(k) == 0:
                    break
                nxt = int(self._paths[k][self._ptr[k]])
                if s.occ[nxt]:  # taken without our noticing (e.g. a state we joined late)
                    self._cut(nxt)
                    continue
                self._ptr[k] += 1
                self._owner[nxt] = -1
                if k == 1 and s.head == s.tail:
                    # A one-cell snake: the rules move the head, so the tail's path becomes the head's.
                    self._swap()
                return _move(s, ends[k], nxt)
        return self._new_snake(s)

    def _new_snake(self, s: State) -> Move:
        occ = _occ(s)
        rng = self._rng
        best = np.empty(0, np.int32)
        first = self._snakes == 0
        for _ in range(self.starts):
            if first:
                # The editorial prefers starts near the upper-left corner for the first snake.
                r, c = rng.randrange(max(1, s.n // 4)), rng.randrange(max(1, s.m // 4))
                start = r * s.m + c
                if occ[start]:
                    continue
            else:
                start = s.kth_empty(rng.randrange(s.free))
            p = long_path(occ, s.n, s.m, start, rng.randrange(4), np.empty(0, np.int32))
            if len(p) > len(best):
                best = p
        if len(best) == 0:
            best = np.array([s.kth_empty(rng.randrange(s.free))], np.int32)
        mid = len(best) // 2
        self._snakes += 1
        self._set_path(0, best[mid + 1 :].copy())
        self._set_path(1, best[:mid][::-1].copy())
        self._last = [s.steps, s.steps]
        return _new(s, int(best[mid]))


class ChampionAgent(BaseAgent):
    """Component-aware gravity fill (see the module docstring and ``docs/snakgame.md``).

    The whole decision is compiled (:mod:`~snakelab.games.snakgame.policy`): the same
    kernels the contest program calls. Each move asks
    :func:`~snakelab.games.snakgame.kernels.end_options` how much room every empty
    neighbour ``t`` of each end leaves. Where the 8 cells around the end show its free
    neighbours may lie in different regions, a lockstep search between them
    (``split_race``) measures the smaller parts; where taking ``t`` may cut its region,
    ``region_worth`` measures each side up to a cap and keeps the largest. Room comes
    first (never go into the smaller part); among moves of equal room the head fills "by
    gravity": down, then on along its row, then back, then up, hugging taken cells. The
    tail waits in reserve (mirrored: up first) and moves only when it has more room.

    Args:
        hug: Weight of the number of taken neighbours of the target cell.
        cap: Regions of this many cells count as "plenty" (0: free cells / 64).
        samples: Random free cells tried for each new snake after the first.
        middle: Start the first snake at the middle of the top row instead of its left end.
        alternate: Move the two ends in turn (two fronts) instead of keeping the tail in reserve.
    """

    def __init__(
        self,
        hug: int = 1,
        cap: int = 0,
        samples: int = 24,
        middle: bool = False,
        alternate: bool = False,
    ) -> None:
        self.params = ChampionParams(
            hug=int(hug), cap=int(cap), samples=int(samples), middle=bool(middle), alternate=bool(alternate)
        )

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Forget any previous game."""
        super().reset(info, player, seed)
        self._seed = seed
        self._size = -1

    def act(self, observation: Any, budget: Budget | None) -> Move:
        """One move."""
        s: State = observation
        size = s.n * s.m
        if self._size != size:
            self._size = size
            self._p = new_memory(s.n, s.m, s.free, self._seed, self.params)
            self._mark = np.zeros(size, np.int64)
            self._queue = np.empty(4 * size, np.int32)
        p = self._p
        p[P_HEAD], p[P_TAIL], p[P_LEN], p[P_FREE], p[P_STEPS] = s.head, s.tail, s.length, s.free, s.steps
        occ = _occ(s)
        e, t = choose(occ, p, self._mark, self._queue)
        if e >= 0:
            return _move(s, int(e), int(t))
        return _new(s, int(new_snake(occ, p, self._mark, self._queue)))
