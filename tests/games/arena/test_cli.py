import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from snakelab.cli import app
from snakelab.cli.arena import parse_seats, seats_in_order
from snakelab.core.errors import ConfigError
from snakelab.core.replay import verify
from snakelab.harness.tournament import tournament_specs
from tests.cli_helpers import run_snakelab as _snakelab

runner = CliRunner()
BOTS = Path(__file__).parent / "bots"
SMALL = "gw 16\ngh 16\nduration 1\nspeed 20\n"


def _json(out):
    return json.loads(out[out.index("{") :])


def test_seats_keep_command_line_order():
    assert parse_seats(["-b", "champion", "-p", "a.py", "-e", "./x", "-j", "b.jar"]) == [
        ("builtin", "champion"),
        ("python", "a.py"),
        ("exec", "./x"),
        ("java", "b.jar"),
    ]
    with pytest.raises(ConfigError, match="unexpected argument"):
        parse_seats(["bot.py"])
    with pytest.raises(ConfigError, match="needs a value"):
        parse_seats(["-p"])


def test_run__config_file_bots_json_replay(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "snake_config.txt").write_text(SMALL)
    r = runner.invoke(
        app,
        [
            "arena", "run", "-p", str(BOTS / "steady_bot.py"), "-b", "champion", "--lockstep", "--seed", "4",
            "--json", "--replay", "r.jsonl", "--python", sys.executable, "--run-dir", "runs",
        ],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    obj = _json(r.stdout)
    assert obj["game"] == "arena(game_width=16,game_height=16,duration=1,speed=20)" and obj["steps"] == 50
    rows = obj["ranking"]
    assert [row["rank"] for row in rows] == [1, 2, 3, 4]
    assert {row["agent"] for row in rows} >= {"arena.champion", "arena.greedy"}
    for key in ("longest", "kills", "deaths", "timeouts", "crashes"):
        assert all(key in row for row in rows)
    assert (tmp_path / "runs" / "p0-steady_bot.log").read_text().startswith("step 1")
    assert verify(tmp_path / "r.jsonl") == 50


def test_run__view_draws_the_final_board(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "snake_config.txt").write_text(SMALL)
    r = runner.invoke(app, ["arena", "run", "-b", "random", "--seed", "1"])
    assert r.exit_code == 0, r.output
    assert "longest" in r.output and "+----------------+" in r.output


@pytest.mark.parametrize(
    ("files", "args", "needle"),
    [
        ({"snake_config.txt": "speed 20\nzombies 3\n"}, [], "snake_config.txt:2: unknown key 'zombies'"),
        ({"my_snake_config": "gw 20\ngh wide\n"}, [], "my_snake_config:2: key 'gh'"),
        ({}, ["-b", "greedy"] * 5, "5 players for 4 seats"),
        ({}, ["-b", "nope"], "unknown agent 'nope'"),
        ({}, ["-p", "missing.py"], "does not exist"),
        ({}, ["stray"], "unexpected extra argument"),
        # Options the seats would ignore are refused, naming what applies.
        ({}, ["-b", "random", "--timeout", "3"], "--timeout does not apply: for external bots only"),
        ({}, ["-b", "random", "--lockstep"], "--lockstep does not apply"),
        ({}, ["-e", "./x", "--python", "python3"], "--python does not apply: for Python bots (-p) only"),
        ({}, ["-e", "./x", "--timeout", "3"], "--timeout does not apply: with --lockstep only"),
        ({}, ["-e", "./x", "--lockstep", "--startup", "2"], "--startup does not apply: for real-time games only"),
        ({}, ["-b", "random", "--speed", "5"], "--speed does not apply: no live view"),
    ],
)
@pytest.mark.parametrize("verb", ["play", "run"])
def test_play__errors(tmp_path, monkeypatch, files, args, needle, verb):
    monkeypatch.chdir(tmp_path)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    r = runner.invoke(app, ["arena", verb, "--no-view", *args], env={"COLUMNS": "200"})  # usage errors: a box
    assert r.exit_code == 2 and needle in r.output, r.output
    assert "Traceback" not in r.output


@pytest.mark.slow
def test_run__error_is_one_line_from_the_console_script(tmp_path):
    (tmp_path / "snake_config.txt").write_text("speed 20\nzombies 3\n")
    r = _snakelab("arena", "run", "--no-view", cwd=tmp_path)
    assert r.returncode == 2 and "snake_config.txt:2: unknown key 'zombies'" in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_tournament__rotating_seats_and_intervals(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = tmp_path / "cfg"
    cfg.write_text("gw 20\ngh 20\nduration 2\nspeed 20\n")
    r = runner.invoke(
        app,
        [
            "arena", "tournament", "champion", "greedy", str(BOTS / "steady_bot.py"), "--games", "3", "-j", "1",
            "--config", str(cfg), "--json", "--python", sys.executable, "--seed", "2",
        ],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    obj = _json(r.stdout)
    assert obj["games"] == 3
    rows = {row["bot"]: row for row in obj["bots"]}
    assert set(rows) == {"arena.champion", "arena.greedy", "steady_bot.py", "arena.greedy (filler)"}
    assert rows["arena.champion"]["games"] == 3 and rows["steady_bot.py"]["games"] == 3
    logs = sorted(p.parent.name for p in tmp_path.glob("arena_runs/*/match*/*steady_bot.log"))
    assert logs == ["match0000", "match0001", "match0002"]
    assert sum(row["wins"] for row in rows.values()) == 3
    for row in rows.values():
        lo, hi = row["ci95"]
        assert 0 <= lo <= row["win_rate"] <= hi <= 1 and row["mean_longest"] >= 5
    # The run was stored; resuming it plays nothing and reports the same table.
    import re

    run_id = re.search(r"--resume (\S+?)\)", r.stderr).group(1)
    again = runner.invoke(
        app,
        [
            "arena", "tournament", "champion", "greedy", str(BOTS / "steady_bot.py"), "--games", "3", "-j", "1",
            "--config", str(cfg), "--json", "--python", sys.executable, "--seed", "2", "--resume", run_id,
        ],
    )  # fmt: skip
    assert again.exit_code == 0, again.output
    assert {r["bot"]: r["wins"] for r in _json(again.stdout)["bots"]} == {b: row["wins"] for b, row in rows.items()}


def test_seats_keep_command_line_order_across_options():
    args = ["--python", "-p", "-b", "x", "-c", "cfg", "-p", "a.py", "--exec=./c", "-jb.jar", "--lockstep", "-b", "y"]
    assert seats_in_order(args, {"--python", "-c", "--config"}) == [
        ("builtin", "x"),
        ("python", "a.py"),
        ("exec", "./c"),
        ("java", "b.jar"),
        ("builtin", "y"),
    ]


def test_play__seats_in_command_line_order(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "snake_config.txt").write_text(SMALL)
    r = runner.invoke(app, ["arena", "play", "-b", "random", "--seed", "3", "-b", "champion", "--json"])
    assert r.exit_code == 0, r.output
    agents = {row["player"]: row["agent"] for row in _json(r.stdout)["ranking"]}
    assert agents == {0: "arena.random", 1: "arena.champion", 2: "arena.greedy", 3: "arena.greedy"}


def test_bench__one_line_up_in_fixed_seats(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = tmp_path / "cfg"
    cfg.write_text(SMALL)
    r = runner.invoke(app, ["arena", "bench", "champion", "random", "-n", "3", "-j", "1", "-c", str(cfg), "--json"])
    assert r.exit_code == 0, r.output
    obj = _json(r.stdout)
    rows = {row["bot"]: row for row in obj["bots"]}
    assert set(rows) == {"seat 0: arena.champion", "seat 1: arena.random", "arena.greedy (filler)"}
    assert rows["seat 0: arena.champion"]["games"] == 3 and rows["arena.greedy (filler)"]["games"] == 6
    assert sum(row["wins"] for row in rows.values()) == 3
    # The line-up must fit the seats, and bot-file options need a bot file.
    five = runner.invoke(app, ["arena", "bench", *["greedy"] * 5, "-c", str(cfg)])
    assert five.exit_code == 2 and "5 entries for 4 seats" in five.output
    py = runner.invoke(app, ["arena", "bench", "greedy", "-c", str(cfg), "--python", "python3"])
    assert py.exit_code == 2 and "--python does not apply" in py.output


def test_tournament_specs_rotate_seats():
    specs, lineups = tournament_specs(["A", "B"], 4, 4, 1, "arena", 50)
    assert [lu.index(0) for lu in lineups] == [0, 1, 2, 3]  # entry 0 visits every seat
    assert all(sorted(lu) == [-1, -1, 0, 1] for lu in lineups)
    assert len({s.seed for s in specs}) == 4 and specs[0].agents.count("arena.greedy") == 2
    fixed, fixed_lineups = tournament_specs(["A", "B"], 4, 4, 1, "arena", 50, rotate=False)
    assert fixed_lineups == [[0, 1, -1, -1]] * 4 and [s.seed for s in fixed] == [s.seed for s in specs]
    assert {s.budget.time_s for s in specs} == {0.05}


def test_bench__budget_apart_from_the_games_speed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = tmp_path / "cfg"
    cfg.write_text(SMALL)
    args = ["arena", "bench", "greedy", "-n", "1", "-j", "1", "-c", str(cfg), "--json"]
    assert _json(runner.invoke(app, args).stdout)["budget_ms"] == 20  # the game's speed (SMALL)
    r = runner.invoke(app, [*args, "--budget-ms", "7.5"])
    assert r.exit_code == 0, r.output
    assert _json(r.stdout)["budget_ms"] == 7.5
    low = runner.invoke(app, [*args, "--budget-ms", "0"])
    assert low.exit_code == 2 and "--budget-ms" in low.output
    bot = tmp_path / "bot.py"
    bot.write_text("print('UP')\n")
    bots = runner.invoke(app, ["arena", "bench", *[str(bot)] * 4, "-c", str(cfg), "--budget-ms", "5"])
    assert bots.exit_code == 2 and "--budget-ms does not apply" in bots.output


@pytest.mark.slow
def test_ten_champion_games_in_a_row_say_the_compile_notice_at_most_once(tmp_path):
    # The notice says kernels are compiled; with every kernel cached on disk, only a
    # first run on a cold cache may say it (a kernel compiled in every process would
    # make every run say it).
    (tmp_path / "snake_config.txt").write_text(SMALL)
    said = 0
    for seed in range(10):
        r = _snakelab("arena", "play", "-b", "champion", "--seed", seed, "--no-view", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        said += r.stderr.count("compiling kernels, first run only")
    assert said <= 1


def _catches(pid, signum):
    """Whether process ``pid`` has a handler for ``signum`` (Linux ``/proc``)."""
    with open(f"/proc/{pid}/status") as fh:
        mask = next(int(line.split()[1], 16) for line in fh if line.startswith("SigCgt:"))
    return bool(mask >> (signum - 1) & 1)


def test_sigterm_stops_a_game_with_exit_code_143(tmp_path):
    # Not only the verbs that run many matches: any verb, here one long game being played.
    import os
    import signal
    import subprocess
    import time

    from tests.cli_helpers import plain_env

    (tmp_path / "snake_config.txt").write_text("gw 16\ngh 16\nduration 600\nspeed 20\n")
    proc = subprocess.Popen(
        [sys.executable, "-c", "from snakelab.cli import main; main()", "arena", "play", "-b", "greedy", "--no-view"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env=plain_env(),
    )
    try:
        deadline = time.monotonic() + 120
        while not _catches(proc.pid, signal.SIGTERM):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the command did not start"
            time.sleep(0.05)
        time.sleep(1.0)  # into the game
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 143, err
    assert "Traceback" not in err and err.strip().splitlines()[-1] == "interrupted"
