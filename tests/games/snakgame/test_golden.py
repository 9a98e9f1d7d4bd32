"""Golden playthroughs: a recorded game per case, compared line by line.

Regenerate on purpose only: ``SNAKELAB_UPDATE_GOLDEN=1 pytest tests/games/snakgame/test_golden.py``.
"""

import json
import os
from pathlib import Path

import pytest

from snakelab import make, make_agent
from snakelab.core.replay import verify
from snakelab.harness import play

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "greedy_8x10_s1": ("snakgame(type=0,rows=8,cols=10)", "snakgame.greedy", 1),
    "editorial_9x9_s3": ("snakgame(type=0,rows=9,cols=9)", "snakgame.editorial", 3),
    "champion_10x12_s2": ("snakgame(type=0,rows=10,cols=12)", "snakgame.champion", 2),
    "chef_6x7_blocked_s4": ("snakgame(type=0,rows=6,cols=7,blocked='2 2;3 5;5 1')", "snakgame.chef", 4),
}


def _strip(lines):
    out = []
    for line in lines:
        obj = json.loads(line)
        obj.pop("created", None)
        obj.pop("snakelab", None)
        out.append(obj)
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name, tmp_path):
    game, agent, seed = CASES[name]
    path = tmp_path / "r.jsonl"
    play(make(game), [make_agent(agent)], seed, agent_names=[agent], replay=path)
    golden = GOLDEN / f"{name}.jsonl"
    if os.environ.get("SNAKELAB_UPDATE_GOLDEN"):
        golden.write_text(path.read_text())
    got = _strip(path.read_text().splitlines())
    want = _strip(golden.read_text().splitlines())
    assert len(got) == len(want)
    for i, (a, b) in enumerate(zip(got, want, strict=True)):
        assert a == b, f"line {i + 1} differs"
    assert verify(golden) == len(want) - 2
