import pytest

from snakelab import make
from snakelab.core.errors import ConfigError, GameOverError, IllegalActionError
from snakelab.games.arena.rules import (
    CRASH,
    DOWN,
    INVALID,
    LEFT,
    REL_LEFT,
    REL_RIGHT,
    RIGHT,
    STRAIGHT,
    TIMEOUT,
    UP,
    Termination,
)

from .pictures import board, picture

S = STRAIGHT


def deaths(events):
    return {e.player: (e.data["cause"], e.data["by"]) for e in events if e.kind == "death"}


def remove(s, i):
    """Take snake i off the board as if it had crashed."""
    for c in s.bodies[i]:
        s.occ[c] = 0
    s.bodies[i].clear()
    s.alive[i] = False
    s.running[i] = False


def strip_apples(text):
    return text.replace("*", ".")


def test_head_on_same_empty_cell():
    s = board(
        """
        a0.1b
        .....
        """
    )
    ev = s.apply([S, S])
    assert deaths(ev) == {0: ("head_on", None), 1: ("head_on", None)}
    assert s.kills == [0, 0] and not any(s.alive)
    assert strip_apples(picture(s)) == ".....\n....."


def test_shared_apple__both_die_and_the_apple_respawns():
    s = board(
        """
        a0*1b
        .....
        """,
        starting_length=2,
    )
    apple = s.apples[0]
    ev = s.apply([S, S])
    assert deaths(ev) == {0: ("head_on", None), 1: ("head_on", None)}
    assert not any(e.kind == "eat" for e in ev)
    assert s.apples[0] >= 0 and s.apples[0] != apple  # consumed, respawned elsewhere
    assert s.growth == [0, 0]


def test_body_kill__exact_board_after():
    s = board(
        """
        .......
        .a0....
        .bbb1..
        .......
        """
    )
    ev = s.apply([DOWN, S])  # 0 enters (2,2), the middle of 1's body
    assert deaths(ev) == {0: ("body", 1)}
    assert s.kills == [0, 1] and s.deaths == [1, 0]
    assert strip_apples(picture(s)) == ".......\n.......\n..bbb1.\n......."


def test_vacated_tail_is_free_without_growth():
    s = board(
        """
        ....
        a0..
        .b..
        .1..
        """
    )
    # snake 1: head (1,3), tail (1,2); it moves right, vacating (1,2); snake 0 enters it.
    ev = s.apply([DOWN, RIGHT])
    assert deaths(ev) == {}
    assert strip_apples(picture(s)) == "....\n.a..\n.0..\n.b1."


def test_vacated_tail_kills_when_its_snake_grows():
    s = board(
        """
        ....
        a0..
        .b..
        .1..
        """,
        growth={1: 2},
    )
    ev = s.apply([DOWN, RIGHT])
    assert deaths(ev) == {0: ("body", 1)}
    assert s.kills[1] == 1 and s.growth[1] == 1
    assert strip_apples(picture(s)) == "....\n....\n.b..\n.b1."


def test_own_tail__free_by_default():
    s = board(
        """
        0a..
        aa..
        ....
        1b..
        """
    )
    ev = s.apply([DOWN, S])
    assert 0 not in deaths(ev)
    assert len(s.bodies[0]) == 4


def test_own_tail__kills_under_the_2017_rule():
    s = board(
        """
        0a..
        aa..
        ....
        1b..
        """,
        own_tail_kills="true",
    )
    ev = s.apply([DOWN, S])
    assert deaths(ev)[0] == ("self", None)
    assert s.kills == [0, 0]


def test_two_heads_into_one_vacated_tail_is_head_on():
    s = board(
        """
        .a....
        .0c2..
        ..1...
        ..b...
        """,
        snakes=3,
    )
    # snake 2's tail (2,1) is vacated as it moves right; snakes 0 and 1 both enter it.
    ev = s.apply([RIGHT, UP, S])
    assert deaths(ev) == {0: ("head_on", None), 1: ("head_on", None)}


def test_wall_obstacle_and_zombie_cells_kill():
    s = board(
        """
        0a....
        ...z..
        #2cZ1b
        ......
        """,
        snakes=3,
        zombies=1,
    )
    ev = s.apply([UP, S, S])
    assert deaths(ev) == {0: ("wall", None), 1: ("zombie", None), 2: ("obstacle", None)}


def test_relative_moves_turn_in_every_heading():
    cases = {UP: (LEFT, RIGHT), DOWN: (RIGHT, LEFT), LEFT: (DOWN, UP), RIGHT: (UP, DOWN)}
    for heading, (left, right) in cases.items():
        for move, want in ((REL_LEFT, left), (REL_RIGHT, right), (STRAIGHT, heading), (heading ^ 1, heading)):
            s = board(
                """
                .....
                .....
                ..0..
                .....
                ..1b.
                """.replace("..0..", "..0..")
            )
            s.heading[0] = heading
            s.apply([move, S])
            assert s.heading[0] == want, (heading, move)


def test_timeout_and_invalid_go_straight_and_are_counted():
    s = board(
        """
        .....
        a0...
        .....
        1b...
        """
    )
    ev = s.apply([TIMEOUT, INVALID])
    assert s.heading == [RIGHT, LEFT]
    assert [e.kind for e in ev][:2] == ["timeout", "invalid"]
    assert s.timeouts == [1, 0] and s.invalid == [0, 1]


def test_apple_grows_one_cell_per_step_for_three_steps():
    s = board(
        """
        a0*......
        .........
        1b.......
        """,
        apple_limit=100,
    )
    ev = s.apply([S, DOWN])
    assert [e.kind for e in ev if e.kind == "eat"] == ["eat"] and s.growth[0] == 3
    lengths = []
    for _ in range(4):
        s.apples = [-1] * len(s.apples)  # keep new apples out of the way
        s.apply([DOWN if s.heading[0] == RIGHT and s.head(0) % 9 == 8 else S, RIGHT if s.heading[1] != RIGHT else S])
        lengths.append(len(s.bodies[0]))
    assert lengths[:3] == [3, 4, 5] and lengths[3] == 5


def test_zombie_tie_order__left_first_then_right():
    # Zombie head (3,1) with the only snake head straight above at distance 2 from both (2,1) and (4,1)?
    s = board(
        """
        ...a0..
        .......
        ...Z...
        ...z...
        .......
        b1.....
        """,
        zombies=1,
    )
    # After the snakes move (0 right to (5,0), 1 left... ) compute by hand with only snake 0 alive.
    remove(s, 1)
    s.apply([S, S])
    # Snake 0 head now (5,0). Zombie at (3,2): LEFT (2,2) d=5, RIGHT (4,2) d=3, UP (3,1) d=3, DOWN occupied.
    # RIGHT and UP tie at 3; RIGHT comes first in LEFT, RIGHT, UP, DOWN order.
    assert s.grid.xy(s.zombies[0][-1]) == (4, 2)


def test_zombie_takes_first_legal_even_if_farther():
    s = board(
        """
        .......
        ..aa0..
        ...Z#..
        ...z...
        .......
        b1.....
        """,
        zombies=1,
    )
    remove(s, 1)
    s.apply([S, S])
    # Snake 0's head is now (5,1). From the zombie head (3,2): RIGHT (4,2) d=2 is an obstacle,
    # UP (3,1) d=2 is 0's body, so it takes LEFT (2,2) at d=4 although it is farther.
    assert s.grid.xy(s.zombies[0][-1]) == (2, 2)


def test_zombie_bites_a_head_without_credit():
    s = board(
        """
        .......
        .a0....
        .......
        ..Z....
        ..z....
        b1.....
        """,
        zombies=1,
    )
    ev = s.apply([DOWN, S])  # head enters (2,2), right next to the zombie head (2,3)
    assert deaths(ev) == {0: ("zombie_bite", None)}
    assert s.grid.xy(s.zombies[0][-1]) == (2, 2) and s.kills == [0, 0]


def test_zombie_destroys_an_apple_which_respawns_next_step():
    s = board(
        """
        .......
        .......
        .*Z....
        ..z....
        .......
        a0...b1
        """,
        zombies=1,
    )
    apple = s.apples[0]
    ev = s.apply([S, S])
    assert any(e.kind == "apple_destroyed" for e in ev)
    assert s.zombies[0][-1] == apple
    assert s.apples[0] >= 0 and s.apples[0] != apple


def test_zombies_move_every_zombie_speed_steps():
    s = board(
        """
        ........
        ...Z....
        ...z....
        ........
        a0....1b
        """.replace("1b", "b1"),
        zombies=1,
        zombie_speed=2,
    )
    z0 = s.zombies[0][-1]
    s.apply([S, S])
    assert s.zombies[0][-1] == z0
    s.apply([S, S])
    assert s.zombies[0][-1] != z0


def test_death_then_respawn_after_one_missed_step():
    s = board(
        """
        0a.......
        .........
        .........
        .........
        b1.......
        """,
    )
    s.apply([UP, S])  # snake 0 leaves the board
    # The next state is the step it is dead: no body, yet its agent still runs.
    assert not s.alive[0] and s.to_move() == (0, 1) and not s.bodies[0] and s.occ.count(1) == 0
    ev = s.apply([S, S])  # respawns at the start of the step after
    assert s.alive[0] and len(s.bodies[0]) == 2 and s.deaths[0] == 1
    assert [e.kind for e in ev].count("respawn") == 1
    # Spawned as a straight line whose heading points from neck to head.
    b = s.bodies[0]
    assert s.grid.step(b[-2], s.heading[0]) == b[-1]


def test_crash_removes_the_snake_and_ends_the_game_below_two_agents():
    s = make("arena(game_width=12,game_height=12,num_snakes=3)").new_state(1)
    ev = s.apply([CRASH, S, S])
    assert ev[0].kind == "crash" and not s.running[0] and not s.bodies[0]
    assert s.to_move() == (1, 2) and not s.is_over()
    with pytest.raises(IllegalActionError):
        s.apply([None, 10, S])
    s.apply([None, CRASH, S])
    assert s.is_over() and s.termination is Termination.FORFEIT
    with pytest.raises(GameOverError):
        s.apply([None, None, S])
    assert s.outcome().details["crashes"] == [1, 1, 0]


def test_ranking_longest_then_kills_then_higher_index():
    s = make("arena(game_width=12,game_height=12,num_snakes=4,duration=1)").new_state(1)
    s.longest = [9, 9, 9, 7]
    s.kills = [1, 2, 2, 5]
    assert s.ranking() == [2, 1, 0, 3]


def test_game_lasts_duration_over_speed_steps():
    g = make("arena(game_width=12,game_height=12,duration=1,speed=100)")
    s = g.new_state(3)
    n = 0
    while not s.is_over():
        s.apply([S if r else None for r in s.running])
        n += 1
    assert n == 10 and s.termination is Termination.TIME_UP
    out = s.outcome()
    assert out.winner == out.details["ranking"][0]


def test_apples_expire_after_apple_limit():
    s = board(
        """
        *.......
        ......1b
        ........
        a0......
        """,
        apple_limit=3,
    )
    apple = s.apples[0]
    kinds = []
    for _ in range(3):
        assert s.apples[0] == apple
        kinds += [e.kind for e in s.apply([S, S])]
    assert kinds == ["apple_expired"] and s.apples[0] != apple and s.apple_age[0] == 0


def test_same_seed_same_game_and_aliases():
    a = make("arena(gw=20,gh=15)").new_state(9).to_json()
    b = make("arena(game_width=20,game_height=15)").new_state(9).to_json()
    assert a == b and make("arena(gw=20,gh=15)").new_state(10).to_json() != a


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("arena(num_snakes=1)", "num_snakes"),
        ("arena(speed=0)", "speed"),
        ("arena(starting_length=1)", "starting_length"),
        ("arena(game_width=6,game_height=6)", "half"),
        ("arena(colour=3)", "colour"),
    ],
)
def test_bad_config(spec, needle):
    with pytest.raises(ConfigError, match=needle):
        make(spec)


def test_zombies_move_in_order_and_may_enter_a_tail_vacated_this_step():
    s = board(
        """
        a0........
        ..zzZ.....
        ..Y.......
        ..y.......
        ..y.......
        ........b1
        """,
        zombies=2,
        starting_length=3,
    )
    remove(s, 1)
    s.apply([S, S])
    # Snake 0's head is now (2,0). Zombie 0 goes UP to (4,0) (nearest), vacating (2,1);
    # zombie 1, moving after it, takes that cell: UP at distance 1 beats LEFT/RIGHT at 3.
    assert s.grid.xy(s.zombies[0][-1]) == (4, 0) and s.grid.xy(s.zombies[1][-1]) == (2, 1)
    assert s.occ[s.grid.index(2, 1)] == -3  # zombie 1's code


def test_a_cell_entered_by_an_earlier_zombie_is_not_legal():
    s = board(
        """
        ..........
        ..........
        ..........
        ..zZ.Yy...
        ....a.....
        ....0.....
        ..........
        ........b1
        """,
        zombies=2,
    )
    remove(s, 1)
    s.apply([S, S])
    # Snake 0's head is now (4,6). Zombie 0 (3,3): RIGHT (4,3) and DOWN (3,4) tie at 3, RIGHT first.
    # Zombie 1 (5,3) would take LEFT (4,3) at 3 before DOWN (5,4) at 3, but zombie 0 just entered it.
    assert s.grid.xy(s.zombies[0][-1]) == (4, 3) and s.grid.xy(s.zombies[1][-1]) == (5, 4)
