import math

import pytest

from snakelab.core.errors import CodecError
from snakelab.games.blind.strategies import make_strategy
from tests.research_scripts import load_research

_exp = load_research("blind_experiments")
extra_steps, generate_tests, make_plots = _exp.extra_steps, _exp.generate_tests, _exp.make_plots
per_interval, read_tests, run_tests, write_tests = _exp.per_interval, _exp.read_tests, _exp.run_tests, _exp.write_tests


def test_test_set_follows_the_seed_recipe():
    rows = generate_tests(seed=1)
    assert len(rows) == 500 and len({r.interval for r in rows}) == 50
    first = [r for r in rows if r.interval == "1-20000"]
    assert {(1, 20000), (141, 141)} <= {(r.width, r.height) for r in first}
    assert (10, 100) in {(r.width, r.height) for r in rows}  # n = 10: n³ = 1000 lies in the first interval
    for r in rows:
        lo, hi = (int(v) for v in r.interval.split("-"))
        square = r.width == r.height == math.isqrt(hi)
        special = r.width % 5 == 0 and r.height == r.width**2 and lo <= r.width**3 <= hi
        assert square or special or r.area == hi
    assert generate_tests(seed=1) == rows and generate_tests(seed=2) != rows


def test_test_set_csv_round_trip_and_errors(tmp_path):
    rows = generate_tests(seed=0)[:30]
    path = tmp_path / "t.csv"
    write_tests(path, rows)
    assert read_tests(path) == rows
    path.write_text("A,B,S_interval\n3,x,1-20000\n")
    with pytest.raises(CodecError, match="line 2"):
        read_tests(path)


def test_run_tests_caps_uncovered_grids_at_35_s():
    rows = generate_tests(seed=0)[:20]
    moves = run_tests(make_strategy("zigzag"), rows)
    for r, m in zip(rows, moves.tolist(), strict=True):
        assert 0 < m <= 35 * r.area
    ends, mx, mean = per_interval(rows, moves)
    assert ends == [20000, 40000] and all(a >= b for a, b in zip(mx, mean, strict=True))


def test_extra_steps_match_the_seed_figure():
    # The seed's plot shows about 8,400 extras for k = 1 and about 2,500 for k = 11.
    assert 8300 < extra_steps(1) < 8400 and 2500 < extra_steps(11) < 2550
    assert extra_steps(11) == 2522


@pytest.mark.slow
def test_plots_are_written(tmp_path):
    rows = generate_tests(seed=0, s_max=20_000, interval=2_000)
    assert len(rows) == 100
    paths = make_plots(tmp_path, rows, ks=(1, 11, 20), square=141)
    assert [p.name for p in paths] == [
        "blind_intervals.png",
        "blind_extra_steps.png",
        "blind_max_by_k.png",
        "blind_k_pair.png",
    ]
    for p in paths:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size > 10_000


def test_the_script_writes_a_test_set_and_runs_a_strategy_on_it(tmp_path, capsys):
    path = tmp_path / "t.csv"
    _exp.main(["generate", "--out", str(path), "--seed", "2"])
    assert len(path.read_text().splitlines()) == 1 + 500
    _exp.main(["run", "--strategy", "dynamic-zigzag", "--tests", str(path)])
    table = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("| ") and ln[2].isdigit()]
    assert len(table) == 50  # one row per interval of S
