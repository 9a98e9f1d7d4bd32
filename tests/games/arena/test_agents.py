from snakelab import make_agent
from snakelab.core.game import Budget
from snakelab.games.arena.agents import greedy_move
from snakelab.games.arena.rules import DOWN, LEFT, RIGHT, STRAIGHT, UP

from .pictures import board


def _agent(name, s, player=0):
    a = make_agent(name)
    a.reset(s_info(s), player, 1)
    return a


def s_info(s):
    from snakelab import make

    c = s.config
    return make(
        f"arena(game_width={c.game_width},game_height={c.game_height},num_snakes={c.num_snakes},"
        f"num_zombies={c.num_zombies},num_apples={c.num_apples},starting_length={c.starting_length})"
    ).info


def test_greedy__nearest_apple_by_manhattan():
    s = board(
        """
        .........
        .*..a0...
        .........
        ........*
        b1.......
        """
    )
    # Apple (1,1) at distance 4 is nearer than (8,3) at 5. LEFT is its own body; RIGHT, UP and
    # DOWN all end 5 from it, and RIGHT comes first in the order LEFT, RIGHT, UP, DOWN.
    assert greedy_move(s, 0) == RIGHT
    s.occ[s.grid.index(6, 1)] = -1  # an obstacle on the right: now UP
    assert greedy_move(s, 0) == UP


def test_greedy__tie_order_left_right_up_down():
    s = board(
        """
        .....
        .....
        ..0..
        ..a..
        b1...
        """,
        apples=0,
    )
    assert greedy_move(s, 0) == LEFT  # no apple: every free move ties


def test_greedy__avoids_occupied_cells_and_goes_straight_when_boxed_in():
    s = board(
        """
        .#...
        #0#..
        .a...
        .a...
        b1...
        """,
    )
    assert greedy_move(s, 0) == STRAIGHT
    s.occ[s.grid.index(0, 1)] = 0  # open the left side
    assert greedy_move(s, 0) == LEFT


def test_random__never_reverses():
    s = board(
        """
        .....
        a0...
        .....
        b1...
        """.replace("b1", "1b")
    )
    a = _agent("arena.random", s)
    assert all(a.act(s, None) != LEFT for _ in range(50))


def test_champion__does_not_step_next_to_a_zombie_head_for_an_apple():
    s = board(
        """
        ..........
        ..........
        aaaa0.*...
        ......Z...
        ......zzzz
        ..........
        1b........
        """,
        zombies=1,
    )
    # Greedy runs right toward the apple, next to the zombie's head: bitten.
    assert greedy_move(s, 0) == RIGHT
    move = _agent("arena.champion", s).act(s, Budget(time_s=0.05))
    st = s.clone()
    st.apply([move, STRAIGHT])
    assert st.alive[0]


def test_champion__avoids_a_dead_end():
    s = board(
        """
        ..........
        aaaaaaa0..
        #######.##
        ######*.##
        ########..
        b1........
        """,
    )
    # Down leads to the apple but into a pocket of 3 cells, far too small for a snake of 8.
    assert greedy_move(s, 0) == DOWN
    move = _agent("arena.champion", s).act(s, Budget(time_s=0.05))
    assert move in (UP, RIGHT)


def test_champion__avoids_a_head_on_cell():
    s = board(
        """
        ........
        ...*....
        aa0.1b..
        ........
        ........
        """,
    )
    # (3,2) can be entered by both heads: a head-on kills both.
    move = _agent("arena.champion", s).act(s, Budget(time_s=0.05))
    assert move in (UP, DOWN)


def test_champion__dead_snake_goes_straight():
    s = board(
        """
        ......
        a0....
        ......
        b1....
        """.replace("b1", "1b")
    )
    a = _agent("arena.champion", s)
    s.bodies[0].clear()
    s.alive[0] = False
    assert a.act(s, Budget(time_s=0.05)) == STRAIGHT
