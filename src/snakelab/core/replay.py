"""JSON-lines replays: write, read, verify by re-simulation.

A replay file (see ``docs/replay-format.md``) holds one JSON object per line:

1. a header: ``{"format": "snakelab.replay", "version": 1, "game", "rules_version",
   "seed", "agents", "snakelab", "created", "state"}`` where ``state`` is the
   initial state's JSON;
2. one line per step: ``{"t", "actions", "events"}`` plus ``"state"`` (the state after
   the step) on every ``state_every``-th step and on the last one;
3. an outcome line: ``{"outcome": {...}, "steps": n}``.

Lines are flushed as they are written, so a crashed or killed match leaves a
readable (truncated) file; :func:`read_replay` reports such a file as truncated.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from snakelab.core.errors import IllegalActionError, ReplayError, ReplayMismatchError
from snakelab.core.game import JSON, Event, Game, Outcome, State

FORMAT = "snakelab.replay"
VERSION = 1


class ReplayWriter:
    """Write a replay as the match goes.

    Args:
        path: Destination file (parent folders are created).
        game: The game being played.
        seed: The match seed.
        agents: Agent names, one per player.
        state_every: Record the full state every this many steps (0: only the
            initial and final states). 1 suits viewers; larger values keep long
            games small, and viewers rebuild the steps in between by re-simulation.
    """

    def __init__(
        self, path: str | os.PathLike[str], game: Game, seed: int, agents: Sequence[str], *, state_every: int = 1
    ) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.game = game
        self.state_every = state_every
        self._fh: IO[str] | None = self.path.open("w", encoding="utf-8")
        self._seed = seed
        self._agents = list(agents)
        self._t = 0

    def _write(self, obj: dict[str, JSON]) -> None:
        assert self._fh is not None
        self._fh.write(json.dumps(obj, separators=(",", ":")) + "\n")
        self._fh.flush()

    def start(self, state: State) -> None:
        """Write the header with the initial state."""
        from snakelab import __version__

        info = self.game.info
        self._write(
            {
                "format": FORMAT,
                "version": VERSION,
                "game": info.name,
                "rules_version": info.rules_version,
                "seed": self._seed,
                "agents": self._agents,
                "snakelab": __version__,
                "created": datetime.now(UTC).isoformat(timespec="seconds"),
                "state": state.to_json(),
            }
        )

    def step(self, actions: Sequence[Any], events: Sequence[Event], state: State) -> None:
        """Write one step: the actions taken, the events, and the state when due."""
        self._t += 1
        enc = self.game.action_to_json
        line: dict[str, JSON] = {
            "t": self._t,
            "actions": [None if a is None else enc(a) for a in actions],
            "events": [e.to_json() for e in events],
        }
        if (self.state_every and self._t % self.state_every == 0) or state.is_over():
            line["state"] = state.to_json()
        self._write(line)

    def finish(self, outcome: Outcome) -> None:
        """Write the outcome line and close the file."""
        self._write({"outcome": outcome.to_json(), "steps": self._t})
        self.close()

    def close(self) -> None:
        """Close the file (a replay closed without :meth:`finish` reads as truncated)."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None


@dataclass
class ReplayStep:
    """One recorded step."""

    t: int
    actions: list[JSON]
    events: list[dict[str, JSON]]
    state: dict[str, JSON] | None = None


@dataclass
class Replay:
    """A parsed replay file."""

    header: dict[str, JSON]
    steps: list[ReplayStep] = field(default_factory=list)
    outcome: dict[str, JSON] | None = None
    truncated: bool = False
    """The file ends before its outcome line (read with ``allow_truncated``)."""

    @property
    def game(self) -> str:
        """The canonical game string."""
        return str(self.header["game"])

    @property
    def seed(self) -> int:
        """The match seed."""
        return int(self.header["seed"])


def _lines(path: Path, cut: list[int] | None = None) -> Iterator[tuple[int, dict[str, JSON]]]:
    """The JSON objects of a replay's lines with their line numbers.

    With ``cut`` given, a last line broken off mid-write (no newline, not valid JSON)
    ends the file quietly and its number is appended to ``cut``.
    """
    try:
        fh = path.open("r", encoding="utf-8")
    except FileNotFoundError:
        raise ReplayError(f"{path}: no such replay file") from None
    except OSError as exc:
        raise ReplayError(f"{path}: cannot open replay: {exc.strerror}") from None
    with fh:
        for no, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw)
            except json.JSONDecodeError as exc:
                if cut is not None and not raw.endswith("\n"):
                    cut.append(no)
                    return
                hint = "" if raw.endswith("\n") else " (the file looks truncated)"
                raise ReplayError(f"{path}: line {no} is not valid JSON ({exc.msg}){hint}") from None
            if not isinstance(obj, dict):
                raise ReplayError(f"{path}: line {no} is not a JSON object")
            yield no, obj


def read_replay(path: str | os.PathLike[str], *, allow_truncated: bool = False) -> Replay:
    """Parse a replay file.

    Args:
        path: The file.
        allow_truncated: Accept a file that ends before its outcome line (a crashed
            or killed run): it is read up to its last complete step, a last line
            broken off mid-write is dropped, and ``truncated`` is set.

    Raises:
        ReplayError: naming the file and line for anything malformed, a foreign
            format, a newer version, or a truncated file (no outcome line) unless
            ``allow_truncated``.
    """
    p = Path(path)
    cut: list[int] | None = [] if allow_truncated else None
    it = _lines(p, cut)
    try:
        _, header = next(it)
    except StopIteration:
        raise ReplayError(f"{p}: empty file, not a snakelab replay") from None
    except UnicodeDecodeError:
        raise ReplayError(f"{p}: not a text file, not a snakelab replay") from None
    if header.get("format") != FORMAT:
        raise ReplayError(f'{p}: not a snakelab replay (line 1 has no "format": "{FORMAT}")')
    if not isinstance(header.get("version"), int) or header["version"] > VERSION:
        raise ReplayError(f"{p}: replay format version {header.get('version')!r} is not supported (max {VERSION})")
    for key in ("game", "seed", "state"):
        if key not in header:
            raise ReplayError(f"{p}: header lacks {key!r}")
    rep = Replay(header)
    try:
        for no, obj in it:
            if rep.outcome is not None:
                raise ReplayError(f"{p}: line {no} follows the outcome line")
            if "outcome" in obj:
                rep.outcome = obj["outcome"]
                continue
            try:
                step = ReplayStep(int(obj["t"]), list(obj["actions"]), list(obj["events"]), obj.get("state"))
            except (KeyError, TypeError, ValueError):
                raise ReplayError(f"{p}: line {no} is not a step (needs t, actions, events)") from None
            if step.t != len(rep.steps) + 1:
                raise ReplayError(f"{p}: line {no} is step {step.t}, expected {len(rep.steps) + 1}")
            rep.steps.append(step)
    except UnicodeDecodeError:
        raise ReplayError(f"{p}: not a text file") from None
    if rep.outcome is None:
        if not allow_truncated:
            raise ReplayError(f"{p}: truncated: no outcome line after step {len(rep.steps)}")
        rep.truncated = True
    return rep


def _diff(a: JSON, b: JSON, where: str = "") -> str:
    """A short description of the first difference between two JSON values."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return _diff(a.get(k), b.get(k), f"{where}.{k}" if where else str(k))
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _diff(x, y, f"{where}[{i}]")
    return f"{where or 'value'}: recorded {json.dumps(a)[:80]}, re-simulated {json.dumps(b)[:80]}"


def apply_step(game: Game, state: State, step: ReplayStep) -> Sequence[Event]:
    """Apply one recorded step to ``state``, its actions decoded by ``game``: the one way a replay is stepped.

    Raises:
        ReplayMismatchError: when the recorded actions cannot be decoded or are illegal here.
    """
    dec = game.action_from_json
    try:
        actions = [None if a is None else dec(a) for a in step.actions]
        return state.apply(actions)
    except IllegalActionError as exc:
        raise ReplayMismatchError(f"step {step.t}: recorded action is illegal on re-simulation: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayMismatchError(f"step {step.t}: cannot decode recorded actions: {exc}") from None


def states(replay: Replay, game: Game | None = None) -> Iterator[tuple[State, Sequence[Event]]]:
    """Re-simulate a replay, yielding ``(state, events)`` for the start and after each step.

    The start yields no events. The same (mutable) state object is yielded each
    time; clone it to keep a copy.

    Raises:
        ReplayMismatchError: at the first step whose recorded actions are illegal.
    """
    from snakelab.core.registry import make

    g = game or make(replay.game)
    state = g.new_state(replay.seed)
    yield state, ()
    for step in replay.steps:
        yield state, apply_step(g, state, step)


def verify(replay: Replay | str | os.PathLike[str]) -> int:
    """Re-simulate a replay and check every event, recorded state and the outcome.

    Returns:
        The number of steps verified.

    Raises:
        ReplayError: if the file cannot be read.
        ReplayMismatchError: naming the first step (and field) that differs.
    """
    from snakelab.core.registry import make

    rep = replay if isinstance(replay, Replay) else read_replay(replay)
    game = make(rep.game)
    if rep.header.get("rules_version", game.info.rules_version) != game.info.rules_version:
        raise ReplayMismatchError(
            f"replay was written under rules version {rep.header['rules_version']}, "
            f"this snakelab has version {game.info.rules_version} of {game.info.id}"
        )
    it = states(rep, game)
    state, _ = next(it)
    if state.to_json() != rep.header["state"]:
        raise ReplayMismatchError("initial state differs: " + _diff(rep.header["state"], state.to_json()))
    for step, (state, events) in zip(rep.steps, it, strict=False):
        got_events = [e.to_json() for e in events]
        if got_events != step.events:
            raise ReplayMismatchError(f"step {step.t}: events differ: " + _diff(step.events, got_events))
        if step.state is not None and step.state != state.to_json():
            raise ReplayMismatchError(f"step {step.t}: state differs: " + _diff(step.state, state.to_json()))
    if not state.is_over():
        raise ReplayMismatchError(f"the game is not over after the {len(rep.steps)} recorded steps")
    got = state.outcome().to_json()
    assert rep.outcome is not None
    if got != rep.outcome:
        raise ReplayMismatchError("outcome differs: " + _diff(rep.outcome, got))
    return len(rep.steps)
