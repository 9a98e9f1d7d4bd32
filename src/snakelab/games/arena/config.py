"""snAIke config files (``snake_config*``) and the key aliases of the original engine.

A config file holds lines ``key value``; ``#`` starts a comment and blank lines are
allowed. Keys are the :class:`Config` fields or their
aliases (``gw``, ``ns``, ``speed``, ``game_time``...), plus ``random_seed`` (``rs``),
any string, which seeds the game. Every file in a folder whose name contains
``snake_config`` is read, in name order (later files win on a repeated key).

Checks come in two rounds, as a user reads a file. Each line alone: a known key, a
value of the right type, within the bounds that hold whatever the other keys say
(``game_width ≥ 2``, ``num_snakes`` 2..64, ``duration ≥ 1``...); the error names the
file, the line and the key. Then the files as a whole, once all are read: the limits
that tie keys together (``starting_length`` up to the board's longer side, the lines and
apples fitting on half the board) are checked on the values the files give, with the
defaults only for keys no file sets, so ``game_width 70`` with ``starting_length 60`` is
as valid in a file as ``arena(game_width=70,starting_length=60)`` is on the command line;
that error names the files and lines of the keys involved.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from snakelab.core.errors import ConfigError
from snakelab.core.registry import config_from_kwargs
from snakelab.core.rng import derive_seed


@dataclass(frozen=True)
class Config:
    """Parameters of an arena game (the snAIke defaults).

    Attributes:
        game_width: Columns. Default 50.
        game_height: Rows. Default 50.
        num_snakes: Players, ≥ 2. Default 4.
        num_zombies: Zombies. Default 3.
        num_apples: Apples on the board at all times. Default 2.
        num_obstacles: Straight obstacles of ``starting_length``. Default 0.
        starting_length: Length of spawned snakes, zombies and obstacles, ≥ 2. Default 5.
        apple_growth: Cells an apple adds, one per step. Default 3.
        apple_limit: Steps before an uneaten apple respawns elsewhere. Default 600.
        duration: Game length in seconds. Default 300.
        speed: Milliseconds each agent has per step. Default 50.
        zombie_speed: Zombies move every this many steps. Default 1.
        own_tail_kills: Entering the cell your own tail leaves kills (2017 engine).
            Default false.
    """

    game_width: int = 50
    game_height: int = 50
    num_snakes: int = 4
    num_zombies: int = 3
    num_apples: int = 2
    num_obstacles: int = 0
    starting_length: int = 5
    apple_growth: int = 3
    apple_limit: int = 600
    duration: int = 300
    speed: int = 50
    zombie_speed: int = 1
    own_tail_kills: bool = False

    def __post_init__(self) -> None:
        w, h, sl = self.game_width, self.game_height, self.starting_length
        if w < 2 or h < 2 or w * h > 1_000_000:
            raise ConfigError(f"arena board {w}×{h}: width and height must be ≥ 2 and the board ≤ 10^6 cells")
        if not 2 <= self.num_snakes <= 64:
            raise ConfigError(f"num_snakes {self.num_snakes} must be between 2 and 64")
        if sl < 2 or sl > max(w, h):
            raise ConfigError(f"starting_length {sl} must be between 2 and the board's longer side ({max(w, h)})")
        for key in ("num_zombies", "num_apples", "num_obstacles", "apple_growth"):
            if getattr(self, key) < 0:
                raise ConfigError(f"{key} {getattr(self, key)} must be ≥ 0")
        for key in ("apple_limit", "duration", "speed", "zombie_speed"):
            if getattr(self, key) < 1:
                raise ConfigError(f"{key} {getattr(self, key)} must be ≥ 1")
        lines = self.num_snakes + self.num_zombies + self.num_obstacles
        if lines * sl + self.num_apples > (w * h) // 2:
            raise ConfigError(
                f"{lines} lines of length {sl} plus {self.num_apples} apples need more than half of the "
                f"{w}×{h} board; use a bigger board or fewer snakes, zombies or obstacles"
            )
        if self.steps < 1:
            raise ConfigError(f"duration {self.duration} s at speed {self.speed} ms gives no steps")

    @property
    def steps(self) -> int:
        """Number of steps in a game: ``duration * 1000 // speed``."""
        return self.duration * 1000 // self.speed


ALIASES: dict[str, str] = {
    "gw": "game_width",
    "gh": "game_height",
    "ns": "num_snakes",
    "nz": "num_zombies",
    "na": "num_apples",
    "no": "num_obstacles",
    "sl": "starting_length",
    "ag": "apple_growth",
    "al": "apple_limit",
    "game_time": "duration",
    "gt": "duration",
    "d": "duration",
    "game_speed": "speed",
    "gs": "speed",
    "s": "speed",
    "zs": "zombie_speed",
    "rs": "random_seed",
    "width": "game_width",
    "height": "game_height",
}
"""Alias → canonical key."""


def canonical_key(key: str) -> str:
    """The canonical name of a config key (aliases resolved, case-insensitive)."""
    k = key.strip().lower()
    return ALIASES.get(k, k)


def seed_from_text(text: str) -> int:
    """A game seed from a ``random_seed`` string: an integer as is, any other text hashed."""
    t = text.strip()
    try:
        value = int(t)
    except ValueError:
        return derive_seed(0, "random_seed", t)
    if value < 0:
        return derive_seed(0, "random_seed", t)
    return value


@dataclass
class FileConfig:
    """What config files said.

    Attributes:
        params: Canonical ``Config`` keys and their values.
        seed: The seed from ``random_seed``, if any.
        sources: Per key, ``"file:line"`` where it was set (for error messages).
        files: The files read.
    """

    params: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    sources: dict[str, str] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)


def parse_config_text(text: str, name: str = "<config>", into: FileConfig | None = None) -> FileConfig:
    """Parse the text of one config file.

    Args:
        text: The file's contents.
        name: The file name used in error messages.
        into: Results to update (later files override earlier ones).

    Raises:
        ConfigError: ``NAME:LINE: ...`` naming the key, for an unknown key, a line
            without a value, or a bad value.
    """
    out = into if into is not None else FileConfig()
    fields = {f.name for f in dataclasses.fields(Config)}
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split(None, 1)
        key = canonical_key(parts[0])
        if key != "random_seed" and key not in fields:
            known = ", ".join(sorted(fields | {"random_seed"}))
            raise ConfigError(f"{name}:{no}: unknown key {parts[0]!r}; known keys: {known} (and their aliases)")
        if len(parts) < 2:
            raise ConfigError(f"{name}:{no}: key {parts[0]!r} has no value")
        value = parts[1].strip()
        if key == "random_seed":
            out.seed = None if value.lower() in ("null", "none") else seed_from_text(value)
            continue
        try:
            coerced = _coerce(key, value)
            # The bounds of this value alone, so the error points at this line; the limits
            # that tie keys together wait for the whole set (load_config_files).
            _check_alone(key, coerced)
        except ConfigError as exc:
            raise ConfigError(f"{name}:{no}: key {parts[0]!r}: {_plain(str(exc))}") from None
        out.params[key] = coerced
        out.sources[key] = f"{name}:{no}"
    return out


#: Bounds of each integer key that hold whatever the other keys say: (least, most or None).
#: The board's sides are bounded by the 10^6-cell limit with the other side at its least.
_ALONE: dict[str, tuple[int, int | None]] = {
    "game_width": (2, 500_000),
    "game_height": (2, 500_000),
    "num_snakes": (2, 64),
    "starting_length": (2, 500_000),
    "num_zombies": (0, None),
    "num_apples": (0, None),
    "num_obstacles": (0, None),
    "apple_growth": (0, None),
    "apple_limit": (1, None),
    "duration": (1, None),
    "speed": (1, None),
    "zombie_speed": (1, None),
}


def _check_alone(key: str, value: int | bool) -> None:
    if isinstance(value, bool) or key not in _ALONE:
        return
    lo, hi = _ALONE[key]
    if value < lo or (hi is not None and value > hi):
        bound = f"≥ {lo}" if hi is None else f"between {lo} and {hi:,}"
        raise ConfigError(f"{key} {value} must be {bound}")


def _coerce(key: str, value: str) -> int | bool:
    if isinstance(getattr(Config(), key), bool):
        low = value.lower()
        if low in ("true", "yes", "1"):
            return True
        if low in ("false", "no", "0"):
            return False
        raise ConfigError(f"bad value {value!r}: expected true or false")
    try:
        return int(value)
    except ValueError:
        raise ConfigError(f"bad value {value!r}: expected an integer") from None


def _plain(msg: str) -> str:
    return msg.replace("arena parameter ", "").replace("for arena", "")


def config_from_files(fc: FileConfig, **overrides: Any) -> Any:
    """Build the game ``Config`` from config files plus overrides.

    Raises:
        ConfigError: naming the files (and the line of a value that is wrong on
            its own) when the combination is not a valid game.
    """
    params = {**fc.params, **overrides}
    try:
        return config_from_kwargs(Config, "arena", params)
    except ConfigError as exc:
        where = ", ".join(fc.sources[k] for k in params if k in fc.sources) or "the command line"
        raise ConfigError(f"{where}: {exc}") from None


def find_config_files(folder: str | os.PathLike[str] = ".") -> list[Path]:
    """Every file in ``folder`` whose name contains ``snake_config``, in name order."""
    p = Path(folder)
    return sorted(f for f in p.iterdir() if "snake_config" in f.name and f.is_file())


def load_config_files(files: list[Path]) -> FileConfig:
    """Read config files in order (later ones win) and check them as a whole.

    Raises:
        ConfigError: naming the file and line for a bad key or value, an unreadable
            file, or naming the files and lines of the keys when together they do not
            make a valid game.
    """
    out = FileConfig()
    for f in files:
        try:
            text = f.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"{f}: cannot read config file: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise ConfigError(f"{f}: not a text file") from None
        parse_config_text(text, str(f), out)
        out.files.append(f)
    config_from_files(out)  # the files as a whole: the limits that tie keys together
    return out


def format_config(params: dict[str, Any], seed: int | None = None) -> str:
    """Inverse of :func:`parse_config_text`: one ``key value`` line per entry."""
    lines = [f"{k} {str(v).lower() if isinstance(v, bool) else v}" for k, v in params.items()]
    if seed is not None:
        lines.append(f"random_seed {seed}")
    return "\n".join(lines) + "\n"
