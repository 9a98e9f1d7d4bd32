"""A phrase opening: spell the phrases the embedding cannot fit, straddling locks, then plan the rest.

The embedding spells phrases on a unit's way from its spawn to its planned lock, so a
phrase needing more rows than a unit can fall (``Necronomicon`` needs 8 down moves,
``In his house at R'lyeh dead Cthulhu waits dreaming.`` 28) is never spelled on a small
board, and each phrase never spelled forgoes its 300-point bonus. The official rules allow
what the embedding does not plan: a command that cannot move the unit locks it, and the
rest of the phrase goes on with the next unit from its spawn. So the opening spells such
phrases first, on the nearly empty board, letting them lock units wherever they take them:

1. A width-1 champion pass (the cheap one) tells which phrases the embedding spells by
   itself; the others are the opening's targets.
2. Greedily, while targets are left (at most ``limit``): for every target and every short
   filler (up to two commands before it, to pick the column and rotation), the phrase is
   played on a copy of the game with the exact rule engine, then the unit in hand is
   locked where the champion's evaluation likes best among the placements it can still
   reach, so the next one starts at its spawn.
   Candidates that make an error or end the game are dropped; the one leaving the best
   board (move points plus the champion's board evaluation) is kept.
3. The rest of the game is an ordinary problem: the board as the opening left it, and the
   unit sequence from the random source's state after the units used (the LCG state is a
   seed like any other). The champion solves it, knowing which phrases already earned
   their bonus, and the opening's letters are put in front.

The caller scores the whole string with the official scorer, so an opening that costs
more than it earns is simply not kept by a keep-best store.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from snakelab.core.errors import IllegalActionError
from snakelab.games.hextris import kernels as kn
from snakelab.games.hextris.codec import Problem
from snakelab.games.hextris.rules import CANONICAL, CHAR_TO_COMMAND, Sim
from snakelab.games.hextris.search import Prepared, prepare

# Empty phrase tables: the finishing path is a plain shortest path.
_NO_PHRASES = kn.PhraseTable(
    np.zeros((1, 1), np.int64),
    np.zeros(1, np.int64),
    np.zeros(1, np.int64),
    np.full(1, -1, np.int64),
    np.zeros(1, np.int64),
    np.zeros(1, np.int64),
    1,
)
_NO_ORDER = np.zeros(0, np.int64)

#: Filler commands tried before a phrase: none, or one or two of the six commands.
FILLERS: tuple[tuple[int, ...], ...] = ((), *((c,) for c in range(6)), *itertools.product(range(6), repeat=2))


def lcg_state(seed: int, steps: int) -> int:
    """The random source's state after ``steps`` draws from ``seed`` (a seed for the rest)."""
    state = seed & 0xFFFFFFFF
    for _ in range(steps):
        state = (1103515245 * state + 12345) & 0xFFFFFFFF
    return state


@dataclass(frozen=True)
class Opening:
    """What an opening played.

    Attributes:
        text: The command string of the opening.
        spelled: The phrases it spelled.
        sim: The game after it, the next unit at its spawn.
    """

    text: str
    spelled: tuple[str, ...]
    sim: Sim


def _board_array(sim: Sim) -> np.ndarray:
    return np.array([list(r) for r in sim.board.rows], np.uint8)


def _play(sim: Sim, cmds: Sequence[int]) -> bool:
    """Apply ``cmds`` to ``sim``; False on an error or when the game ends."""
    try:
        for c in cmds:
            if sim.termination is not None:
                return False
            sim.command(c)
    except IllegalActionError:
        return False
    return sim.termination is None


def _finish(sim: Sim, prep: Prepared, weights: np.ndarray) -> tuple[int, ...] | None:
    """Lock the unit in hand at its best reachable placement; the commands, or None if the game ends.

    One down move first (a down move never repeats: it moves or locks), which also clears
    the repeat rule's memory of the row, so the path found from there by a plain BFS is
    exactly legal. Then the lock the champion's evaluation likes best, reached by a
    shortest path.
    """
    start = sim.index
    sim.command(2)
    if sim.termination is not None:
        return None
    if sim.index != start:
        return (2,)
    u = sim.sequence[sim.index]
    dl, size, canon, e = prep.dl[u], int(prep.sizes[u]), prep.canon[u], prep.e
    nx, ny = prep.dims
    board = _board_array(sim)
    px, py, rot = sim.pos
    _parent, _pcmd, locks, lockcmd, nlocks = kn.bfs_locks(board, dl, size, canon, px, py, rot, e)
    if nlocks == 0:  # never expected: some command always locks a unit somewhere
        return None
    if sim.index + 1 < len(sim.sequence):
        next_cells = np.array(prep.spawn_cells(sim.sequence[sim.index + 1]), np.int64)
    else:
        next_cells = np.zeros((0, 2), np.int64)
    rows = kn.board_rows(board, weights)
    vals, lss = kn.evaluate_locks(board, rows, dl, size, locks, nlocks, e, weights, next_cells, len(next_cells))
    i = int(np.argmax(vals + 100 * (1 + lss) * lss // 2))
    out = np.empty((4 * (nx * ny) + 16, 2), np.int64)
    start_code = int(kn.encode(px, py, int(canon[rot]), e, nx, ny))
    piece = kn.Piece(board, dl, size, canon, e)
    n = kn.embed_unit(piece, start_code, int(locks[i]), int(lockcmd[i]), _NO_PHRASES, _NO_ORDER, out)
    if n < 0:
        return None
    cmds = (2, *(int(c) for c in out[:n, 0]))
    if not _play(sim, [int(c) for c in out[:n, 0]]) and sim.index < len(sim.sequence):
        return None
    return cmds if sim.index != start else None


def play_opening(
    problem: Problem,
    seed: int,
    targets: Sequence[str],
    weights: np.ndarray,
    limit: int,
) -> Opening:
    """Spell up to ``limit`` of ``targets`` from the start of the game (see the module doc)."""
    sim = Sim(problem, seed)
    prep = prepare(problem)
    text: list[str] = []
    spelled: list[str] = []
    left = [p for p in targets if p and all(ch.lower() in CHAR_TO_COMMAND for ch in p)]
    while left and len(spelled) < limit:
        best: tuple[float, str, Sim, str] | None = None
        for phrase in left:
            pcmds = [CHAR_TO_COMMAND[ch.lower()] for ch in phrase]
            for filler in FILLERS:
                trial = sim.clone()
                if not _play(trial, filler) or not _play(trial, pcmds):
                    continue
                dropped = _finish(trial, prep, weights) if trial.index < len(trial.sequence) else ()
                if dropped is None:
                    continue
                value = trial.move_score + float(kn.board_rows(_board_array(trial), weights).sum())
                if best is None or value > best[0]:
                    letters = "".join(CANONICAL[c] for c in filler) + phrase + "".join(CANONICAL[c] for c in dropped)
                    best = (value, phrase, trial, letters)
        if best is None:
            break
        _value, phrase, sim, letters = best
        text.append(letters)
        spelled.append(phrase)
        left.remove(phrase)
    return Opening("".join(text), tuple(spelled), sim)


def rest_problem(problem: Problem, seed: int, opening: Opening) -> tuple[Problem, int]:
    """The rest of the game after ``opening`` as a problem of its own, and its seed."""
    sim = opening.sim
    filled = tuple((x, y) for y, row in enumerate(sim.board.rows) for x, v in enumerate(row) if v)
    rest_seed = lcg_state(seed, sim.index)
    rest = replace(
        problem,
        filled=filled,
        source_length=problem.source_length - sim.index,
        source_seeds=(rest_seed,),
    )
    return rest, rest_seed
