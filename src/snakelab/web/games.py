"""What the web viewer knows about each game beyond the registry.

The registry says which games and agents exist; this module adds the few facts a
viewer needs that rules modules rightly do not carry: how a human plays each game
(real time with the last key held, or one command per key press) and optional
overlays drawn under the state (the classic agent's Hamiltonian cycle).

Everything here degrades gracefully: a game missing from :data:`HUMAN_PLAY` simply
offers no human seat, and a game without an overlay function draws none.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from snakelab.core.errors import SnakelabError
from snakelab.core.game import JSON, Game
from snakelab.core.registry import agent_entry, list_agents, list_games, make_agent


@dataclass(frozen=True)
class HumanPlay:
    """How a human seat of a game is driven.

    Attributes:
        mode: ``"realtime"``: the game advances at ``fps`` and a human's last
            direction is repeated until another key is pressed (snake games);
            ``"turn"``: every key press is one action and the game waits for it.
        fps: Steps per second in real-time mode (the game's own pace).
        help: One line telling the player which keys do what.
        idle: The action (as JSON) a real-time seat plays before its first key, or
            None to wait for that key before the game starts moving.
        ms_per_step: Name of a config field holding the game's own milliseconds per
            step; when present it sets the pace instead of ``fps``.
        key_name: Names an action (as JSON) the way ``help`` names its key, for
            notices; None shows the action JSON.
    """

    mode: str
    fps: float
    help: str
    idle: JSON = None
    ms_per_step: str | None = None
    key_name: Callable[[JSON], str] | None = None

    def describe(self, action: JSON) -> str:
        """An action in the words of the help line (its key), for notices."""
        shown = json.dumps(action)
        if self.key_name is None:
            return shown
        return self.key_name(action) or shown

    def pace(self, game: Game) -> float:
        """Steps per second for a human game of ``game`` (its real speed where it has one)."""
        ms = getattr(game.info.config, self.ms_per_step, None) if self.ms_per_step else None
        if isinstance(ms, (int, float)) and ms > 0:
            return 1000.0 / float(ms)
        return self.fps


HEXTRIS_KEYS = (
    ("A", "move west"),
    ("D", "move east"),
    ("Z", "move south-west"),
    ("X", "move south-east"),
    ("E", "rotate clockwise"),
    ("Q", "rotate counter-clockwise"),
)
"""The key of each hextris command, in command order (W, E, SW, SE, CW, CCW), as the help names them."""


def hextris_key_name(action: JSON) -> str:
    """A hextris action named by its key, for notices.

    ``E (rotate clockwise)`` for the canonical character of a command, ``"i" (Z: move
    south-west)`` for another character of it, or "" for a character that is no command.
    """
    from snakelab.games.hextris.rules import CANONICAL, CHAR_TO_COMMAND

    if not isinstance(action, str) or len(action) != 1:
        return ""
    command = CHAR_TO_COMMAND.get(action.lower())
    if command is None:
        return ""
    key, what = HEXTRIS_KEYS[command]
    if action == CANONICAL[command]:
        return f"{key} ({what})"
    return f"{json.dumps(action)} ({key}: {what})"


HUMAN_PLAY: dict[str, HumanPlay] = {
    "classic": HumanPlay("realtime", 6.0, "Arrow keys or WASD steer; the first key starts the snake."),
    "arena": HumanPlay(
        "realtime",
        20.0,
        "Arrow keys or WASD steer your snake (player 0) against the built-in bots, at the game's own speed.",
        idle=5,  # straight on until the first key: the other snakes do not wait
        ms_per_step="speed",
    ),
    "hextris": HumanPlay(
        "turn",
        0.0,
        "A / D move west / east, Z / X move south-west / south-east, Q / E rotate counter-clockwise / clockwise.",
        key_name=hextris_key_name,
    ),
}
"""Games a human can play in the browser; their key maps live in the drawers."""


def classic_overlay(game: Game, agent_names: Sequence[str]) -> dict[str, JSON]:
    """The Hamiltonian cycle of a classic board when one of the agents follows it.

    Args:
        game: The classic game being shown.
        agent_names: Registry names of its agents (unknown names are ignored).

    Returns:
        ``{"cycle": [[x, y], ...]}`` in cycle order, or ``{}`` when no agent follows
        a cycle or the board has none (both sides odd).
    """
    from snakelab.games.classic.agents import HamiltonAgent
    from snakelab.games.classic.cycles import zigzag_cycle

    follows = False
    for name in agent_names:
        try:
            follows = follows or isinstance(make_agent(name), HamiltonAgent)
        except SnakelabError:
            continue
    grid = getattr(game, "grid", None)
    if not follows or grid is None:
        return {}
    cycle = zigzag_cycle(grid)
    if cycle is None:
        return {}
    return {"cycle": [list(grid.xy(c)) for c in cycle]}


OVERLAYS: dict[str, Callable[[Game, Sequence[str]], dict[str, JSON]]] = {"classic": classic_overlay}
"""Per game, a function giving extra drawing data for a match (game, agent names)."""


def hextris_view(game: Game, state: dict[str, JSON]) -> dict[str, JSON]:
    """What a hextris drawer needs beyond the state JSON.

    The state JSON holds the board and the unit's placement ``(px, py, rot)``; the
    member cells follow from the unit's shape, and the power score from the command
    string, so both are worked out here with the game's own code.

    Returns:
        ``unit`` (member cells, empty once over), ``pivot``, ``unit_type``,
        ``power_score``, ``phrases`` (phrase -> repetitions, only those spelled).
    """
    from snakelab.games.hextris.scoring import phrase_reps, power_score

    s: Any = game.state_from_json(state)
    sim = s.sim
    commands = "".join(s.commands)
    over = s.is_over()
    power, _distinct = power_score(commands)
    return {
        "unit": [] if over else [list(c) for c in sim.cells()],
        "pivot": None if over else [sim.pos[0], sim.pos[1]],
        "unit_type": None if over or sim.index >= len(sim.sequence) else sim.sequence[sim.index],
        "units_total": len(sim.sequence),
        "power_score": power,
        "phrases": {p: r for p, r in phrase_reps(commands).items() if r},
    }


VIEWS: dict[str, Callable[[Game, dict[str, JSON]], dict[str, JSON]]] = {"hextris": hextris_view}
"""Per game, extra per-frame drawing data worked out from a state's JSON."""


def view_for(game: Game | None, state: dict[str, JSON] | None) -> dict[str, JSON] | None:
    """The extra drawing data of one frame, or None when the game has no view function.

    A state the game cannot read gives ``{"error": message}``: the drawer then
    shows what it can instead of the page failing.
    """
    fn = None if game is None else VIEWS.get(game.info.id)
    if fn is None or game is None or state is None:
        return None
    try:
        return fn(game, state)
    except Exception as exc:  # a malformed recorded state must not hide the rest of the replay
        return {"error": f"{type(exc).__name__}: {exc}"}


def overlay_for(game: Game, agent_names: Sequence[str]) -> dict[str, JSON]:
    """The overlay data of a match, or ``{}`` when the game has none."""
    fn = OVERLAYS.get(game.info.id)
    return fn(game, agent_names) if fn is not None else {}


def default_game_string(game_id: str) -> str:
    """A small, quick board for the live page's first view of a game."""
    return {
        "classic": "classic(width=12,height=12)",
        "blind": "blind(width=12,height=9)",
        "snakgame": "snakgame(type=0,rows=24,cols=32)",
        "hextris": "hextris(problem=1)",
    }.get(game_id, game_id)


def catalogue() -> list[dict[str, Any]]:
    """Every registered game with its agents, seats and human-play facts (``GET /api/games``)."""
    out: list[dict[str, Any]] = []
    for entry in list_games():
        try:
            info = entry.factory().info
        except (SnakelabError, TypeError):
            continue  # a game that needs parameters still shows up via its game string
        human = HUMAN_PLAY.get(entry.id)
        refs = [a.ref for a in list_agents(entry.id) if a.alias_of is None]
        needs = [a for a in refs if not _builds_bare(a)]
        out.append(
            {
                "id": entry.id,
                "summary": entry.summary,
                "default": default_game_string(entry.id),
                "num_players": info.num_players,
                "dynamics": info.dynamics.value,
                "agents": [a for a in refs if a not in needs],
                "needs_params": needs,
                "human": None if human is None else {"mode": human.mode, "fps": human.fps, "help": human.help},
            }
        )
    return out


def _builds_bare(ref: str) -> bool:
    """Whether an agent can be made without parameters (external bots need a program path)."""
    try:
        agent = make_agent(ref)
    except (SnakelabError, TypeError):
        return False
    close = getattr(agent, "close", None)
    if callable(close):
        close()
    return True


def is_agent(ref: str) -> bool:
    """Whether ``ref`` names a registered agent."""
    try:
        agent_entry(ref)
    except SnakelabError:
        return False
    return True
