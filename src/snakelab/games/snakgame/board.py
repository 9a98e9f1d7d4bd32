"""The board of a snakgame: its cells, both players' snakes and counters, and the grid queries.

The names the rules (:mod:`~snakelab.games.snakgame.rules`) and Chef's policy
(:mod:`~snakelab.games.snakgame.chef`) share live here, below both: the cell values, the
contest's file types, the score of a snake, the configuration and its grid, and
:class:`Board`, the data of a position with the questions asked of it (neighbours, the
k-th empty cell). :class:`~snakelab.games.snakgame.rules.State` is a Board with the rules
(legal moves, applying both players' moves, the outcome, the JSON form).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from math import isqrt

import numpy as np

from snakelab.core.errors import ConfigError
from snakelab.core.rng import derive_seed
from snakelab.games.snakgame.moves import Move

EMPTY, BLOCKED, MINE, CHEF = 0, 1, 2, 3
"""Values of ``State.occ``."""

CELL_CHARS = ".#ox"
"""How the JSON form writes the cell values, in order."""

TYPE_RANGES = {1: (200, 300), 2: (500, 600)}
"""Contest file types: the range of n and of m."""


def snake_score(length: int) -> int:
    """The score of one finished snake: (L − 1)·⌊√L⌋ (0 for L ≤ 1)."""
    return (length - 1) * isqrt(length) if length > 1 else 0


class Termination(Enum):
    """Why a snakgame ended."""

    FULL = "full"
    """No empty cell is left."""
    EXIT = "exit"
    """You played EXIT."""


@dataclass(frozen=True)
class Config:
    """Parameters of a snakgame.

    Attributes:
        type: 1 or 2 for the contest's test files (size and blocked cells drawn from
            the game seed), 0 for a custom grid of ``rows`` × ``cols``. Default 1.
        rows: Rows n of a custom grid (type 0), 1..1000. Default 6.
        cols: Columns m of a custom grid (type 0), 1..1000. Default 6.
        blocked: Type 0 only: the blocked cells as ``"x y;x y;..."`` (1-based), or
            ``""`` to block cells at random with ``block_prob``. Default ``""``.
        block_prob: Probability that a cell is blocked (random grids). Default 1/25,
            the contest's.
        freeze: Whether Chef plays FREEZE (the statement's judge does). Default true.
    """

    type: int = 1
    rows: int = 6
    cols: int = 6
    blocked: str = ""
    block_prob: float = 1 / 25
    freeze: bool = True

    def __post_init__(self) -> None:
        if self.type not in (0, 1, 2):
            raise ConfigError(f"snakgame type {self.type} is not 0 (custom), 1 (200..300) or 2 (500..600)")
        if self.type == 0 and not (1 <= self.rows <= 1000 and 1 <= self.cols <= 1000):
            raise ConfigError(f"snakgame grid {self.rows}×{self.cols} is out of range: rows and cols must be 1..1000")
        if not 0.0 <= self.block_prob < 1.0:
            raise ConfigError(f"block_prob {self.block_prob} must be in [0, 1)")
        if self.blocked and self.type != 0:
            raise ConfigError("explicit blocked cells need type=0 (a custom grid)")
        self.blocked_cells()  # validates the list

    def inapplicable(self) -> dict[str, str]:
        """Parameters this configuration ignores, with what applies instead (given ones are refused)."""
        out: dict[str, str] = {}
        if self.type != 0:
            why = f"rows and cols apply to type=0 (a custom grid) only; type {self.type} draws its size from the seed"
            out.update(rows=why, cols=why)
        if self.blocked:
            out["block_prob"] = "block_prob applies to random blocking only; blocked lists the blocked cells"
        return out

    def blocked_cells(self) -> list[tuple[int, int]]:
        """The explicit blocked cells, 1-based ``(x, y)``.

        Raises:
            ConfigError: for an unreadable or off-grid cell.
        """
        out: list[tuple[int, int]] = []
        for part in self.blocked.replace(",", " ").split(";"):
            if not part.strip():
                continue
            nums = part.split()
            try:
                x, y = (int(v) for v in nums)
            except ValueError:
                raise ConfigError(f"cannot read blocked cell {part.strip()!r}: expected 'x y'") from None
            if not (1 <= x <= self.rows and 1 <= y <= self.cols):
                raise ConfigError(f"blocked cell ({x}, {y}) is off the {self.rows}×{self.cols} grid")
            out.append((x, y))
        return out


def generate_grid(config: Config, seed: int) -> tuple[int, int, np.ndarray]:
    """The grid of a game: ``(n, m, blocked)`` with ``blocked`` a bool array n × m.

    Type 1 / 2 draw n and m uniformly in their range, then block every cell
    independently with probability ``block_prob``; all from ``(seed, "grid")``.
    """
    rng = np.random.default_rng(derive_seed(seed, "grid"))
    if config.type in TYPE_RANGES:
        lo, hi = TYPE_RANGES[config.type]
        n = int(rng.integers(lo, hi + 1))
        m = int(rng.integers(lo, hi + 1))
    else:
        n, m = config.rows, config.cols
    if config.blocked:
        blocked = np.zeros((n, m), dtype=bool)
        for x, y in config.blocked_cells():
            blocked[x - 1, y - 1] = True
    else:
        blocked = rng.random((n, m)) < config.block_prob
    return n, m, blocked


class Board:
    """The data of a snakgame position and the grid queries (the rules: :class:`~.rules.State`).

    Attributes:
        n: Rows.
        m: Columns.
        occ: Per-cell contents, row-major (:data:`EMPTY`, :data:`BLOCKED`, :data:`MINE`, :data:`CHEF`).
        row_free: Empty cells per row.
        free: Empty cells in all.
        head: Your current snake's head cell (the end a NEW started; -1 with no snake).
        tail: Your current snake's tail cell.
        length: Your current snake's length (0 with no snake).
        done: Lengths of your finished snakes, in order.
        chef_base: The seed of Chef's draws, ``derive_seed(seed, "chef")`` (see :mod:`.chef`).
        chef_head: Chef's current snake's head (-1 with none).
        chef_tail: Chef's current snake's tail.
        chef_len: Chef's current snake's length.
        chef_freeze: t of Chef's last move if it was FREEZE t, else 0.
        chef_turns: Chef's turns so far (his randomness counter).
        chef_frozen: Chef's turns spent frozen.
        chef_snakes: Snakes Chef has started.
        last_chef: Chef's last move, or None.
        last_chef_cell: The cell Chef's last move took, or -1.
        steps: Your moves so far.
        termination: Why the game ended, or None.
    """

    __slots__ = (
        "chef_base",
        "chef_freeze",
        "chef_frozen",
        "chef_head",
        "chef_len",
        "chef_snakes",
        "chef_tail",
        "chef_turns",
        "config",
        "done",
        "free",
        "free_start",
        "head",
        "last_chef",
        "last_chef_cell",
        "length",
        "m",
        "n",
        "occ",
        "row_free",
        "seed",
        "steps",
        "tail",
        "termination",
    )

    def __init__(self, config: Config, n: int, m: int, blocked: np.ndarray, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.chef_base = derive_seed(seed, "chef")
        self.n = n
        self.m = m
        flat = np.ascontiguousarray(blocked, dtype=np.uint8).reshape(-1)
        self.occ = bytearray(flat.tobytes())
        self.row_free = [int(v) for v in m - blocked.reshape(n, m).sum(axis=1)]
        self.free = sum(self.row_free)
        self.free_start = self.free
        self.head = self.tail = -1
        self.length = 0
        self.done: list[int] = []
        self.chef_head = self.chef_tail = -1
        self.chef_len = 0
        self.chef_freeze = 0
        self.chef_turns = 0
        self.chef_frozen = 0
        self.chef_snakes = 0
        self.last_chef: Move | None = None
        self.last_chef_cell = -1
        self.steps = 0
        self.termination: Termination | None = None
        if self.free == 0:
            self.termination = Termination.FULL

    # -- helpers ---------------------------------------------------------------
    def cell(self, x: int, y: int) -> int:
        """The 0-based cell number of 1-based ``(x, y)``."""
        return (x - 1) * self.m + (y - 1)

    def xy(self, cell: int) -> tuple[int, int]:
        """The 1-based ``(x, y)`` of a cell number."""
        r, c = divmod(cell, self.m)
        return r + 1, c + 1

    def neighbours(self, cell: int) -> list[int]:
        """On-grid 4-neighbours of ``cell`` (up, down, left, right)."""
        m = self.m
        r, c = divmod(cell, m)
        out = []
        if r > 0:
            out.append(cell - m)
        if r < self.n - 1:
            out.append(cell + m)
        if c > 0:
            out.append(cell - 1)
        if c < m - 1:
            out.append(cell + 1)
        return out

    def empty_neighbours(self, cell: int) -> list[int]:
        """Empty 4-neighbours of ``cell`` (up, down, left, right)."""
        occ = self.occ
        return [c for c in self.neighbours(cell) if not occ[c]]

    def kth_empty(self, k: int) -> int:
        """The k-th (0-based) empty cell in row-major order."""
        rf = self.row_free
        r = 0
        while k >= rf[r]:
            k -= rf[r]
            r += 1
        m = self.m
        row = np.frombuffer(self.occ, dtype=np.uint8, count=m, offset=r * m)
        return r * m + int(np.flatnonzero(row == EMPTY)[k])

    def _take(self, cell: int, who: int) -> None:
        self.occ[cell] = who
        self.row_free[cell // self.m] -= 1
        self.free -= 1

    @property
    def score(self) -> int:
        """Your score so far, the current snake counted as if finished now."""
        return sum(snake_score(v) for v in self.done) + snake_score(self.length)
