"""The bitboard territory race is the cell-by-cell race, on positions of played games."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from snakelab import make, make_agent
from snakelab.core.game import Budget
from snakelab.games.arena import sim
from snakelab.games.arena.evaluation import NO_TIMID, W_HORIZON, W_TIES, WEIGHTS, evaluate_w, race_cells
from snakelab.games.arena.sim import L_APPLE, L_NA, L_SIZE, L_SNK, NF
from snakelab.games.arena.territory import race_bits
from snakelab.harness import match_seeds
from snakelab.harness.match import play

_GAMES: dict[tuple[int, str], list] = {}


def _positions(seed, extra=""):
    """Every 5th position of a 300-step game of four ``greedy`` snakes (deaths, growth and zombies included)."""
    key = (seed, extra)
    if key not in _GAMES:
        agents = [make_agent("arena.greedy") for _ in range(4)]
        seen = []
        play(
            make(f"arena(duration=15{extra})"),
            agents,
            match_seeds(seed, 1)[0],
            budget=Budget(nodes=50),
            on_step=lambda state, events: seen.append(state.clone()),
        )
        _GAMES[key] = seen[::5]
    return _GAMES[key]


def _encoded(s):
    lay = sim.layout(s, cap=300)
    return lay, sim.encode(s, lay, [2 * (i % 2) for i in range(len(s.bodies))]), sim.grid_nbr(s)


def _alive(st, lay, me):
    return st[lay[L_SNK] + NF * me + sim.F_ALIVE] != 0


@settings(max_examples=40, deadline=None)
@given(
    seed=st_.integers(1, 3),
    extra=st_.sampled_from(["", ",num_obstacles=4", ",num_zombies=6"]),
    pick=st_.integers(0, 10_000),
    me=st_.integers(0, 3),
    horizon=st_.sampled_from([1.0, 3.0, 16.0, 40.0, 1.0e18]),
    mlen=st_.sampled_from([3, 30, 300]),
)
def test_the_bitboard_race_counts_and_owns_what_the_cell_race_does(seed, extra, pick, me, horizon, mlen):
    positions = _positions(seed, extra)
    s = positions[pick % len(positions)]
    lay, st, nbr = _encoded(s)
    if not _alive(st, lay, me):
        return
    size = lay[L_SIZE]
    cells = np.zeros(4 * size, np.int32)
    bits = np.full(2 * size, 7, np.int32)
    want = race_cells(st, lay, nbr, me, cells, horizon, mlen, False, NO_TIMID)
    ok, *got = race_bits(st, lay, me, horizon, mlen, bits[:size], bits[size:])
    assert ok
    assert tuple(got) == tuple(want)
    for k in range(lay[L_NA]):
        a = st[lay[L_APPLE] + k]
        if a >= 0:
            assert bits[a] == cells[a]
            if cells[a] >= 0:
                assert bits[size + a] == cells[size + a]


def test_the_evaluation_is_the_same_by_either_race():
    # ``ties`` with no timid opponent changes nothing but the race taken: the cell-by-cell one.
    for s in _positions(1)[::6]:
        lay, st, nbr = _encoded(s)
        work = np.empty(4 * lay[L_SIZE] + 1, np.int32)
        for wts in (WEIGHTS, make_agent("arena.champion").weights):
            by_cells = wts.copy()
            by_cells[W_TIES] = 1.0
            for me in range(4):
                if _alive(st, lay, me):
                    assert evaluate_w(st, lay, nbr, me, 0, work, wts, NO_TIMID) == evaluate_w(
                        st, lay, nbr, me, 0, work, by_cells, NO_TIMID
                    )


@pytest.mark.parametrize("width", [63, 64])
def test_boards_wider_than_a_word_take_the_cell_race(width):
    s = make(f"arena(game_width={width},game_height=20)").new_state(4)
    lay, st, nbr = _encoded(s)
    size = lay[L_SIZE]
    ok, *_ = race_bits(st, lay, 0, 16.0, 10, np.zeros(size, np.int32), np.zeros(size, np.int32))
    assert ok == (width <= 63)
    work = np.empty(4 * size + 1, np.int32)
    wts = WEIGHTS.copy()
    wts[W_HORIZON] = 16.0
    assert np.isfinite(evaluate_w(st, lay, nbr, 0, 0, work, wts, NO_TIMID))


def test_walls_drawn_on_the_board_alone_block_the_bitboard_race():
    from .pictures import board

    # The picture's walls are on the board but in no obstacle list: the race must still see them.
    s = board(
        """
        ..............
        #########.....
        #aaaaaaa0.#...
        ##########....
        1b............
        """,
        apples=0,
    )
    lay, st, nbr = _encoded(s)
    size = lay[L_SIZE]
    want = race_cells(st, lay, nbr, 0, np.zeros(4 * size, np.int32), 3.0, 30, False, NO_TIMID)
    ok, *got = race_bits(st, lay, 0, 3.0, 30, np.zeros(size, np.int32), np.zeros(size, np.int32))
    assert ok
    assert tuple(got) == tuple(want)
