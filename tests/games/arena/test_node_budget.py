"""Node budgets make searching agents, and so whole runs, exactly reproducible."""

import itertools
import json
import os
import subprocess
import sys
import time

import pytest

from snakelab.core.game import Budget
from snakelab.core.registry import make, make_agent
from snakelab.harness.match import play

GAME = "arena(game_width=20,game_height=20,duration=3,num_zombies=4)"


def _play(budget, tmp_path, name, monkeypatch=None, clock_step=0.0):
    if monkeypatch is not None:
        # The kernels read the real monotonic clock (core.jit.monotonic), the agents' Python
        # code time.perf_counter: a fake kept far behind the real one makes every deadline
        # the agents set already past inside the kernels, and racing ahead it cuts their
        # iterative deepening, so the clock is felt on both sides and no search runs on.
        base = time.perf_counter() - 1.0e9
        ticks = itertools.count()
        monkeypatch.setattr(time, "perf_counter", lambda: base + next(ticks) * clock_step)
    path = tmp_path / f"{name}.jsonl"
    agents = [make_agent("arena.champion") for _ in range(4)]
    play(make(GAME), agents, 11, budget=budget, replay=path)
    lines = path.read_text().splitlines()
    return [json.loads(ln) for ln in lines[1:]]  # the header holds the creation time


def test_a_node_budget_ignores_the_clock(tmp_path, monkeypatch):
    calm = _play(Budget(time_s=0.05, nodes=300), tmp_path, "calm")
    rushed = _play(Budget(time_s=0.05, nodes=300), tmp_path, "rushed", monkeypatch, clock_step=1.0)
    assert calm == rushed


def test_a_time_budget_does_depend_on_the_clock(tmp_path, monkeypatch):
    # The same game on the clock: a clock that races ahead cuts the look-ahead, and the
    # game goes another way. This is why time-budgeted runs are not reproducible.
    calm = _play(Budget(time_s=0.05), tmp_path, "calm")
    rushed = _play(Budget(time_s=0.05), tmp_path, "rushed", monkeypatch, clock_step=100.0)
    assert calm != rushed


def _tournament(tmp_path, store, *extra):
    cfg = tmp_path / "snake_config.txt"
    cfg.write_text("game_width 20\ngame_height 20\nduration 3\nnum_zombies 4\n")
    env = {**os.environ, "SNAKELAB_STORE": str(store)}
    r = subprocess.run(
        [sys.executable, "-c", "from snakelab.cli import main; main()", "arena", "tournament", "greedy",
         "champion", "random", "--games", "4", "--seed", "5", "-j", "1", "--config", str(cfg), "--json", *extra],
        capture_output=True, text=True, check=False, env=env, timeout=600,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    out.pop("wall_s")
    for row in out["bots"]:
        row.pop("p99_move_ms")  # move times are the one thing a clock decides
    return out


@pytest.mark.slow
def test_two_tournaments_with_node_budgets_give_identical_tables(tmp_path):
    store = tmp_path / "s.sqlite"
    first = _tournament(tmp_path, store, "--nodes", "200")
    second = _tournament(tmp_path, store, "--nodes", "200")
    assert first == second
    assert {row["bot"] for row in first["bots"]} >= {"arena.champion", "arena.greedy", "arena.random"}
    # Resuming the stored run (nothing left to play) gives the same table again.
    assert _tournament(tmp_path, store, "--nodes", "200", "--resume", "1") == first


def test_champion_golden_playthrough_under_a_node_budget():
    # Regenerate on purpose only: SNAKELAB_UPDATE_GOLDEN=1.
    from pathlib import Path

    from snakelab.harness.golden import check_golden

    golden = Path(__file__).parent / "golden" / "champion4_nodes300_20x20_s11.jsonl"
    check_golden(golden, GAME, ["arena.champion"] * 4, 11, budget=Budget(nodes=300))
