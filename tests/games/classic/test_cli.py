import json
import re

import pytest
from typer.testing import CliRunner

from snakelab.cli import app
from tests.cli_helpers import run_snakelab as _snakelab

runner = CliRunner()


def test_help_lists_games_and_verbs():
    r = runner.invoke(app, ["--help"])
    assert r.exit_code == 0 and "classic" in r.output and "bench" in r.output and "replay" in r.output


def test_help_paragraphs_are_reflowed_to_the_terminal():
    # The judge's second paragraph spans three source lines; on a wide terminal it is one.
    r = runner.invoke(app, ["snakgame", "judge", "--help"], env={"COLUMNS": "250"})
    assert r.exit_code == 0
    line = next(ln for ln in r.output.splitlines() if "Example:" in ln)
    assert "exit code is then 1." in line and "[bold]" not in r.output


def test_bench__json_keys():
    r = runner.invoke(
        app, ["classic", "bench", "--agent", "hamilton", "-W", "4", "-H", "4", "-n", "6", "-j", "1", "--json"]
    )
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout[r.stdout.index("{") :])
    for key in (
        "agent",
        "width",
        "height",
        "games",
        "wins",
        "win_rate",
        "mean_steps",
        "max_steps",
        "mean_steps_per_apple",
        "steps_per_second",
    ):
        assert key in obj
    assert obj["win_rate"] == 1.0 and obj["games"] == 6


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["classic", "play", "--agent", "nope", "--speed", "0"], "unknown agent 'nope'"),
        (["classic", "play", "-W", "0", "-H", "5", "--speed", "0"], "0×5"),
        (["classic", "play", "-W", "1", "-H", "1", "--speed", "0"], "1×1"),
        (["classic", "bench", "-a", "greedy", "-W", "4", "-H", "4", "-n", "2", "--jobs", "-1"], "--jobs must be ≥ 0"),
        # Checked before the game is played, so no game is lost to an unwritable file.
        (["classic", "play", "-W", "4", "-H", "4", "--speed", "0", "--replay", "/nonexistent/r.jsonl"], "no folder"),
        (["classic", "play", "-W", "4", "-H", "4", "--speed", "0", "--replay", "."], "it is a folder"),
    ],
)
def test_bad_input__one_line_error(args, needle):
    r = _snakelab(*args)
    assert r.returncode != 0 and needle in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_replay_play_verify_and_corrupt(tmp_path):
    path = tmp_path / "g.jsonl"
    r = _snakelab("classic", "play", "-W", "4", "-H", "4", "--speed", "0", "--replay", str(path))
    assert r.returncode == 0 and "WON" in r.stdout
    assert _snakelab("replay", "verify", str(path)).returncode == 0
    show = _snakelab("replay", "show", str(path), "--step", "3")
    assert show.returncode == 0 and "step 3/" in show.stdout
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    r = _snakelab("replay", "verify", str(path))
    assert r.returncode != 0 and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_replay_show_play_animates_at_the_speed_and_speed_0_shows_only_the_end(tmp_path, monkeypatch):
    from snakelab.cli import replay as replay_cli

    path = tmp_path / "g.jsonl"
    assert (
        runner.invoke(app, ["classic", "play", "-W", "4", "-H", "4", "--speed", "0", "--replay", str(path)]).exit_code
        == 0
    )
    monkeypatch.setattr(replay_cli.console, "_force_terminal", True)  # animate as on a terminal
    sleeps: list[float] = []
    monkeypatch.setattr(replay_cli.time, "sleep", sleeps.append)
    end = runner.invoke(app, ["replay", "show", str(path), "--play", "--speed", "0"])
    frames = re.findall(r"step (\d+)/(\d+)", end.output)
    assert end.exit_code == 0 and len(frames) == 1 and frames[0][0] == frames[0][1] and not sleeps
    last = int(frames[0][1])
    played = runner.invoke(app, ["replay", "show", str(path), "--play", "--speed", "50"])
    assert played.exit_code == 0
    assert re.findall(r"step (\d+)/\d+", played.output) == [str(i) for i in range(last + 1)]
    assert sleeps == [1 / 50] * (last + 1)
    bad = runner.invoke(app, ["replay", "show", str(path), "--play", "--speed", "-1"])
    assert bad.exit_code == 2
