"""Hex geometry: exact cube conversions, moves and rotations (Hypothesis properties)."""

from hypothesis import given
from hypothesis import strategies as st

from snakelab.core.hexgrid import (
    CUBE_DIRS,
    HexDir,
    cube_add,
    distance,
    from_cube,
    neighbour,
    rotate,
    rotate_cube,
    to_cube,
)

coord = st.integers(-60, 60)
cells = st.tuples(coord, coord)


@given(cells)
def test_offset_cube_round_trip(c):
    q, r, s = to_cube(*c)
    assert q + r + s == 0
    assert from_cube((q, r, s)) == c


@given(cells, st.integers(0, 5))
def test_neighbour_matches_cube_direction(c, d):
    assert to_cube(*neighbour(*c, d)) == cube_add(to_cube(*c), CUBE_DIRS[d])
    assert distance(c, neighbour(*c, d)) == 1


def test_contest_neighbour_formulas():
    # Even row: c = 1; odd row: c = 0 (the row shift of docs/hextris.md).
    assert neighbour(3, 2, HexDir.SE) == (3, 3)
    assert neighbour(3, 2, HexDir.SW) == (2, 3)
    assert neighbour(3, 3, HexDir.SE) == (4, 4)
    assert neighbour(3, 3, HexDir.SW) == (3, 4)
    assert neighbour(3, 3, HexDir.NE) == (4, 2)
    assert neighbour(3, 2, HexDir.NW) == (2, 1)


@given(cells, cells)
def test_six_rotations_are_identity(c, p):
    x = c
    for _ in range(6):
        x = rotate(x, p, 1)
    assert x == c
    assert rotate(rotate(c, p, 1), p, -1) == c


@given(cells, cells, st.integers(-6, 6))
def test_rotation_keeps_distance_to_pivot(c, p, k):
    assert distance(rotate(c, p, k), p) == distance(c, p)


@given(st.integers(0, 5))
def test_clockwise_turns_direction_by_one(d):
    assert rotate_cube(CUBE_DIRS[d], 1) == CUBE_DIRS[(d + 1) % 6]


@given(cells, cells, cells)
def test_rotation_preserves_pairwise_distance(a, b, p):
    assert distance(rotate(a, p, 1), rotate(b, p, 1)) == distance(a, b)
