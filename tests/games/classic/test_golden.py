"""Golden playthroughs: a recorded game per case, compared step by step.

Regenerate on purpose only: ``SNAKELAB_UPDATE_GOLDEN=1 pytest tests/games/classic/test_golden.py``.
"""

import json
import os
from pathlib import Path

import pytest

from snakelab import make, make_agent
from snakelab.harness import play

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "hamilton-shortcut_6x6_s1": ("classic(width=6,height=6)", "classic.hamilton-shortcut", 1),
    "greedy_7x5_strict_s2": ("classic(height=5,tail_rule=strict,width=7)", "classic.greedy", 2),
    "random_5x5_len3_s3": ("classic(height=5,start_length=3,width=5)", "classic.random", 3),
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
