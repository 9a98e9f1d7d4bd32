"""One loop everywhere: the live web view, ``play`` and the snakgame judge record the same replay.

Each driver plays the same game with the same seed and the same moves (agents in
seats, a person's keys that are an agent's moves, a contest program that is the
in-repo client playing a built-in agent), and the replay files must agree field by
field. Only the header's ``created`` time and package version are left out; replays
carry no per-move timing.
"""

from __future__ import annotations

import asyncio
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from snakelab import make, make_agent
from snakelab.core.game import JSON, Budget
from snakelab.core.replay import verify
from snakelab.core.rng import derive_seed
from snakelab.harness.match import play
from snakelab.harness.snakgame_judge import run_judge
from snakelab.web.live import DEFAULT_BUDGET_S, MAX_FPS, LiveSession

#: Header keys that differ between any two runs by design (when, and by which version).
RUN_KEYS = ("created", "snakelab")

#: Seconds a live game may take before the test gives up (generous: a loaded machine).
LIVE_TIMEOUT_S = 120.0


def _lines(path: Path) -> list[dict[str, JSON]]:
    out = []
    for line in path.read_text().splitlines():
        obj = json.loads(line)
        for key in RUN_KEYS:
            obj.pop(key, None)
        out.append(obj)
    return out


def _first_difference(a: Any, b: Any, where: str = "") -> str | None:
    """Where two JSON values first differ (a readable path), or None if equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{where}.{key}: only in {'the first' if key in a else 'the second'}"
            found = _first_difference(a[key], b[key], f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = _first_difference(x, y, f"{where}[{i}]")
            if found:
                return found
        return None if len(a) == len(b) else f"{where}: {len(a)} items against {len(b)}"
    return None if a == b else f"{where}: {a!r} != {b!r}"


def assert_same_replay(got: Path, want: Path) -> None:
    """The two replays agree line by line, field by field (run keys aside)."""
    a, b = _lines(got), _lines(want)
    assert len(a) > 2, "a replay with no step proves nothing"
    diff = _first_difference(a, b, "lines")
    assert diff is None, diff


def _play(tmp_path: Path, game: str, agents: list[str], seed: int, names: list[str] | None = None) -> Path:
    path = tmp_path / "play.jsonl"
    play(
        make(game),
        [make_agent(a) for a in agents],
        seed,
        agent_names=names or agents,
        budget=Budget(time_s=DEFAULT_BUDGET_S),
        replay=path,
    )
    return path


class Page:
    """A headless client of :class:`LiveSession`: every message the server sends, in order."""

    def __init__(self, replay_dir: Path) -> None:
        self.inbox: asyncio.Queue[dict[str, JSON]] = asyncio.Queue()
        self.session = LiveSession(self.send, replay_dir=replay_dir)

    async def send(self, msg: dict[str, JSON]) -> None:
        await self.inbox.put(msg)

    async def receive(self, kind: str | None = None) -> dict[str, JSON]:
        """The next message (of ``kind`` if given); an ``error`` fails the test."""
        while True:
            msg = await asyncio.wait_for(self.inbox.get(), LIVE_TIMEOUT_S)
            assert msg["type"] != "error", msg["message"]
            if kind is None or msg["type"] == kind:
                return msg


def _actions(path: Path, player: int) -> list[JSON]:
    """The actions ``player`` took, step by step, in a replay (None when not moving)."""
    return [line["actions"][player] for line in _lines(path)[1:] if "t" in line]


async def _live(
    tmp_path: Path, game: str, seats: list[str], seed: int, keys: dict[int, list[JSON]], turn_based: bool
) -> Path:
    """Play a recorded live game; human seats press ``keys`` (one per step), as a person would."""
    page = Page(tmp_path)
    start = {"type": "start", "game": game, "agents": seats, "seed": seed, "fps": MAX_FPS, "record": True}
    # Real-time human seats play at the game's pace: step them one at a time instead.
    stepped = bool(keys) and not turn_based
    await page.session.handle({**start, "paused": stepped})
    try:
        meta = await page.receive("meta")
        assert (await page.receive())["step"] == 0
        if turn_based:  # queued keys are taken in order, one per turn
            for player, moves in keys.items():
                for action in moves:
                    await page.session.handle({"type": "action", "player": player, "action": action})
        elif stepped:
            steps = max(len(v) for v in keys.values())
            for t in range(steps):
                for player, moves in keys.items():
                    if moves[t] is not None:
                        await page.session.handle({"type": "action", "player": player, "action": moves[t]})
                await page.session.handle({"type": "step"})
                assert (await page.receive("frame"))["step"] == t + 1
        end = await page.receive("end")
        assert end["step"] > 0
    finally:
        await page.session.stop()
    recording = meta["recording"]
    assert isinstance(recording, str)
    return tmp_path / recording


def _run(coro: Any) -> Any:
    """``asyncio.run`` on a thread of its own: the browser tests' session keeps an event loop
    running in this thread, and ``asyncio.run`` refuses to start beside one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.mark.parametrize(
    ("game", "agents", "seed"),
    [
        ("classic(width=6,height=6)", ["classic.greedy"], 4),
        ("arena(duration=12,game_height=10,game_width=10,num_snakes=2,num_zombies=1)", ["arena.greedy"] * 2, 3),
        ("blind(width=8,height=8)", ["blind.zigzag"], 2),
        ("snakgame(type=0,rows=6,cols=7)", ["snakgame.greedy"], 2),
        ("hextris(problem=6,seed_index=none,source_length=4)", ["hextris.random"], 5),
    ],
)
def test_live_view_records_the_replay_of_play(tmp_path: Path, game: str, agents: list[str], seed: int) -> None:
    want = _play(tmp_path, game, agents, seed)
    got = _run(_live(tmp_path, game, agents, seed, {}, turn_based=False))
    assert_same_replay(got, want)
    assert verify(got) > 0


@pytest.mark.parametrize(
    ("game", "agents", "human", "seed", "turn_based"),
    [
        # A real-time game with a person in seat 0, stepped key by key while paused.
        ("classic(width=6,height=6)", ["classic.greedy"], 0, 4, False),
        ("arena(duration=10,game_height=10,game_width=10,num_snakes=2)", ["arena.greedy", "arena.random"], 0, 6, False),
        # A turn-based game: the keys are queued and taken one per turn.
        ("hextris(problem=6,seed_index=none,source_length=4)", ["hextris.random"], 0, 5, True),
    ],
)
def test_a_person_playing_an_agents_moves_records_the_replay_of_play(
    tmp_path: Path, game: str, agents: list[str], human: int, seed: int, turn_based: bool
) -> None:
    names = ["human" if i == human else a for i, a in enumerate(agents)]
    want = _play(tmp_path, game, agents, seed, names)
    keys = {human: _actions(want, human)}
    got = _run(_live(tmp_path, game, names, seed, keys, turn_based))
    assert_same_replay(got, want)


# The in-repo contest client, playing a built-in agent over the judge's pipe.
CLIENT = [sys.executable, "-c", "from snakelab.cli import main; main()", "snakgame", "client"]


@pytest.mark.parametrize(("agent", "seed"), [("greedy", 4), ("random", 7)])
def test_judged_client_records_the_replay_of_play(tmp_path: Path, agent: str, seed: int) -> None:
    game = "snakgame(type=0,rows=7,cols=9)"
    name = f"snakgame.{agent}"
    want = _play(tmp_path, game, [name], seed)
    got = tmp_path / "judged.jsonl"
    # The client's agent gets the seed play gives seat 0, so both make the same moves.
    agent_seed = derive_seed(seed, "agent", 0)
    command = [*CLIENT, "--agent", agent, "--seed", str(agent_seed)]
    report = run_judge(make(game), seed, command, replay=got, agent_name=name)
    assert report.verdict == "OK", report.message
    assert_same_replay(got, want)
