import json

import pytest

from snakelab import make, make_agent
from snakelab.core.errors import ReplayError, ReplayMismatchError
from snakelab.core.replay import read_replay, verify
from snakelab.harness import play


@pytest.fixture
def replay_file(tmp_path):
    path = tmp_path / "g.jsonl"
    play(make("classic(width=6,height=6)"), [make_agent("classic.hamilton-shortcut")], 3, replay=path)
    return path


def test_replay__verifies(replay_file):
    rep = read_replay(replay_file)
    assert rep.header["format"] == "snakelab.replay" and rep.outcome is not None
    assert verify(replay_file) == len(rep.steps) > 0


def test_replay__truncated(replay_file, tmp_path):
    lines = replay_file.read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:10]))
    with pytest.raises(ReplayError, match="truncated"):
        read_replay(cut)
    half = tmp_path / "half.jsonl"
    half.write_text("".join(lines[:10]) + lines[10][:15])
    with pytest.raises(ReplayError, match="line 11 is not valid JSON"):
        read_replay(half)


def test_replay__corrupt_and_foreign(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_bytes(b"\x00\xff\xfe garbage")
    with pytest.raises(ReplayError):
        read_replay(p)
    p.write_text('{"hello": 1}\n')
    with pytest.raises(ReplayError, match="not a snakelab replay"):
        read_replay(p)
    with pytest.raises(ReplayError, match="no such replay file"):
        read_replay(tmp_path / "missing.jsonl")


def test_replay__tampered_action_is_caught(replay_file, tmp_path):
    lines = replay_file.read_text().splitlines()
    step = json.loads(lines[5])
    step["actions"] = ["LEFT" if step["actions"][0] != "LEFT" else "UP"]
    lines[5] = json.dumps(step)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReplayMismatchError, match="step"):
        verify(bad)
