import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snakelab import make
from snakelab.core.errors import CodecError, ConfigError, GameOverError, IllegalActionError
from snakelab.games.snakgame import EXIT, Move, format_move, parse_move, snake_score
from snakelab.games.snakgame.rules import BLOCKED, CHEF, EMPTY, MINE, Config, generate_grid


def _grid(n, m, blocked=(), freeze=True):
    game = make(f"snakgame(type=0,rows={n},cols={m},block_prob=0,freeze={str(freeze).lower()})")
    return game.state_with_grid(n, m, list(blocked))


def _dialogue(state, lines):
    """Play 'Y ...' lines as your moves and 'J ...' lines as Chef's replies."""
    for line in lines:
        who, text = line.split(" ", 1)
        move = parse_move(text)
        if who == "Y":
            state.play_mine(move)
        else:
            state.play_chef(move)
    return state


def test_example_1__two_by_two():
    s = _dialogue(_grid(2, 2), ["Y NEW 1 1", "J NEW 1 2", "Y MOVE 1 1 2 1", "J MOVE 1 2 2 2"])
    assert s.is_over() and s.free == 0
    assert s.outcome().details["score"] == 1 and s.outcome().details["snakes"] == 1


def test_example_2__freezes():
    s = _dialogue(
        _grid(3, 3),
        [
            "Y NEW 2 2",
            "J FREEZE 2",
            "Y MOVE 2 2 3 2",
            "J FREEZE 1",
            "Y MOVE 3 2 3 3",
            "J NEW 2 3",
            "Y MOVE 2 2 1 2",
            "J FREEZE 1",
            "Y MOVE 1 2 1 1",
            "J MOVE 2 3 1 3",
            "Y MOVE 1 1 2 1",
            "J NEW 3 1",
        ],
    )
    assert s.is_over() and s.length == 6
    assert s.outcome().scores == (10.0,)
    assert s.chef_frozen == 3


def test_example_3__blocked_cells_and_second_snake():
    s = _grid(3, 4, [(1, 1), (3, 4)])
    _dialogue(s, ["Y NEW 1 2", "J NEW 2 4", "Y MOVE 1 2 1 3", "J MOVE 2 4 2 3", "Y MOVE 1 3 1 4", "J MOVE 2 3 3 3"])
    # (2, 2) is still free next to the tail: a NEW is legal anyway and finishes the snake.
    assert s.is_legal(0, Move("MOVE", 1, 2, 2, 2))
    events = s.play_mine(parse_move("NEW 3 2"))
    assert [e.kind for e in events] == ["snake_done"] and events[0].data == {"length": 3, "score": 2}
    _dialogue(s, ["J NEW 2 1", "Y MOVE 3 2 2 2", "J MOVE 2 1 3 1"])
    assert s.is_over()
    assert s.outcome().details["score"] == 3 and s.outcome().details["snakes"] == 2


@pytest.mark.parametrize(
    ("setup", "move", "reason"),
    [
        ([], "MOVE 1 1 1 2", "no snake yet"),
        (["Y NEW 2 2"], "MOVE 1 1 1 2", "not an end of your snake"),
        (["Y NEW 2 2"], "MOVE 2 2 3 3", "not adjacent"),
        (["Y NEW 3 1"], "MOVE 3 1 3 3", "not adjacent"),
        (["Y NEW 2 2", "J NEW 2 3"], "MOVE 2 2 2 3", "not empty (Chef's snake)"),
        (["Y NEW 2 2"], "MOVE 2 2 1 2", "not empty (blocked)"),
        (["Y NEW 2 2", "J NEW 3 3", "Y MOVE 2 2 2 1"], "MOVE 2 1 2 2", "not empty (your snake)"),
        (["Y NEW 2 2", "J NEW 3 3"], "MOVE 3 3 3 2", "not an end of your snake"),
        (["Y NEW 2 2", "J NEW 3 3", "Y MOVE 2 2 2 1"], "NEW 2 2", "not empty (your snake)"),
        ([], "NEW 4 1", "off the 3×3 grid"),
        ([], "NEW 0 2", "off the 3×3 grid"),
        (["Y NEW 3 3"], "MOVE 3 3 4 3", "off the 3×3 grid"),
        ([], "NEW 1 2", "not empty (blocked)"),
    ],
)
def test_illegal_moves__rejected_with_reason_and_state_unchanged(setup, move, reason):
    s = _dialogue(_grid(3, 3, [(1, 2)]), setup)
    before = s.to_json()
    mv = parse_move(move)
    assert not s.is_legal(0, mv)
    with pytest.raises(IllegalActionError, match=reason.replace("(", r"\(").replace(")", r"\)")) as info:
        s.apply([mv])
    assert move in str(info.value)
    assert s.to_json() == before


def test_freeze_and_junk_are_not_player_moves():
    s = _grid(2, 3)
    with pytest.raises(IllegalActionError, match="FREEZE is Chef's move"):
        s.apply([Move("FREEZE", 3)])
    with pytest.raises(IllegalActionError, match="not a move"):
        s.apply(["NEW 1 1"])


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("", "empty line"),
        ("JUMP 1 2", "must start with NEW, MOVE or EXIT"),
        ("NEW 1", "NEW takes 2 numbers"),
        ("MOVE 1 2 3", "MOVE takes 4 numbers"),
        ("NEW a b", "must be integers"),
        ("EXIT now", "EXIT takes 0 numbers"),
    ],
)
def test_parse_move__unreadable_lines(line, needle):
    with pytest.raises(CodecError, match=needle):
        parse_move(line)


def test_parse_format_round_trip():
    for text in ("NEW 3 4", "MOVE 1 2 1 3", "EXIT", "FREEZE 17"):
        assert str(parse_move(text)) == text


def test_exit_ends_the_game_and_counts_the_current_snake():
    s = _dialogue(_grid(3, 3), ["Y NEW 1 1", "J NEW 3 3", "Y MOVE 1 1 1 2", "J MOVE 3 3 3 2", "Y MOVE 1 2 1 3"])
    s.chef_turn()
    events = s.apply([EXIT])
    assert [e.kind for e in events] == ["exit"] and s.is_over()
    assert s.outcome().termination == "EXIT" and s.outcome().details["score"] == snake_score(3) == 2
    with pytest.raises(GameOverError):
        s.apply([EXIT])


def test_grid_full__after_your_move_no_chef_reply():
    s = _dialogue(_grid(1, 3), ["Y NEW 1 1", "J NEW 1 3"])
    events = s.apply([Move("MOVE", 1, 1, 1, 2)])
    assert [e.kind for e in events] == ["full"] and s.is_over() and s.outcome().termination == "FULL"


def test_grid_full__after_chef_reply():
    s = _grid(1, 2, freeze=False)
    events = s.apply([Move("NEW", 1, 1)])
    assert [e.kind for e in events] == ["chef", "full"] and events[0].data == {"move": "NEW 1 2"}
    assert s.is_over() and s.to_move() == ()


@pytest.mark.parametrize(("length", "score"), [(1, 0), (2, 1), (3, 2), (4, 6), (6, 10), (9, 24), (100, 990)])
def test_snake_score(length, score):
    assert snake_score(length) == score


def test_legal_actions__lazy_and_exact():
    s = _dialogue(_grid(3, 4, [(1, 1)]), ["Y NEW 2 2", "J NEW 3 4"])
    legal = s.legal_actions()
    assert len(legal) == 1 + 4 + s.free
    assert legal[0] == EXIT
    assert {str(mv) for mv in legal[1:5]} == {"MOVE 2 2 1 2", "MOVE 2 2 3 2", "MOVE 2 2 2 1", "MOVE 2 2 2 3"}
    news = [str(mv) for mv in legal[5:]]
    assert news[0] == "NEW 1 2" and news[-1] == "NEW 3 3" and len(news) == s.free
    assert Move("NEW", 1, 1) not in legal and Move("NEW", 1, 2) in legal
    assert legal[-1] == legal[len(legal) - 1]
    with pytest.raises(IndexError):
        legal[len(legal)]


def test_chef__follows_the_statement_order():
    s = _grid(4, 4, freeze=False)
    s.play_mine(Move("NEW", 1, 1))
    first = s.chef_turn()
    assert first.kind == "NEW" and s.chef_len == 1  # rule 3: he starts a snake
    for _ in range(6):
        if s.is_over():
            break
        before = (s.chef_head, s.chef_tail, s.chef_len)
        mv = s.chef_turn()
        if mv.kind == "MOVE":
            assert s.cell(mv.x, mv.y) in before[:2] and s.chef_len == before[2] + 1
    # Rule 1: a FREEZE t > 1 is followed by FREEZE t-1, then a real move.
    t = _grid(4, 4)
    t.chef_freeze = 3
    assert t.chef_turn() == Move("FREEZE", 2)
    assert t.chef_turn() == Move("FREEZE", 1)
    assert t.chef_turn().kind in ("NEW", "FREEZE")  # a fresh freeze stays possible (1/500)


def test_chef__new_snake_when_stuck():
    s = _grid(3, 3, freeze=False)
    s.play_chef(Move("NEW", 1, 1))
    s.play_mine(Move("NEW", 1, 2))
    s.play_mine(Move("MOVE", 1, 2, 2, 2))
    s.play_mine(Move("MOVE", 2, 2, 2, 1))
    assert s.empty_neighbours(s.chef_head) == []
    assert s.chef_turn().kind == "NEW"


def test_chef__seeded_and_reproducible():
    game = make("snakgame(type=0,rows=12,cols=12)")
    a, b = game.new_state(5), game.new_state(5)
    c = game.new_state(6)
    seq = []
    for state in (a, b, c):
        state.apply([state.legal_actions()[-1]])
        seq.append([str(state.chef_turn()) for _ in range(20)])
    assert seq[0] == seq[1] and seq[0] != seq[2]


def test_chef_statistics__frozen_share_and_snake_length():
    game = make("snakgame(type=0,rows=250,cols=250)")
    frozen = turns = 0
    lengths = []
    for seed in (1, 2):
        s = game.new_state(seed)
        cur = 0
        for _ in range(30_000):  # half the free cells, as in the research notes' simulation
            mv = s.chef_turn()
            if mv.kind == "NEW":
                if cur:
                    lengths.append(cur)
                cur = 1
            elif mv.kind == "MOVE":
                cur += 1
        frozen += s.chef_frozen
        turns += s.chef_turns
    # Expected frozen share: 25.5 / (499 + 25.5) = 4.86%.
    assert 0.030 < frozen / turns < 0.070
    # About 38 cells per snake on a 250×250 type-1 grid (the research notes' figure).
    mean = sum(lengths) / len(lengths)
    assert 34 < mean < 46
    assert len(lengths) > 1000


def test_generator__sizes_blocks_and_seeding():
    for t, (lo, hi) in ((1, (200, 300)), (2, (500, 600))):
        sizes = set()
        for seed in range(4):
            n, m, blocked = generate_grid(Config(type=t), seed)
            assert lo <= n <= hi and lo <= m <= hi and blocked.shape == (n, m)
            assert abs(blocked.mean() - 1 / 25) < 0.006
            sizes.add((n, m))
        assert len(sizes) > 1
    a = generate_grid(Config(type=1), 9)
    b = generate_grid(Config(type=1), 9)
    assert a[:2] == b[:2] and np.array_equal(a[2], b[2])


def test_state_cells_and_counts():
    s = make("snakgame(type=0,rows=6,cols=7,blocked='1 1;6 7')").new_state(0)
    arr = np.frombuffer(s.occ, dtype=np.uint8)
    assert arr[0] == BLOCKED and arr[-1] == BLOCKED and s.free == 40
    s.apply([Move("NEW", 3, 3)])
    assert arr[s.cell(3, 3)] == MINE and (arr == CHEF).sum() == 1 - (s.chef_frozen > 0)
    assert (arr == EMPTY).sum() == s.free == sum(s.row_free)


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"type": 3}, "type 3"),
        ({"type": 0, "rows": 0}, "0×6"),
        ({"type": 0, "blocked": "1 x"}, "cannot read blocked cell"),
        ({"type": 0, "rows": 2, "blocked": "3 1"}, "off the 2×6 grid"),
        ({"blocked": "1 1"}, "need type=0"),
        ({"block_prob": 1.5}, "block_prob"),
    ],
)
def test_config_errors(kwargs, needle):
    with pytest.raises(ConfigError, match=needle):
        Config(**kwargs)


@given(
    kind=st.sampled_from(["NEW", "MOVE", "EXIT", "FREEZE"]),
    nums=st.lists(st.integers(min_value=0, max_value=10**6), min_size=4, max_size=4),
)
def test_move_text_round_trip__hypothesis(kind, nums):
    arity = {"NEW": 2, "MOVE": 4, "EXIT": 0, "FREEZE": 1}[kind]
    move = Move(kind, *nums[:arity])
    assert parse_move(format_move(move)) == move
    assert parse_move("  " + format_move(move) + " \r\n") == move


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31), picks=st.lists(st.integers(min_value=0), max_size=40))
def test_random_legal_moves_keep_the_counts_consistent__hypothesis(seed, picks):
    s = make("snakgame(type=0,rows=5,cols=6,block_prob=0.2)").new_state(seed)
    for p in picks:
        if s.is_over():
            break
        legal = s.legal_actions()
        s.apply([legal[1 + p % (len(legal) - 1)] if len(legal) > 1 else legal[0]])
        arr = np.frombuffer(s.occ, dtype=np.uint8)
        assert (arr == EMPTY).sum() == s.free == sum(s.row_free)
        assert (arr == MINE).sum() == sum(s.done) + s.length
        assert s.chef_len <= (arr == CHEF).sum()
