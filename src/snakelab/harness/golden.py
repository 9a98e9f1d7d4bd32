"""Golden playthroughs: a recorded game compared line by line with a file kept in the tests.

A golden file is a replay (see ``docs/replay-format.md``). Any rule or agent change that
alters a game shows up as a failing comparison naming the first differing line; the
files are regenerated only on purpose, with ``SNAKELAB_UPDATE_GOLDEN=1``.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from snakelab.core.game import JSON, Budget
from snakelab.core.registry import make, make_agent
from snakelab.core.replay import verify
from snakelab.harness.match import play

UPDATE_ENV = "SNAKELAB_UPDATE_GOLDEN"
_VOLATILE = ("created", "snakelab")  # header keys that change with every run or release


def _lines(text: str) -> list[dict[str, JSON]]:
    out = []
    for line in text.splitlines():
        obj = json.loads(line)
        for key in _VOLATILE:
            obj.pop(key, None)
        out.append(obj)
    return out


def check_golden(
    golden: str | os.PathLike[str],
    game: str,
    agents: Sequence[str],
    seed: int,
    *,
    state_every: int = 1,
    budget: Budget | None = None,
) -> None:
    """Play ``game`` with ``agents`` from ``seed`` and compare with the golden replay file.

    Agents that search need a node ``budget`` (``Budget(nodes=N)``) here: on the clock
    their games depend on the machine's load and could not be golden.

    With ``SNAKELAB_UPDATE_GOLDEN`` set, the file is (re)written instead. Either way the
    golden file must then verify by re-simulation.

    Raises:
        AssertionError: naming the first line that differs, or a different length.
    """
    path = Path(golden)
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "replay.jsonl"
        play(
            make(game),
            [make_agent(a) for a in agents],
            seed,
            agent_names=agents,
            replay=fresh,
            state_every=state_every,
            budget=budget,
        )
        text = fresh.read_text()
    if os.environ.get(UPDATE_ENV):
        path.write_text(text)
    got, want = _lines(text), _lines(path.read_text())
    for i, (a, b) in enumerate(zip(got, want, strict=False)):
        assert a == b, f"{path.name}: line {i + 1} differs from the golden file"
    assert len(got) == len(want), f"{path.name}: {len(got)} lines recorded, golden file has {len(want)}"
    assert verify(path) == len(want) - 2
