"""Chef's policy: what the SNAKGAME judge plays on his turn, from counter-based draws.

The order is the statement's (see :mod:`~snakelab.games.snakgame.rules`): continue a
FREEZE, maybe start one (1/500, t uniform in 1..50), start a snake at the beginning or when
his snake is stuck, else extend into a uniformly random entry of the list (empty neighbours
of his head, then of his tail; duplicates kept) with probability 99/100, else start a new
snake on a uniformly random empty cell.

Randomness: Chef's k-th turn uses draws ``splitmix64(base + j·γ)`` for j = 8k, 8k+1, ...
where ``base = derive_seed(seed, "chef")``; a uniform integer below r is
``(draw · r) >> 64``. Only the choice lives here: applying and checking Chef's moves are
rules (:meth:`~snakelab.games.snakgame.rules.State.chef_turn`, ``play_chef``). It reads only
the :class:`~snakelab.games.snakgame.board.Board`, which lives below both modules.
"""

from __future__ import annotations

from snakelab.games.snakgame.board import Board
from snakelab.games.snakgame.moves import Move

_M64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    """The splitmix64 finaliser."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def draw(base: int, turn: int, j: int, bound: int) -> int:
    """Uniform integer below ``bound``: draw ``j`` of Chef's turn ``turn`` from seed ``base``."""
    key = (base + (turn * 8 + j) * _GAMMA) & _M64
    return (_mix(key) * bound) >> 64


def chef_choice(state: Board) -> Move:
    """Chef's move in ``state`` on his next turn (``state.chef_turns``); the state is not changed."""
    base, turn = state.chef_base, state.chef_turns
    if state.chef_freeze > 1:
        return Move("FREEZE", state.chef_freeze - 1)
    if state.config.freeze and draw(base, turn, 0, 500) == 0:
        return Move("FREEZE", 1 + draw(base, turn, 1, 50))
    if state.chef_len:
        h, t = state.chef_head, state.chef_tail
        cands = state.empty_neighbours(h)
        nh = len(cands)
        cands += state.empty_neighbours(t)
        if cands and draw(base, turn, 2, 100) < 99:
            i = draw(base, turn, 3, len(cands))
            c = cands[i]
            f = h if i < nh else t
            fx, fy = state.xy(f)
            tx, ty = state.xy(c)
            return Move("MOVE", fx, fy, tx, ty)
    c = state.kth_empty(draw(base, turn, 4, state.free))
    x, y = state.xy(c)
    return Move("NEW", x, y)
