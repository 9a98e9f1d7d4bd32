"""The lone-snake survival proof and the champion's use of it."""

import numpy as np

from snakelab import make
from snakelab.games.arena import sim
from snakelab.games.arena.champion import ChampionAgent, ChampionOptions
from snakelab.games.arena.rules import DOWN, LEFT, RIGHT, UP
from snakelab.games.arena.survival import SHUT_NEVER, Ask, alone_moves, opponent_reach, work_size

from .pictures import board

# Snake 0 fills a 2 × 4 box but one cell; the free cell lies between its head and its tail
# (snake 1, outside, is there because a game has two snakes at least).
BOX = """
######
#.aaa#
#0aaa#
######
1b....
"""

# Left of the head is a dead end one cell deep; above it the board is open.
POCKET = """
......1b.
##.......
#.0aaaa..
#########
"""


def _never(lay):
    return np.full(lay[sim.L_SIZE], SHUT_NEVER, np.int32)


def _encoded(s):
    lay = sim.layout(s, cap=64)
    return sim.encode(s, lay, list(s.growth)), lay, sim.grid_nbr(s)


def _moves(s, first, *, need=None, cap=10_000):
    st, lay, nbr = _encoded(s)
    n = len(s.bodies[0]) + s.growth[0] if need is None else need
    work = np.full(work_size(lay[sim.L_SIZE], n), 0, np.int32)
    out = alone_moves(st, lay, nbr, 0, Ask(first, n, _never(lay)), cap, work, 1.0e308)
    assert not work[lay[sim.L_SIZE] : 2 * lay[sim.L_SIZE]].any()  # the walk's marks are cleared
    return out


def test_a_snake_chasing_its_tail_survives():
    s = board(BOX, snakes=2)
    assert len(s.bodies[0]) == 7
    assert _moves(s, UP) == 1
    assert _moves(s, DOWN) == 0  # the wall


def test_pending_growth_holds_the_tail_and_dooms_the_same_walk():
    s = board(BOX, snakes=2, growth={0: 3})
    assert _moves(s, UP) == 0


def test_an_apple_on_the_first_cell_dooms_the_walk():
    s = board(BOX.replace("#.aaa#", "#*aaa#"), snakes=2)
    assert _moves(s, UP) == 0


def test_a_dead_end_is_doomed_and_open_space_is_not():
    s = board(POCKET, snakes=2)
    assert _moves(s, LEFT) == 0
    assert _moves(s, UP) == 1
    assert _moves(s, DOWN) == 0
    # A dead end one cell deep is room for a walk of one move, not two.
    assert _moves(s, LEFT, need=1) == 1
    assert _moves(s, LEFT, need=2) == 0


def test_an_undecided_search_says_so():
    s = board(POCKET, snakes=2)
    # A node budget too small to walk five moves neither finds nor refutes a walk.
    assert _moves(s, UP, cap=2) == -1


def test_the_champion_passes_over_a_doomed_move():
    s = board(POCKET, snakes=2)
    agent = ChampionAgent()
    c = s.config
    info = make(
        f"arena(game_width={c.game_width},game_height={c.game_height},num_snakes=2,"
        f"num_zombies=0,num_apples=0,starting_length={c.starting_length})"
    ).info
    agent.reset(info, 0, 1)
    st, lay, nbr = _encoded(s)
    assert agent._settle([LEFT, UP, DOWN], st, lay, nbr, 1.0e308) == UP
    assert agent.last_doomed == [LEFT]
    # When every move is doomed the search's choice stands.
    assert agent._settle([DOWN, LEFT, RIGHT], st, lay, nbr, 1.0e308) == DOWN
    assert agent.last_doomed == []
    off = ChampionAgent(ChampionOptions(doom=0))
    off.reset(info, 0, 1)
    assert off._settle([LEFT, UP, DOWN], st, lay, nbr, 1.0e308) == LEFT


def test_a_proof_still_running_at_its_deadline_is_undecided():
    s = board("\n".join(["." * 12] * 10 + ["0a........1b"]), snakes=2)
    st, lay, nbr = _encoded(s)
    work = np.zeros(work_size(lay[sim.L_SIZE], 100), np.int32)
    assert alone_moves(st, lay, nbr, 0, Ask(UP, 100, _never(lay)), 10_000, work, 1.0e308) == 1
    assert (
        alone_moves(st, lay, nbr, 0, Ask(UP, 100, _never(lay)), 10_000, work, 0.0) == -1
    )  # the deadline passed long ago


# Snake 0 can go right, where the only way on is up through the gap in the wall next to
# snake 1's head, or down into an open row below that no other head reaches first.
MOUTH = """
.......1b...
#######.####
aaaaa0...###
#####.######
............
"""


def _shut(s, ahead, zombies=0):
    st, lay, nbr = _encoded(s)
    shut = _never(lay)
    opponent_reach(st, lay, nbr, 0, ahead, np.zeros(3 * lay[sim.L_SIZE], np.int32), shut, zombies)
    return shut


def test_opponent_reach_is_the_other_heads_race_within_the_steps_ahead():
    s = board(MOUTH, snakes=2)
    g = s.grid
    shut = _shut(s, 8)
    assert shut[g.index(7, 1)] == 1  # the gap, next to snake 1's head
    assert shut[g.index(6, 0)] == 1
    assert shut[g.index(8, 2)] == 3  # through the gap
    assert shut[g.index(0, 0)] == 7
    assert shut[g.index(0, 4)] == SHUT_NEVER  # behind our head, which frees too late
    assert shut[g.index(7, 0)] == SHUT_NEVER  # its own head
    near = _shut(s, 2)
    assert near[g.index(8, 2)] == SHUT_NEVER  # three steps away: beyond two steps ahead
    assert (_shut(s, 0) == SHUT_NEVER).all()


def test_zombies_race_only_when_asked():
    # The search plays a zombie's fixed chase exactly; raced as a head that can go
    # anywhere it would shut the way out from a short snake it runs alongside.
    s = board(MOUTH.replace("............", "zzzzZ......."), snakes=2, zombies=1)
    g = s.grid
    shut = _shut(s, 8)
    assert shut[g.index(5, 4)] == SHUT_NEVER  # next to the zombie's head
    assert shut[g.index(7, 1)] == 1  # the snake's head still counts
    raced = _shut(s, 8, zombies=1)
    assert raced[g.index(5, 4)] == 1
    assert raced[g.index(7, 1)] == 1
    assert raced[g.index(0, 4)] == SHUT_NEVER  # the zombie's own tail end, behind it


def test_a_walk_out_through_a_mouth_another_head_reaches_first_is_no_walk_ahead():
    s = board(MOUTH, snakes=2)
    st, lay, nbr = _encoded(s)
    need = len(s.bodies[0])
    work = np.zeros(work_size(lay[sim.L_SIZE], need), np.int32)
    shut = _shut(s, 8)
    assert alone_moves(st, lay, nbr, 0, Ask(RIGHT, need, _never(lay)), 10_000, work, 1.0e308) == 1
    assert alone_moves(st, lay, nbr, 0, Ask(RIGHT, need, shut), 10_000, work, 1.0e308) == 0
    assert alone_moves(st, lay, nbr, 0, Ask(DOWN, need, shut), 10_000, work, 1.0e308) == 1


def test_the_champion_keeps_ahead_of_the_other_heads_when_asked():
    s = board(MOUTH, snakes=2)
    c = s.config
    info = make(
        f"arena(game_width={c.game_width},game_height={c.game_height},num_snakes=2,"
        f"num_zombies=0,num_apples=0,starting_length={c.starting_length})"
    ).info
    st, lay, nbr = _encoded(s)
    need = len(s.bodies[0])
    plain, ahead = (
        ChampionAgent(ChampionOptions(doom_ahead=0)),
        ChampionAgent(ChampionOptions(doom_ahead=8, doom_ahead_len=0)),
    )
    longer = ChampionAgent(ChampionOptions(doom_ahead=8, doom_ahead_len=need + 1))  # asks only of a longer snake
    long_enough = ChampionAgent(ChampionOptions(doom_ahead=8, doom_ahead_len=need))
    assert need < ChampionAgent().doom_ahead_len  # by default, too short to be asked
    for agent in (plain, ahead, longer, long_enough):
        agent.reset(info, 0, 1)
    assert plain._settle([RIGHT, DOWN, LEFT], st, lay, nbr, 1.0e308) == RIGHT
    assert ahead._settle([RIGHT, DOWN, LEFT], st, lay, nbr, 1.0e308) == DOWN
    assert longer._settle([RIGHT, DOWN, LEFT], st, lay, nbr, 1.0e308) == RIGHT
    assert long_enough._settle([RIGHT, DOWN, LEFT], st, lay, nbr, 1.0e308) == DOWN


# Snake 0 runs right down a corridor toward a zombie eighteen cells off; snake 1 is
# further from the zombie, which comes for snake 0 and bites it at the ninth step.
CORRIDOR = """
##########################.....
aaaaaaaa0.................Z....
##########################z....
1b........................z....
..........................zz...
"""

# The same with snake 1 next to the zombie, which goes for it instead.
LURED = """
##########################.....
aaaaaaaa0.................Z..1b
##########################z....
..........................z....
..........................zz...
"""


def test_a_chasing_zombie_closes_a_walk_the_race_ahead_leaves_open():
    s = board(CORRIDOR, snakes=2, zombies=1)
    st, lay, nbr = _encoded(s)
    need = len(s.bodies[0])
    assert need == 9
    work = np.zeros(work_size(lay[sim.L_SIZE], need, lay[sim.L_NZ] * lay[sim.L_ZCAP]), np.int32)
    raced = _shut(s, 8, zombies=1)
    assert alone_moves(st, lay, nbr, 0, Ask(RIGHT, need, raced), 10_000, work, 1.0e308) == 1  # they meet at step 9
    assert alone_moves(st, lay, nbr, 0, Ask(RIGHT, need, _never(lay), 1), 10_000, work, 1.0e308) == 0
    assert alone_moves(st, lay, nbr, 0, Ask(RIGHT, need - 1, _never(lay), 1), 10_000, work, 1.0e308) == 1
    st, lay, nbr = _encoded(board(LURED, snakes=2, zombies=1))
    assert alone_moves(st, lay, nbr, 0, Ask(RIGHT, need, _never(lay), 1), 10_000, work, 1.0e308) == 1


# CORRIDOR with a way down from the head into the open row below.
FORK = """
##########################.....
aaaaaaaa0.................Z....
########.#################z....
1b........................z....
..........................zz...
"""


def test_the_champion_asked_to_play_the_chase_leaves_the_corridor_to_the_zombie():
    s = board(FORK, snakes=2, zombies=1)
    info = make("arena(game_width=31,game_height=5,num_snakes=2,num_zombies=1,num_apples=0,starting_length=2)").info
    st, lay, nbr = _encoded(s)
    raced = ChampionAgent(ChampionOptions(doom_ahead_len=0, doom_zombies=1))
    chased = ChampionAgent(ChampionOptions(doom_ahead_len=0, doom_zombies=2))
    for agent in (raced, chased):
        agent.reset(info, 0, 1)
    assert raced._settle([RIGHT, DOWN], st, lay, nbr, 1.0e308) == RIGHT
    assert chased._settle([RIGHT, DOWN], st, lay, nbr, 1.0e308) == DOWN
