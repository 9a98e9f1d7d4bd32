"""Live games over a WebSocket: the server plays, the browser only draws.

One :class:`LiveSession` per WebSocket connection. The client sends small JSON
commands (``start``, ``pause``, ``resume``, ``step``, ``speed``, ``restart``,
``action``); the session steps the game in a background task and sends a ``meta``
message, then one ``frame`` per step (``{"step", "state", "events", "actions"}``,
the same shape as replay frames) and an ``end`` message. See ``docs/web.md``.

The game is driven by the harness's one match driver,
:class:`~snakelab.harness.match.Match`, one step at a time: the session paces the
steps (pause, single step, speed), feeds human seats (external seats of the match)
between steps with actions already checked with ``is_legal``, and lets agents decide
in a worker thread so a slow search never blocks the event loop. The match resets the
agents with the derived seeds, applies the steps and writes the replay, so a live game
records the replay :func:`~snakelab.harness.match.play` writes for the same game, seed
and moves. A game stopped before its end deletes its (truncated) replay.

Why one module: it is one session's protocol, the commands it checks, the pace it keeps
and the budget its agents think within (:func:`think_budget`) being parts of one loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from snakelab.core.errors import IllegalActionError, SnakelabError
from snakelab.core.game import JSON, Agent, Budget, Game, State
from snakelab.core.registry import game_entry, make, make_agent
from snakelab.harness.match import Match
from snakelab.web.games import HUMAN_PLAY, overlay_for, view_for
from snakelab.web.policy import Launch

log = logging.getLogger(__name__)

HUMAN = "human"
"""The seat name that puts a person in a seat."""

MAX_FPS = 500.0
"""Fastest pace a viewer may ask for; faster would only flood the browser."""

DEFAULT_BUDGET_S = 1.0
"""The most a built-in agent of a live game thinks per decision (at slow paces)."""

THINK_SHARE = 0.6
"""Part of a step's time that the built-in agents of a live game think, together.

The rest is left for the step itself, sending the frame and a busy machine, so the game
keeps the pace the viewer sees. The agents decide one after another, so each gets its
part of this share (:func:`think_budget`)."""

MIN_BUDGET_S = 0.002
"""The least time a built-in agent is given, however fast the pace (a search's first depth)."""


def think_budget(fps: float, deciders: int) -> Budget:
    """The budget of each of ``deciders`` built-in agents deciding one step at ``fps`` steps per second.

    Built-in agents think within the pace the viewer plays at: a 50 ms arena step with
    four searching agents gives each about 7 ms, not the 1 s of a benchmark, which made
    the game advance at a third of a step a second while the page said 10.
    """
    share = THINK_SHARE / fps / max(1, deciders)
    return Budget(time_s=min(DEFAULT_BUDGET_S, max(MIN_BUDGET_S, share)))


Send = Callable[[dict[str, JSON]], Awaitable[None]]


@dataclass
class Settings:
    """What a ``start`` command asked for."""

    game: str
    agents: list[str]
    seed: int
    fps: float
    paused: bool = False
    record: bool = False


MIN_FPS = 0.1
"""Slowest pace a viewer may ask for (one step every ten seconds)."""

MAX_SEED = 2**63
"""Seeds are integers with an absolute value below this."""

MAX_AGENTS = 16
"""More seats than any game has: a longer list is refused before anything is built."""


def shown(value: Any) -> str:
    """A short, readable rendering of a value a client sent, for error messages."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_fps(value: Any) -> float:
    """A pace in steps per second, within [:data:`MIN_FPS`, :data:`MAX_FPS`].

    Raises:
        SnakelabError: for a missing, non-numeric, infinite or out-of-range value.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not MIN_FPS <= value <= MAX_FPS:
        raise SnakelabError(
            f"fps must be a number of steps per second from {MIN_FPS:g} to {MAX_FPS:g}, got {shown(value)}"
        )
    return float(value)


def parse_seed(value: Any) -> int:
    """A seed: an integer (a float with no fraction counts), below :data:`MAX_SEED` in size.

    Raises:
        SnakelabError: for anything else.
    """
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= MAX_SEED:
        raise SnakelabError(f"seed must be a whole number (below 2^63 in size), got {shown(value)}")
    return value


def _flag(msg: dict[str, Any], key: str) -> bool:
    value = msg.get(key, False)
    if not isinstance(value, bool):
        raise SnakelabError(f"{key} must be true or false, got {shown(value)}")
    return value


def parse_start(msg: dict[str, Any]) -> Settings:
    """Check the fields of a ``start`` command (the game and agents are checked when built).

    Raises:
        SnakelabError: naming the bad field.
    """
    game = msg.get("game")
    if not isinstance(game, str) or not game.strip():
        raise SnakelabError("start needs a game string, e.g. classic(width=12,height=12)")
    agents = msg.get("agents")
    if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
        raise SnakelabError("start needs agents: a list of agent names (or 'human'), one per player")
    if len(agents) > MAX_AGENTS:
        raise SnakelabError(f"start lists {len(agents)} agents; no game has more than {MAX_AGENTS} players")
    return Settings(
        game.strip(),
        [a.strip() for a in agents],
        parse_seed(msg.get("seed", 1)),
        parse_fps(msg.get("fps", 10)),
        _flag(msg, "paused"),
        _flag(msg, "record"),
    )


def close_all(agents: list[Agent | None]) -> None:
    """Close every agent that was built, whatever one of them raises (a game that never started)."""
    for agent in agents:
        if agent is not None:
            with contextlib.suppress(Exception):
                agent.close()


@dataclass
class HumanSeat:
    """Input from a person for one player."""

    mode: str
    latest: Any = None
    last_applied: Any = None
    queue: list[Any] = field(default_factory=list)


class LiveSession:
    """Play games for one WebSocket client.

    Args:
        send: Coroutine sending one JSON message to the client.
        replay_dir: Where games started with ``"record": true`` write their replay
            (under ``live/``), or None to refuse recording.
        launch: What the page may build (files, external programs); by default
            files stay inside ``replay_dir`` (or the working folder) and no
            external program runs.
    """

    def __init__(self, send: Send, replay_dir: Path | None = None, launch: Launch | None = None) -> None:
        self._replay_dir = replay_dir
        self._launch = launch or Launch(replay_dir or Path("."))
        self._send_raw = send
        self._send_lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self.settings: Settings | None = None
        self._paused = False
        self._steps_wanted = 0
        self._wake = asyncio.Event()
        self._humans: dict[int, HumanSeat] = {}
        self._game: Game | None = None
        self._state: State | None = None
        self._fps = 10.0

    async def send(self, msg: dict[str, JSON]) -> None:
        """Send one message; the lock keeps the game task and replies from interleaving."""
        async with self._send_lock:
            await self._send_raw(msg)

    # -- commands --------------------------------------------------------------
    async def handle(self, msg: Any) -> None:
        """Dispatch one client command (unknown ones get an ``error`` reply)."""
        if not isinstance(msg, dict):
            await self.send({"type": "error", "message": "commands are JSON objects with a 'type'"})
            return
        kind = msg.get("type")
        try:
            if kind == "start":
                await self.start(parse_start(msg))
            elif kind == "restart":
                if self.settings is None:
                    raise SnakelabError("nothing to restart: send start first")
                await self.start(self.settings)
            elif kind == "pause":
                self._paused = True
                await self._status()
            elif kind == "resume":
                self._paused = False
                self._poke()
                await self._status()
            elif kind == "step":
                self._paused = True
                self._steps_wanted += 1
                self._poke()
            elif kind == "speed":
                if "fps" not in msg:
                    raise SnakelabError(f"speed needs fps: steps per second from {MIN_FPS:g} to {MAX_FPS:g}")
                self._fps = parse_fps(msg["fps"])
                self._poke()
                await self._status()
            elif kind == "action":
                self._human_input(msg)
            elif kind == "stop":
                await self.stop()
            else:
                raise SnakelabError(f"unknown command type {shown(kind)}")
        except SnakelabError as exc:
            await self.send({"type": "error", "message": " ".join(str(exc).split())})
        except Exception as exc:  # a bug, not bad input: one line in the log, a plain reply
            log.warning("live command %s failed: %s: %s", shown(kind), type(exc).__name__, exc)
            await self.send({"type": "error", "message": f"the server could not carry out {shown(kind)}"})

    async def _status(self) -> None:
        await self.send({"type": "status", "paused": self._paused, "fps": self._fps})

    def _poke(self) -> None:
        self._wake.set()

    def _human_input(self, msg: dict[str, Any]) -> None:
        if self._game is None:
            raise SnakelabError("no game is running")
        player = msg.get("player", 0)
        seat = self._humans.get(player) if isinstance(player, int) and not isinstance(player, bool) else None
        if seat is None:
            raise SnakelabError(f"player {shown(player)} is not a human seat")
        try:
            action = self._game.action_from_json(msg.get("action"))
        except (KeyError, TypeError, ValueError, SnakelabError):
            raise SnakelabError(f"cannot read action {shown(msg.get('action'))} for {self._game.info.id}") from None
        seat.latest = action
        seat.queue.append(action)
        self._poke()

    async def start(self, settings: Settings) -> None:
        """Stop any running game and start a new one from ``settings``."""
        await self.stop()
        launch = self._launch
        # Everything is checked before anything is built: a refused start runs nothing.
        game_string = launch.game_string(settings.game)
        game_id = game_entry(game_string).id
        specs: list[str | None] = []
        for name in settings.agents:
            if name == HUMAN:
                if game_id not in HUMAN_PLAY:
                    raise SnakelabError(f"{game_id} cannot be played by a human in the browser yet")
                specs.append(None)
            else:
                specs.append(launch.agent_spec(name, game_id))
        # Building a game or an agent may load files or compile tables: keep the loop free.
        game = await asyncio.to_thread(make, game_string)
        n = game.info.num_players
        if len(settings.agents) != n:
            raise SnakelabError(f"{game.info.name} needs {n} agent(s), got {len(settings.agents)}")
        humans: dict[int, HumanSeat] = {}
        agents: list[Agent | None] = []
        try:
            for i, spec in enumerate(specs):
                if spec is None:
                    play = HUMAN_PLAY[game.info.id]
                    idle = None if play.idle is None else game.action_from_json(play.idle)
                    humans[i] = HumanSeat(play.mode, last_applied=idle)
                    agents.append(None)
                else:
                    agents.append(await asyncio.to_thread(make_agent, spec))
        except BaseException:
            close_all(agents)
            raise
        play_as = HUMAN_PLAY.get(game.info.id)
        if play_as is not None and play_as.mode == "realtime" and (humans or play_as.ms_per_step is not None):
            # Real-time games run at their own pace when a person plays, and a game with a
            # pace of its own (arena's milliseconds per step) starts at it when only agents
            # play; the slider changes it from there.
            self._fps = min(MAX_FPS, play_as.pace(game))
        else:
            self._fps = settings.fps
        self.settings = settings
        self._game = game
        self._humans = humans
        self._paused = settings.paused
        self._steps_wanted = 0
        self._task = asyncio.create_task(self._run(game, agents, settings))

    async def stop(self) -> None:
        """Cancel the running game, if any, and close its agents."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # -- the game loop -----------------------------------------------------------
    async def _run(self, game: Game, agents: list[Agent | None], settings: Settings) -> None:
        info = game.info
        names = settings.agents
        match: Match | None = None
        finished = False
        try:
            recording = replay = None
            if settings.record:
                if self._replay_dir is None:
                    raise SnakelabError("this server has no replay folder to record into")
                stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
                recording = f"live/{info.id}-seed{settings.seed}-{stamp}.jsonl"
                replay = self._replay_dir / recording
            # Human seats are the match's external seats (None), fed between steps.
            match = Match(
                game,
                agents,
                settings.seed,
                agent_names=names,
                budget=think_budget(self._fps, len(agents)),
                replay=replay,
            )
            match.start()  # agents reset with the derived seeds, replay header written
            state = match.state
            self._state = state
            human_meta = {str(i): {"mode": s.mode, "help": HUMAN_PLAY[info.id].help} for i, s in self._humans.items()}
            await self.send(
                {
                    "type": "meta",
                    "game_id": info.id,
                    "game": info.name,
                    "num_players": info.num_players,
                    "dynamics": info.dynamics.value,
                    "agents": names,
                    "seed": settings.seed,
                    "fps": self._fps,
                    "paused": self._paused,
                    "humans": human_meta,
                    "overlay": overlay_for(game, [a for a in names if a != HUMAN]),
                    "recording": recording,
                }
            )
            await self.send(self._frame(game, state, [], []))
            last = asyncio.get_running_loop().time()
            while not match.over:
                last = await self._pace(last)
                deciders = [p for p in match.waiting() if not match.external(p)]
                match.budget = think_budget(self._fps, len(deciders))
                for p in match.waiting():
                    if match.external(p):
                        action, waited = await self._human_action(state, p)
                        match.feed(p, action)
                        if waited:
                            # The step happens when the key arrives, and the next one a full
                            # step later: no catching up on the time spent waiting for it.
                            last = asyncio.get_running_loop().time()
                    else:
                        await asyncio.to_thread(match.decide, p)
                try:
                    events = match.step()
                except IllegalActionError as exc:
                    # Human actions were checked just before, so an agent broke the rules.
                    raise match.blame(exc, agents_only=True) from exc
                actions = match.last_actions
                for p, seat in self._humans.items():
                    if actions[p] is not None:
                        seat.last_applied = actions[p]
                await self.send(
                    self._frame(
                        game,
                        state,
                        [e.to_json() for e in events],
                        [None if a is None else game.action_to_json(a) for a in actions],
                    )
                )
            # The outcome line, agents closed, their remarks (e.g. a fallback policy on a
            # board without a cycle) as the CLI prints them.
            try:
                result = match.finish()
            finally:
                # Once the outcome line is written the replay is whole: an agent failing
                # to close afterwards is reported, but does not cost the recording.
                finished = match.over
            await self.send(
                {
                    "type": "end",
                    "step": state.step_count,
                    "outcome": result.outcome.to_json(),
                    "notices": result.notices,
                }
            )
        except asyncio.CancelledError:
            raise
        except SnakelabError as exc:
            await self.send({"type": "error", "message": " ".join(str(exc).split())})
        except Exception as exc:  # any failure must reach the page, not vanish in a task
            log.warning("live game %s stopped: %s: %s", info.name, type(exc).__name__, exc)
            detail = " ".join(str(exc).split()) or type(exc).__name__
            await self.send({"type": "error", "message": f"the game stopped on an internal error ({detail})"})
        finally:
            if match is None:
                close_all(agents)
            else:
                with contextlib.suppress(Exception):
                    match.close()  # every agent, even if one fails to close
                if not finished and match.replay_path is not None:
                    # A stopped or failed game leaves no truncated replay behind.
                    Path(match.replay_path).unlink(missing_ok=True)

    @staticmethod
    def _frame(game: Game, state: State, events: list[JSON], actions: list[JSON]) -> dict[str, JSON]:
        data = state.to_json()
        msg: dict[str, JSON] = {
            "type": "frame",
            "step": state.step_count,
            "state": data,
            "events": events,
            "actions": actions,
        }
        view = view_for(game, data)
        if view is not None:
            msg["view"] = view
        return msg

    async def _pace(self, last: float) -> float:
        """Wait until the step after the one taken at ``last`` is due; return its time.

        A paused game waits for ``step`` or ``resume``; a speed change or a key
        press wakes the wait so the new pace applies at once.
        """
        loop = asyncio.get_running_loop()
        while True:
            if self._paused:
                if self._steps_wanted > 0:
                    self._steps_wanted -= 1
                    return loop.time()
                await self._wait_wake(None)
                continue
            due = last + 1.0 / self._fps
            now = loop.time()
            if now >= due:
                # After a stall (a slow agent, a human thinking) do not race to catch up.
                return max(due, now - 0.25)
            await self._wait_wake(due - now)

    async def _wait_wake(self, timeout: float | None) -> None:
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout)

    async def _human_action(self, state: State, player: int) -> tuple[Any, bool]:
        """The action of a human seat for this step, waiting for a key when needed.

        Returns:
            The action, and whether the game had to wait for it.
        """
        seat = self._humans[player]
        waited = False
        while True:
            if seat.mode == "turn":
                while seat.queue:
                    action = seat.queue.pop(0)
                    if state.is_legal(player, action):
                        return action, waited
                    assert self._game is not None
                    play = HUMAN_PLAY[self._game.info.id]
                    name = play.describe(self._game.action_to_json(action))
                    await self.send({"type": "notice", "message": f"{name} is not legal now; ignored"})
            else:
                seat.queue.clear()
                for action in (seat.latest, seat.last_applied):
                    if action is not None and state.is_legal(player, action):
                        return action, waited
            await self._wait_wake(None)
            waited = True
