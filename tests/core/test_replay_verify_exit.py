"""``snakelab replay verify`` tells a mismatch (exit 1) from a file it cannot read (exit 2)."""

import json

import pytest

from tests.cli_helpers import run_snakelab as _snakelab


@pytest.fixture
def replay(tmp_path):
    path = tmp_path / "g.jsonl"
    r = _snakelab("classic", "play", "-W", "4", "-H", "4", "--speed", "0", "--replay", str(path))
    assert r.returncode == 0
    return path


def _one_line(r):
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert r.stderr.startswith("error: ")


def test_a_good_replay_exits_0(replay):
    assert _snakelab("replay", "verify", str(replay)).returncode == 0


def test_a_mismatch_exits_1(replay):
    lines = replay.read_text().splitlines()
    end = json.loads(lines[-1])
    end["outcome"]["scores"] = [end["outcome"]["scores"][0] + 1]
    replay.write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n")
    r = _snakelab("replay", "verify", str(replay))
    assert r.returncode == 1 and "outcome differs" in r.stderr
    _one_line(r)


@pytest.mark.parametrize("fault", ["missing", "not json", "not a replay", "binary"])
def test_a_file_that_cannot_be_read_exits_2(replay, tmp_path, fault):
    path = tmp_path / "bad.jsonl"
    if fault == "missing":
        path = tmp_path / "nowhere.jsonl"
    elif fault == "not json":
        path.write_text("{not json\n")
    elif fault == "not a replay":
        path.write_text('{"hello": 1}\n')
    else:
        path.write_bytes(b"\xff\xfe\x00garbage\n")
    r = _snakelab("replay", "verify", str(path))
    assert r.returncode == 2, r.stderr
    _one_line(r)
