"""The registry of games and agents, with parameters in the id.

Games are named by a *game string*: an id with optional keyword parameters, the
OpenSpiel way, e.g. ``"classic"`` or ``"classic(width=20,height=20)"``. Agents are
named ``"<game>.<method>"`` with optional parameters too, e.g. ``"classic.hamilton"``
or ``"blind.dynamic-zigzag(k=11)"``. Parameter values are Python-like literals:
integers, floats, ``true``/``false``, ``none`` and quoted or bare strings.

Built-in games register themselves when their package under :mod:`snakelab.games`
is imported; the registry imports every such package on first use, so a new game
only has to exist as ``snakelab/games/<id>/__init__.py`` calling :func:`register_game`.
Agents that run an external program live in the harness, which the games must not
import; the registry then imports :data:`EXTERNAL_AGENTS_MODULE`, which registers
them with ``external=True`` (so a server can refuse them). That import is the one
place where ``core`` reaches into ``harness``.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from snakelab.core.errors import ConfigError, UnknownNameError
from snakelab.core.game import Agent, Dynamics, Game, GameInfo

T = TypeVar("T")


@dataclass(frozen=True)
class GameEntry:
    """A registered game.

    Attributes:
        id: The game id.
        factory: Takes the game parameters, returns a :class:`Game`.
        summary: One line for listings.
        render: ``render(state) -> str | rich renderable`` for terminal views, or None.
    """

    id: str
    factory: Callable[..., Game]
    summary: str
    render: Callable[[Any], Any] | None = None


@dataclass(frozen=True)
class AgentEntry:
    """A registered agent: ``<game>.<name>``, a factory taking its parameters, a summary.

    ``external`` marks an agent that starts a program of its own (an external bot):
    the web viewer refuses such agents from the browser unless told which bots it may run.
    """

    game: str
    name: str
    factory: Callable[..., Agent]
    summary: str
    alias_of: str | None = None
    external: bool = False

    @property
    def ref(self) -> str:
        """The agent's full name, ``"<game>.<name>"``."""
        return f"{self.game}.{self.name}"


_GAMES: dict[str, GameEntry] = {}
_AGENTS: dict[tuple[str, str], AgentEntry] = {}
_loaded = False


def register_game(
    game_id: str, factory: Callable[..., Game], summary: str, *, render: Callable[[Any], Any] | None = None
) -> None:
    """Register a game factory under ``game_id`` (re-registering replaces it).

    ``render`` draws a state for the terminal (``snakelab replay show`` uses it).
    """
    _GAMES[game_id] = GameEntry(game_id, factory, summary, render)


def register_agent(
    game_id: str,
    name: str,
    factory: Callable[..., Agent],
    summary: str,
    *,
    aliases: tuple[str, ...] = (),
    external: bool = False,
) -> None:
    """Register an agent factory as ``"<game_id>.<name>"`` plus any aliases.

    ``external=True`` says the agent starts a process (see :class:`AgentEntry`).
    """
    _AGENTS[(game_id, name)] = AgentEntry(game_id, name, factory, summary, external=external)
    for alias in aliases:
        _AGENTS[(game_id, alias)] = AgentEntry(game_id, alias, factory, summary, alias_of=name, external=external)


EXTERNAL_AGENTS_MODULE = "snakelab.harness.external_agents"
"""The module that registers the agents running external programs (imported on first use)."""


def _load_builtin() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    import snakelab.games as games_pkg

    for mod in sorted(pkgutil.iter_modules(games_pkg.__path__), key=lambda m: m.name):
        if mod.ispkg:
            importlib.import_module(f"snakelab.games.{mod.name}")
    importlib.import_module(EXTERNAL_AGENTS_MODULE)


def list_games() -> list[GameEntry]:
    """Every registered game, sorted by id."""
    _load_builtin()
    return [_GAMES[k] for k in sorted(_GAMES)]


def list_agents(game_id: str | None = None) -> list[AgentEntry]:
    """Every registered agent (of one game if given), sorted by name."""
    _load_builtin()
    return [e for k, e in sorted(_AGENTS.items()) if game_id is None or k[0] == game_id]


_SPEC_RE = re.compile(r"^\s*([A-Za-z_][\w.\-]*)\s*(?:\((.*)\))?\s*$", re.S)


def _parse_value(text: str) -> Any:
    t = text.strip()
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    for cast in (int, float):
        try:
            return cast(t)
        except ValueError:
            pass
    return t


def _split_args(body: str) -> list[str]:
    """Split ``a=1,b='x,y'`` on top-level commas (quotes and brackets respected)."""
    parts: list[str] = []
    depth, quote, cur = 0, "", []
    for ch in body:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = ""
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts


def parse_spec(text: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name(k=v,...)"`` into the name and a dict of parsed values.

    Raises:
        ConfigError: if the text is not of that form.
    """
    m = _SPEC_RE.match(text)
    if not m:
        raise ConfigError(f"cannot read {text!r}: expected NAME or NAME(key=value,...)")
    name, body = m.group(1), m.group(2)
    kwargs: dict[str, Any] = {}
    for part in _split_args(body or ""):
        if "=" not in part:
            raise ConfigError(f"cannot read parameter {part.strip()!r} in {text!r}: expected key=value")
        key, value = part.split("=", 1)
        kwargs[key.strip()] = _parse_value(value)
    return name, kwargs


def format_spec(name: str, kwargs: Mapping[str, Any]) -> str:
    """Inverse of :func:`parse_spec`: ``name(k=v,...)`` with keys in the given order."""
    if not kwargs:
        return name

    def fmt(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if v is None:
            return "none"
        if isinstance(v, str):
            return repr(v) if re.search(r"[\s,()='\"]", v) or v == "" else v
        return str(v)

    return f"{name}(" + ",".join(f"{k}={fmt(v)}" for k, v in kwargs.items()) + ")"


def make(game: str, **overrides: Any) -> Game:
    """Build a game from its game string, e.g. ``make("classic(width=20,height=20)")``.

    Keyword overrides are merged over the parameters in the string.

    Raises:
        UnknownNameError: for an unknown game id.
        ConfigError: for an unknown parameter or a bad value.
    """
    _load_builtin()
    name, kwargs = parse_spec(game)
    kwargs.update(overrides)
    return game_entry(name).factory(**kwargs)


def game_entry(game: str) -> GameEntry:
    """The registry entry of a game string's id.

    Raises:
        UnknownNameError: for an unknown game id.
    """
    _load_builtin()
    name, _ = parse_spec(game)
    if name not in _GAMES:
        raise UnknownNameError(f"unknown game {name!r}; known games: {', '.join(sorted(_GAMES))}")
    return _GAMES[name]


def agent_entry(ref: str) -> AgentEntry:
    """Look up ``"<game>.<name>"`` (parameters, if any, are ignored here)."""
    _load_builtin()
    name, _ = parse_spec(ref)
    game_id, dot, method = name.partition(".")
    if not dot:
        raise UnknownNameError(f"agent {ref!r} must be named <game>.<method>, e.g. classic.hamilton")
    entry = _AGENTS.get((game_id, method))
    if entry is None:
        if game_id not in _GAMES:
            raise UnknownNameError(f"unknown game {game_id!r} in agent name {ref!r}")
        known = ", ".join(e.name for e in list_agents(game_id))
        raise UnknownNameError(f"unknown agent {method!r} for {game_id}; known agents: {known}")
    return entry


def make_agent(ref: str, **overrides: Any) -> Agent:
    """Build an agent from ``"<game>.<method>"`` or ``"<game>.<method>(k=v,...)"``.

    Raises:
        UnknownNameError: for an unknown game or agent.
        ConfigError: for a bad parameter.
    """
    entry = agent_entry(ref)
    _, kwargs = parse_spec(ref)
    kwargs.update(overrides)
    try:
        return entry.factory(**kwargs)
    except TypeError as exc:
        raise ConfigError(f"bad parameters for agent {entry.ref}: {exc}") from None


def config_from_kwargs(cls: type[T], game_id: str, kwargs: Mapping[str, Any]) -> T:
    """Build a frozen ``Config`` dataclass from keyword parameters, checking names and types.

    Strings are converted to the field's type where that is unambiguous, so values
    coming from the command line or a game string work. If the Config has a method
    ``inapplicable() -> dict[str, str]`` (parameter → what applies instead), a
    parameter given here that this configuration would ignore is refused.

    Raises:
        ConfigError: naming the unknown key (with the known ones), the bad value, or
            the given parameter that does not apply.
    """
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for key, value in kwargs.items():
        if key not in fields:
            known = ", ".join(fields)
            raise ConfigError(f"unknown parameter {key!r} for {game_id}; known parameters: {known}")
        values[key] = _coerce(value, hints[key], f"{game_id} parameter {key!r}")
    config = cls(**values)
    # A parameter given but ignored under this configuration is refused, not dropped: a
    # Config may name them, with what applies instead, in ``inapplicable()``.
    inapplicable = getattr(config, "inapplicable", None)
    if callable(inapplicable):
        for key, why in inapplicable().items():
            if key in values:
                raise ConfigError(f"{game_id} parameter {key!r} does not apply here: {why}")
    return config


def _coerce(value: Any, hint: Any, what: str) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        if value is None and type(None) in args:
            return None
        errors = []
        for a in args:
            if a is type(None):
                continue
            try:
                return _coerce(value, a, what)
            except ConfigError as exc:
                errors.append(str(exc))
        raise ConfigError(errors[0] if errors else f"bad value {value!r} for {what}")
    if origin is typing.Literal:
        if value in args:
            return value
        raise ConfigError(f"bad value {value!r} for {what}: choose one of {', '.join(map(str, args))}")
    if hint is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
            return value.lower() in ("true", "1", "yes")
        raise ConfigError(f"bad value {value!r} for {what}: expected true or false")
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ConfigError(f"bad value {value!r} for {what}: expected an integer")
        try:
            return int(value)
        except ValueError:
            raise ConfigError(f"bad value {value!r} for {what}: expected an integer") from None
    if hint is float:
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ConfigError(f"bad value {value!r} for {what}: expected a number") from None
    if hint is str:
        return str(value)
    return value


def game_info(game_id: str, config: Any, *, num_players: int, dynamics: Dynamics, rules_version: int) -> GameInfo:
    """The :class:`GameInfo` of a game built from a ``Config`` dataclass.

    The canonical name lists, in field order, only the parameters that differ from
    the ``Config`` defaults, so ``make(info.name)`` rebuilds the same game and equal
    configurations always get equal names.
    """
    defaults = type(config)()
    params = {
        f.name: getattr(config, f.name)
        for f in dataclasses.fields(config)
        if getattr(config, f.name) != getattr(defaults, f.name)
    }
    return GameInfo(
        id=game_id,
        name=format_spec(game_id, params),
        num_players=num_players,
        dynamics=dynamics,
        rules_version=rules_version,
        config=config,
    )
