"""The classic champion: a snake that re-shapes its Hamiltonian cycle around every apple.

The idea is twanvl's *cell tree*, made exact
(:mod:`~snakelab.games.classic.celltree`): on a board with both sides even, the outlines
of the spanning trees of the 2×2-block grid are Hamiltonian cycles, and whether a body
lies on one of them (the position is *feasible*) is decided exactly in ``O(n)``.

Safety argument. Call a position *feasible* when the test above passes. From a feasible
position the successor of the head on that cycle is free (the body is a proper arc of
a Hamiltonian cycle), so following the cycle never dies under either tail rule, and
it keeps the position feasible. The agent therefore only ever:

1. takes the first step of a *verified plan*: a collision-free path to the apple,
   simulated with the tail moving (strict or lenient rule as configured), whose final
   position (apple eaten) is feasible. Positions *during* the plan may be infeasible
   (a region is temporarily cut off) — the tail frees it in time, which the simulation
   proves. Nothing random happens before the apple is eaten, so the simulation is exact;
2. keeps following the verified plan it already has if no better plan verifies;
3. otherwise (the position is then feasible) takes a move after which the position is
   still feasible; one always exists (the cycle's own move).

Progress: a plan ends at the apple and is only replaced by a shorter verified one;
without a plan, after ``n`` steps without an apple the agent freezes one spanning tree
and follows its outline, which reaches the apple in fewer than ``n`` steps. So the
stall limit (``4·n``) is never hit, no move ever collides, and every game on a board
with both sides even is won under both tail rules.

Choosing among plans: candidates come from both first moves and four BFS variants
(which move is tried first; twanvl's "only into the parent block or a fresh block"
rule on or off). Each BFS keeps, among the shortest paths, the one that hugs walls and
body most; the shortest verified candidate wins. With the lookahead on, the candidate
with the least length plus weighted expected cost of the next apple wins instead (it
picks among verified plans only, so nothing above changes). When none verifies and no plan is in
hand, the agent heads for the region the shortest candidate would have cut off (first
trying a verified two-leg plan through it), else for the apple.

Other boards: one side even — the perturbed-cycle agent (``hamilton-shortcut``), which
is also certain to win; both sides odd — see :class:`OddBoardAgent`.

Speed. All per-move work (a time-aware BFS over the two allowed moves per square, the
plan simulation, the feasibility test) runs in numba kernels on flat arrays
(:mod:`~snakelab.games.classic.planner`); the agent keeps its own ring buffer of the body,
updated in O(1) per move.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from snakelab.core.game import BaseAgent, Budget, GameInfo
from snakelab.core.grid import Grid
from snakelab.games.classic.agents import SafeAgent, ShortcutAgent
from snakelab.games.classic.celltree import CellTables, block_tables, feasible, move_directions
from snakelab.games.classic.cycles import corner_cycle
from snakelab.games.classic.paths import Scratch
from snakelab.games.classic.planner import (
    APPLE,
    FROZEN,
    HEAD_SEQ,
    HUGGERS,
    LENGTH,
    N_CTL,
    PENALTY,
    PLAN_LEN,
    PLAN_POS,
    SAMPLES,
    SINCE_APPLE,
    STRICT,
    VARIANTS,
    WEIGHT,
    decide,
)
from snakelab.games.classic.rules import Config, State

# The kernels live in celltree.py and planner.py; these names stay importable from here.
__all__ = ["CellTables", "CellTreeAgent", "ChampionAgent", "OddBoardAgent", "block_tables", "decide", "feasible"]


class OddBoardAgent(BaseAgent):
    """Both sides odd: no Hamiltonian cycle, but two that each miss one cell.

    ``C`` (from :func:`~snakelab.games.classic.cycles.corner_cycle`) covers all but
    the corner ``x = (0, 0)``; ``C'`` is ``C`` with ``y = (1, 1)`` swapped for ``x``.
    Both run ``b = (0, 1) → (y or x) → a = (1, 0)`` and agree everywhere else. The
    snake follows the current cycle; when the apple sits on the cell it misses, the
    head turns into it at ``b``: the body behind ``b`` is the same on both cycles, so
    it lies on the other cycle from then on.

    With the lenient tail rule this wins every game: below length ``n - 1`` the next
    cycle cell is free; at ``n - 1`` the body fills the current cycle, the head chases
    its own tail (legal under that rule) until it reaches ``b`` and eats the last apple.
    Under the strict rule chasing the tail is a death, so the last apple is won only
    when the head happens to be next to it; otherwise the agent plays ``safe``.
    Longer starts that lie on neither cycle are played by ``safe`` as well.
    """

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Build the two cycles."""
        super().reset(info, player, seed)
        cfg: Config = info.config
        grid = Grid(cfg.width, cfg.height)
        self._safe = SafeAgent()
        self._safe.reset(info, player, seed)
        self.notice = (
            f"{cfg.width}×{cfg.height} has no Hamiltonian cycle (both sides odd): "
            "switching between two cycles that each miss one cell"
        )
        cyc = corner_cycle(grid)
        x, y = grid.index(0, 0), grid.index(1, 1)
        self._b = grid.index(0, 1)
        alt = [x if c == y else c for c in cyc]
        self._succ: list[list[int]] = []
        for order in (cyc, alt):
            succ = [-1] * grid.size
            for i, c in enumerate(order):
                succ[c] = order[(i + 1) % len(order)]
            self._succ.append(succ)
        self._missing = (x, y)
        self._cur = -1
        self._grid = grid

    def _on_cycle(self, s: State, k: int) -> bool:
        succ = self._succ[k]
        body = s.body
        return all(succ[body[i]] == body[i + 1] for i in range(len(body) - 1)) and succ[s.head] >= 0

    def act(self, observation: Any, budget: Budget | None) -> int:
        """One move."""
        s: State = observation
        if self._cur < 0 or not self._on_cycle(s, self._cur):
            fits = [k for k in (0, 1) if self._on_cycle(s, k)]
            if not fits:
                self._cur = -1
                return int(self._safe.act(s, budget))
            self._cur = fits[0]
        k = self._cur
        if s.head == self._b and s.apple == self._missing[k]:
            self._cur = 1 - k  # the body behind b is the same on both cycles
            return self._grid.direction_to(s.head, s.apple)
        nxt = self._succ[k][s.head]
        if s.occ[nxt] and (nxt != s.body[0] or s.config.tail_rule == "strict" or len(s.body) < 3):
            return int(self._safe.act(s, budget))
        return self._grid.direction_to(s.head, nxt)


class CellTreeAgent(BaseAgent):
    """The cell-tree snake (see the module docstring); boards with both sides even.

    On boards with an odd side it hands the game to ``fallback`` (by default
    :class:`OddBoardAgent` when both sides are odd, else a fresh
    :class:`~snakelab.games.classic.agents.ShortcutAgent`). While the body fits no
    cell-tree cycle (a longer start) the fallback moves, until it does.

    The search settings (all off by default, where the agent plays the shortest verified
    plan): ``lookahead`` > 0 scores every verified plan by its length plus ``lookahead``
    times the expected cost of the next apple from its end position, estimated by
    planning for ``samples`` next-apple squares spread over the free ones (a node
    ``Budget`` overrides ``samples``); ``variants`` 8 adds the plain BFS paths to the
    candidates and ``huggers`` adds paths that trade length for hugging walls and body.
    The lookahead only chooses among verified plans, so the safety argument is untouched.

    Args:
        fallback: The agent for boards (or bodies) the scheme does not cover.
        lookahead: Weight of the expected next-apple cost (0: shortest plan wins).
        samples: Next-apple squares planned for per candidate plan.
        penalty: Extra moves counted for a sampled apple with no verified plan.
        variants: BFS variants per first move (4 or 8).
        huggers: Candidates per first move that trade length for hugging.
    """

    def __init__(
        self,
        fallback: BaseAgent | None = None,
        lookahead: float = 0.0,
        samples: int = 8,
        penalty: float = 10.0,
        variants: int = 4,
        huggers: int = 0,
    ) -> None:
        self.huggers = huggers
        self.variants = variants
        self._fallback_agent = fallback
        self.lookahead = lookahead
        self.samples = samples
        self.penalty = penalty

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Build the tables for this board."""
        super().reset(info, player, seed)
        cfg: Config = info.config
        odd = cfg.width % 2 == 1 and cfg.height % 2 == 1
        self._fb = (
            self._fallback_agent if self._fallback_agent is not None else OddBoardAgent() if odd else ShortcutAgent()
        )
        self._fb.reset(info, player, seed)
        self.notice = self._fb.notice
        self._use_fb = cfg.width % 2 == 1 or cfg.height % 2 == 1
        self._strict = cfg.tail_rule == "strict"
        if self._use_fb:
            return
        n = cfg.width * cfg.height
        self._tables = block_tables(cfg.width, cfg.height)
        self._scratch = Scratch.allocate(n, self._tables.nblocks, self._tables.nedges)
        # decide() takes both as plain tuples (see its docstring).
        self._tables_arg = tuple(self._tables)
        self._scratch_arg = tuple(self._scratch)
        self._scratch2_arg = tuple(Scratch.allocate(n, self._tables.nblocks, self._tables.nedges))
        in_dir, ex_dir = move_directions(cfg.width, cfg.height)
        self._in_dir = in_dir
        self._ex_dir = ex_dir
        self._in_list = self._tables.in_to.tolist()
        self._n = n
        self._ring = np.zeros(n, np.int64)
        self._seqno = np.zeros(n, np.int64)
        self._plan = np.zeros(n + 1, np.int64)
        self._ctl = np.zeros(N_CTL, np.int64)
        self._ctl[STRICT] = int(self._strict)
        self._ctl[WEIGHT] = round(1000 * self.lookahead)
        self._ctl[SAMPLES] = self.samples
        self._ctl[VARIANTS] = self.variants
        self._ctl[HUGGERS] = self.huggers
        self._ctl[PENALTY] = round(1000 * self.penalty)
        self._head_seq = -1
        self._last_steps = -2
        self._last_target = -1
        self._last_head = -1
        self._last_action = 0
        self._last_apples = -1

    def _sync(self, s: State) -> bool:
        """Bring the ring buffer up to date: O(1) after our own move, else rebuilt.

        Returns whether the cell-tree logic may move: after a rebuild (first move, or a
        state that does not continue our last move) only if the body fits some cycle.
        """
        n = self._n
        if s.steps == self._last_steps + 1 and s.head == self._last_target:
            self._head_seq += 1
            self._ring[self._head_seq % n] = s.head
            self._seqno[s.head] = self._head_seq
            if s.apples != self._last_apples:
                self._ctl[FROZEN] = 0  # a new apple: no frozen cycle any more
            self._last_apples = s.apples
            return True
        for i, c in enumerate(s.body):
            self._ring[i] = c
            self._seqno[c] = i
        self._head_seq = len(s.body) - 1
        self._ctl[PLAN_POS] = self._ctl[PLAN_LEN] = self._ctl[FROZEN] = 0
        self._last_apples = s.apples
        seq = np.array(list(s.body), np.int64)
        return bool(feasible(seq, len(seq), self._tables, self._scratch.mark, self._scratch.parent))

    def act(self, observation: Any, budget: Budget | None) -> int:
        """One move."""
        s: State = observation
        if self._use_fb:
            return int(self._fb.act(s, budget))
        if s.steps == self._last_steps and s.head == self._last_head:
            return self._last_action  # asked twice about the same position
        if not self._sync(s):
            # A body no cell-tree cycle contains (a longer start, or a position we did
            # not lead to): the fallback plays until the body fits one, then we take over.
            self._last_steps = -2
            return int(self._fb.act(s, budget))
        ctl = self._ctl
        ctl[HEAD_SEQ] = self._head_seq
        ctl[LENGTH] = len(s.body)
        ctl[APPLE] = s.apple
        ctl[SINCE_APPLE] = s.since_apple
        # The lookahead is sized in nodes (next-apple squares planned per candidate), never
        # by the clock, so a game is the same on any machine for a given seed.
        ctl[SAMPLES] = budget.nodes if budget is not None and budget.nodes else self.samples
        t = decide(
            self._ring,
            self._seqno,
            np.frombuffer(s.occ, np.uint8),
            self._plan,
            ctl,
            self._tables_arg,
            self._scratch_arg,
            self._scratch2_arg,
        )
        self._last_steps = s.steps
        self._last_target = int(t)
        h = s.head
        self._last_head = h
        self._last_action = self._in_dir[h] if t == self._in_list[h] else self._ex_dir[h]
        return self._last_action


class ChampionAgent(CellTreeAgent):
    """The strongest classic agent: :class:`CellTreeAgent` with its default settings."""
