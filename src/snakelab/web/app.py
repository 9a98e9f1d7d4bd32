"""The Starlette application behind ``snakelab serve``.

Pages (static HTML plus plain JavaScript modules, no build step):

* ``/`` — live games and human play (WebSocket ``/ws/live``);
* ``/replays`` — open a replay from the replay folder or by upload and scrub it;
* ``/results`` — stored results and ratings, when a results store is configured.

JSON API: ``GET /api/games``, ``GET /api/replays``, ``GET /api/replay?path=REL``,
``POST /api/replay`` (the replay file as the request body), ``GET /api/replay/state``
(one state of a large replay), ``GET /api/results``.
Errors come back as ``{"error": message}`` with a 4xx status, so the page can show
them. The message format of the WebSocket is described in ``docs/web.md``.

Every request passes the Host and Origin checks of :mod:`snakelab.web.security`
first, and whatever the page asks to build passes :mod:`snakelab.web.policy`
(files inside the server's folders, external programs only from ``--bots``).
WebSocket messages are limited in size (:data:`MAX_MESSAGE_BYTES`) and nesting
(:data:`MAX_DEPTH`); a bad one gets a one-line ``error`` reply and the connection
stays open.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from snakelab.core.errors import ReplayError, SnakelabError
from snakelab.web.games import catalogue
from snakelab.web.live import LiveSession
from snakelab.web.policy import Launch
from snakelab.web.replays import (
    MAX_UPLOAD_BYTES,
    PathEscapeError,
    ReplayCache,
    lazy_state,
    list_replays,
    load_path,
    load_text,
    path_key,
    safe_path,
)
from snakelab.web.results import results_summary
from snakelab.web.security import Access, AccessMiddleware

STATIC = Path(__file__).parent / "static"

MAX_MESSAGE_BYTES = 64 * 1024
"""Largest WebSocket command accepted (a start command is a few hundred bytes)."""

MAX_DEPTH = 8
"""Deepest nesting of arrays and objects in a WebSocket command (commands use two levels)."""

log = logging.getLogger(__name__)


def check_message(text: str) -> str | None:
    """Why a WebSocket text message is refused before parsing, or None if it may be parsed.

    The nesting depth is counted on the raw text (outside strings), so a deeply
    nested message never reaches the recursive JSON parser.
    """
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        return f"command too large: at most {MAX_MESSAGE_BYTES // 1024} KiB"
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return f"command nested too deeply: at most {MAX_DEPTH} levels of arrays and objects"
        elif ch in "]}":
            depth -= 1
    return None


async def read_body(request: Request, limit: int) -> bytes | None:
    """The request body, or None as soon as it exceeds ``limit`` bytes (nothing more is read)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": " ".join(message.split())}, status_code=status)


def create_app(
    replay_dir: str | os.PathLike[str] = "replays",
    results: str | os.PathLike[str] | None = None,
    *,
    host: str = "127.0.0.1",
    allow_origins: tuple[str, ...] = (),
    allow_hosts: tuple[str, ...] = (),
    bots: str | os.PathLike[str] | None = None,
    bot_runs: str | os.PathLike[str] = "arena_runs/bots",
) -> Starlette:
    """Build the viewer application.

    Args:
        replay_dir: Folder whose replay files the replay page lists and opens; paths
            outside it are refused, and files named in game strings must be inside it.
        results: The results store the results page reads, or None for the CLI's
            default store (``$SNAKELAB_STORE``, else results.sqlite in the user's data folder).
        host: The address the server listens on; sets the host names it answers to.
        allow_origins: Other origins that may open the WebSocket and post.
        allow_hosts: Other host names accepted in the ``Host`` header.
        bots: Folder of external programs the page may run, or None to run none.
        bot_runs: Where external bots started from the page write their logs.

    Returns:
        The ASGI application (serve it with uvicorn).
    """
    root = Path(replay_dir)
    cache = ReplayCache()
    results_path = None if results is None else Path(results)
    launch = Launch(root, None if bots is None else Path(bots), Path(bot_runs))
    access = Access(host, tuple(allow_origins), tuple(allow_hosts))

    def page(name: str) -> Any:
        async def endpoint(request: Request) -> Response:
            del request  # the pages are static
            return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

        return endpoint

    def _replay_file(rel: str) -> Path | Response:
        """The replay file ``rel`` inside the replay folder, or the error response (403, 404)."""
        try:
            path = safe_path(root, rel)
        except PathEscapeError as exc:
            return _error(str(exc), 403)
        if not path.is_file():
            return _error(f"no replay {rel!r} in the replay folder", 404)
        return path

    async def api_games(request: Request) -> Response:
        del request  # no parameters
        return JSONResponse({"games": await run_in_threadpool(catalogue)})

    async def api_replays(request: Request) -> Response:
        del request  # no parameters
        files = await run_in_threadpool(list_replays, root)
        return JSONResponse({"folder": str(root), "exists": root.is_dir(), "replays": files})

    async def favicon(request: Request) -> Response:
        del request  # no parameters
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def api_replay(request: Request) -> Response:
        if request.method == "POST":
            body = await read_body(request, MAX_UPLOAD_BYTES)
            if body is None:
                return _error(f"replay is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MiB", 413)
            name = request.query_params.get("name", "upload")
            try:
                data = await run_in_threadpool(load_text, body, os.path.basename(name) or "upload", cache, launch)
            except SnakelabError as exc:
                return _error(str(exc), 400)
            return JSONResponse(data)
        rel = request.query_params.get("path", "")
        path = _replay_file(rel)
        if isinstance(path, Response):
            return path
        try:
            data = await run_in_threadpool(load_path, path, cache, launch)
        except ReplayError as exc:
            # Report the file by its name in the folder, not by the server's absolute path.
            return _error(str(exc).replace(str(path), rel), 400)
        except SnakelabError as exc:
            return _error(f"{rel}: {exc}", 400)
        return JSONResponse(data)

    async def api_replay_state(request: Request) -> Response:
        raw = request.query_params.get("step", "")
        if not raw.isdigit() or len(raw) > 12:
            shown = raw if len(raw) <= 20 else raw[:17] + "..."
            return _error(f"step must be a whole number from 0, got {shown!r}", 400)
        step = int(raw)
        upload = request.query_params.get("upload")
        if upload is not None:
            key, path = f"upload:{upload}", None
        else:
            found = _replay_file(request.query_params.get("path", ""))
            if isinstance(found, Response):
                return found
            path = found
            key = path_key(path)
        try:
            data = await run_in_threadpool(lazy_state, cache, key, step, path, launch)
        except SnakelabError as exc:
            message = str(exc) if path is None else str(exc).replace(str(path), path.name)
            return _error(message, 410 if path is None and "no longer held" in message else 400)
        return JSONResponse(data)

    async def api_results(request: Request) -> Response:
        del request  # no parameters
        return JSONResponse(await run_in_threadpool(results_summary, results_path))

    async def ws_live(websocket: WebSocket) -> None:
        # The Origin was checked by AccessMiddleware before this handler runs.
        await websocket.accept()

        async def send(msg: dict[str, Any]) -> None:
            await websocket.send_text(json.dumps(msg, separators=(",", ":")))

        session = LiveSession(send, root, launch)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    await session.send({"type": "error", "message": "commands are JSON text, not binary frames"})
                    continue
                problem = check_message(text)
                if problem is not None:
                    await session.send({"type": "error", "message": problem})
                    continue
                try:
                    msg = json.loads(text)
                except (json.JSONDecodeError, RecursionError):
                    await session.send({"type": "error", "message": "commands must be JSON objects"})
                    continue
                await session.handle(msg)
        except WebSocketDisconnect:
            pass
        finally:
            await session.stop()

    routes = [
        Route("/", page("index.html")),
        Route("/replays", page("replays.html")),
        Route("/results", page("results.html")),
        Route("/favicon.ico", favicon),
        Route("/api/games", api_games),
        Route("/api/replays", api_replays),
        Route("/api/replay", api_replay, methods=["GET", "POST"]),
        Route("/api/replay/state", api_replay_state),
        Route("/api/results", api_results),
        WebSocketRoute("/ws/live", ws_live),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(AccessMiddleware, access=access)])
    app.state.replay_dir = root
    app.state.results = results_path
    app.state.access = access
    app.state.launch = launch
    return app
