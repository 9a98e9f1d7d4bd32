"""Golden playthroughs: a recorded game compared line by line with a file kept in the tests.

A golden file is a replay (see ``docs/replay-format.md``). Any rule or agent change that
alters a game shows up as a failing comparison naming the first differing line; the
files are regenerated only on purpose, with ``SNAKELAB_UPDATE_GOLDEN=1``.

A golden file describes its own case: the header names the game, the seed and the
agents, and the step lines that carry a state give the state frequency. So a test
suite needs no table of cases: :func:`golden_files` finds every file under a folder and
:func:`check_golden_file` replays each one (``tests/games/test_golden.py`` does this
for every game; a new game just adds files to ``tests/games/<id>/golden/``).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from snakelab.core.game import JSON, Budget
from snakelab.core.registry import make, make_agent
from snakelab.core.replay import read_replay, verify
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


@dataclass(frozen=True)
class GoldenCase:
    """What a golden file records: enough to play the game again.

    Attributes:
        path: The golden file.
        game: The canonical game string.
        agents: Agent names, one per player.
        seed: The match seed.
        state_every: The replay state frequency the file was written with.
    """

    path: Path
    game: str
    agents: tuple[str, ...]
    seed: int
    state_every: int


def golden_case(path: str | os.PathLike[str]) -> GoldenCase:
    """Read a golden file's case from its header and its step lines.

    The state frequency is the step number of the first step line, other than the
    last, that carries a state; with none, only the initial and final states were
    written (0, which gives the same file as any frequency above the game's length).
    """
    replay = read_replay(Path(path))
    inner = [s.t for s in replay.steps[:-1] if s.state is not None]
    agents = replay.header["agents"]
    assert isinstance(agents, list), f"{path}: the header's agents are not a list"
    return GoldenCase(Path(path), replay.game, tuple(str(a) for a in agents), replay.seed, inner[0] if inner else 0)


def golden_files(root: str | os.PathLike[str]) -> list[Path]:
    """Every golden file (``golden/*.jsonl``) under ``root``, sorted."""
    return sorted(Path(root).glob("**/golden/*.jsonl"))


def check_golden_file(path: str | os.PathLike[str]) -> None:
    """Play the case a golden file records and compare (see :func:`check_golden`)."""
    case = golden_case(path)
    check_golden(case.path, case.game, case.agents, case.seed, state_every=case.state_every)
