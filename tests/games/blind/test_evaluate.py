import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snakelab.core.errors import ConfigError
from snakelab.games.blind.evaluate import RunTable, fast_covers, reference_cover, reference_covers
from snakelab.games.blind.strategies import CODE, letters, make_strategy, parse_moves
from snakelab.games.blind.sweep import grids_of

N = 10_000


def _all_grids(n):
    return grids_of(1, n, n)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "cap"),
    [
        ("dynamic-zigzag(k=1)", 35.0),
        ("dynamic-zigzag(k=11)", 35.0),
        ("dynamic-zigzag(k=20)", 35.0),
        ("champion", 35.0),
        ("ramp-zigzag", 35.0),
        ("sweeping-zigzag", 35.0),
        # The spiral needs about max(A, B)² moves, so its plain simulation is capped lower;
        # grids it does not cover by 4·S must then be reported uncovered by both evaluators.
        ("spiral", 4.0),
    ],
)
def test_fast_and_reference_agree_on_every_grid_up_to_1e4(spec, cap):
    w, h = _all_grids(N)
    assert len(w) == 93_668
    moves = make_strategy(spec).moves_array(int(cap * N) + 1)
    fast = fast_covers(RunTable(moves), w, h, cap)
    ref = reference_covers(moves, w, h, cap)
    bad = np.nonzero(fast != ref)[0]
    assert bad.size == 0, [(int(w[i]), int(h[i]), int(fast[i]), int(ref[i])) for i in bad[:5]]
    if spec != "spiral":
        assert (fast > 0).sum() == len(w) - 1  # everything but 1×1 is covered, 1×1 at move 0


def test_plain_python_reference_matches_compiled_reference():
    s = make_strategy("dynamic-zigzag(k=3)")
    moves = s.moves_array(5000)
    for a, b in [(1, 1), (1, 7), (7, 1), (4, 6), (6, 4), (5, 5), (9, 2)]:
        want = reference_cover(s.moves(), a, b, cap=5000)
        assert reference_covers(moves, [a], [b], 1000.0)[0] == want


def test_check_figures_from_the_spec():
    moves = make_strategy("dynamic-zigzag(k=11)").moves_array(7_000_000)
    table = RunTable(moves)
    got = fast_covers(table, [1000, 19, 1], [1000, 436, 1_000_000], 35.0)
    assert got[0] == 6_531_233
    assert round(got[1] / (19 * 436), 2) == 11.47
    assert round(got[2] / 1_000_000, 4) == 2.0006


def test_uncovered_and_cap():
    table = RunTable(make_strategy("zigzag").moves_array(10_000))
    # gcd 3: the zig-zag stays on two of the three diagonal classes forever.
    assert fast_covers(table, [3], [6], 35.0)[0] == -1
    # A cap below the true cover time reports -1 as well.
    dz = RunTable(make_strategy("dynamic-zigzag").moves_array(10_000))
    exact = int(fast_covers(dz, [7], [9], 35.0)[0])
    assert exact > 0
    assert fast_covers(dz, [7], [9], (exact - 1) / 63)[0] == -1
    assert fast_covers(dz, [7], [9], exact / 63)[0] == exact


def test_bad_grid_is_a_config_error():
    table = RunTable(make_strategy("spiral").moves_array(100))
    with pytest.raises(ConfigError, match="0×5"):
        fast_covers(table, [0], [5])
    with pytest.raises(ConfigError, match="3×0"):
        reference_cover(iter("RDRD"), 3, 0)


@settings(max_examples=60, deadline=None)
@given(
    st.text(alphabet="RDLU", min_size=1, max_size=300),
    st.integers(min_value=1, max_value=9),
    st.integers(min_value=1, max_value=9),
)
def test_fast_equals_reference_on_any_walk(text, a, b):
    codes = parse_moves(text)
    table = RunTable(codes)
    assert table.monotone == (set(text) <= {"R", "D"})
    want = reference_cover(iter(text), a, b)
    assert fast_covers(table, [a], [b], 1e9)[0] == want
    # Both decompositions are exact on any walk, whichever the table would pick.
    for diagonal in (True, False):
        assert fast_covers(RunTable(codes, diagonal=diagonal), [a], [b], 1e9)[0] == want
    cap = len(text) // 2
    for diagonal in (True, False):
        got = fast_covers(RunTable(codes, diagonal=diagonal), [a], [b], cap / (a * b))[0]
        assert got == (want if 0 <= want <= cap else -1)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(min_value=1, max_value=40), min_size=1, max_size=30),
    st.integers(min_value=1, max_value=12),
    st.integers(min_value=1, max_value=12),
)
def test_fast_equals_reference_on_monotone_walks_with_long_runs(runs, a, b):
    # Long straight runs and long alternations exercise the word-level paths.
    text = "".join(
        ("R" if i % 2 == 0 else "D") * n if n % 3 == 0 else ("RD" * n)[: n + i % 2] for i, n in enumerate(runs)
    )
    table = RunTable(parse_moves(text))
    assert fast_covers(table, [a], [b], 1e9)[0] == reference_cover(iter(text), a, b)
    assert letters(parse_moves(text)) == text and CODE["R"] == 0


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["RD", "DR", "UL", "LU", "R", "D", "L", "U"]), st.integers(1, 40)), max_size=25),
    st.integers(min_value=1, max_value=12),
    st.integers(min_value=1, max_value=12),
)
def test_fast_equals_reference_on_long_forward_and_backward_alternations(parts, a, b):
    # U/L alternations are timed backwards along their arcs; long ones wrap the circle.
    text = "".join((unit * n)[: n + len(unit) - 1] for unit, n in parts) or "R"
    table = RunTable(parse_moves(text), diagonal=True)
    assert fast_covers(table, [a], [b], 1e9)[0] == reference_cover(iter(text), a, b)
