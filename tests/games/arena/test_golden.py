"""Golden playthroughs: a recorded game per case, compared step by step.

Regenerate on purpose only: ``SNAKELAB_UPDATE_GOLDEN=1 pytest tests/games/arena/test_golden.py``.
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
    "greedy4_20x20_s1": ("arena(duration=15,game_height=20,game_width=20,num_obstacles=2)", "arena.greedy", 4, 1),
    "random3_12x12_s2": (
        "arena(apple_limit=20,duration=8,game_height=12,game_width=12,num_snakes=3,num_zombies=2,zombie_speed=2)",
        "arena.random",
        3,
        2,
    ),
    "greedy2_10x10_owntail_s3": (
        "arena(duration=10,game_height=10,game_width=10,num_snakes=2,num_zombies=1,own_tail_kills=true)",
        "arena.greedy",
        2,
        3,
    ),
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
    game, agent, n, seed = CASES[name]
    path = tmp_path / "r.jsonl"
    play(make(game), [make_agent(agent) for _ in range(n)], seed, agent_names=[agent] * n, replay=path, state_every=5)
    golden = GOLDEN / f"{name}.jsonl"
    if os.environ.get("SNAKELAB_UPDATE_GOLDEN"):
        golden.write_text(path.read_text())
    got = _strip(path.read_text().splitlines())
    want = _strip(golden.read_text().splitlines())
    assert len(got) == len(want)
    for i, (a, b) in enumerate(zip(got, want, strict=True)):
        assert a == b, f"line {i + 1} differs"
    assert verify(golden) == len(want) - 2
