"""Replays for the browser: a safe view of the replay folder and frames for scrubbing.

A replay is turned into one *frame* per step, the same shape the live WebSocket
sends (``{"step", "state", "events", "actions"}``), so one drawer serves both.
Replays that record the state only every few steps are re-simulated with
:func:`snakelab.core.replay.states`; a replay whose states are all recorded is shown
as written, even for a game this build does not know.
"""

from __future__ import annotations

import json
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from snakelab.core.errors import ReplayError, SnakelabError
from snakelab.core.game import JSON
from snakelab.core.registry import make, parse_spec
from snakelab.core.replay import Replay, read_replay, states
from snakelab.web.games import overlay_for, view_for

REPLAY_SUFFIXES = (".jsonl", ".replay")
"""File names the replay list shows (any file in the folder can still be opened by path)."""

SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "site-packages"})
"""Folders never searched for replays (nor any whose name starts with a dot: .git, .venv)."""

MAX_UPLOAD_BYTES = 64 * 1024 * 1024
"""Uploads larger than this are refused (a replay of a huge game can be streamed later)."""


MAX_FRAME_BYTES = 256 * 1024 * 1024
"""Refuse to expand replays whose frames would take more than about this much JSON."""


class PathEscapeError(SnakelabError):
    """A requested replay path points outside the replay folder."""


def safe_path(root: Path, relative: str) -> Path:
    """Resolve ``relative`` inside ``root``, refusing anything that leaves it.

    Symbolic links are resolved first, so a link pointing out of the folder is
    refused too.

    Raises:
        PathEscapeError: for absolute paths, ``..`` escapes and outside links.
    """
    if not relative or "\x00" in relative or os.path.isabs(relative) or relative.startswith(("/", "\\")):
        raise PathEscapeError(f"replay path {relative!r} must be relative to the replay folder")
    base = root.resolve()
    target = (base / relative).resolve()
    if not target.is_relative_to(base):
        raise PathEscapeError(f"replay path {relative!r} leaves the replay folder")
    return target


def list_replays(root: Path, limit: int = 500) -> list[dict[str, Any]]:
    """Replay files under ``root`` (newest first): relative path, size and time."""
    base = root.resolve()
    if not base.is_dir():
        return []
    found: list[tuple[float, dict[str, Any]]] = []
    for path in _walk(base):
        try:
            resolved = path.resolve()
            st = path.stat()
        except OSError:
            continue
        if not resolved.is_relative_to(base):
            continue  # a link out of the folder is not listed (and not served)
        found.append(
            (
                st.st_mtime,
                {
                    "path": path.relative_to(base).as_posix(),
                    "size": st.st_size,
                    "modified": datetime.fromtimestamp(st.st_mtime, UTC).isoformat(timespec="seconds"),
                },
            )
        )
    found.sort(key=lambda item: (-item[0], item[1]["path"]))
    return [info for _, info in found[:limit]]


def _walk(base: Path) -> list[Path]:
    """Replay-named files under ``base``, not descending into hidden or tool folders."""
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d not in SKIPPED_DIRS]
        out.extend(Path(dirpath) / f for f in filenames if f.endswith(REPLAY_SUFFIXES) and not f.startswith("."))
    return out


def replay_frames(replay: Replay) -> dict[str, JSON]:
    """Every frame of a replay plus its header, outcome and overlay.

    Raises:
        ReplayError: when a state is missing and the replay cannot be re-simulated
            (unknown game, illegal recorded action).
    """
    header = {k: v for k, v in replay.header.items() if k != "state"}
    frames: list[dict[str, JSON]] = [{"step": 0, "state": replay.header["state"], "events": [], "actions": []}]
    frames.extend({"step": s.t, "state": s.state, "events": s.events, "actions": s.actions} for s in replay.steps)
    size = len(json.dumps(replay.header["state"])) * len(frames)
    if size > MAX_FRAME_BYTES:
        raise ReplayError(
            f"replay too large for the viewer: {len(frames)} frames of about {size // len(frames):,} bytes each; "
            "scrub it in the terminal with `snakelab replay show` instead"
        )
    missing = any(f["state"] is None for f in frames)
    game_id = parse_spec(replay.game)[0]
    game = None
    try:
        game = make(replay.game)
    except SnakelabError as exc:
        if missing:
            raise ReplayError(f"cannot re-simulate this replay's missing states: {exc}") from None
    if missing and game is not None:
        for frame, (state, _events) in zip(frames, states(replay, game), strict=False):
            if frame["state"] is None:
                frame["state"] = state.to_json()
        if any(f["state"] is None for f in frames):
            raise ReplayError("re-simulation ended before the last recorded step")
    if game is not None:
        for frame in frames:
            view = view_for(game, frame["state"])
            if view is not None:
                frame["view"] = view
    agents = [str(a) for a in replay.header.get("agents", [])]
    return {
        "game_id": game_id,
        "header": header,
        "frames": frames,
        "outcome": replay.outcome,
        "resimulated": missing,
        "overlay": overlay_for(game, agents) if game is not None else {},
    }


def load_path(path: Path) -> dict[str, JSON]:
    """Read and expand a replay file (see :func:`replay_frames`).

    Raises:
        ReplayError: for a malformed, truncated or foreign file.
    """
    data = replay_frames(read_replay(path))
    data["name"] = path.name
    return data


def load_text(text: bytes, name: str = "upload") -> dict[str, JSON]:
    """Read and expand an uploaded replay's bytes.

    Raises:
        ReplayError: for a malformed file, naming it by ``name`` rather than a temp path.
    """
    if len(text) > MAX_UPLOAD_BYTES:
        raise ReplayError(f"{name}: replay is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MiB")
    # read_replay works on paths (it reports line numbers and truncation); a private
    # temporary file keeps that single code path.
    with tempfile.TemporaryDirectory(prefix="snakelab-upload-") as tmp:
        path = Path(tmp) / "upload.jsonl"
        path.write_bytes(text)
        try:
            data = replay_frames(read_replay(path))
        except ReplayError as exc:
            raise ReplayError(str(exc).replace(str(path), name)) from None
    data["name"] = name
    return data
