import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snakelab.core.errors import CodecError, ConfigError, UnknownNameError
from snakelab.games.blind.strategies import (
    STRATEGIES,
    FileStrategy,
    letters,
    make_strategy,
    parse_moves,
    read_moves,
    write_moves,
)

NAMES = sorted(n for n, e in STRATEGIES.items() if n != "file")


@pytest.mark.parametrize("name", NAMES)
def test_lazy_generator_and_array_agree(name):
    s = make_strategy(name)
    n = 200_000
    gen = s.moves()
    lazy = "".join(next(gen) for _ in range(n))
    assert letters(s.moves_array(n)) == lazy
    assert set(lazy) <= set("RDLU")


def test_seed_prefixes():
    spiral = make_strategy("spiral").moves()
    assert "".join(next(spiral) for _ in range(12)) == "RDLLUURRRDDD"
    dz = make_strategy("dynamic-zigzag").moves()
    assert "".join(next(dz) for _ in range(40)) == "RRDRDRDRDRDRDRRDRDRDRDRDRDRDRDRDRDRDRDRR"
    assert make_strategy("dynamic-zigzag", k=11).spec == "dynamic-zigzag(k=11)"
    assert make_strategy("dynamic-zigzag(k=5)").params == {"k": 5}


def test_dynamic_zigzag_is_segments_1_1k_12k_then_an_extra_r():
    k = 4
    expected, zig = [], 0
    for j in range(40):
        for _ in range(1 + j * k):
            expected.append("RD"[zig])
            zig ^= 1
        expected.append("R")
    text = "".join(expected)
    assert letters(make_strategy("dynamic-zigzag", k=k).moves_array(len(text))) == text


def test_unknown_strategy_and_bad_parameter():
    with pytest.raises(UnknownNameError, match="unknown strategy 'snail'"):
        make_strategy("snail")
    with pytest.raises(ConfigError, match="k ≥ 1"):
        make_strategy("dynamic-zigzag", k=0)
    with pytest.raises(ConfigError, match="bad parameters"):
        make_strategy("spiral", k=3)


def test_move_file_round_trip(tmp_path):
    path = tmp_path / "m.txt"
    assert write_moves(path, make_strategy("spiral"), 1000, line_length=70) == 1000
    codes = read_moves(path)
    assert letters(codes) == letters(make_strategy("spiral").moves_array(1000))
    fs = FileStrategy(path)
    assert len(fs) == 1000 and not fs.monotone and "".join(fs.moves()) == letters(codes)
    write_moves(path, make_strategy("dynamic-zigzag"), 500)
    assert FileStrategy(path).monotone


def test_stray_character_names_line_and_column(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("RDRD\nRRxD\n")
    with pytest.raises(CodecError, match=r"line 2, column 3: stray character 'x'"):
        read_moves(path)
    with pytest.raises(CodecError, match="cannot read move file"):
        read_moves(tmp_path / "missing.txt")


@settings(max_examples=50, deadline=None)
@given(st.text(alphabet="RDLUrdlu \n", max_size=200))
def test_parse_moves_accepts_letters_in_either_case(text):
    codes = parse_moves(text)
    assert letters(codes) == "".join(ch for ch in text.upper() if ch in "RDLU")
