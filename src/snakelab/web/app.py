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
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from snakelab.core.errors import ReplayError, SnakelabError
from snakelab.web.games import catalogue
from snakelab.web.live import LiveSession
from snakelab.web.replays import (
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

STATIC = Path(__file__).parent / "static"


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": " ".join(message.split())}, status_code=status)


def create_app(
    replay_dir: str | os.PathLike[str] = "replays", results: str | os.PathLike[str] | None = None
) -> Starlette:
    """Build the viewer application.

    Args:
        replay_dir: Folder whose replay files the replay page lists and opens; paths
            outside it are refused.
        results: The results store the results page reads, or None for the CLI's
            default store (``$SNAKELAB_STORE`` or ``./snakelab-results.sqlite``).

    Returns:
        The ASGI application (serve it with uvicorn).
    """
    root = Path(replay_dir)
    cache = ReplayCache()
    results_path = None if results is None else Path(results)

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

    async def api_replay(request: Request) -> Response:
        if request.method == "POST":
            body = await request.body()
            name = request.query_params.get("name", "upload")
            try:
                data = await run_in_threadpool(load_text, body, os.path.basename(name) or "upload", cache)
            except SnakelabError as exc:
                return _error(str(exc), 400)
            return JSONResponse(data)
        rel = request.query_params.get("path", "")
        path = _replay_file(rel)
        if isinstance(path, Response):
            return path
        try:
            data = await run_in_threadpool(load_path, path, cache)
        except ReplayError as exc:
            # Report the file by its name in the folder, not by the server's absolute path.
            return _error(str(exc).replace(str(path), rel), 400)
        except SnakelabError as exc:
            return _error(f"{rel}: {exc}", 400)
        return JSONResponse(data)

    async def api_replay_state(request: Request) -> Response:
        try:
            step = int(request.query_params.get("step", ""))
        except ValueError:
            return _error("step must be an integer", 400)
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
            data = await run_in_threadpool(lazy_state, cache, key, step, path)
        except SnakelabError as exc:
            message = str(exc) if path is None else str(exc).replace(str(path), path.name)
            return _error(message, 410 if path is None and "no longer held" in message else 400)
        return JSONResponse(data)

    async def api_results(request: Request) -> Response:
        del request  # no parameters
        return JSONResponse(await run_in_threadpool(results_summary, results_path))

    async def ws_live(websocket: WebSocket) -> None:
        await websocket.accept()

        async def send(msg: dict[str, Any]) -> None:
            await websocket.send_text(json.dumps(msg, separators=(",", ":")))

        session = LiveSession(send, root)
        try:
            while True:
                text = await websocket.receive_text()
                try:
                    msg = json.loads(text)
                except json.JSONDecodeError:
                    await session.send({"type": "error", "message": "commands must be JSON"})
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
        Route("/api/games", api_games),
        Route("/api/replays", api_replays),
        Route("/api/replay", api_replay, methods=["GET", "POST"]),
        Route("/api/replay/state", api_replay_state),
        Route("/api/results", api_results),
        WebSocketRoute("/ws/live", ws_live),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.replay_dir = root
    app.state.results = results_path
    return app
