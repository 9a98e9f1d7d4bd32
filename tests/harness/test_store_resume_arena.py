"""Issue 9's headline check at a small size: an arena tournament SIGKILLed midway and resumed."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

GAMES = 40


def _tournament(tmp_path, store, *extra, **kw):
    config = tmp_path / "snake_config_small"
    # 6,000-step games (about 0.1 s each): long enough that a watcher kept off the CPU
    # for a second or two on a loaded machine still sees the run before it ends.
    config.write_text("gw 16\ngh 16\nns 4\nnz 2\nduration 300\nspeed 50\n")
    cmd = [sys.executable, "-c", "from snakelab.cli import main; main()", "arena", "tournament", "greedy", "random"]
    cmd += ["--games", str(GAMES), "--seed", "5", "-j", "2", "--config", str(config), "--json", *extra]
    env = {**os.environ, "SNAKELAB_STORE": str(store)}
    return subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def _stored(store):
    try:
        with sqlite3.connect(store, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def _table(stdout):
    obj = json.loads(stdout[stdout.index("{") :])
    del obj["wall_s"]
    for row in obj["bots"]:
        del row["p99_move_ms"]  # wall-clock figures are the only ones allowed to differ
    return obj


def test_arena_tournament__sigkill_midway_then_resume_gives_the_same_table(tmp_path):
    killed = tmp_path / "killed.sqlite"
    proc = _tournament(tmp_path, killed, start_new_session=True)
    deadline = time.monotonic() + 120
    while _stored(killed) < GAMES // 4:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()
    at_kill = _stored(killed)
    assert GAMES // 4 <= at_kill < GAMES

    resumed = _tournament(tmp_path, killed, "--resume", "1")
    out, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    assert f"{at_kill} of {GAMES} matches already stored" in err
    fresh = _tournament(tmp_path, tmp_path / "fresh.sqlite")
    fresh_out, fresh_err = fresh.communicate(timeout=120)
    assert fresh.returncode == 0, fresh_err

    table = _table(out)
    assert table == _table(fresh_out)
    assert table["games"] == GAMES and sum(r["games"] for r in table["bots"]) == 4 * GAMES
