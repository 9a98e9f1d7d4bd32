import itertools

from hypothesis import given
from hypothesis import strategies as st

from snakelab.core.grid import OPPOSITE, Direction, Grid


@given(st.integers(1, 12), st.integers(1, 12), st.booleans(), st.data())
def test_grid__step_and_back(w, h, torus, data):
    g = Grid(w, h, torus=torus)
    c = data.draw(st.integers(0, g.size - 1))
    d = data.draw(st.sampled_from(list(Direction)))
    n = g.step(c, d)
    if n >= 0:
        assert g.step(n, OPPOSITE[d]) == c
        assert g.manhattan(c, n) in (0, 1) if torus else g.manhattan(c, n) == 1
    else:
        assert not torus


def test_grid__bfs_path_flood():
    g = Grid(5, 3)
    wall = {g.index(2, 0), g.index(2, 1)}
    p = g.path(g.index(0, 0), g.index(4, 0), wall)
    assert p is not None and len(p) == 9
    assert all(g.manhattan(a, b) == 1 for a, b in itertools.pairwise(p))
    assert g.flood_fill(0, wall) == 13
    full = {g.index(2, y) for y in range(3)}
    assert g.path(0, g.index(4, 0), full) is None
    assert [len(c) for c in g.components(set(range(15)) - full)] == [6, 6]


def test_direction__parse():
    assert Direction.parse("u") is Direction.UP
    assert Direction.parse("RIGHT") is Direction.RIGHT
