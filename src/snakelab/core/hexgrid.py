"""Hexagonal grid geometry: offset <-> cube coordinates, hex moves and rotation.

The layout is "odd-r" (pointy-top cells, odd rows shifted half a cell to the right),
the one the ICFP 2015 contest used: cell ``(x, y)`` is column ``x``, row ``y``, row 0
at the top. Cube coordinates ``(q, r, s)`` with ``q + r + s == 0`` make rotation and
distance exact: ``q = x - (y - (y & 1)) // 2``, ``r = y``, ``s = -q - r``.

Directions are numbered clockwise starting east: E, SE, SW, W, NW, NE, so turning a
direction clockwise by 60° adds one (mod 6). A clockwise turn of a cube vector is
``(q, r, s) -> (-r, -s, -q)``.
"""

from __future__ import annotations

from enum import IntEnum


class HexDir(IntEnum):
    """The six neighbour directions, numbered clockwise from east."""

    E = 0
    """East: ``(x + 1, y)``."""
    SE = 1
    """South-east: the cell below, to the right."""
    SW = 2
    """South-west: the cell below, to the left."""
    W = 3
    """West: ``(x - 1, y)``."""
    NW = 4
    """North-west: the cell above, to the left."""
    NE = 5
    """North-east: the cell above, to the right."""


Cube = tuple[int, int, int]

#: Cube vector of each :class:`HexDir`, in index order.
CUBE_DIRS: tuple[Cube, ...] = ((1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1), (1, -1, 0))


def to_cube(x: int, y: int) -> Cube:
    """Offset (odd-r) cell ``(x, y)`` to cube coordinates ``(q, r, s)``."""
    q = x - (y - (y & 1)) // 2
    return (q, y, -q - y)


def from_cube(c: Cube) -> tuple[int, int]:
    """Cube coordinates to the offset (odd-r) cell ``(x, y)``."""
    q, r, _ = c
    return (q + (r - (r & 1)) // 2, r)


def neighbour(x: int, y: int, d: int) -> tuple[int, int]:
    """The neighbour of ``(x, y)`` in direction ``d`` (a :class:`HexDir`), in offset coordinates.

    Uses the contest formulas directly (``c = 1`` on even rows): SE ``(x + 1 - c, y + 1)``,
    SW ``(x - c, y + 1)``, NE ``(x + 1 - c, y - 1)``, NW ``(x - c, y - 1)``.
    """
    c = 1 if y % 2 == 0 else 0
    if d == HexDir.E:
        return (x + 1, y)
    if d == HexDir.W:
        return (x - 1, y)
    if d == HexDir.SE:
        return (x + 1 - c, y + 1)
    if d == HexDir.SW:
        return (x - c, y + 1)
    if d == HexDir.NE:
        return (x + 1 - c, y - 1)
    if d == HexDir.NW:
        return (x - c, y - 1)
    raise ValueError(f"hex direction {d!r} is not one of 0..5")


def cube_add(a: Cube, b: Cube) -> Cube:
    """Component-wise sum."""
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def cube_sub(a: Cube, b: Cube) -> Cube:
    """Component-wise difference ``a - b``."""
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def rotate_cube(v: Cube, turns: int) -> Cube:
    """Turn a cube vector by ``turns`` × 60° clockwise (negative: counter-clockwise)."""
    q, r, s = v
    for _ in range(turns % 6):
        q, r, s = -r, -s, -q
    return (q, r, s)


def cube_distance(a: Cube, b: Cube) -> int:
    """Hex distance (number of steps) between two cube coordinates."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex distance between two offset cells."""
    return cube_distance(to_cube(*a), to_cube(*b))


def rotate(cell: tuple[int, int], pivot: tuple[int, int], turns: int) -> tuple[int, int]:
    """Turn offset ``cell`` about offset ``pivot`` by ``turns`` × 60° clockwise."""
    p = to_cube(*pivot)
    return from_cube(cube_add(p, rotate_cube(cube_sub(to_cube(*cell), p), turns)))
