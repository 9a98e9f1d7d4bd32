import shlex
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snakelab.core.errors import CodecError
from snakelab.games.arena.codec import (
    Init,
    SnakeLine,
    StateMessage,
    format_apple,
    format_chain,
    format_init,
    format_log,
    format_move,
    format_snake_line,
    format_state,
    parse_apple,
    parse_chain,
    parse_init,
    parse_log,
    parse_move,
    parse_snake_line,
    parse_state,
    state_message,
)
from snakelab.games.arena.rules import INVALID, RIGHT, UP
from snakelab.harness import arena_bot
from snakelab.harness.arena_bot import BotAgent, BotOptions, processes_in_group

from .pictures import board

BOTS = Path(__file__).parent / "bots"

STEPS = st.sampled_from([(0, 1), (0, -1), (1, 0), (-1, 0)])


@st.composite
def paths(draw, min_size=1):
    x, y = draw(st.integers(0, 60)), draw(st.integers(0, 60))
    cells = [(x, y)]
    for dx, dy in draw(st.lists(STEPS, min_size=min_size - 1, max_size=30)):
        x, y = x + dx, y + dy
        cells.append((x, y))
    return tuple(cells)


@settings(deadline=None)  # a loaded CI machine must not fail a parser test on time
@given(paths())
def test_chain_round_trip(cells):
    text = format_chain(cells)
    assert parse_chain(text) == cells
    assert len(text.split()) <= len(cells)


@settings(deadline=None)  # a loaded CI machine must not fail a parser test on time
@given(st.booleans(), st.integers(0, 99), paths(min_size=2))
def test_snake_line_round_trip(alive, kills, cells):
    line = SnakeLine(alive, len(cells) if alive else 0, kills, cells if alive else ())
    assert parse_snake_line(format_snake_line(line)) == line


@settings(deadline=None)  # a loaded CI machine must not fail a parser test on time
@given(st.integers(1, 64), st.integers(2, 999), st.integers(2, 999))
def test_init_round_trip(n, w, h):
    init = Init(n, w, h)
    assert parse_init(format_init(init)) == init


@settings(deadline=None)  # a loaded CI machine must not fail a parser test on time
@given(st.none() | st.tuples(st.integers(0, 999), st.integers(0, 999)))
def test_apple_round_trip(apple):
    assert parse_apple(format_apple(apple)) == apple


@settings(deadline=None)  # a loaded CI machine must not fail a parser test on time
@given(st.integers(0, 6))
def test_move_round_trip(m):
    assert parse_move(format_move(m)) == m
    assert parse_move(f" {m}\r\n") == m


@settings(deadline=None)  # a loaded CI machine must not fail a parser test on time
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_log_round_trip(msg):
    assert parse_log(format_log(msg)) == msg


@settings(deadline=None)  # a loaded CI machine must not fail a parser test on time
@given(
    st.lists(st.none() | st.tuples(st.integers(0, 49), st.integers(0, 49)), min_size=0, max_size=3),
    st.lists(paths(min_size=2), max_size=3),
    st.lists(st.tuples(st.booleans(), st.integers(0, 9), paths(min_size=2)), min_size=2, max_size=5),
)
def test_state_round_trip(apples, zombies, snakes):
    lines = [SnakeLine(a, len(c) if a else 0, k, c if a else ()) for a, k, c in snakes]
    msg = StateMessage(tuple(apples), tuple(zombies), 1, tuple(lines))
    got = parse_state(format_state(msg), len(lines), len(zombies), len(apples))
    assert got == msg


@pytest.mark.parametrize(
    ("fn", "text", "needle"),
    [
        (parse_move, "7", "0-6"),
        (parse_move, "up", "0-6"),
        (parse_move, "", "0-6"),
        (parse_chain, "1,2 3,4", "not on one row"),
        (parse_chain, "1;2", "x,y"),
        (parse_snake_line, "zombie 3 0 1,1 1,3", "alive|dead"),
        (parse_snake_line, "alive 3 0", "coordinates"),
        (parse_init, "4 50 50", "num_snakes"),
        (parse_apple, "4,5", "x y"),
    ],
)
def test_bad_lines_raise_codec_errors(fn, text, needle):
    with pytest.raises(CodecError, match=needle):
        fn(text)


POSITION = """
..........
.a0....*..
.a........
.###......
..Z..*.b1.
..z.......
"""


def test_state_lines_of_a_position():
    s = board(POSITION, zombies=1)
    lines = format_state(state_message(s, 1))
    assert lines == [
        "7 1",
        "5 4",
        "2,4 2,5",
        "1",
        "alive 3 0 2,1 1,1 1,2",
        "alive 2 0 8,4 7,4",
    ]
    s.bodies[0].clear()
    s.kills[0] = 2
    assert format_state(state_message(s, 0))[4] == "dead 0 2"


def test_scripted_dialogue__init_obstacles_states_dead_snake_game_over(tmp_path, monkeypatch):
    """A bot process receives exactly the expected lines and its scripted answers come back."""
    # The echo bot exits as soon as it has logged "Game Over"; a long grace only keeps a
    # loaded machine from killing it before it got the CPU to do so.
    monkeypatch.setattr(arena_bot, "GAME_OVER_GRACE_S", 30.0)
    s = board(POSITION, zombies=1)
    g = s.grid
    s.obstacles = [[g.index(1, 3), g.index(2, 3), g.index(3, 3)]]
    from snakelab import make

    game = make("arena(game_width=10,game_height=6,num_zombies=1,num_apples=2,starting_length=2,duration=1)")
    cmd = f"{shlex.quote(sys.executable)} -u {shlex.quote(str(BOTS / 'echo_bot.py'))} 0,x,3"
    bot = BotAgent(cmd, BotOptions(kind="exec", lockstep=True, timeout_s=5, run_dir=str(tmp_path), name="echo"))
    bot.reset(game.info, 1, 0)
    pid = bot.pid
    answers = []
    try:
        answers.append(bot.act(s, None))  # answer "0" (up)
        s.apply([UP, answers[-1]])
        answers.append(bot.act(s, None))  # answer "x": not a move
        s.apply([UP, answers[-1]])  # snake 0 leaves the board
        # Snake 1 is alive, snake 0 dead: the state shows "dead 0 0".
        answers.append(bot.act(s, None))  # answer "3" (right)
    finally:
        bot.close()
    assert answers == [UP, INVALID, RIGHT]
    got = (tmp_path / "p1-echo.log").read_text().splitlines()
    want = [
        "> 2 10 6 1",
        "> 1,3 3,3",
        "> 7 1",
        "> 5 4",
        "> 2,4 2,5",
        "> 1",
        "> alive 3 0 2,1 1,1 1,2",
        "> alive 2 0 8,4 7,4",
    ]
    assert got[: len(want)] == want
    assert got[-1] == "> Game Over"
    assert "> dead 0 0" in got[len(want) :]
    assert sum(1 for line in got if line == "> 1") == 3  # three states, each with the own index
    assert processes_in_group(pid) == []
