"""Square-grid geometry shared by the snake games.

Cells are numbered row-major, ``index = y * width + x``, with (0, 0) the top-left
cell and y growing downwards. Hot loops work on these integers and on the flat
neighbour table :attr:`Grid.nbr` (``nbr[4 * cell + direction]`` is the neighbour
cell, or -1 past a wall), never on coordinate objects.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Container, Iterable
from enum import IntEnum

from snakelab.core.errors import ConfigError, UnknownNameError


class Direction(IntEnum):
    """An absolute move on a square grid (the arena protocol numbers them the same way)."""

    UP = 0
    DOWN = 1
    LEFT = 2
    RIGHT = 3

    @property
    def dx(self) -> int:
        """Column change of one step."""
        return _DX[self]

    @property
    def dy(self) -> int:
        """Row change of one step (down is +1)."""
        return _DY[self]

    @property
    def opposite(self) -> Direction:
        """The reverse direction."""
        return Direction(OPPOSITE[self])

    @property
    def letter(self) -> str:
        """One-letter name: U, D, L or R."""
        return "UDLR"[self]

    @classmethod
    def parse(cls, text: str) -> Direction:
        """Parse ``"UP"``, ``"up"``, ``"U"`` or ``"0"`` into a direction."""
        t = text.strip().upper()
        for d in cls:
            if t in (d.name, d.letter, str(int(d))):
                return d
        raise UnknownNameError(f"unknown direction {text!r}: use UP, DOWN, LEFT or RIGHT")


_DX = (0, 0, -1, 1)
_DY = (-1, 1, 0, 0)
#: ``OPPOSITE[d]`` is the reverse of direction ``d`` (as plain ints, for hot loops).
OPPOSITE = (1, 0, 3, 2)
DIRECTIONS = tuple(Direction)


class DirectionActions:
    """Action codec for games whose actions are the four absolute directions.

    Actions are written to replays by name (``"UP"``); the conformance kit tries the
    four directions plus a value that is no direction at all.
    """

    def action_to_json(self, action: object) -> str:
        """The direction's name."""
        return Direction(int(action)).name  # type: ignore[call-overload]

    def action_from_json(self, data: object) -> Direction:
        """Inverse of :meth:`action_to_json`."""
        return Direction[str(data)]

    def candidate_actions(self, state: object, player: int) -> list[object]:
        """All four directions plus a non-direction, for conformance tests."""
        del state, player  # the same for every state
        return [*Direction, 7]


class Grid:
    """A ``width`` × ``height`` board, walled or wrapping (a torus).

    Attributes:
        width: Number of columns.
        height: Number of rows.
        torus: Whether moves wrap around the edges.
        size: ``width * height``.
        nbr: Flat neighbour table, ``nbr[4 * cell + d]``; -1 marks a wall.
    """

    __slots__ = ("height", "nbr", "size", "torus", "width")

    def __init__(self, width: int, height: int, *, torus: bool = False) -> None:
        if width < 1 or height < 1:
            raise ConfigError(f"a {width}×{height} board has no cells: width and height must be ≥ 1")
        self.width = width
        self.height = height
        self.torus = torus
        self.size = width * height
        nbr: list[int] = []
        for y in range(height):
            for x in range(width):
                for dx, dy in zip(_DX, _DY, strict=True):
                    nx, ny = x + dx, y + dy
                    if torus:
                        nbr.append((ny % height) * width + nx % width)
                    elif 0 <= nx < width and 0 <= ny < height:
                        nbr.append(ny * width + nx)
                    else:
                        nbr.append(-1)
        self.nbr = nbr

    def index(self, x: int, y: int) -> int:
        """Cell number of column ``x``, row ``y``."""
        return y * self.width + x

    def xy(self, cell: int) -> tuple[int, int]:
        """Column and row of a cell number."""
        return cell % self.width, cell // self.width

    def contains(self, x: int, y: int) -> bool:
        """Whether (x, y) lies on a walled board (always true on a torus)."""
        return self.torus or (0 <= x < self.width and 0 <= y < self.height)

    def neighbours(self, cell: int) -> list[int]:
        """The on-board neighbours of ``cell`` in UP, DOWN, LEFT, RIGHT order."""
        base = 4 * cell
        return [c for c in self.nbr[base : base + 4] if c >= 0]

    def step(self, cell: int, direction: int) -> int:
        """The neighbour of ``cell`` in ``direction``, or -1 past a wall."""
        return self.nbr[4 * cell + direction]

    def direction_to(self, a: int, b: int) -> int:
        """The direction from cell ``a`` to its neighbour ``b``; -1 if not adjacent."""
        base = 4 * a
        for d in range(4):
            if self.nbr[base + d] == b:
                return d
        return -1

    def manhattan(self, a: int, b: int) -> int:
        """Manhattan distance (wrapping on a torus)."""
        ax, ay = a % self.width, a // self.width
        bx, by = b % self.width, b // self.width
        dx, dy = abs(ax - bx), abs(ay - by)
        if self.torus:
            dx, dy = min(dx, self.width - dx), min(dy, self.height - dy)
        return dx + dy

    def bfs(self, start: int, blocked: Container[int] | bytearray) -> list[int]:
        """Distances from ``start`` to every cell, avoiding blocked cells.

        Args:
            start: The source cell (searched even if it is itself blocked).
            blocked: Either a bytearray/sequence indexed by cell (non-zero = blocked)
                or any container of blocked cell numbers.

        Returns:
            A list of length :attr:`size`; -1 marks unreachable cells.
        """
        is_blocked = _blocked_fn(blocked)
        dist = [-1] * self.size
        dist[start] = 0
        queue = deque([start])
        nbr = self.nbr
        while queue:
            c = queue.popleft()
            nd = dist[c] + 1
            base = 4 * c
            for k in range(base, base + 4):
                n = nbr[k]
                if n >= 0 and dist[n] < 0 and not is_blocked(n):
                    dist[n] = nd
                    queue.append(n)
        return dist

    def path(self, start: int, goal: int, blocked: Container[int] | bytearray) -> list[int] | None:
        """A shortest path ``[start, ..., goal]`` avoiding blocked cells, or None.

        The goal may itself be blocked (so a path *to* a tail or an apple works).
        Ties are broken in UP, DOWN, LEFT, RIGHT order, so the result is deterministic.
        """
        if start == goal:
            return [start]
        is_blocked = _blocked_fn(blocked)
        prev = [-1] * self.size
        prev[start] = start
        queue = deque([start])
        nbr = self.nbr
        while queue:
            c = queue.popleft()
            base = 4 * c
            for k in range(base, base + 4):
                n = nbr[k]
                if n < 0 or prev[n] >= 0:
                    continue
                if n == goal:
                    prev[n] = c
                    out = [n]
                    while out[-1] != start:
                        out.append(prev[out[-1]])
                    out.reverse()
                    return out
                if not is_blocked(n):
                    prev[n] = c
                    queue.append(n)
        return None

    def flood_fill(self, start: int, blocked: Container[int] | bytearray) -> int:
        """Number of cells reachable from ``start`` (itself included) avoiding blocked cells."""
        return sum(1 for d in self.bfs(start, blocked) if d >= 0)

    def components(self, cells: Iterable[int]) -> list[list[int]]:
        """Split a set of cells into 4-connected components (largest first)."""
        todo = set(cells)
        out: list[list[int]] = []
        while todo:
            seed = todo.pop()
            comp = [seed]
            stack = [seed]
            while stack:
                c = stack.pop()
                for n in self.neighbours(c):
                    if n in todo:
                        todo.discard(n)
                        comp.append(n)
                        stack.append(n)
            out.append(comp)
        out.sort(key=len, reverse=True)
        return out


def _blocked_fn(blocked: Container[int] | bytearray) -> Callable[[int], bool]:
    """Return a predicate ``cell -> blocked?`` for a flag array or a container of cells."""
    if isinstance(blocked, (bytearray, bytes, list)):
        arr = blocked
        return lambda c: bool(arr[c])
    return blocked.__contains__
