"""``snakelab serve``: the web viewer (live games, replays, human play, results)."""

from __future__ import annotations

import socket
from pathlib import Path

import typer

from snakelab.cli.common import fail


def check_listen(host: str, port: int) -> None:
    """Fail with a one-line error (not uvicorn's log) if ``host:port`` cannot be listened on."""
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")


def register(app: typer.Typer) -> None:
    """Add the top-level ``serve`` command to the ``snakelab`` app."""

    @app.command("serve")
    def serve_cmd(
        host: str = typer.Option("127.0.0.1", "--host", help="Interface to listen on (loopback unless told)."),
        port: int = typer.Option(8000, "--port", "-p", min=1, max=65535, help="TCP port."),
        replays: Path = typer.Option(Path("replays"), "--replays", help="Folder of replay files to list and open."),
        results: Path | None = typer.Option(
            None, "--results", help="Results store (SQLite) for the results page; default: the CLI's store."
        ),
    ) -> None:
        """Serve the web viewer: watch and play games live, scrub replays, browse results."""
        try:
            import uvicorn

            from snakelab.web import create_app
        except ImportError as exc:
            fail(f"the web viewer needs the 'web' extra (pip install 'snakelab[web]'): {exc}")
        check_listen(host, port)
        shown = f"[{host}]" if ":" in host else host
        typer.echo(f"snakelab viewer on http://{shown}:{port}/  (replays from {replays.resolve()}; Ctrl-C stops)")
        uvicorn.run(create_app(replays, results), host=host, port=port, log_level="warning")
