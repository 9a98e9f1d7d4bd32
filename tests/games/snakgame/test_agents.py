import itertools

import numpy as np
import pytest

from snakelab import make, make_agent
from snakelab.core.registry import list_agents
from snakelab.games.snakgame.kernels import label_components, long_path, region_worth, split_race
from snakelab.harness import play

AGENTS = ["exit", "random", "chef", "greedy", "editorial", "champion"]


def test_every_agent_is_registered():
    assert {a.name for a in list_agents("snakgame")} >= set(AGENTS)


@pytest.mark.parametrize("agent", AGENTS)
def test_agent_plays_a_whole_game_legally(agent):
    game = make("snakgame(type=0,rows=14,cols=17)")
    res = play(game, [make_agent(f"snakgame.{agent}")], 5)
    d = res.outcome.details
    if agent == "exit":
        assert res.steps == 1 and d["score"] == 0 and res.outcome.termination == "EXIT"
    else:
        assert res.outcome.termination == "FULL" and d["score"] > 0
        # You and Chef alternate, so you get about half the free cells (more when he freezes).
        assert d["mine"] + d["chef_cells"] == d["free_start"]
        assert d["mine"] >= d["chef_cells"]


@pytest.mark.parametrize("agent", ["editorial", "champion", "random"])
def test_agents_are_reproducible(agent):
    game = make("snakgame(type=0,rows=30,cols=30)")
    a = play(game, [make_agent(f"snakgame.{agent}")], 2)
    b = play(game, [make_agent(f"snakgame.{agent}")], 2)
    assert a.outcome == b.outcome and a.steps == b.steps


def _flat(rows):
    return np.array([[0 if ch == "." else 1 for ch in r] for r in rows], np.uint8).reshape(-1), len(rows), len(rows[0])


def test_long_path__is_a_simple_path_of_free_adjacent_cells():
    occ, n, m = _flat(["......", "..#...", "......", "...#..", "......"])
    path = long_path(occ, n, m, 0, 1, np.empty(0, np.int32))
    assert path[0] == 0 and len(set(path.tolist())) == len(path)
    assert all(occ[c] == 0 for c in path)
    for a, b in itertools.pairwise(path.tolist()):
        assert abs(a // m - b // m) + abs(a % m - b % m) == 1
    # The left-hand rule sweeps most of an open grid.
    assert len(path) >= 0.8 * (occ == 0).sum()
    # Excluded cells are avoided.
    excl = np.array([1, 7], np.int32)
    assert not set(long_path(occ, n, m, 0, 1, excl).tolist()) & {1, 7}


def test_components_and_region_worth():
    occ, n, m = _flat(["..#....", "..#....", "###....", ".#....."])
    _, sizes = label_components(occ, n, m)
    assert sorted(sizes.tolist()) == [1, 4, 17]
    mark = np.zeros(n * m, np.int64)
    queue = np.empty(4 * n * m, np.int32)
    # Standing on (2, 4) (0-based row 1, col 3): the free region beyond it, capped.
    assert region_worth(occ, n, m, 1 * m + 3, 100, mark, 8, queue) == 16
    assert region_worth(occ, n, m, 1 * m + 3, 5, mark, 16, queue) == 5
    # A dead end: the only free neighbour of the top-left 2×2 pocket's corner.
    assert region_worth(occ, n, m, 0, 100, mark, 24, queue) == 3


def test_split_race__tells_connected_from_separate():
    occ, n, m = _flat(["...#....", "...#....", "...#....", "........"])
    mark = np.zeros(n * m, np.int64)
    queue = np.empty(4 * n * m, np.int32)
    seeds = np.array([0, 7], np.int64)
    sizes, closed = split_race(occ, n, m, -1, seeds, mark, 8, queue)
    assert sizes[0] == sizes[1]  # one region: the searches met
    # Taking the bottom-row cell below the wall splits the region in two.
    sizes, closed = split_race(occ, n, m, 3 * m + 3, seeds, mark, 16, queue)
    # The left part (12 cells) is searched to the end; the right one (15) was still growing,
    # which only says it is at least as large.
    assert closed.tolist() == [True, False]
    assert sizes[0] == 12 and 12 <= sizes[1] <= 15
