"""``snakelab serve``: loopback by default, options passed to uvicorn."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from typer.testing import CliRunner

from snakelab.cli import app, serve


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []

    def fake_run(application: Any, **kwargs: Any) -> None:
        calls.append({"app": application, **kwargs})

    monkeypatch.setattr(uvicorn, "run", fake_run)
    # The options are what is tested here, not whether the port is free on this machine.
    monkeypatch.setattr(serve, "check_listen", lambda host, port: None)
    return calls


def test_serve_listens_on_loopback_by_default(served: list[dict[str, Any]]) -> None:
    result = CliRunner().invoke(app, ["serve"])
    assert result.exit_code == 0, result.output
    (call,) = served
    assert (call["host"], call["port"]) == ("127.0.0.1", 8000)
    assert isinstance(call["app"], Starlette)
    assert call["app"].state.replay_dir == Path("replays")
    assert "http://127.0.0.1:8000/" in result.output


def test_serve_options(served: list[dict[str, Any]], tmp_path: Path) -> None:
    args = ["serve", "--host", "0.0.0.0", "--port", "9123", "--replays", str(tmp_path), "--results", "r.sqlite"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    (call,) = served
    assert (call["host"], call["port"]) == ("0.0.0.0", 9123)
    assert call["app"].state.replay_dir == tmp_path
    assert call["app"].state.results == Path("r.sqlite")
    assert "http://0.0.0.0:9123/" in result.output
    # Every interface: the user is told, and the server answers to this machine's addresses.
    assert "warning: listening on every network interface" in result.stderr
    access = call["app"].state.access
    assert access.host_allowed("192.168.1.20:9123") and not access.host_allowed("evil.example")


def test_serve_on_loopback_gives_no_warning(served: list[dict[str, Any]]) -> None:
    result = CliRunner().invoke(app, ["serve"])
    assert "warning" not in result.output


def test_serve_security_options(served: list[dict[str, Any]], tmp_path: Path) -> None:
    bots = tmp_path / "bots"
    bots.mkdir()
    args = ["serve", "--allow-origin", "http://localhost:3000", "--allow-host", "viewer.lan", "--bots", str(bots)]
    args += ["--bot-logs", str(tmp_path / "logs")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    (call,) = served
    state = call["app"].state
    assert state.launch.bots == bots
    assert state.launch.bot_runs == tmp_path / "logs"
    assert state.access.origin_allowed("http://localhost:3000", "http", "127.0.0.1:8000")
    assert not state.access.origin_allowed("http://localhost:3001", "http", "127.0.0.1:8000")
    assert state.access.host_allowed("viewer.lan:8000")
    assert f"may run the programs in {bots.resolve()}" in result.output
    assert call["ws_max_size"] <= 1 << 20


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--allow-origin", "evil.example"], "is not an origin"),
        (["--allow-origin", "http://x.example/path"], "is not an origin"),
        (["--bots", "/no/such/folder"], "is not a folder"),
    ],
)
def test_serve_refuses_bad_security_options(served: list[dict[str, Any]], args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 2
    assert message in result.stderr
    assert served == []


def test_serve_names_a_port_it_cannot_listen_on() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert f"error: cannot listen on 127.0.0.1:{port}:" in result.stderr


def test_serve_refuses_a_port_out_of_range() -> None:
    result = CliRunner().invoke(app, ["serve", "--port", "70000"])
    assert result.exit_code == 2 and "--port" in result.output


def test_replay_show_reads_a_truncated_replay_to_its_last_step(replay_dir: Path, tmp_path: Path) -> None:
    lines = (replay_dir / "classic.jsonl").read_text().splitlines()
    cut = tmp_path / "crashed.jsonl"
    # The header, four steps and half of the fifth: a run killed while writing.
    cut.write_text("\n".join(lines[:5]) + "\n" + lines[5][: len(lines[5]) // 2])
    result = CliRunner().invoke(app, ["replay", "show", str(cut)])
    assert result.exit_code == 0, result.output
    assert "step 4/4 (truncated here)" in result.stdout
    assert "truncated (no outcome line): showing its 4 complete step(s)" in " ".join(result.stderr.split())
    at = CliRunner().invoke(app, ["replay", "show", str(cut), "--step", "2"])
    assert at.exit_code == 0 and "step 2/4" in at.stdout
    # verify still refuses it: a truncated file is not a finished game.
    assert CliRunner().invoke(app, ["replay", "verify", str(cut)]).exit_code != 0


def test_serve_says_when_its_replay_folder_does_not_exist(
    served: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["serve"])  # the default, ./replays, is not there
    assert result.exit_code == 0, result.output
    line = " ".join(result.output.split())
    assert "does not exist; recording a game creates it" in line and "replays from" not in line
    (tmp_path / "replays").mkdir()
    result = CliRunner().invoke(app, ["serve"])
    assert f"replays from {tmp_path / 'replays'}" in " ".join(result.output.split())


def test_serve_refuses_a_replay_folder_that_is_a_file(served: list[dict[str, Any]], tmp_path: Path) -> None:
    (tmp_path / "r").write_text("")
    result = CliRunner().invoke(app, ["serve", "--replays", str(tmp_path / "r")])
    assert result.exit_code == 2 and "is not a folder" in result.output
    assert served == []


def test_sigterm_stops_the_server_with_exit_code_143(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-c", "from snakelab.cli import main; main()", "serve", "--port", str(port)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while True:  # until the server answers
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the server did not start"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 143, err
    assert "Traceback" not in err
