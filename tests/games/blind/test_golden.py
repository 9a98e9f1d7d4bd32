"""Golden playthroughs of the blind game, compared step by step.

Regenerate on purpose only: ``SNAKELAB_UPDATE_GOLDEN=1 pytest tests/games/blind/test_golden.py``.
"""

import json
import os
from pathlib import Path

import pytest

from snakelab import make, make_agent
from snakelab.harness import play

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "dynamic-zigzag_9x6_s4": ("blind(height=6,width=9)", "blind.dynamic-zigzag(k=3)", 4),
    "spiral_4x6_s2": ("blind(height=6,width=4)", "blind.spiral", 2),
    "zigzag_4x4_limit_s3": ("blind(height=4,max_steps=30,width=4)", "blind.zigzag", 3),
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
