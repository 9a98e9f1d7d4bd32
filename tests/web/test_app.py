"""The viewer's HTTP and WebSocket API, without a browser (Starlette's TestClient)."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from snakelab.core import registry
from snakelab.core.game import BaseAgent
from snakelab.core.grid import OPPOSITE, Direction
from snakelab.core.replay import read_replay, states, verify
from snakelab.web import replays
from snakelab.web.replays import PathEscapeError, safe_path
from tests.web.conftest import client_app

with warnings.catch_warnings():
    # Starlette deprecates its httpx-based client in favour of httpx2; it still works.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture
def client(replay_dir: Path, tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(client_app(replay_dir, tmp_path / "absent.sqlite")) as c:
        yield c


@pytest.mark.parametrize(
    "path",
    ["../secret.jsonl", "sparse/../../x.jsonl", "/etc/passwd", "..", "escape-link.jsonl", "%2e%2e/x.jsonl"],
)
def test_paths_leaving_the_replay_folder_are_refused(client: TestClient, path: str) -> None:
    res = client.get("/api/replay", params={"path": path})
    if path.startswith("%"):
        # Percent signs are literal here (the client encodes them): a plain missing file.
        assert res.status_code == 404
        return
    assert res.status_code == 403
    assert "replay folder" in res.json()["error"]


def test_safe_path_keeps_inside_paths(replay_dir: Path) -> None:
    inside = "sparse/classic-sparse.jsonl"
    assert safe_path(replay_dir, inside) == (replay_dir / inside).resolve()
    with pytest.raises(PathEscapeError):
        safe_path(replay_dir, "sparse/../../outside.jsonl")


def test_listing_skips_links_out_of_the_folder(client: TestClient) -> None:
    paths = [r["path"] for r in client.get("/api/replays").json()["replays"]]
    assert "classic.jsonl" in paths
    assert "sparse/classic-sparse.jsonl" in paths
    assert "escape-link.jsonl" not in paths
    assert not any(p.startswith(".venv") for p in paths)  # hidden folders are not searched


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("broken.jsonl", "line 1 is not valid JSON"),
        ("not-a-replay.jsonl", "not a snakelab replay"),
    ],
)
def test_malformed_replay_is_a_400_with_a_message(client: TestClient, name: str, message: str) -> None:
    res = client.get("/api/replay", params={"path": name})
    assert res.status_code == 400
    error = res.json()["error"]
    assert message in error
    assert name in error
    assert str(Path("/").resolve()) + "tmp" not in error  # the server's own paths stay private


def test_truncated_replay_opens_up_to_its_last_complete_step(client: TestClient, replay_dir: Path) -> None:
    # truncated.jsonl is the header and three steps of classic.jsonl, without an outcome line.
    data = client.get("/api/replay", params={"path": "truncated.jsonl"}).json()
    assert data["truncated"] is True
    assert data["outcome"] is None
    full = read_replay(replay_dir / "classic.jsonl")
    assert [f["step"] for f in data["frames"]] == [0, 1, 2, 3]
    assert data["frames"][3]["state"] == full.steps[2].state
    # A last line broken off mid-write (a killed run) is dropped, the rest still shows.
    lines = (replay_dir / "classic.jsonl").read_text().splitlines()
    cut = "\n".join(lines[:5]) + "\n" + lines[5][: len(lines[5]) // 2]
    up = client.post("/api/replay", params={"name": "cut.jsonl"}, content=cut.encode()).json()
    assert up["truncated"] is True
    assert [f["step"] for f in up["frames"]] == [0, 1, 2, 3, 4]
    assert client.get("/api/replay", params={"path": "classic.jsonl"}).json()["truncated"] is False


def test_missing_replay_is_a_404(client: TestClient) -> None:
    assert client.get("/api/replay", params={"path": "nope.jsonl"}).status_code == 404


def test_replay_frames_match_the_file(client: TestClient, replay_dir: Path) -> None:
    data = client.get("/api/replay", params={"path": "classic.jsonl"}).json()
    rep = read_replay(replay_dir / "classic.jsonl")
    assert data["game_id"] == "classic"
    assert [f["step"] for f in data["frames"]] == list(range(len(rep.steps) + 1))
    assert data["frames"][0]["state"] == rep.header["state"]
    assert data["frames"][-1]["state"] == rep.steps[-1].state
    assert data["frames"][-1]["events"] == rep.steps[-1].events
    assert data["outcome"] == rep.outcome
    assert not data["resimulated"]
    assert data["overlay"]["cycle"]  # the shortcut agent follows a Hamiltonian cycle


def test_sparse_replay_is_resimulated(client: TestClient, replay_dir: Path) -> None:
    data = client.get("/api/replay", params={"path": "sparse/classic-sparse.jsonl"}).json()
    rep = read_replay(replay_dir / "sparse" / "classic-sparse.jsonl")
    assert data["resimulated"]
    assert all(f["state"] is not None for f in data["frames"])
    assert [f["state"]["steps"] for f in data["frames"]] == list(range(len(rep.steps) + 1))
    assert data["frames"][-1]["state"] == rep.steps[-1].state
    assert data["overlay"] == {}  # greedy follows no cycle


def test_upload(client: TestClient, replay_dir: Path) -> None:
    body = (replay_dir / "classic.jsonl").read_bytes()
    ok = client.post("/api/replay", params={"name": "mine.jsonl"}, content=body)
    assert ok.status_code == 200
    assert ok.json()["name"] == "mine.jsonl"
    bad = client.post("/api/replay", params={"name": "../../bad.jsonl"}, content=b"{nope\n")
    assert bad.status_code == 400
    assert bad.json()["error"].startswith("bad.jsonl: line 1 is not valid JSON")


def test_games_catalogue(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert games["classic"]["num_players"] == 1
    assert "classic.champion" in games["classic"]["agents"]
    assert games["classic"]["human"]["mode"] == "realtime"


def test_results_without_store(client: TestClient) -> None:
    data = client.get("/api/results").json()
    assert data["configured"] is False
    assert "No results store is configured" in data["message"]


def test_results_from_a_store(replay_dir: Path, results_store: Path) -> None:
    with TestClient(client_app(replay_dir, results_store)) as c:
        data = c.get("/api/results").json()
    assert data["configured"] is True
    (run,) = data["runs"]
    assert (run["label"], run["done"], run["planned"]) == ("web test run", 3, 3)
    rows = {r["agent"]: r for r in run["ratings"]}
    assert (rows["classic.hamilton"]["games"], rows["classic.hamilton"]["wins"]) == (2, 2)
    assert rows["classic.random"]["wins"] == 0
    assert 0 < rows["classic.hamilton"]["ci_low"] < 1
    assert len(data["ratings"]) == 2


def test_pages_are_served(client: TestClient) -> None:
    for url in ("/", "/replays", "/results", "/static/drawers/classic.js", "/static/js/common.js"):
        assert client.get(url).status_code == 200, url


def receive_until(ws: Any, kind: str, limit: int = 5000) -> list[dict[str, Any]]:
    got = []
    for _ in range(limit):
        msg = ws.receive_json()
        got.append(msg)
        if msg["type"] in (kind, "error"):
            return got
    raise AssertionError(f"no {kind} message")


def test_live_game_streams_frames_to_the_end(client: TestClient) -> None:
    with client.websocket_connect("/ws/live") as ws:
        ws.send_json(
            {
                "type": "start",
                "game": "classic(width=4,height=4)",
                "agents": ["classic.hamilton"],
                "seed": 2,
                "fps": 500,
            }
        )
        msgs = receive_until(ws, "end")
    assert msgs[0]["type"] == "meta"
    assert msgs[0]["overlay"]["cycle"]
    frames = [m for m in msgs if m["type"] == "frame"]
    assert [f["step"] for f in frames] == list(range(len(frames)))
    assert msgs[-1]["type"] == "end"
    assert msgs[-1]["outcome"]["termination"] == "WON"
    assert msgs[-1]["notices"] == []
    assert frames[-1]["state"]["termination"] == "WON"


def test_live_pause_step_restart(client: TestClient) -> None:
    with client.websocket_connect("/ws/live") as ws:
        start = {"type": "start", "game": "classic", "agents": ["classic.hamilton"], "seed": 1, "paused": True}
        ws.send_json(start)
        assert ws.receive_json()["type"] == "meta"
        first = ws.receive_json()
        assert first["step"] == 0
        ws.send_json({"type": "step"})
        assert ws.receive_json()["step"] == 1
        ws.send_json({"type": "step"})
        assert ws.receive_json()["step"] == 2
        ws.send_json({"type": "restart"})
        assert ws.receive_json()["type"] == "meta"
        again = ws.receive_json()
        assert again["step"] == 0
        assert again["state"] == first["state"]


def test_live_human_classic_waits_for_keys(client: TestClient) -> None:
    with client.websocket_connect("/ws/live") as ws:
        game = "classic(width=8,height=8,start_x=2,start_y=2)"
        ws.send_json({"type": "start", "game": game, "agents": ["human"], "seed": 1})
        meta = ws.receive_json()
        assert meta["humans"] == {"0": {"mode": "realtime", "help": meta["humans"]["0"]["help"]}}
        assert meta["fps"] == 6.0
        assert ws.receive_json()["step"] == 0
        ws.send_json({"type": "speed", "fps": 200})
        assert ws.receive_json()["type"] == "status"
        ws.send_json({"type": "action", "player": 0, "action": "DOWN"})
        frame = ws.receive_json()
        assert frame["step"] == 1
        assert frame["actions"] == ["DOWN"]
        assert frame["state"]["body"][0] == [2, 3]


@pytest.mark.parametrize(
    ("msg", "needle"),
    [
        ({"type": "start", "game": "nosuchgame", "agents": ["classic.random"]}, "unknown game"),
        ({"type": "start", "game": "classic", "agents": []}, "needs 1 agent"),
        ({"type": "start", "game": "classic", "agents": ["classic.nope"]}, "unknown agent"),
        ({"type": "start", "game": "classic(width=1)", "agents": ["classic.random"]}, "too small"),
        ({"type": "restart"}, "nothing to restart"),
        ({"type": "dance"}, "unknown command"),
        ({"type": "action", "action": "UP"}, "no game is running"),
    ],
)
def test_live_errors_reach_the_page(client: TestClient, msg: dict[str, Any], needle: str) -> None:
    with client.websocket_connect("/ws/live") as ws:
        ws.send_json(msg)
        reply = ws.receive_json()
    assert reply["type"] == "error"
    assert needle in reply["message"]


def test_live_rejects_non_json(client: TestClient) -> None:
    with client.websocket_connect("/ws/live") as ws:
        ws.send_text("hello")
        assert json.loads(ws.receive_text())["type"] == "error"


def test_live_turn_based_human_gets_a_notice_for_an_illegal_key(client: TestClient) -> None:
    with client.websocket_connect("/ws/live") as ws:
        ws.send_json({"type": "start", "game": "hextris(problem=1,source_length=2)", "agents": ["human"], "seed": 0})
        assert ws.receive_json()["humans"]["0"]["mode"] == "turn"
        assert ws.receive_json()["step"] == 0
        ws.send_json({"type": "action", "player": 0, "action": "#"})
        notice = ws.receive_json()
        assert notice == {"type": "notice", "message": '"#" is not legal now; ignored'}
        ws.send_json({"type": "action", "player": 0, "action": "l"})
        frame = ws.receive_json()
        assert (frame["step"], frame["actions"], frame["state"]["commands"]) == (1, ["l"], "l")
        assert frame["view"]["unit"]


def test_live_end_carries_agent_notices(client: TestClient) -> None:
    with client.websocket_connect("/ws/live") as ws:
        # 3×3 has no Hamiltonian cycle: the agent says it plays the safe policy instead.
        ws.send_json({"type": "start", "game": "classic(width=3,height=3)", "agents": ["classic.hamilton"], "fps": 500})
        end = receive_until(ws, "end")[-1]
    assert end["type"] == "end"
    assert any("no Hamiltonian cycle" in n for n in end["notices"])


def test_live_game_can_be_recorded_as_a_replay(tmp_path: Path) -> None:
    with TestClient(client_app(tmp_path)) as c, c.websocket_connect("/ws/live") as ws:
        game = "classic(width=4,height=4)"
        ws.send_json({"type": "start", "game": game, "agents": ["classic.hamilton"], "fps": 500, "record": True})
        msgs = receive_until(ws, "end")
        listed = c.get("/api/replays").json()["replays"]
    rel = msgs[0]["recording"]
    assert rel.startswith("live/classic-seed1-")
    assert [r["path"] for r in listed] == [rel]
    assert verify(tmp_path / rel) == msgs[-1]["step"]


def test_a_stopped_recording_leaves_no_file(tmp_path: Path) -> None:
    with TestClient(client_app(tmp_path)) as c, c.websocket_connect("/ws/live") as ws:
        start = {"type": "start", "game": "classic", "agents": ["classic.hamilton"], "paused": True, "record": True}
        ws.send_json(start)
        assert ws.receive_json()["recording"]
        assert ws.receive_json()["step"] == 0
        assert list((tmp_path / "live").iterdir())
        ws.send_json({"type": "stop"})
        ws.send_json({"type": "dance"})  # any reply proves the stop was handled
        assert ws.receive_json()["type"] == "error"
    assert list((tmp_path / "live").iterdir()) == []


class ReversingAgent(BaseAgent):
    """Turns back onto its own neck as soon as it can: an illegal classic move."""

    def act(self, observation: Any, budget: Any) -> Any:
        state = observation
        return OPPOSITE[state.heading] if state.heading >= 0 else Direction.RIGHT


def test_live_agent_breaking_the_rules_is_reported(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # Registered for this test only: the registry is shared with every other test in the worker.
    entry = registry.AgentEntry("classic", "web-test-reverser", ReversingAgent, "illegal on purpose")
    monkeypatch.setitem(registry._AGENTS, ("classic", "web-test-reverser"), entry)
    with client.websocket_connect("/ws/live") as ws:
        game = "classic(width=6,height=6,start_length=3)"
        ws.send_json({"type": "start", "game": game, "agents": ["classic.web-test-reverser"], "fps": 500})
        error = receive_until(ws, "end")[-1]
    assert error["type"] == "error"
    assert "step 1" in error["message"]
    assert "reverses onto the neck" in error["message"]
    assert "player 0 (classic.web-test-reverser)" in error["message"]


@pytest.fixture
def lazy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every replay counts as large: states come one at a time."""
    monkeypatch.setattr(replays, "LAZY_STATE_BYTES", 0)
    monkeypatch.setattr(replays, "CHECKPOINT_EVERY", 16)


@pytest.mark.usefixtures("lazy")
def test_large_replay_states_come_one_at_a_time(client: TestClient, replay_dir: Path) -> None:
    sparse = read_replay(replay_dir / "sparse" / "classic-sparse.jsonl")
    expected = [state.to_json() for state, _events in states(sparse)]
    for rel in ("classic.jsonl", "sparse/classic-sparse.jsonl"):
        data = client.get("/api/replay", params={"path": rel}).json()
        assert data["lazy"]
        assert data["frames"][0]["state"] is not None
        assert all(f["state"] is None for f in data["frames"][1:])
        rep = read_replay(replay_dir / rel)
        assert [f["events"] for f in data["frames"][1:]] == [s.events for s in rep.steps]
    last = len(expected) - 1
    for step in (0, 1, 15, 16, 17, last):
        got = client.get("/api/replay/state", params={"path": "sparse/classic-sparse.jsonl", "step": step}).json()
        assert got == {"step": step, "state": expected[step]}
    bad = client.get("/api/replay/state", params={"path": "sparse/classic-sparse.jsonl", "step": last + 1})
    assert bad.status_code == 400
    assert "outside this replay" in bad.json()["error"]
    escape = client.get("/api/replay/state", params={"path": "../x.jsonl", "step": 1})
    assert escape.status_code == 403


@pytest.mark.usefixtures("lazy")
def test_large_upload_is_held_for_its_states(client: TestClient, replay_dir: Path) -> None:
    body = (replay_dir / "hextris.jsonl").read_bytes()
    data = client.post("/api/replay", params={"name": "h.jsonl"}, content=body).json()
    assert data["lazy"]
    rep = read_replay(replay_dir / "hextris.jsonl")
    got = client.get("/api/replay/state", params={"upload": data["upload"], "step": 5}).json()
    assert got["state"] == rep.steps[4].state
    assert got["view"]["unit"] or got["state"]["termination"]  # hextris frames carry the unit
    gone = client.get("/api/replay/state", params={"upload": "0" * 32, "step": 1})
    assert gone.status_code == 410


def test_one_player_scored_games_show_scores_not_wins(tmp_path: Path) -> None:
    from snakelab.harness.match import MatchSpec, run_match
    from snakelab.harness.store import open_store

    path = tmp_path / "bench.sqlite"
    game = "snakgame(type=0,rows=8,cols=9)"
    specs = [
        MatchSpec(game, (agent,), seed, index=i)
        for i, (agent, seed) in enumerate(
            [("snakgame.greedy", 1), ("snakgame.greedy", 2), ("snakgame.editorial", 1), ("snakgame.editorial", 2)]
        )
    ]
    with open_store(path) as store:
        run_id = store.create_run(specs, "snakgame bench", command="pytest")
        for i, spec in enumerate(specs):
            store.add_match(run_id, i, spec, run_match(spec))
    with TestClient(client_app(tmp_path, path)) as c:
        data = c.get("/api/results").json()
    rows = {r["agent"]: r for r in data["runs"][0]["ratings"]}
    assert {r["measure"] for r in rows.values()} == {"score"}
    editorial, greedy = rows["snakgame.editorial"], rows["snakgame.greedy"]
    assert editorial["reference"] == "snakgame.editorial" and editorial["ratio"] == 1.0
    assert greedy["ratio"] == pytest.approx(greedy["mean_score"] / editorial["mean_score"])
    assert greedy["mean_score"] > 0


def test_results_of_winnable_games_keep_win_rates(replay_dir: Path, results_store: Path) -> None:
    with TestClient(client_app(replay_dir, results_store)) as c:
        rows = c.get("/api/results").json()["ratings"]
    assert {r["measure"] for r in rows} == {"wins"}
    assert all("ratio" not in r for r in rows)


def test_hextris_notices_name_the_keys_of_the_help() -> None:
    from snakelab.web.games import HUMAN_PLAY

    play = HUMAN_PLAY["hextris"]
    assert play.describe("d") == "E (rotate clockwise)"
    assert play.describe("b") == "D (move east)"
    assert play.describe("i") == '"i" (Z: move south-west)'
    assert play.describe("#") == '"#"'
    for key, _what in (("A", 0), ("D", 1), ("Z", 2), ("X", 3), ("Q", 5), ("E", 4)):
        assert f"{key} " in play.help or f"/ {key}" in play.help


def test_first_human_key_moves_exactly_one_step(client: TestClient) -> None:
    import time

    with client.websocket_connect("/ws/live") as ws:
        game = "classic(width=30,height=8,start_x=2,start_y=2)"
        ws.send_json({"type": "start", "game": game, "agents": ["human"], "seed": 1})
        assert ws.receive_json()["type"] == "meta"
        assert ws.receive_json()["step"] == 0
        ws.send_json({"type": "speed", "fps": 4})
        assert ws.receive_json()["type"] == "status"
        time.sleep(1.0)  # the player looks before pressing: this wait is not owed steps
        ws.send_json({"type": "action", "player": 0, "action": "RIGHT"})
        first = ws.receive_json()
        t1 = time.monotonic()
        second = ws.receive_json()
        gap = time.monotonic() - t1
    assert (first["step"], first["state"]["body"][0]) == (1, [3, 2])
    assert second["step"] == 2
    # At 4 steps/s the next step is due 0.25 s after the key; before the fix it came at once.
    assert gap > 0.15, f"step 2 came {gap:.3f} s after step 1"


def test_hextris_notice_names_the_key_pressed(client: TestClient) -> None:
    with client.websocket_connect("/ws/live") as ws:
        ws.send_json({"type": "start", "game": "hextris(problem=1,source_length=2)", "agents": ["human"], "seed": 0})
        assert ws.receive_json()["type"] == "meta"
        assert ws.receive_json()["step"] == 0
        # Clockwise then counter-clockwise returns the unit where it was: a repeat, not legal.
        ws.send_json({"type": "action", "player": 0, "action": "d"})
        ws.send_json({"type": "action", "player": 0, "action": "k"})
        got = [ws.receive_json() for _ in range(2)]
    notices = [m["message"] for m in got if m["type"] == "notice"]
    assert notices, got
    assert notices[0] in (
        "E (rotate clockwise) is not legal now; ignored",
        "Q (rotate counter-clockwise) is not legal now; ignored",
    )


def test_built_in_agents_of_a_live_game_think_within_the_pace() -> None:
    from snakelab.web.live import DEFAULT_BUDGET_S, MIN_BUDGET_S, think_budget

    # Four agents deciding a 50 ms arena step share less than the step, one after another.
    each = think_budget(20.0, 4).time_s
    assert each is not None and 4 * each < 1 / 20
    assert think_budget(0.1, 1).time_s == DEFAULT_BUDGET_S  # a slow pace: no longer than a benchmark's second
    assert think_budget(500.0, 4).time_s == MIN_BUDGET_S  # a fast one: still a first search depth
