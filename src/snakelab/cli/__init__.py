"""The ``snakelab`` command line: ``snakelab <game> <verb>`` plus shared tools.

**One grammar.** Every game has ``play`` (one game, watched live in the terminal or,
with ``--speed 0``, only its end) and ``bench`` (many games of one agent or line-up:
statistics, the results store, ``--resume``); games with several agent seats also have
``tournament`` (rotating seats, win rates with intervals, ratings in the store).
Game-specific verbs (``judge``, ``client``, ``solve``, ``score``, ``cover``, ``sweep``,
``show``, ...) stay beside them; older names of the common verbs (arena ``run``) remain
as hidden aliases. ``snakelab --help`` shows the grammar as one table, game × verb,
and the exit codes shared by every verb (:mod:`snakelab.cli._grammar`).

Every module in this package that defines a module-level ``app`` (a
``typer.Typer``) and a ``NAME`` becomes a sub-command group, so each game's verbs live
in their own module (``cli/classic.py``, ``cli/blind.py``, ...). A module may instead
(or also) define ``register(app)`` to add top-level commands (``snakelab serve``).
They are mounted on first use of :data:`app` (or by :func:`main`), not on import of
this package, so a program living in it (``play_icfp2015``, :mod:`snakelab.cli.icfp2015`)
starts without loading every verb of every game.
"""

from __future__ import annotations

import sys

# Fast path for the contest program, before any heavy import. `snakelab snakgame client`
# is judged on its own CPU time (4 s a file in the contest), and importing typer, rich
# and every verb costs about a second of it; so this command goes straight to the lean
# program (snakelab.games.snakgame.contest, which prints its own --help) when this
# module is imported to run it: by the `snakelab` console script (or `python -c "from
# snakelab.cli import main; main()" snakgame client ...`). Keep it above the imports.
if sys.argv[1:3] == ["snakgame", "client"]:
    from snakelab.games.snakgame.contest import main as _contest_main

    sys.exit(_contest_main(sys.argv[3:]))

import importlib
import os
import pkgutil

import typer

from snakelab.cli._grammar import (
    INTERRUPTED,
    PIPE_CLOSED,
    USAGE,
    Group,
    PipeClosed,
    exit_codes_markdown,
    use_help_classes,
)
from snakelab.core.errors import SnakelabError

app = typer.Typer(
    name="snakelab",
    cls=Group,
    help="Exact rule engines, agents and a harness for snake-family grid games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    # Markdown: docstring paragraphs are reflowed to the terminal's width (in "rich" mode
    # their line breaks are kept, which leaves ragged help), and ``x`` reads as code.
    rich_markup_mode="markdown",
)


@app.callback()
def _root(
    store: str | None = typer.Option(
        None,
        "--store",
        metavar="PATH|off",
        help=(
            "Results store for every bench, sweep and tournament of this command (before the game: "
            "snakelab --store runs.sqlite classic bench ...); off stores nothing. "
            "Default: $SNAKELAB_STORE, else results.sqlite in the user's data folder."
        ),
    ),
) -> None:
    """Exact rule engines, agents and a harness for snake-family grid games."""
    from snakelab.cli.warm import install_compile_notice

    if store is not None:
        from snakelab.harness.store import STORE_ENV

        # One option for every storing verb: they all resolve the store through
        # $SNAKELAB_STORE (harness.store.default_store_path), so setting it here is enough
        # and pool workers inherit it.
        if not store.strip():
            raise typer.BadParameter("give a file path, or off", param_hint="--store")
        os.environ[STORE_ENV] = store
    install_compile_notice()


@app.command("games")
def games_cmd() -> None:
    """List every game and its registered agents."""
    from rich.table import Table

    from snakelab.cli.common import console
    from snakelab.core.registry import list_agents, list_games

    table = Table("game", "agent", "what it does")
    for g in list_games():
        table.add_row(f"[bold]{g.id}[/]", "", g.summary)
        for a in list_agents(g.id):
            label = a.name + (f" (= {a.alias_of})" if a.alias_of else "")
            table.add_row("", label, a.summary)
    console.print(table)


#: The verbs every game shares, in the order of the grammar table.
COMMON_VERBS = ("play", "bench", "tournament")


def _visible(sub: typer.Typer) -> list[str]:
    names = [c.name or (c.callback.__name__ if c.callback else "") for c in sub.registered_commands if not c.hidden]
    return names + [f"{g.name} …" for g in sub.registered_groups if g.name and not g.hidden]


def grammar_markdown(groups: dict[str, typer.Typer]) -> str:
    """The ``snakelab --help`` epilogue: a game × verb table, the other groups, the exit codes."""
    from snakelab.core.registry import list_games

    games = {g.id for g in list_games()}
    rows = []
    tools = []
    for name, sub in sorted(groups.items()):
        verbs = _visible(sub)
        if name in games:
            marks = [("✓" if v in verbs else "-") for v in COMMON_VERBS]
            other = ", ".join(sorted(v for v in verbs if v not in COMMON_VERBS))
            rows.append(f"| {name} | " + " | ".join(marks) + f" | {other} |")
        else:
            tools.append(f"**{name}**: " + ", ".join(sorted(verbs)))
    table = "| game | " + " | ".join(COMMON_VERBS) + " | its own verbs |\n|---|---|---|---|---|\n" + "\n".join(rows)
    return (
        "**snakelab GAME VERB**: play (one game, watched), bench (many games: statistics, "
        "the store, --resume), tournament (rotating seats; games with several agent seats).\n\n"
        + table
        + "\n\n"
        + "\n\n".join(tools)
        + "\n\n"
        + exit_codes_markdown()
    )


# ``app`` is served by ``__getattr__`` below, which mounts the sub-commands first.
_app = app
del app
_mounted = False


def _mount() -> typer.Typer:
    """Mount every sub-command module on the app (once) and return the app."""
    global _mounted
    if _mounted:
        return _app
    _mounted = True
    app = _app
    groups: dict[str, typer.Typer] = {}
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if mod.name.startswith("_") or mod.name == "common":
            continue
        module = importlib.import_module(f"{__name__}.{mod.name}")
        register = getattr(module, "register", None)
        if callable(register):
            register(app)
        sub = getattr(module, "app", None)
        name = getattr(module, "NAME", None)
        if isinstance(sub, typer.Typer) and name:
            app.add_typer(sub, name=name)
            groups[name] = sub
    app.info.epilog = grammar_markdown(groups)
    use_help_classes(app)
    return app


def __getattr__(name: str) -> typer.Typer:
    """``app``: the ``snakelab`` Typer app, with every sub-command mounted."""
    if name == "app":
        return _mount()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Console entry point: run the app, turning snakelab errors into one-line messages.

    Exit codes follow the one table of :mod:`snakelab.cli._grammar` (``snakelab --help``).
    A usage error (an unknown option, a bad value) is one line too, naming the help to
    read. A file that cannot be read or written (a missing folder, no permission, a full
    disk) is reported the same way, naming the file, instead of with a traceback.
    """
    try:
        code = _mount()(prog_name="snakelab", standalone_mode=False)
    except SnakelabError as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        sys.exit(USAGE)
    except typer.Abort:
        print("interrupted", file=sys.stderr)
        sys.exit(INTERRUPTED)
    except typer.TyperException as exc:  # click's usage errors
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        if message:  # (an empty one: a group called without a verb, whose help is shown)
            ctx = getattr(exc, "ctx", None)
            hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
            print(f"error: {' '.join(message.split())}{hint}", file=sys.stderr)
        sys.exit(USAGE)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(INTERRUPTED)
    except PipeClosed:
        # The reader went away (``snakelab … | head``): nothing left to say, and Python must
        # not complain again when it flushes standard output at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(PIPE_CLOSED)
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"error: {where}{exc.strerror or exc}", file=sys.stderr)
        sys.exit(USAGE)
    sys.exit(code if isinstance(code, int) else 0)
