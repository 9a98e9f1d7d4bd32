"""Replays for the browser: a safe view of the replay folder and frames for scrubbing.

A replay is turned into one *frame* per step, the same shape the live WebSocket
sends (``{"step", "state", "events", "actions"}``), so one drawer serves both.
Replays that record the state only every few steps are re-simulated with
:func:`snakelab.core.replay.states`; a replay whose states are all recorded is shown
as written, even for a game this build does not know. Large replays are sent without
their states (:class:`LazyReplay`), which the page then fetches step by step.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from snakelab.core.errors import ReplayError, SnakelabError
from snakelab.core.game import JSON, Game, State
from snakelab.core.registry import make, parse_spec
from snakelab.core.replay import Replay, apply_step, read_replay, states
from snakelab.web.games import overlay_for, view_for

if TYPE_CHECKING:
    from snakelab.web.policy import Launch

MakeGame = Callable[[str], Game]

REPLAY_SUFFIXES = (".jsonl", ".replay")
"""File names the replay list shows (any file in the folder can still be opened by path)."""

SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "site-packages"})
"""Folders never searched for replays (nor any whose name starts with a dot: .git, .venv)."""

MAX_UPLOAD_BYTES = 64 * 1024 * 1024
"""Uploads larger than this are refused (put bigger files in the replay folder)."""

LAZY_STATE_BYTES = 64 * 1024 * 1024
"""Above about this much state JSON a replay is sent without its states, which the page
then fetches one step at a time (``GET /api/replay/state``)."""

MAX_STEPS = 2_000_000
"""Refuse replays with more steps than this (the step list alone would swamp a browser)."""

CHECKPOINT_EVERY = 256
"""Lazy replays keep a re-simulated state every this many steps, so any step is cheap."""


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


class LazyReplay:
    """A replay whose states are served one step at a time, from re-simulated checkpoints.

    Args:
        replay: The parsed replay.
        game: Its game (needed to re-simulate).
    """

    def __init__(self, replay: Replay, game: Game) -> None:
        self.replay = replay
        self.game = game
        self.checkpoints: list[State] = []
        for state, _events in states(replay, game):
            if state.step_count % CHECKPOINT_EVERY == 0:
                self.checkpoints.append(state.clone())

    def state(self, step: int) -> dict[str, JSON]:
        """The frame state after ``step`` steps, with its view when the game has one.

        Raises:
            ReplayError: for a step outside the replay.
        """
        steps = self.replay.steps
        if not 0 <= step <= len(steps):
            raise ReplayError(f"step {step} is outside this replay (0..{len(steps)})")
        recorded = self.replay.header["state"] if step == 0 else steps[step - 1].state
        if recorded is None:
            base = min(step // CHECKPOINT_EVERY, len(self.checkpoints) - 1)
            state = self.checkpoints[base].clone()
            for s in steps[state.step_count : step]:
                apply_step(self.game, state, s)
            recorded = state.to_json()
        out: dict[str, JSON] = {"step": step, "state": recorded}
        view = view_for(self.game, recorded)
        if view is not None:
            out["view"] = view
        return out


class ReplayCache:
    """The few lazy replays being scrubbed now, newest kept, keyed by file or upload id."""

    def __init__(self, size: int = 4) -> None:
        self.size = size
        self._entries: OrderedDict[str, LazyReplay] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, key: str, lazy: LazyReplay) -> None:
        """Remember a lazy replay, forgetting the least recently used beyond ``size``."""
        with self._lock:
            self._entries[key] = lazy
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def get(self, key: str) -> LazyReplay | None:
        """The lazy replay under ``key``, or None when it was never loaded or was forgotten."""
        with self._lock:
            lazy = self._entries.get(key)
            if lazy is not None:
                self._entries.move_to_end(key)
            return lazy


def path_key(path: Path) -> str:
    """Cache key of a replay file: its path and modification time (an edited file is re-read)."""
    st = path.stat()
    return f"path:{path}:{st.st_mtime_ns}:{st.st_size}"


def replay_frames(
    replay: Replay, cache: ReplayCache | None = None, key: str | None = None, make_game: MakeGame = make
) -> dict[str, JSON]:
    """Every frame of a replay plus its header, outcome and overlay.

    ``make_game`` builds the replay's game (the server passes one that keeps files
    named in the game string inside its folders). A truncated replay (a crashed
    run) is shown up to its last complete step, with ``"truncated": true``.

    Small replays come whole. One whose states would exceed :data:`LAZY_STATE_BYTES`
    comes with only the first state (``"lazy": true``) when a ``cache`` and ``key``
    are given; the page then asks for each state as it is shown.

    Raises:
        ReplayError: when a state is missing and the replay cannot be re-simulated
            (unknown game, illegal recorded action), or the replay is far too long.
    """
    if len(replay.steps) > MAX_STEPS:
        raise ReplayError(f"replay has {len(replay.steps):,} steps; the viewer shows at most {MAX_STEPS:,}")
    header = {k: v for k, v in replay.header.items() if k != "state"}
    frames: list[dict[str, JSON]] = [{"step": 0, "state": replay.header["state"], "events": [], "actions": []}]
    frames.extend({"step": s.t, "state": s.state, "events": s.events, "actions": s.actions} for s in replay.steps)
    size = len(json.dumps(replay.header["state"])) * len(frames)
    missing = any(f["state"] is None for f in frames)
    game_id = parse_spec(replay.game)[0]
    game = None
    try:
        game = make_game(replay.game)
    except SnakelabError as exc:
        if missing:
            raise ReplayError(f"cannot re-simulate this replay's missing states: {exc}") from None
    lazy = size > LAZY_STATE_BYTES and game is not None and cache is not None and key is not None
    if lazy:
        assert game is not None and cache is not None and key is not None
        cache.put(key, LazyReplay(replay, game))
        for frame in frames[1:]:
            frame["state"] = None
    elif size > LAZY_STATE_BYTES:
        raise ReplayError(
            f"replay too large for the viewer: {len(frames)} frames of about {size // len(frames):,} bytes each; "
            "scrub it in the terminal with `snakelab replay show` instead"
        )
    elif missing and game is not None:
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
        "truncated": replay.truncated,
        "lazy": lazy,
        "overlay": overlay_for(game, agents) if game is not None else {},
    }


def _make(launch: Launch | None) -> MakeGame:
    return make if launch is None else launch.make_game


def load_path(path: Path, cache: ReplayCache | None = None, launch: Launch | None = None) -> dict[str, JSON]:
    """Read and expand a replay file (see :func:`replay_frames`); a truncated one up to its last step.

    Raises:
        ReplayError: for a malformed or foreign file.
    """
    data = replay_frames(read_replay(path, allow_truncated=True), cache, path_key(path), _make(launch))
    data["name"] = path.name
    return data


def lazy_state(
    cache: ReplayCache, key: str, step: int, path: Path | None = None, launch: Launch | None = None
) -> dict[str, JSON]:
    """One state of a lazy replay, reloading a file that the cache has forgotten.

    Raises:
        ReplayError: for an unknown or expired upload, or a step outside the replay.
    """
    lazy = cache.get(key)
    if lazy is None and path is not None:
        replay = read_replay(path, allow_truncated=True)
        lazy = LazyReplay(replay, _make(launch)(replay.game))
        cache.put(key, lazy)
    if lazy is None:
        raise ReplayError("this uploaded replay is no longer held by the server; open the file again")
    return lazy.state(step)


def load_text(
    text: bytes, name: str = "upload", cache: ReplayCache | None = None, launch: Launch | None = None
) -> dict[str, JSON]:
    """Read and expand an uploaded replay's bytes.

    A lazy upload is held in ``cache`` under ``"upload:<id>"``; the id comes back as
    ``"upload"`` for state requests.

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
        upload = uuid.uuid4().hex
        try:
            data = replay_frames(read_replay(path, allow_truncated=True), cache, f"upload:{upload}", _make(launch))
        except ReplayError as exc:
            raise ReplayError(str(exc).replace(str(path), name)) from None
    data["name"] = name
    if data["lazy"]:
        data["upload"] = upload
    return data
