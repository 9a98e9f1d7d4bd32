"""The viewer is closed by default: foreign origins and hosts, external programs, files
outside its folders and malformed commands are refused with one line, and nothing runs.

These tests talk to a real uvicorn server with a real WebSocket client, so the
handshake, the close codes and the server's log are the ones a browser meets.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from snakelab.web import create_app
from tests.web.conftest import LiveServer

EXAMPLE_BOT = Path(__file__).resolve().parents[2] / "examples" / "arena_bot.py"
ARENA = "arena(game_width=16,game_height=16,duration=1)"


def marker_bot(folder: Path, marker: Path) -> Path:
    """The example arena bot, which first touches ``marker``: proof that it ran."""
    folder.mkdir(parents=True, exist_ok=True)
    bot = folder / "touch_bot.py"
    head, future, rest = EXAMPLE_BOT.read_text().partition("from __future__ import annotations\n")
    bot.write_text(f"{head}{future}import pathlib\npathlib.Path({str(marker)!r}).touch()\n{rest}")
    return bot


def bot_spec(path: Path | str, **extra: str) -> str:
    params = ",".join([f"path='{path}'", "lockstep=true", *(f"{k}={v}" for k, v in extra.items())])
    return f"arena.bot({params})"


def start(agent0: str, seed: int = 1) -> dict[str, Any]:
    agents = [agent0, "arena.greedy", "arena.greedy", "arena.greedy"]
    return {"type": "start", "game": ARENA, "agents": agents, "seed": seed, "fps": 500}


def ws_url(server: LiveServer) -> str:
    return server.url.replace("http://", "ws://") + "/ws/live"


def receive(ws: ClientConnection, timeout: float = 30.0) -> dict[str, Any]:
    reply = json.loads(ws.recv(timeout=timeout))
    assert isinstance(reply, dict)
    return reply


def until(ws: ClientConnection, *kinds: str) -> list[dict[str, Any]]:
    got = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        got.append(receive(ws))
        if got[-1]["type"] in (*kinds, "error"):
            return got
    raise AssertionError(f"no {kinds} message")


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, Path]:
    out = {name: tmp_path / name for name in ("replays", "bots", "outside", "runs", "elsewhere")}
    for path in out.values():
        path.mkdir()
    return out


@pytest.fixture
def closed(folders: dict[str, Path]) -> Iterator[LiveServer]:
    """A server started as ``snakelab serve`` starts it: no --bots."""
    with LiveServer(create_app(folders["replays"], bot_runs=folders["runs"])) as srv:
        yield srv


@pytest.fixture
def with_bots(folders: dict[str, Path]) -> Iterator[LiveServer]:
    """A server started with ``--bots DIR``."""
    app = create_app(folders["replays"], bots=folders["bots"], bot_runs=folders["runs"])
    with LiveServer(app) as srv:
        yield srv


def no_traceback(capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    out, err = capfd.readouterr()
    for text in (out, err, caplog.text):
        assert "Traceback" not in text, text
    assert not [r for r in caplog.records if r.exc_info], caplog.text


def test_foreign_origin_is_refused_before_any_game_starts(
    closed: LiveServer, folders: dict[str, Path], capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    marker = folders["outside"] / "pwned"
    bot = marker_bot(folders["outside"], marker)
    # The attack: a page on another site opens the socket and asks for a shell command.
    evil = start(bot_spec(bot, run_dir=f"'{folders['elsewhere']}'"))
    with pytest.raises(InvalidStatus) as refused, connect(ws_url(closed), origin="http://evil.example") as ws:  # type: ignore[arg-type]
        ws.send(json.dumps(evil))
        ws.recv(timeout=5)
    assert refused.value.response.status_code == 403
    # Same host name but another port is another origin, and so is https.
    for origin in (closed.url.replace(str(closed.port), str(closed.port + 1)), closed.url.replace("http", "https")):
        with pytest.raises(InvalidStatus):
            connect(ws_url(closed), origin=origin).close()  # type: ignore[arg-type]
    time.sleep(0.5)  # anything started would have run by now
    assert not marker.exists()
    assert list(folders["elsewhere"].iterdir()) == []
    no_traceback(capfd, caplog)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_own_origin_is_accepted_in_both_loopback_spellings(closed: LiveServer, host: str) -> None:
    origin = f"http://{host}:{closed.port}"
    with connect(ws_url(closed), origin=origin) as ws:  # type: ignore[arg-type]
        ws.send(json.dumps({"type": "start", "game": "classic(width=4,height=4)", "agents": ["classic.hamilton"]}))
        assert receive(ws)["type"] == "meta"


def test_allow_origin_opens_the_socket_to_a_named_origin(folders: dict[str, Path]) -> None:
    app = create_app(folders["replays"], allow_origins=("http://localhost:3000",))
    with LiveServer(app) as srv:
        with connect(ws_url(srv), origin="http://localhost:3000") as ws:  # type: ignore[arg-type]
            ws.send(json.dumps({"type": "dance"}))
            assert receive(ws)["type"] == "error"
        with pytest.raises(InvalidStatus):
            connect(ws_url(srv), origin="http://localhost:3001").close()  # type: ignore[arg-type]


def test_posts_from_another_site_and_foreign_hosts_are_refused(closed: LiveServer, folders: dict[str, Path]) -> None:
    import httpx

    body = b'{"format": "snakelab.replay"}\n'
    foreign = httpx.post(closed.url + "/api/replay", content=body, headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403
    assert "another site" in foreign.json()["error"]
    own = httpx.post(closed.url + "/api/replay", content=body, headers={"Origin": closed.url})
    assert own.status_code == 400  # read, and refused as a replay: the origin was fine
    # A page that rebinds its own name to 127.0.0.1 sends that name as the Host.
    rebound = httpx.get(closed.url + "/api/replays", headers={"Host": f"evil.example:{closed.port}"})
    assert rebound.status_code == 400
    assert "host name" in rebound.json()["error"]
    for host in (f"localhost:{closed.port}", f"127.0.0.1:{closed.port}"):
        assert httpx.get(closed.url + "/api/replays", headers={"Host": host}).status_code == 200
    # A handshake can only be refused with 403, whichever check fails.
    assert handshake_status(closed, {"Host": "evil.example", "Origin": "http://evil.example"}) == 403
    assert handshake_status(closed, {"Host": f"localhost:{closed.port}", "Origin": closed.url}) == 101


def handshake_status(server: LiveServer, headers: dict[str, str]) -> int:
    """The HTTP status a raw WebSocket handshake with these headers gets."""
    import socket

    lines = [
        "GET /ws/live HTTP/1.1",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        status = sock.recv(4096).split(b"\r\n", 1)[0]
    return int(status.split()[1])


def test_external_bot_is_refused_without_bots_folder(
    closed: LiveServer, folders: dict[str, Path], capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    marker = folders["bots"] / "ran"
    bot = marker_bot(folders["bots"], marker)
    with connect(ws_url(closed), origin=closed.url) as ws:  # type: ignore[arg-type]
        ws.send(json.dumps(start(bot_spec(bot))))
        error = receive(ws)
        assert error["type"] == "error"
        assert "--bots DIR" in error["message"]
        assert "\n" not in error["message"]
        # The connection is kept: the next command is answered.
        ws.send(json.dumps({"type": "restart"}))
        assert "nothing to restart" in receive(ws)["message"]
    time.sleep(0.3)
    assert not marker.exists()
    assert list(folders["runs"].iterdir()) == []
    no_traceback(capfd, caplog)


def test_bots_folder_runs_only_its_own_programs(with_bots: LiveServer, folders: dict[str, Path]) -> None:
    inside_marker, outside_marker = folders["bots"] / "ran", folders["outside"] / "ran"
    inside = marker_bot(folders["bots"], inside_marker)
    outside = marker_bot(folders["outside"], outside_marker)
    (folders["bots"] / "link.py").symlink_to(outside)
    refused = {
        "outside": bot_spec(outside),
        "escape": bot_spec("../outside/touch_bot.py"),
        "link out": bot_spec("link.py"),
        "missing": bot_spec("nope.py"),
        "run_dir elsewhere": bot_spec(inside, run_dir=f"'{folders['elsewhere']}'"),
        "interpreter": bot_spec(inside, python="/bin/sh"),
        "arguments": f"arena.bot(path='{inside} --evil',kind=exec,lockstep=true)",
        "name with a path": bot_spec(inside, name="'../../x'"),
    }
    with connect(ws_url(with_bots), origin=with_bots.url) as ws:  # type: ignore[arg-type]
        for why, spec in refused.items():
            ws.send(json.dumps(start(spec)))
            reply = receive(ws)
            assert reply["type"] == "error", (why, reply)
            assert "\n" not in reply["message"]
        time.sleep(0.3)
        assert not inside_marker.exists() and not outside_marker.exists()
        # The same outside file, existing or not: one refusal, so the page cannot probe the disk.
        ws.send(json.dumps(start(bot_spec(folders["outside"] / "no-such-bot.py"))))
        missing = receive(ws)["message"]
        ws.send(json.dumps(start(bot_spec(outside))))
        assert receive(ws)["message"] == missing
        assert "inside the server's bots folder" in missing
        # A bot inside the folder, named relative to it, plays; its logs go to the server's bot folder.
        ws.send(json.dumps(start(bot_spec("touch_bot.py"))))
        msgs = until(ws, "end")
    assert msgs[-1]["type"] == "end", msgs[-1]
    assert msgs[-1]["step"] == 20
    frames = [m for m in msgs if m["type"] == "frame"]
    assert all(f["actions"][0] is not None for f in frames[1:])  # the bot answered every step
    assert inside_marker.exists()
    assert not outside_marker.exists()
    assert sorted(p.suffix for p in folders["runs"].iterdir()) == [".err", ".log"]
    assert list(folders["elsewhere"].iterdir()) == []


def test_game_strings_name_files_only_inside_the_replay_folder(closed: LiveServer, folders: dict[str, Path]) -> None:
    from snakelab.games.hextris.codec import find_problems_dir

    shutil.copy(find_problems_dir() / "problem_1.json", folders["replays"] / "mine.json")
    outside = folders["outside"] / "problem.json"
    shutil.copy(find_problems_dir() / "problem_1.json", outside)
    with connect(ws_url(closed), origin=closed.url) as ws:  # type: ignore[arg-type]
        replies = []
        for target in (outside, folders["outside"] / "missing.json", "/etc/passwd", "../outside/problem.json"):
            ws.send(json.dumps({"type": "start", "game": f"hextris(problem_file='{target}')", "agents": ["human"]}))
            replies.append(receive(ws))
        assert all(r["type"] == "error" for r in replies)
        # Whether the outside file exists or not, the answer is the same.
        assert len({r["message"] for r in replies}) == 1
        assert "inside the server's replay folder" in replies[0]["message"]
        ws.send(json.dumps({"type": "start", "game": "hextris(problem_file=mine.json)", "agents": ["human"]}))
        meta = receive(ws)
    assert meta["type"] == "meta", meta
    assert meta["game_id"] == "hextris"


def command(**fields: Any) -> str:
    """A start command for classic with some fields changed."""
    return json.dumps({"type": "start", "game": "classic", "agents": ["classic.greedy"], **fields})


BAD_COMMANDS: list[tuple[str, str | bytes, str]] = [
    ("nested", "[" * 30_000 + "]" * 30_000, "nested too deeply"),
    ("nested object", '{"type": "start", "x": ' + "[" * 50 + "]" * 50 + "}", "nested too deeply"),
    ("too large", json.dumps({"type": "start", "game": "x" * 70_000}), "too large"),
    ("binary", b'{"type": "pause"}', "binary"),
    ("not json", "hello", "JSON"),
    ("agent of another game", command(agents=["arena.greedy"]), "plays arena"),
    ("speed not a number", json.dumps({"type": "speed", "fps": "abc"}), "fps must be a number"),
    ("speed without fps", json.dumps({"type": "speed"}), "speed needs fps"),
    ("speed infinite", '{"type": "speed", "fps": 1e999}', "fps must be a number"),
    ("start speed", command(fps="fast"), "fps"),
    ("seed", command(seed="abc"), "seed"),
    ("seed fraction", command(seed=1.5), "seed"),
    ("player", json.dumps({"type": "action", "player": "x", "action": "UP"}), "no game is running"),
    ("record", command(record="yes"), "record"),
    ("type", json.dumps({"type": ["start"]}), "unknown command"),
]


@pytest.mark.parametrize(("what", "payload", "needle"), BAD_COMMANDS, ids=[b[0] for b in BAD_COMMANDS])
def test_bad_commands_get_one_line_and_keep_the_connection(
    closed: LiveServer,
    what: str,
    payload: str | bytes,
    needle: str,
    capfd: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    with connect(ws_url(closed), origin=closed.url, max_size=None) as ws:  # type: ignore[arg-type]
        ws.send(payload)
        reply = receive(ws)
        assert reply["type"] == "error", (what, reply)
        assert needle in reply["message"], (what, reply)
        message = reply["message"]
        assert "\n" not in message and len(message) < 300
        for raw in ("could not convert", "invalid literal", "Traceback", "object has no attribute", "Error:"):
            assert raw not in message
        ws.send(json.dumps({"type": "start", "game": "classic(width=4,height=4)", "agents": ["classic.hamilton"]}))
        assert receive(ws)["type"] == "meta"  # still connected, still playing
    no_traceback(capfd, caplog)


def test_an_agent_of_another_game_never_starts(closed: LiveServer) -> None:
    with connect(ws_url(closed), origin=closed.url) as ws:  # type: ignore[arg-type]
        ws.send(json.dumps({"type": "start", "game": "classic", "agents": ["arena.greedy"], "fps": 500}))
        reply = receive(ws)
        assert reply == {
            "type": "error",
            "message": "agent arena.greedy plays arena, not classic: choose a classic agent",
        }
        ws.send(json.dumps({"type": "pause"}))
        assert receive(ws)["type"] == "status"  # no meta or frame came before: nothing started


@pytest.mark.parametrize("step", ["abc", "NaN", "-1", "1.5", "", "9" * 40])
def test_bad_replay_step_is_one_line(
    closed: LiveServer, step: str, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    import httpx

    res = httpx.get(closed.url + "/api/replay/state", params={"path": "x.jsonl", "step": step})
    assert res.status_code == 400
    message = res.json()["error"]
    assert message.startswith("step must be a whole number")
    assert "\n" not in message and len(message) < 120
    no_traceback(capfd, caplog)


def test_uploads_are_limited_while_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from starlette.requests import Request

    from snakelab.web.app import read_body

    pulled = []

    async def receive() -> dict[str, Any]:
        pulled.append(1)
        return {"type": "http.request", "body": b"x" * 1000, "more_body": True}  # an endless body

    def run(coro: Any) -> Any:
        # In a thread of its own: a browser test in this worker may hold the main thread's loop.
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, coro).result()

    request = Request({"type": "http", "method": "POST", "headers": []}, receive)
    assert run(read_body(request, 10_000)) is None
    assert len(pulled) == 11  # stopped at the first chunk past the limit
    declared = Request({"type": "http", "method": "POST", "headers": [(b"content-length", b"999999")]}, receive)
    pulled.clear()
    assert run(read_body(declared, 10_000)) is None
    assert pulled == []  # a declared length over the limit is refused before reading


def test_upload_over_the_limit_is_a_413(closed: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    import httpx

    from snakelab.web import app as web_app

    monkeypatch.setattr(web_app, "MAX_UPLOAD_BYTES", 1000)  # read when the route runs, in this process

    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b"x" * 1000

    res = httpx.post(closed.url + "/api/replay", content=chunks(), headers={"Origin": closed.url})
    assert res.status_code == 413
    assert "larger than" in res.json()["error"]


def test_favicon_is_served(closed: LiveServer) -> None:
    import httpx

    res = httpx.get(closed.url + "/favicon.ico")
    assert res.status_code == 200
    assert res.headers["content-type"].startswith("image/svg+xml")


def test_marker_bot_is_a_working_bot(tmp_path: Path) -> None:
    # The refusals above mean something only if the same bot runs when allowed.
    import subprocess

    marker = tmp_path / "ran"
    bot = marker_bot(tmp_path / "b", marker)
    subprocess.run([sys.executable, str(bot)], input="", capture_output=True, timeout=30, check=False)
    assert marker.exists()


def test_replays_cannot_name_files_outside_the_replay_folder(closed: LiveServer, folders: dict[str, Path]) -> None:
    import httpx

    from snakelab.games.hextris.codec import find_problems_dir

    outside = folders["outside"] / "problem.json"
    shutil.copy(find_problems_dir() / "problem_1.json", outside)
    answers = []
    for target in (outside, folders["outside"] / "missing.json"):
        # A sparse replay: its states must be re-simulated, which needs the game built.
        header = {"format": "snakelab.replay", "version": 1, "game": f"hextris(problem_file='{target}')", "seed": 0}
        lines = [json.dumps({**header, "state": {}}), json.dumps({"t": 1, "actions": ["l"], "events": []})]
        lines.append(json.dumps({"outcome": {"termination": "X", "scores": [0]}, "steps": 1}))
        res = httpx.post(
            closed.url + "/api/replay",
            params={"name": "r.jsonl"},
            content="\n".join(lines),
            headers={"Origin": closed.url},
        )
        assert res.status_code == 400
        answers.append(res.json()["error"].replace(str(target), "FILE"))
    assert answers[0] == answers[1]
    assert "inside the server's replay folder" in answers[0]
    with connect(ws_url(closed), origin=closed.url) as ws:  # type: ignore[arg-type]
        ws.send(json.dumps({"type": "start", "game": "hextris(problems_dir='/etc')", "agents": ["human"]}))
        assert "inside the server's replay folder" in receive(ws)["message"]
