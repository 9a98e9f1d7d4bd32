"""The headline check of the store: a run killed with SIGKILL and resumed ends as if never killed."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

# 16 × 16 games (about 50 ms each): the run lasts seconds, so a watcher kept off the CPU
# for a second on a loaded machine still catches it between 50 and 200 stored matches.
BENCH = ["classic", "bench", "-a", "greedy", "-W", "16", "-H", "16", "-n", "200", "--seed", "11", "-j", "2", "--json"]


def _snakelab(args, store, **kw):
    env = {**os.environ, "SNAKELAB_STORE": str(store)}
    cmd = [sys.executable, "-c", "from snakelab.cli import main; main()", *args]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def _stored(store):
    try:
        with sqlite3.connect(store, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    except sqlite3.OperationalError:  # the run has not created its tables yet
        return 0


def _table(stdout):
    summary = json.loads(stdout[stdout.index("{") :])
    del summary["steps_per_second"]  # wall-clock figure, the only one allowed to differ
    return summary


def test_bench__sigkill_then_resume_equals_uninterrupted_run(tmp_path):
    killed_store = tmp_path / "killed.sqlite"
    proc = _snakelab(BENCH, killed_store, start_new_session=True)
    deadline = time.monotonic() + 120
    while _stored(killed_store) < 50:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)  # the whole group: the CLI and its pool workers
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    at_kill = _stored(killed_store)
    assert 50 <= at_kill < 200, at_kill

    resumed = _snakelab([*BENCH, "--resume", "1"], killed_store)
    out, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    assert f"{at_kill} of 200 matches already stored" in err

    fresh = _snakelab(BENCH, tmp_path / "fresh.sqlite")
    fresh_out, fresh_err = fresh.communicate(timeout=120)
    assert fresh.returncode == 0, fresh_err
    assert _table(out) == _table(fresh_out)

    with sqlite3.connect(killed_store) as a, sqlite3.connect(tmp_path / "fresh.sqlite") as b:
        q = "SELECT idx, seed, json_extract(result, '$.outcome'), json_extract(result, '$.steps') FROM matches"
        rows_a = a.execute(q + " ORDER BY idx").fetchall()
        rows_b = b.execute(q + " ORDER BY idx").fetchall()
    assert len(rows_a) == 200 and rows_a == rows_b  # nothing repeated, nothing lost
