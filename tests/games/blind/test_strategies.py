import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snakelab.core.errors import CodecError, ConfigError, UnknownNameError
from snakelab.games.blind.champion import ramp_lengths, scaled_lengths, tuned_lengths
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


@pytest.mark.parametrize("params", [{"kmax": 5}, {"kmax": 61}, {"lam": 1.0}, {"eta": -0.1}, {"eta": 2}, {"kmax": 7.5}])
def test_sweeping_zigzag_rejects_bad_parameters(params):
    with pytest.raises(ConfigError):
        make_strategy("sweeping-zigzag", **params)


def test_sweeping_zigzag_is_the_zigzag_with_sweeps_inserted():
    plain = letters(make_strategy("sweeping-zigzag(eta=0)").moves_array(30_000))
    swept = letters(make_strategy("sweeping-zigzag(eta=0.2)").moves_array(30_000))
    assert set(plain) == {"R", "D"}
    # The first sweep starts after segment 16: segment 17 is its first pass, then four
    # more passes (2·ceil(0.2·16/2) + 1 = 5 in all) behind R R, alternately U/L and R/D,
    # and an L run of 7 back to where the zig-zag is after segment 17.
    extras = [i for i in range(len(plain) - 1) if plain[i : i + 2] == "RR"]
    seg17 = extras[16]  # index of the extra R that ends segment 17
    first_u = swept.index("U")
    back = swept.index("L" * 7, first_u)
    assert swept[:seg17] == plain[:seg17]
    assert swept.count("RR", seg17, back) == 4 and swept.count("UL", first_u, back) > 0

    def position(text):
        return sum((c == "R") - (c == "L") for c in text), sum((c == "D") - (c == "U") for c in text)

    # Pure insertion: same place afterwards, and the same moves until the next sweep.
    assert position(swept[: back + 7]) == position(plain[: seg17 + 1])
    assert swept[back + 7 : back + 1000] == plain[seg17 + 1 : seg17 + 994]


def _zigzag_text(lengths, n):
    """The seed's walk for the given segment lengths, cut to n moves."""
    out, zig = [], 0
    for length in lengths:
        for _ in range(length):
            out.append("RD"[zig])
            zig ^= 1
        out.append("R")
        if len(out) >= n:
            break
    return "".join(out)[:n]


def test_tuned_zigzag_is_the_seed_walk_with_the_tuned_segment_lengths():
    lengths = tuned_lengths(0, 400)
    assert (lengths >= 1).all() and (tuned_lengths(20, 60) == lengths[20:60]).all()
    assert not (lengths == ramp_lengths(400)).all()
    assert (scaled_lengths([0.0, 0.0], 0, 400) == ramp_lengths(400)).all()
    doubled = scaled_lengths([math.log(2.0)] * 3, 10, 400)
    assert (doubled == 2 * ramp_lengths(400)[10:]).all()
    n = 100_000
    assert letters(make_strategy("tuned-zigzag").moves_array(n)) == _zigzag_text(lengths, n)
    assert make_strategy("champion").name == "tuned-zigzag"
    # The lengths it scales are ramp-zigzag's own.
    assert letters(make_strategy("ramp-zigzag").moves_array(n)) == _zigzag_text(ramp_lengths(400), n)
