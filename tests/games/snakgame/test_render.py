from snakelab import make
from snakelab.games.snakgame import Move
from snakelab.games.snakgame.render import to_text


def test_small_grid__every_cell_with_ends_marked():
    s = make("snakgame(type=0,rows=3,cols=4,blocked='1 1',freeze=false)").new_state(0)
    s.apply([Move("NEW", 2, 2)])
    s.apply([Move("MOVE", 2, 2, 2, 3)])
    text = to_text(s)
    rows = text.splitlines()[:3]
    assert rows[0].split()[0] == "#"
    assert rows[1].split()[1:3] == ["@", "@"]  # a two-cell snake: both cells are ends
    assert text.count("X") + text.count("x") == s.chef_len
    assert "score 1" in text and "move 2" in text


def test_large_grid__reduced_picture():
    s = make("snakgame(type=1)").new_state(3)
    text = to_text(s)
    lines = text.splitlines()
    assert "block of cells" in text
    assert len(lines) < 50 and max(len(line) for line in lines[:-2]) <= 2 * 60
