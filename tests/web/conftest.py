"""Fixtures for the web viewer: replay files, a live uvicorn server, headless Chromium.

Every xdist worker starts its own server on a socket bound to port 0 (so workers
never collide) and its own browser (Playwright gives each launch a fresh temporary
profile). A failing browser test leaves a screenshot under ``test-artifacts/``.
"""

from __future__ import annotations

import os
import random
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from snakelab.core.game import Outcome
from snakelab.core.registry import make, make_agent
from snakelab.core.replay import ReplayWriter
from snakelab.harness.match import MatchSpec, play, run_match
from snakelab.harness.store import open_store
from snakelab.web import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(os.environ.get("SNAKELAB_TEST_ARTIFACTS", Path(__file__).resolve().parents[2] / "test-artifacts"))

# One short replay per game: game string, agents (None: random legal moves), max steps.
REPLAY_GAMES: dict[str, tuple[str, tuple[str, ...] | None, int | None]] = {
    "classic": ("classic(width=6,height=6)", ("classic.hamilton-shortcut",), None),
    "snakgame": ("snakgame(type=0,rows=10,cols=14)", ("snakgame.greedy",), None),
    "blind": ("blind(width=7,height=5)", ("blind.zigzag",), None),
    "arena": ("arena(game_width=16,game_height=16,duration=3)", ("arena.greedy",) * 4, None),
    "hextris": ("hextris(problem=1,source_length=3)", None, 300),
}


def write_replay(
    path: Path, game: str, agents: tuple[str, ...] | None, seed: int, max_steps: int | None, every: int
) -> Path:
    """Play one match and write its replay (``every``: state frequency, 0 = first and last only).

    Without agents every player makes uniformly random legal moves, so a game can be
    replayed here before any agent of it exists.
    """
    if agents is None:
        return write_random_replay(path, game, seed, max_steps or 1000, every)
    play(
        make(game),
        [make_agent(a) for a in agents],
        seed,
        agent_names=agents,
        replay=path,
        state_every=every,
        max_steps=max_steps,
    )
    return path


def write_random_replay(path: Path, game: str, seed: int, max_steps: int, every: int) -> Path:
    """A replay of random legal moves for every player, cut off after ``max_steps``."""
    g = make(game)
    n = g.info.num_players
    state = g.new_state(seed)
    writer = ReplayWriter(path, g, seed, ["random"] * n, state_every=every)
    writer.start(state)
    rng = random.Random(seed)
    while not state.is_over() and state.step_count < max_steps:
        actions: list[Any] = [None] * n
        for p in state.to_move():
            actions[p] = rng.choice(list(state.legal_actions(p)))
        writer.step(actions, state.apply(actions), state)
    outcome = state.outcome() if state.is_over() else Outcome("UNFINISHED", tuple(0.0 for _ in range(n)))
    writer.finish(outcome)
    return path


@pytest.fixture(scope="session")
def replay_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A replay folder: one replay per game, a sparse classic replay, malformed files, and a secret outside."""
    root = tmp_path_factory.mktemp("replays")
    for game_id, (game, agents, max_steps) in REPLAY_GAMES.items():
        write_replay(root / f"{game_id}.jsonl", game, agents, 3, max_steps, 1)
    write_replay(root / "sparse" / "classic-sparse.jsonl", "classic(width=6,height=4)", ("classic.greedy",), 5, None, 0)
    (root / "broken.jsonl").write_text('{"format": "snakelab.replay", "version": 1, "game": "classic"\n')
    (root / "not-a-replay.jsonl").write_text('{"hello": "world"}\n')
    good = (root / "classic.jsonl").read_text().splitlines()
    (root / "truncated.jsonl").write_text("\n".join(good[:4]) + "\n")
    secret = root.parent / f"{root.name}-secret.jsonl"
    secret.write_text((root / "classic.jsonl").read_text())
    (root / "escape-link.jsonl").symlink_to(secret)
    (root / ".venv").mkdir()
    (root / ".venv" / "hidden.jsonl").write_text(secret.read_text())
    return root


def client_app(*args: Any, **kwargs: Any) -> Any:
    """The viewer app for Starlette's TestClient, whose requests name the host ``testserver``."""
    kwargs.setdefault("allow_hosts", ("testserver",))
    return create_app(*args, **kwargs)


class LiveServer:
    """A uvicorn server in a background thread, bound to a free loopback port."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, log_level="warning", lifespan="off", ws="websockets-sansio")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


@pytest.fixture(scope="session")
def results_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results store holding one small run: classic.hamilton and classic.random on 4×4."""
    path = tmp_path_factory.mktemp("store") / "results.sqlite"
    specs = [
        MatchSpec("classic(width=4,height=4)", (agent,), seed, index=i)
        for i, (agent, seed) in enumerate([("classic.hamilton", 1), ("classic.hamilton", 2), ("classic.random", 3)])
    ]
    with open_store(path) as store:
        run_id = store.create_run(specs, "web test run", command="pytest")
        for i, spec in enumerate(specs):
            store.add_match(run_id, i, spec, run_match(spec))
    return path


@pytest.fixture(scope="session")
def server(replay_dir: Path, results_store: Path) -> Iterator[LiveServer]:
    """The viewer on 127.0.0.1:<free port>, serving ``replay_dir`` and ``results_store``."""
    with LiveServer(create_app(replay_dir, results_store)) as srv:
        yield srv


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless system Chromium (never a downloaded one)."""
    from playwright.sync_api import sync_playwright

    assert os.path.exists(CHROMIUM), f"{CHROMIUM} is missing: apt-get install -y chromium (make test does this)"
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Remember each phase's report on the item, so fixtures can see whether the test failed."""
    outcome = yield
    rep = outcome.get_result()  # type: ignore[attr-defined]
    setattr(item, f"rep_{rep.when}", rep)


@pytest.fixture
def page(browser: Any, server: LiveServer, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh browser page; on failure a full-page screenshot goes to ``test-artifacts/``."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(20_000)  # generous: CI machines run two test workers on two cores
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors
    yield pg
    failed = any(
        getattr(request.node, f"rep_{when}", None) is not None and getattr(request.node, f"rep_{when}").failed
        for when in ("setup", "call")
    )
    if failed:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.nodeid)[-150:]
        pg.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    context.close()
