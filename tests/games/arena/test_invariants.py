"""Hypothesis: whatever the moves, the board stays consistent with the bodies."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from snakelab import make
from snakelab.games.arena.rules import ACTIONS, CRASH, OBSTACLE

GAMES = [
    make("arena(game_width=12,game_height=10,num_zombies=2,duration=4,speed=20,apple_limit=7)"),
    make("arena(game_width=9,game_height=14,num_snakes=3,num_obstacles=2,starting_length=3,own_tail_kills=true)"),
]


def check(s):
    g = s.grid
    want = [0] * g.size
    for o in s.obstacles:
        for c in o:
            want[c] = OBSTACLE
    for j, z in enumerate(s.zombies):
        assert len(z) == s.config.starting_length
        for c in z:
            want[c] = -2 - j
    for i, b in enumerate(s.bodies):
        assert bool(b) == s.alive[i]
        assert not b or s.running[i]
        for c in b:
            want[c] = i + 1
        cells = list(b)
        assert len(set(cells)) == len(cells)
        assert all(g.manhattan(a, c) == 1 for a, c in itertools.pairwise(cells))
        if len(b) > 1:
            assert g.step(b[-2], s.heading[i]) == b[-1]
        assert s.longest[i] >= len(b)
    assert s.occ == want
    present = [a for a in s.apples if a >= 0]
    assert len(set(present)) == len(present) and all(s.occ[a] == 0 for a in present)
    if not s.is_over():
        assert len(present) == len(s.apples)  # respawned before the agents look


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 1),
    st.integers(0, 2**31),
    st.lists(st.lists(st.sampled_from(ACTIONS[:9]), min_size=4, max_size=4), max_size=120),
    st.booleans(),
)
def test_board_matches_bodies_after_any_moves(which, seed, moves, crash):
    game = GAMES[which]
    s = game.new_state(seed)
    check(s)
    n = game.info.num_players
    for t, acts in enumerate(moves):
        if s.is_over():
            break
        a = [acts[i] if s.running[i] else None for i in range(n)]
        if crash and t == 20 and s.running[0]:
            a[0] = CRASH
        s.apply(a)
        check(s)
