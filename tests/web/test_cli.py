"""``snakelab serve``: loopback by default, options passed to uvicorn."""

from __future__ import annotations

import socket
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


def test_serve_names_a_port_it_cannot_listen_on() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert f"error: cannot listen on 127.0.0.1:{port}:" in result.stderr


def test_serve_refuses_a_port_out_of_range() -> None:
    result = CliRunner().invoke(app, ["serve", "--port", "70000"])
    assert result.exit_code == 2 and "--port" in result.output
