"""Golden playthroughs: a recorded game per case, compared step by step.

Regenerate on purpose only: ``SNAKELAB_UPDATE_GOLDEN=1 pytest tests/games/hextris/test_golden.py``.
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
    "seed_p21_s0": ("hextris(problem=21)", "hextris.seed", 0),
    "random_p6_len4_s5": ("hextris(problem=6,seed_index=none,source_length=4)", "hextris.random", 5),
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
    play(make(game), [make_agent(agent)], seed, agent_names=[agent], replay=path, state_every=25)
    verify(path)
    golden = GOLDEN / f"{name}.jsonl"
    if os.environ.get("SNAKELAB_UPDATE_GOLDEN"):
        golden.write_text(path.read_text())
    got = _strip(path.read_text().splitlines())
    want = _strip(golden.read_text().splitlines())
    assert len(got) == len(want)
    for i, (a, b) in enumerate(zip(got, want, strict=True)):
        assert a == b, f"line {i + 1} differs"
