import json

import pytest
from typer.testing import CliRunner

from snakelab.cli import app
from tests.cli_helpers import run_snakelab as _snakelab

runner = CliRunner()


def _json(out):
    return json.loads(out[out.index("{") :])


@pytest.mark.parametrize(("strategy", "width", "height"), [("dynamic-zigzag", 9, 7), ("spiral", 6, 4)])
def test_play_watches_a_whole_cover_walk(strategy, width, height):
    cover = _json(
        runner.invoke(app, ["blind", "cover", "-s", strategy, "-W", str(width), "-H", str(height), "--json"]).stdout
    )["cover"]
    r = _snakelab("blind", "play", "-s", strategy, "-W", width, "-H", height, "--speed", "0")
    assert r.returncode == 0, r.stderr
    assert f"visited every cell after {cover:,} moves" in r.stdout


def test_play_with_a_seeded_apple_stops_where_it_finds_it():
    r = _snakelab(
        "blind", "play", "-s", "spiral", "-W", "9", "-H", "7", "--seed", "4", "--seeded-apple", "--speed", "0"
    )
    assert r.returncode == 0 and "found the apple after" in r.stdout, r.stderr


def test_bench_random_tori_and_one_torus(tmp_path):
    from snakelab.cli.blind import random_tori

    tori = random_tori(30, list(range(2000)))
    assert all(2 <= a * b <= 30 for a, b in tori) and len(set(tori)) == sum(30 // a for a in range(1, 31)) - 1
    r = runner.invoke(app, ["blind", "bench", "-s", "champion", "-n", "30", "-N", "200", "-j", "1", "--json"])
    assert r.exit_code == 0, r.output
    obj = _json(r.stdout)
    assert obj["games"] == 30 and obj["found"] == 30 and obj["max_ratio"] >= obj["mean_ratio"] > 0
    one = _json(
        runner.invoke(
            app, ["blind", "bench", "-s", "spiral", "-n", "10", "-W", "9", "-H", "7", "-j", "1", "--json"]
        ).stdout
    )
    cover = _json(runner.invoke(app, ["blind", "cover", "-s", "spiral", "-W", "9", "-H", "7", "--json"]).stdout)
    assert one["max_grid"] == [9, 7] and one["max_ratio"] <= cover["ratio"]


def test_cover_json_keys_and_check_figure():
    r = runner.invoke(
        app, ["blind", "cover", "-s", "dynamic-zigzag", "--k", "11", "-W", "1000", "-H", "1000", "--json"]
    )
    assert r.exit_code == 0, r.output
    obj = _json(r.stdout)
    assert set(obj) == {"strategy", "width", "height", "cover", "ratio"}
    assert obj["cover"] == 6_531_233 and obj["ratio"] == pytest.approx(6.531233)


def test_sweep_json_keys(tmp_path):
    r = runner.invoke(
        app,
        ["blind", "sweep", "-s", "dynamic-zigzag", "--k", "11", "--max-area", "600", "--jobs", "1", "--json",
         "--checkpoint", str(tmp_path / "c.jsonl")],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    obj = _json(r.stdout)
    assert set(obj) == {"strategy", "max_area", "grids", "worst_ratio", "worst_grid", "mean_ratio"}
    assert obj["strategy"] == "dynamic-zigzag(k=11)" and obj["max_area"] == 600
    assert isinstance(obj["worst_grid"], list) and len(obj["worst_grid"]) == 2
    assert obj["worst_ratio"] >= obj["mean_ratio"] >= 1


def test_sweep_table_view(tmp_path):
    r = runner.invoke(app, ["blind", "sweep", "-s", "spiral", "-N", "300", "-j", "1", "--no-checkpoint"])
    assert r.exit_code == 0, r.output
    assert "not covered" in r.stdout and "per band" in r.stdout


def test_sweep_plot_from_the_sweep_and_from_saved_reports(tmp_path):
    png = tmp_path / "k11.png"
    r = runner.invoke(
        app,
        ["blind", "sweep", "-s", "dynamic-zigzag", "-N", "500", "-j", "1", "--no-checkpoint", "--json", "--details",
         "--plot", str(png)],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    report = _json(r.stdout)
    assert report["ratio_map"]["per_decade"] == 8 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    saved = tmp_path / "k11.json"
    saved.write_text(json.dumps(report))
    spiral = tmp_path / "spiral.json"
    r = runner.invoke(
        app, ["blind", "sweep", "-s", "spiral", "-N", "300", "-j", "1", "--no-checkpoint", "--json", "--details"]
    )
    spiral.write_text(r.stdout)
    both = tmp_path / "both.png"
    r = runner.invoke(app, ["blind", "sweep-plot", str(saved), str(spiral), "-o", str(both), "--title", "two"])
    assert r.exit_code == 0, r.output
    assert both.stat().st_size > png.stat().st_size  # two maps, one of them with uncovered cells


def test_sweep_plot_names_what_is_wrong(tmp_path):
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"strategy": "spiral", "max_area": 10, "grids": 27}))
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    for args, words in (
        ([str(tmp_path / "none.json")], "no such file"),
        ([str(garbage)], "not a JSON sweep report"),
        ([str(plain)], "missing worst_ratio, worst_grid, bands, histogram, ratio_map"),
    ):
        r = _snakelab("blind", "sweep-plot", *args, "-o", str(tmp_path / "x.png"))
        assert r.returncode != 0 and words in r.stderr and "Traceback" not in r.stderr, r.stderr
    # A bad --plot path is refused before the sweep runs.
    r = _snakelab("blind", "sweep", "-s", "spiral", "-N", "10", "--no-checkpoint", "--plot", str(tmp_path / "x.jpg"))
    assert r.returncode != 0 and "ending in .png" in r.stderr and "worst ratio" not in r.stdout
    r = _snakelab("blind", "sweep", "-s", "spiral", "-N", "10", "--no-checkpoint", "--plot", str(tmp_path / "no/x.png"))
    assert r.returncode != 0 and "no folder" in r.stderr


def test_show_draws_a_small_torus_and_refuses_a_big_one():
    r = runner.invoke(app, ["blind", "show", "-s", "spiral", "-W", "5", "-H", "4"])
    assert r.exit_code == 0 and "covered after" in r.stdout
    big = _snakelab("blind", "show", "-W", "101", "-H", "100")
    assert big.returncode != 0 and "at most 10,000" in big.stderr and "Traceback" not in big.stderr


def test_moves_file_round_trip(tmp_path):
    path = tmp_path / "m.txt"
    r = runner.invoke(app, ["blind", "moves", "-s", "dynamic-zigzag", "-n", "5000", "-o", str(path)])
    assert r.exit_code == 0 and path.read_text().startswith("RRDRDRDRDRDRDRR")
    a = _json(runner.invoke(app, ["blind", "cover", "--moves", str(path), "-W", "9", "-H", "7", "--json"]).stdout)
    b = _json(runner.invoke(app, ["blind", "cover", "-s", "dynamic-zigzag", "-W", "9", "-H", "7", "--json"]).stdout)
    assert a["cover"] == b["cover"] and a["cover"] > 0


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["blind", "cover", "-W", "0", "-H", "5"], "0×5"),
        (["blind", "cover", "-s", "snail", "-W", "3", "-H", "5"], "unknown strategy 'snail'"),
        (["blind", "sweep", "-s", "snail", "-N", "100"], "unknown strategy 'snail'"),
        (["blind", "cover", "-s", "spiral", "--k", "3", "-W", "3", "-H", "5"], "bad parameters"),
        (["blind", "sweep", "-s", "spiral", "-N", "100", "--jobs", "-1"], "--jobs must be ≥ 0"),
        (["blind", "sweep", "-s", "spiral", "-N", "100", "--chunks", "-1"], "--chunks must be ≥ 0"),
        (["blind", "moves", "-s", "spiral", "-n", "5", "--line-length", "-2", "-o", "m.txt"], "--line-length"),
        # A file that cannot be written is named, not a traceback.
        (["blind", "moves", "-s", "spiral", "-n", "5", "-o", "/nonexistent/m.txt"], "/nonexistent/m.txt"),
        # Options that another option makes idle are refused.
        (["blind", "sweep", "-N", "10", "--no-checkpoint", "--fresh"], "--fresh does not apply"),
        (["blind", "sweep", "-N", "10", "--json", "--top", "3"], "--top does not apply"),
        (["blind", "sweep", "-N", "10", "--details"], "--details does not apply"),
        (["blind", "bench", "-W", "5", "-H", "5", "-N", "100"], "--max-area does not apply"),
        (["blind", "bench", "-N", "1"], "--max-area must be between 2"),
    ],
)
def test_bad_input__one_line_error(args, needle):
    r = _snakelab(*args)
    assert r.returncode != 0 and needle in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_stray_character_in_a_move_file__one_line_error(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("RDRD\nRRDD\nRD?R\n")
    r = _snakelab("blind", "cover", "--moves", str(path), "-W", "3", "-H", "3")
    assert r.returncode != 0 and "line 3, column 3" in r.stderr and "'?'" in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_a_move_file_that_runs_out_leaves_the_cover_undecided(tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("RDRDRD\n")
    r = _snakelab("blind", "cover", "--moves", str(short), "-W", "5", "-H", "5")
    assert r.returncode == 1
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert "ran out after 6 moves" in r.stderr and "not decided" in r.stderr
    assert "not covered within" not in r.stdout
    # A file long enough to decide still gives its cover.
    assert _snakelab("blind", "cover", "--moves", str(short), "-W", "2", "-H", "1").returncode == 0


@pytest.mark.parametrize("verb", ["cover", "sweep"])
def test_an_empty_move_file_is_refused(tmp_path, verb):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n")
    if verb == "cover":
        r = _snakelab("blind", "cover", "--moves", str(empty), "-W", "5", "-H", "5")
    else:
        r = _snakelab("blind", "sweep", "-s", f"file(path={empty})", "-N", "20", "-j", "1", "--no-checkpoint")
    assert r.returncode != 0 and "holds no moves" in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert "worst_ratio" not in r.stdout


def test_a_sweep_of_a_move_file_that_runs_out_says_so(tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("RDRDRD\n")
    r = _snakelab("blind", "sweep", "-s", f"file(path={short})", "-N", "20", "-j", "1", "--no-checkpoint", "--json")
    assert r.returncode == 1
    assert _json(r.stdout)["grids"] > 0  # the figures are still printed
    assert "ran out after 6 moves" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["-s", "dynamic-zigzag(k=20)", "--k", "11"], "both set k"),
        (["-s", "spiral", "--moves", "MOVES"], "--moves and --strategy"),
        (["--k", "11", "--moves", "MOVES"], "--moves and --k"),
    ],
)
def test_conflicting_options_are_refused(tmp_path, args, needle):
    moves = tmp_path / "m.txt"
    moves.write_text("RDRDRDRD\n")
    args = [str(moves) if a == "MOVES" else a for a in args]
    r = _snakelab("blind", "cover", *args, "-W", "2", "-H", "2")
    assert r.returncode == 2 and needle in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_lower_case_move_letters_are_read_and_the_message_says_either_case(tmp_path):
    low, up, bad = tmp_path / "low.txt", tmp_path / "up.txt", tmp_path / "bad.txt"
    low.write_text("rdrdrdrd\n")
    up.write_text("RDRDRDRD\n")
    bad.write_text("rdx\n")
    a = _json(_snakelab("blind", "cover", "--moves", str(low), "-W", "2", "-H", "2", "--json").stdout)
    b = _json(_snakelab("blind", "cover", "--moves", str(up), "-W", "2", "-H", "2", "--json").stdout)
    assert a["cover"] == b["cover"] is not None
    r = _snakelab("blind", "cover", "--moves", str(bad), "-W", "2", "-H", "2")
    assert "R, L, U and D (either case)" in r.stderr
