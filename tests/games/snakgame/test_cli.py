import json
import re
import sys

import pytest
from typer.testing import CliRunner

from snakelab.cli import app
from snakelab.core.replay import verify
from tests.cli_helpers import run_snakelab as _snakelab

runner = CliRunner()
SMALL = "snakgame(type=0,rows=8,cols=9)"


def _one_line_error(r):
    return r.returncode != 0 and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("mode", ["--judged", "--in-process"])
def test_bench__json_keys_and_ratio(mode):
    r = runner.invoke(
        app, ["snakgame", "bench", "--agent", "greedy", "--files", "2", "--game", SMALL, "-j", "1", "--json", mode]
    )
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout[r.stdout.index("{") :])
    judged = mode == "--judged"
    keys = {"agent", "files", "total", "per_file", "ratio_to_editorial", "ok"}
    assert set(obj) == keys | ({"time_limit_s"} if judged else set())
    seat = "judged:snakgame.greedy(time_limit=4)" if judged else "snakgame.greedy"
    assert obj["agent"] == seat and obj["files"] == 2 and len(obj["per_file"]) == 2 and obj["ok"] == 2
    assert obj["total"] == sum(f["score"] for f in obj["per_file"])
    editorial = sum(f["editorial"] for f in obj["per_file"])
    assert obj["ratio_to_editorial"] == pytest.approx(obj["total"] / editorial)
    if judged:
        # Each file was a contest program under the judge: a verdict and its own CPU time.
        assert all(f["verdict"] == "OK" and 0 < f["cpu_s"] < 4 for f in obj["per_file"])


def test_judge__scores_a_program_and_writes_a_verifiable_replay(tmp_path):
    path = tmp_path / "j.jsonl"
    client = [sys.executable, "-c", "from snakelab.cli import main; main()", "snakgame", "client", "--agent", "greedy"]
    r = runner.invoke(app, ["snakgame", "judge", "--game", SMALL, "--seed", "3", "--replay", str(path), "--", *client])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("OK") and "score" in r.stdout and "CPU" in r.stdout and "wall" in r.stdout
    assert verify(path) > 0
    show = runner.invoke(app, ["snakgame", "replay", str(path), "--step", "4"])
    assert show.exit_code == 0 and "step 4/" in show.stdout


def test_judge__illegal_move_names_the_move_and_why():
    r = _snakelab("snakgame", "judge", "--game", SMALL, "--", sys.executable, "-c", "print('NEW 0 0', flush=True)")
    assert r.returncode == 1
    # Colour codes dropped and whitespace collapsed: the verdict must be found whatever the
    # terminal width and colour setting the output was drawn for.
    out = " ".join(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", r.stdout).split())
    assert "ILLEGAL" in out and "move 1: NEW 0 0: (0, 0) is off the 8×9 grid" in out


def test_judge__time_out_is_reported():
    r = _snakelab(
        *("snakgame", "judge", "--game", SMALL, "--time-limit", "0.3", "--"),
        *(sys.executable, "-c", "import time; time.sleep(20)"),
    )
    assert r.returncode == 1 and "TIMEOUT" in r.stdout and "0.3 s" in r.stdout


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (["snakgame", "play", "--agent", "nope", "--speed", "0"], None, "unknown agent 'nope'"),
        (["snakgame", "play", "--type", "5", "--speed", "0"], None, "type 5"),
        (["snakgame", "judge", "--game", SMALL, "--", "/nonexistent/prog"], None, "cannot start"),
        (["snakgame", "bench", "--agent", "greedy", "--files", "0"], None, "--files"),
        (["snakgame", "client", "--agent", "greedy"], "2 x 0\n", "cannot read the grid line"),
        # A game string of another game, or options that another option overrides.
        (["snakgame", "play", "--game", "classic(width=5)"], None, "'classic(width=5)' is a classic game"),
        (["snakgame", "judge", "--game", "arena", "--", "true"], None, "is a arena game"),
        (["snakgame", "bench", "-a", "greedy", "--game", "blind"], None, "is a blind game"),
        (["snakgame", "play", "--game", SMALL, "--rows", "5"], None, "--rows does not apply: --game gives"),
        (["snakgame", "play", "--type", "2", "--cols", "5"], None, "--type does not apply: --rows and --cols"),
        (["snakgame", "judge", "--game", SMALL, "--type", "2", "--", "true"], None, "--type does not apply"),
        (["snakgame", "judge", "--game", "snakgame(rows=20,cols=20)", "--", "true"], None, "type=0 (a custom grid)"),
        (["snakgame", "play", "--type", "1", "--speed", "5"], None, "--speed does not apply: grids over 2,400 cells"),
    ],
)
def test_bad_input__one_line_error(args, stdin, needle):
    r = runner.invoke(app, args, input=stdin)
    assert r.exit_code != 0 and (r.exception is None or isinstance(r.exception, SystemExit))
    assert needle in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_bad_input__one_line_error_from_the_real_entry_point():
    r = _snakelab("snakgame", "client", "--agent", "greedy", stdin="2 2 0\nJUMP\n")
    assert _one_line_error(r), r.stderr
    assert "cannot read move 'JUMP'" in r.stderr


def test_play__small_grid_with_replay(tmp_path):
    path = tmp_path / "p.jsonl"
    r = runner.invoke(app, ["snakgame", "play", "--rows", "6", "--cols", "7", "--speed", "0", "--replay", str(path)])
    assert r.exit_code == 0 and "score" in r.stdout and "[FULL]" in r.stdout
    assert verify(path) > 0
