"""Placement search for the hextris solvers: a beam search over the whole unit sequence.

The unit sequence is known in advance (the LCG is public), so each beam board is expanded
to every lock placement reachable from the spawn (a BFS over placements in
:mod:`.kernels.placement`), each child is scored by the move points it earns plus a board
evaluation (:mod:`.kernels.evaluation`), and the best ``width`` distinct boards go on. The
result is a :class:`Plan`: one placement and lock command per unit, which
:mod:`.embedding` then spells with phrases of power.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from snakelab.games.hextris import kernels as kn
from snakelab.games.hextris.codec import Problem
from snakelab.games.hextris.rules import UnitShape, compile_shapes, unit_sequence

#: Value of one more unit survived when ranking finished games (phrases need moves).
SURVIVAL_BONUS = 60.0


@dataclass(frozen=True)
class Prepared:
    """A problem compiled for the kernels.

    Attributes:
        problem: The problem.
        shapes: Compiled unit types.
        dl: Deltas ``(U, 6, 2, K, 2)`` (unit, rotation, row parity, member, x/y).
        sizes: Members per unit type.
        canon: Canonical rotation per unit type ``(U, 6)``.
        e: Largest member offset from a pivot (placement code margin).
        board: The starting board ``(H, W)`` uint8.
    """

    problem: Problem
    shapes: tuple[UnitShape, ...]
    dl: np.ndarray
    sizes: np.ndarray
    canon: np.ndarray
    e: int
    board: np.ndarray

    def spawn_code(self, u: int) -> int:
        """Placement code of unit type ``u``'s spawn."""
        px, py, rot = self.shapes[u].spawn
        return int(kn.encode(px, py, int(self.canon[u, rot]), self.e, *self.dims))

    def spawn_cells(self, u: int) -> list[tuple[int, int]]:
        """Cells of unit type ``u`` at its spawn."""
        px, py, rot = self.shapes[u].spawn
        return [(px + dx, py + dy) for dx, dy in self.shapes[u].deltas[rot][py & 1]]

    @property
    def dims(self) -> tuple[int, int]:
        """``(NX, NY)`` of the placement code."""
        return (self.problem.width + 2 * self.e, self.problem.height + 2 * self.e)


def prepare(problem: Problem) -> Prepared:
    """Compile ``problem`` into kernel arrays."""
    shapes = compile_shapes(problem)
    kmax = max(s.size for s in shapes)
    dl = np.zeros((len(shapes), 6, 2, kmax, 2), np.int64)
    for u, s in enumerate(shapes):
        for r in range(6):
            for par in range(2):
                for k, (dx, dy) in enumerate(s.deltas[r][par]):
                    dl[u, r, par, k, 0] = dx
                    dl[u, r, par, k, 1] = dy
    sizes = np.array([s.size for s in shapes], np.int64)
    canon = np.array([s.canon for s in shapes], np.int64)
    e = max(s.extent for s in shapes) + 1
    board = np.zeros((problem.height, problem.width), np.uint8)
    for x, y in problem.filled:
        board[y, x] = 1
    return Prepared(problem, shapes, dl, sizes, canon, e, board)


@dataclass
class Plan:
    """Placements chosen for one game.

    Attributes:
        targets: Per locked unit, ``(placement code, lock command)``.
        move_score: The move score those placements earn.
        falls: Rows the units fall in all, spawn to lock (the power score to come grows
            with it: about 5 points a row on the big boards).
    """

    targets: list[tuple[int, int]]
    move_score: int
    falls: int = 0


class SearchTimeoutError(Exception):
    """The deadline passed during a search."""


def beam_plan(
    prep: Prepared,
    seed: int,
    width: int,
    weights: np.ndarray,
    deadline: float | None = None,
    *,
    partial_ok: bool = False,
    lost_weight: float = 0.0,
    fall_value: float = 0.0,
    guard_weight: float = 0.0,
) -> Plan:
    """Beam search over the unit sequence (width 1 is the greedy one-unit search).

    Args:
        prep: The compiled problem.
        seed: The game's seed.
        width: Beam width.
        weights: Evaluation weights.
        deadline: A ``time.monotonic`` value to stop at, or None.
        partial_ok: At the deadline return the best plan so far (a prefix of the game,
            which scores what it locked) instead of raising.
        lost_weight: Penalty per empty cell the next unit cannot reach (0: not computed);
            applied to the best ``3·width`` children only.
        fall_value: Value per row a unit falls from its spawn to its lock, added up along
            each beam line like the move score: the phrases of power are spelled on the
            way down, so the rows fallen are the power score to come.
        guard_weight: Penalty per empty cell the *largest* unit type could no longer
            reach, in the same re-ranking (0: not computed): on boards where most units
            are small, the rare big one is what ends the game, so its landing room is
            kept open before it comes.

    Raises:
        SearchTimeoutError: if ``deadline`` passes and ``partial_ok`` is false.
    """
    seq = unit_sequence(prep.problem, seed)
    big = int(np.argmax(prep.sizes))
    e = prep.e
    nx, ny = prep.dims
    boards = [prep.board.copy()]
    rows = [kn.board_rows(boards[0], weights)]
    moves = [0]
    gains = [0.0]  # fall_value times the rows fallen so far
    ls_olds = [0]
    history: list[list[tuple[int, int, int]]] = []  # per depth: (parent, code, lockcmd)
    finished: list[tuple[float, int, int, int]] = []  # (value, depth, node, move)
    for depth, u in enumerate(seq):
        if deadline is not None and time.monotonic() > deadline:
            if not partial_ok:
                raise SearchTimeoutError
            break
        dl = prep.dl[u]
        size = int(prep.sizes[u])
        canon = prep.canon[u]
        spx, spy, srot = prep.shapes[u].spawn
        if depth + 1 < len(seq):
            nu = seq[depth + 1]
            next_cells = np.array(prep.spawn_cells(nu), np.int64)
        else:
            next_cells = np.zeros((0, 2), np.int64)
        n_next = len(next_cells)
        cand_val: list[np.ndarray] = []
        cand_node: list[np.ndarray] = []
        cand_lock: list[np.ndarray] = []
        cand_cmd: list[np.ndarray] = []
        for ni, board in enumerate(boards):
            _parent, _pcmd, locks, lockcmd, nlocks = kn.bfs_locks(board, dl, size, canon, spx, spy, srot, e)
            if nlocks == 0:
                finished.append((moves[ni] + gains[ni] + SURVIVAL_BONUS * depth, depth, ni, moves[ni]))
                continue
            vals, lss = kn.evaluate_locks(board, rows[ni], dl, size, locks, nlocks, e, weights, next_cells, n_next)
            pts = size + 100 * (1 + lss) * lss // 2
            if ls_olds[ni] > 1:
                pts = pts + (ls_olds[ni] - 1) * pts // 10
            fall = fall_value * ((locks[:nlocks] // nx) % ny - e - spy) if fall_value else 0.0
            cand_val.append(moves[ni] + gains[ni] + pts + vals + fall)
            cand_node.append(np.full(nlocks, ni, np.int64))
            cand_lock.append(locks[:nlocks].copy())
            cand_cmd.append(lockcmd[:nlocks].copy())
        if not cand_val:
            history.append([])
            break
        val = np.concatenate(cand_val)
        node = np.concatenate(cand_node)
        lock = np.concatenate(cand_lock)
        cmd = np.concatenate(cand_cmd)
        order = np.argsort(-val, kind="stable")
        if (lost_weight > 0 or guard_weight > 0) and depth + 1 < len(seq):
            # Re-rank the best few by the cells the next unit (and the largest) can no longer reach.
            nu = seq[depth + 1]
            nsp = prep.shapes[nu].spawn
            top = order[: max(3 * width, 6)]
            adj = np.empty(len(top))
            nxd, nyd = prep.dims
            for j, i in enumerate(top):
                ni = int(node[i])
                px, py, rot = kn.decode(int(lock[i]), e, nxd, nyd)
                nb, _ls = kn.lock_board(boards[ni], dl, size, px, py, rot)
                lost = 0
                if lost_weight > 0:
                    lost = kn.lost_cells(nb, prep.dl[nu], int(prep.sizes[nu]), prep.canon[nu], *nsp, e)
                adj[j] = val[i] - lost_weight * lost
                if guard_weight > 0:
                    gsp = prep.shapes[big].spawn
                    glost = kn.lost_cells(nb, prep.dl[big], int(prep.sizes[big]), prep.canon[big], *gsp, e)
                    adj[j] -= guard_weight * glost
            order = np.concatenate([top[np.argsort(-adj, kind="stable")], order[len(top) :]])
        new_boards: list[np.ndarray] = []
        new_rows: list[np.ndarray] = []
        new_moves: list[int] = []
        new_gains: list[float] = []
        new_ls: list[int] = []
        level: list[tuple[int, int, int]] = []
        seen: set[bytes] = set()
        for i in order:
            ni = int(node[i])
            px, py, rot = kn.decode(int(lock[i]), e, nx, ny)
            nb, ls = kn.lock_board(boards[ni], dl, size, px, py, rot)
            key = nb.tobytes()
            if key in seen:
                continue
            seen.add(key)
            new_boards.append(nb)
            new_rows.append(kn.board_rows(nb, weights))
            new_moves.append(moves[ni] + int(kn.lock_points(size, int(ls), ls_olds[ni])))
            new_gains.append(gains[ni] + fall_value * (py - spy))
            new_ls.append(int(ls))
            level.append((ni, int(lock[i]), int(cmd[i])))
            if len(new_boards) >= width:
                break
        boards, rows, moves, gains, ls_olds = new_boards, new_rows, new_moves, new_gains, new_ls
        history.append(level)
    # Pick the best end: a full-length game or one that ended early.
    depth_done = len(history) if history and history[-1] else len(history) - 1
    ends: list[tuple[float, int, int, int]] = list(finished)
    if history and history[-1]:
        for ni, mv in enumerate(moves):
            ends.append((mv + gains[ni] + SURVIVAL_BONUS * depth_done, depth_done, ni, mv))
    if not ends:
        return Plan([], 0)
    _v, depth, ni, mv = max(ends, key=lambda t: (t[0], t[1]))
    targets: list[tuple[int, int]] = []
    for d in range(depth - 1, -1, -1):
        parent, code, lcmd = history[d][ni]
        targets.append((code, lcmd))
        ni = parent
    targets.reverse()
    falls = 0
    for d, (code, _lcmd) in enumerate(targets):
        falls += kn.decode(code, e, nx, ny)[1] - prep.shapes[seq[d]].spawn[1]
    return Plan(targets, mv, falls)
