"""The ``snakelab`` command line: ``snakelab <game> <verb>`` plus shared tools.

Every module in this package that defines a module-level ``app`` (a
``typer.Typer``) and a ``NAME`` becomes a sub-command group, so each game's verbs live
in their own module (``cli/classic.py``, ``cli/blind.py``, ...). A module may instead
(or also) define ``register(app)`` to add top-level commands (``snakelab serve``).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys

import typer

from snakelab.core.errors import SnakelabError

app = typer.Typer(
    name="snakelab",
    help="Exact rule engines, agents and a harness for snake-family grid games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    # Markdown: docstring paragraphs are reflowed to the terminal's width (in "rich" mode
    # their line breaks are kept, which leaves ragged help), and ``x`` reads as code.
    rich_markup_mode="markdown",
)


@app.command("games")
def games_cmd() -> None:
    """List every game and its registered agents."""
    from rich.console import Console
    from rich.table import Table

    from snakelab.core.registry import list_agents, list_games

    table = Table("game", "agent", "what it does")
    for g in list_games():
        table.add_row(f"[bold]{g.id}[/]", "", g.summary)
        for a in list_agents(g.id):
            label = a.name + (f" (= {a.alias_of})" if a.alias_of else "")
            table.add_row("", label, a.summary)
    Console().print(table)


def _mount() -> None:
    verbs: list[str] = []
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
            cmds = [c.name or (c.callback.__name__ if c.callback else "") for c in sub.registered_commands]
            cmds += [f"{g.name} …" for g in sub.registered_groups if g.name]
            verbs.append(f"**{name}**: " + ", ".join(sorted(cmds)))
    app.info.epilog = "Games and verbs:\n\n" + "\n\n".join(verbs)


_mount()


def main() -> None:
    """Console entry point: run the app, turning snakelab errors into one-line messages.

    A file that cannot be read or written (a missing folder, no permission, a full disk)
    is reported the same way, naming the file, instead of with a traceback.
    """
    try:
        app()
    except SnakelabError as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:
        # The reader went away (``snakelab … | head``): nothing left to say, and Python must
        # not complain again when it flushes standard output at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"error: {where}{exc.strerror or exc}", file=sys.stderr)
        sys.exit(2)
