"""What the browser may ask the server to build: games, agents, files and programs.

A game string or an agent spec typed in the page is checked here, by its parsed
parameters (:func:`snakelab.core.registry.parse_spec`), before anything is built:

* **Files.** A parameter naming a file or folder (``path`` or any name ending in
  ``_file``, ``_dir``, ``_path`` or ``_folder``, e.g. ``hextris(problem_file=...)``)
  must name one inside the server's replay folder; it is rewritten to the resolved
  absolute path (symbolic links followed). A name outside gets the same refusal
  whether or not such a file exists, so the page cannot probe the disk.
* **Agents of the game.** Each agent must be registered for the game being started.
* **External programs.** An agent registered with ``external=True`` (an
  ``arena.bot``) starts a process, so it is refused unless the server was started
  with ``--bots DIR``. Then only a program inside DIR is run (resolved, links
  followed, no extra arguments), ``python`` cannot be chosen, ``run_dir`` may only
  be the server's own bot folder (it is set to it when absent), and ``name`` is a
  plain file name. The limits a bot runs under (CPU, memory, output) keep their
  defaults.

Every refusal is a :class:`~snakelab.core.errors.ConfigError` with a one-line
message for people.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from snakelab.core.errors import ConfigError
from snakelab.core.game import Game
from snakelab.core.registry import agent_entry, format_spec, game_entry, make, parse_spec

FILE_SUFFIXES = ("_file", "_dir", "_path", "_folder")
"""Parameter name endings that name files or folders."""

BOT_PARAMS = frozenset({"path", "kind", "lockstep", "timeout_s", "run_dir", "name", "startup_s"})
"""Parameters of an external agent the page may set; the rest (interpreter, limits) keep their defaults."""

_PLAIN_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.\-]{0,63}$")


def is_file_param(key: str) -> bool:
    """Whether a parameter of a game or agent names a file or folder."""
    return key == "path" or key.endswith(FILE_SUFFIXES)


@dataclass(frozen=True)
class Launch:
    """The folders the browser's requests are confined to.

    Args:
        files: The replay folder: files named in game strings and replays must be inside it.
        bots: The folder of programs the page may run (``--bots``), or None to run none.
        bot_runs: Where external bots write their logs (their only allowed ``run_dir``).
    """

    files: Path
    bots: Path | None = None
    bot_runs: Path = Path("arena_runs/bots")

    def _inside(self, base: Path, value: Any, what: str) -> Path:
        """``value`` resolved inside ``base``; the same refusal for outside paths, existing or not."""
        refusal = ConfigError(f"{what} may only name a file inside {_folder_name(base, self)}")
        if not isinstance(value, str) or not value or "\x00" in value:
            raise refusal
        root = base.resolve()
        target = (root / value).resolve()  # an absolute value replaces root; checked next
        if not target.is_relative_to(root):
            raise refusal
        return target

    def game_string(self, game: str) -> str:
        """The game string with its file parameters confined to the replay folder.

        Raises:
            ConfigError / UnknownNameError: for an unreadable string, an unknown game
                or a file outside the replay folder.
        """
        name, kwargs = parse_spec(game)
        game_entry(name)
        for key, value in list(kwargs.items()):
            if is_file_param(key):
                kwargs[key] = str(self._inside(self.files, value, f"{name} parameter {key!r}"))
        return format_spec(name, kwargs)

    def make_game(self, game: str) -> Game:
        """Build a game from a string the browser sent (see :meth:`game_string`)."""
        return make(self.game_string(game))

    def agent_spec(self, ref: str, game_id: str) -> str:
        """Check an agent spec for a game; returns the spec to build.

        Raises:
            ConfigError / UnknownNameError: naming what is refused and why.
        """
        entry = agent_entry(ref)
        if entry.game != game_id:
            raise ConfigError(f"agent {entry.ref} plays {entry.game}, not {game_id}: choose a {game_id} agent")
        name, kwargs = parse_spec(ref)
        if entry.external:
            return format_spec(name, self._bot_params(entry.ref, kwargs))
        for key, value in list(kwargs.items()):
            if is_file_param(key):
                kwargs[key] = str(self._inside(self.files, value, f"{entry.ref} parameter {key!r}"))
        return format_spec(name, kwargs)

    def _bot_params(self, ref: str, kwargs: dict[str, Any]) -> dict[str, Any]:
        if self.bots is None:
            raise ConfigError(
                f"{ref} runs a program on this machine; the page may start one only when the server "
                "is started with --bots DIR naming the folder of programs it may run"
            )
        extra = sorted(set(kwargs) - BOT_PARAMS)
        if extra:
            raise ConfigError(
                f"{ref}: parameter {extra[0]!r} cannot be set from the page (allowed: {', '.join(sorted(BOT_PARAMS))})"
            )
        path = kwargs.get("path")
        if not isinstance(path, str) or not path.strip():
            raise ConfigError(f"{ref} needs path='...': a program in the bots folder")
        try:
            argv = shlex.split(path)
        except ValueError:
            raise ConfigError(f"{ref}: cannot read path {path!r}") from None
        if len(argv) != 1:
            raise ConfigError(f"{ref}: a bot started from the page takes no arguments: give only its file")
        program = self._inside(self.bots, argv[0], f"{ref} path")
        if not program.is_file():
            raise ConfigError(f"{ref}: no program {argv[0]!r} in the bots folder")
        kind = kwargs.get("kind")
        if kind is None:
            guessed = {".py": "python", ".jar": "java"}.get(program.suffix, "exec")
        else:
            guessed = str(kind)
        # An exec bot's path is split like a command line: quote it so spaces stay in the name.
        kwargs["path"] = shlex.quote(str(program)) if guessed == "exec" else str(program)
        runs = self.bot_runs.resolve()
        run_dir = kwargs.get("run_dir")
        if run_dir is not None and (not isinstance(run_dir, str) or Path(run_dir).resolve() != runs):
            raise ConfigError(f"{ref}: run_dir may only be this server's bot folder, {runs}")
        kwargs["run_dir"] = str(runs)
        label = kwargs.get("name")
        if label is not None and (not isinstance(label, str) or not _PLAIN_NAME.match(label) or ".." in label):
            raise ConfigError(f"{ref}: name must be a plain file name (letters, digits, '.', '_', '-')")
        return kwargs


def _folder_name(base: Path, launch: Launch) -> str:
    if launch.bots is not None and base == launch.bots:
        return "the server's bots folder"
    return "the server's replay folder"
