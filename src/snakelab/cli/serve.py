"""``snakelab serve``: the web viewer (live games, replays, human play, results).

The server listens on loopback unless ``--host`` says otherwise, answers only to its
own host names and origins, and runs no external program unless ``--bots DIR``
names the folder of programs the page may start (see "Security" in docs/web.md).
"""

from __future__ import annotations

import socket
from pathlib import Path

import typer

from snakelab.cli.common import fail

WS_MAX_BYTES = 1 << 20
"""Largest WebSocket frame uvicorn takes; the app refuses commands above 64 KiB with a reply."""


def check_listen(host: str, port: int) -> None:
    """Fail with a one-line error (not uvicorn's log) if ``host:port`` cannot be listened on."""
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")


def replays_note(replays: Path) -> str:
    """Where the replay page reads, as the start-up line says it: a folder that exists, or none yet."""
    if replays.is_dir():
        return f"replays from {replays.resolve()}"
    # The first game recorded from the live page creates it (the replay writer makes its folders).
    return f"no replays yet: {replays.resolve()} does not exist; recording a game creates it"


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
        allow_origin: list[str] = typer.Option(
            [],
            "--allow-origin",
            metavar="ORIGIN",
            help="Another origin (scheme://host:port) allowed to open the live socket and post; repeatable.",
        ),
        allow_host: list[str] = typer.Option(
            [],
            "--allow-host",
            metavar="NAME",
            help="Another host name the server answers to (e.g. a proxy's); repeatable.",
        ),
        bots: Path | None = typer.Option(
            None,
            "--bots",
            metavar="DIR",
            help="Folder of external bot programs the page may run; without it the page runs none.",
        ),
        bot_logs: Path = typer.Option(
            Path("arena_runs/bots"), "--bot-logs", metavar="DIR", help="Where bots started from the page write logs."
        ),
    ) -> None:
        """Serve the web viewer: watch and play games live, scrub replays, browse results."""
        try:
            import uvicorn

            from snakelab.web import create_app
            from snakelab.web.security import is_loopback, is_wildcard, normalise_origins
        except ImportError as exc:
            fail(f"the web viewer needs the 'web' extra (pip install 'snakelab[web]'): {exc}")
        try:
            origins = normalise_origins(allow_origin)
        except ValueError as exc:
            fail(f"--allow-origin: {exc}")
        if bots is not None and not bots.is_dir():
            fail(f"--bots: {bots} is not a folder")
        if replays.exists() and not replays.is_dir():
            fail(f"--replays: {replays} is not a folder")
        check_listen(host, port)
        shown = f"[{host}]" if ":" in host else host
        typer.echo(f"snakelab viewer on http://{shown}:{port}/  ({replays_note(replays)}; Ctrl-C stops)")
        if not is_loopback(host):
            where = "every network interface" if is_wildcard(host) else host
            typer.echo(
                f"warning: listening on {where}: other machines can reach this viewer and play games on it"
                + (f", and run the bots in {bots.resolve()}" if bots is not None else ""),
                err=True,
            )
        if bots is not None:
            typer.echo(f"the page may run the programs in {bots.resolve()} (logs in {bot_logs.resolve()})")
        application = create_app(
            replays,
            results,
            host=host,
            allow_origins=origins,
            allow_hosts=tuple(allow_host),
            bots=bots,
            bot_runs=bot_logs,
        )
        uvicorn.run(application, host=host, port=port, log_level="warning", ws_max_size=WS_MAX_BYTES)
