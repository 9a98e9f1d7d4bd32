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
The module ``cli/<name>.py`` gives the command ``<name>`` (``NAME`` equals the module's
name); ``common``, ``icfp2015`` and private modules give none.

**Start-up.** A verb loads what it uses and nothing else: the root group lists the
commands from the package's file names and imports a command's module only when that
command is asked for (:class:`_Root`), and the modules import their game and harness
code inside the verbs, so ``snakelab arena play --help`` loads neither numpy nor
numba. Only ``snakelab --help`` imports every command module, for the grammar table.
Importing this package loads not even typer: :func:`main` looks at the arguments
first, so a verb with a start-up budget of its own may be dispatched from there.
"""

from __future__ import annotations

import difflib
import importlib
import os
import pkgutil
import signal
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import typer

#: Modules of this package that give no command.
NOT_COMMANDS = frozenset({"common", "icfp2015"})

#: The root app's settings; a command module is converted with the same ones.
APP_OPTIONS: dict[str, Any] = {
    "help": "Exact rule engines, agents and a harness for snake-family grid games.",
    "no_args_is_help": True,
    "pretty_exceptions_enable": False,
    "add_completion": False,
    # Markdown: docstring paragraphs are reflowed to the terminal's width (in "rich" mode
    # their line breaks are kept, which leaves ragged help), and ``x`` reads as code.
    "rich_markup_mode": "markdown",
}

#: Options of the root group that may also be written after the verb.
GLOBAL_OPTIONS = ("--store",)


def command_names() -> list[str]:
    """Every top-level command and group, from the package's module names (nothing imported)."""
    return sorted(
        m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_") and m.name not in NOT_COMMANDS
    )


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
    import snakelab.games
    from snakelab.cli._grammar import exit_codes_markdown

    # Each game is the package of its name under snakelab.games (listed, not imported:
    # importing them loads every game's kernels).
    games = {m.name for m in pkgutil.iter_modules(snakelab.games.__path__) if m.ispkg}
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


def _build() -> typer.Typer:
    """The root app: the ``--store`` callback and ``games``; every other command is loaded on use."""
    import typer

    from snakelab.cli._grammar import Command, Group

    class _Root(Group):
        """The root group: a command's module is imported when that command is used.

        Also takes the global options (:data:`GLOBAL_OPTIONS`) after the verb, where the
        verb has no option of that name, as if they had been written before the game.
        """

        def list_commands(self, ctx: Any) -> list[str]:
            """Every command, loaded or not."""
            return sorted(set(super().list_commands(ctx)) | set(command_names()))

        def get_command(self, ctx: Any, cmd_name: str) -> Any:
            """The command ``cmd_name``, importing its module on first use."""
            cmd = super().get_command(ctx, cmd_name)
            if cmd is None and cmd_name in command_names():
                cmd = _load(cmd_name)
                if cmd is not None:
                    self.add_command(cmd, cmd_name)
            return cmd

        def resolve_command(self, ctx: Any, args: list[str]) -> Any:
            """As typer's, with "did you mean" chosen among every command, loaded or not."""
            try:
                return super().resolve_command(ctx, args)
            except typer.BadParameter:
                raise
            except Exception as exc:
                message = getattr(exc, "message", None)
                if isinstance(message, str) and args and "Did you mean" not in message:
                    close = difflib.get_close_matches(args[0], self.list_commands(ctx))
                    if close:
                        exc.message = message.rstrip(".") + ". Did you mean " + ", ".join(map(repr, close)) + "?"  # type: ignore[attr-defined]
                raise

        def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
            """Parse the root's options, global ones written after the verb included."""
            return super().parse_args(ctx, _hoist_globals(self, ctx, list(args)))

        def format_help(self, ctx: Any, formatter: Any) -> None:
            """The help, ending with the grammar table (which loads every command module)."""
            if not self.epilog:
                self.epilog = grammar_markdown(_sub_apps())
            super().format_help(ctx, formatter)

    app = typer.Typer(name="snakelab", cls=_Root, **APP_OPTIONS)

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

    app.command("games", cls=Command)(games_cmd)  # the help classes, as every loaded verb has
    return app


def _sub_apps() -> dict[str, typer.Typer]:
    """The Typer app of every command group (importing every command module)."""
    import typer

    groups: dict[str, typer.Typer] = {}
    for name in command_names():
        module = importlib.import_module(f"{__name__}.{name}")
        sub = getattr(module, "app", None)
        if isinstance(sub, typer.Typer) and getattr(module, "NAME", None) == name:
            groups[name] = sub
    return groups


def _load(name: str) -> Any:
    """The click command or group of module ``cli/<name>.py``, built as the root's own would be."""
    import typer

    from snakelab.cli._grammar import use_help_classes

    module = importlib.import_module(f"{__name__}.{name}")
    holder = typer.Typer(**APP_OPTIONS)
    register = getattr(module, "register", None)
    if callable(register):
        register(holder)
    sub = getattr(module, "app", None)
    if isinstance(sub, typer.Typer) and getattr(module, "NAME", None) == name:
        holder.add_typer(sub, name=name)
    use_help_classes(holder)

    @holder.callback()
    def _holder() -> None:  # (a group even for one command: its commands keep their names)
        pass

    return typer.main.get_group(holder).commands.get(name)


def _hoist_globals(root: Any, ctx: Any, args: list[str]) -> list[str]:
    """``args`` with each global option written after the verb moved before the game.

    Only where the chosen verb has no option of that name (``results list --store`` is
    that verb's own), and never past a ``--``.
    """
    path: list[str] = []
    i = 0
    while i < len(args) and len(path) < 2:
        arg = args[i]
        if arg == "--":
            return args
        if arg in GLOBAL_OPTIONS:
            i += 2
            continue
        if arg.startswith("-"):
            i += 1
            continue
        path.append(arg)
        i += 1
    if not path:
        return args
    cmd = root.get_command(ctx, path[0])
    if cmd is not None and len(path) > 1 and hasattr(cmd, "get_command"):
        cmd = cmd.get_command(ctx, path[1]) or cmd
    own = {opt for param in getattr(cmd, "params", []) for opt in getattr(param, "opts", [])}
    front: list[str] = []
    rest: list[str] = []
    i = 0
    game_at = args.index(path[0])
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest.extend(args[i:])
            break
        name = arg.split("=", 1)[0]
        if i > game_at and name in GLOBAL_OPTIONS and name not in own:
            if "=" in arg:
                front.append(arg)
                i += 1
                continue
            if i + 1 < len(args):
                front.extend(args[i : i + 2])
                i += 2
                continue
        rest.append(arg)
        i += 1
    return front + rest


_app: typer.Typer | None = None


def __getattr__(name: str) -> typer.Typer:
    """``app``: the ``snakelab`` Typer app (its commands are loaded on use)."""
    global _app
    if name == "app":
        if _app is None:
            _app = _build()
        return _app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_sigterm: list[int] = []


def _terminated(signum: int, _frame: object) -> None:
    """SIGTERM: stop the command as a Ctrl-C does (finished work kept), exit code 143.

    Noted as well as raised: a verb may end in a library that takes any interrupt for
    a normal stop (uvicorn, under ``serve``), and the exit code must still say SIGTERM.
    """
    from snakelab.harness.parallel import Terminated

    _sigterm.append(signum)
    raise Terminated


def main() -> None:
    """Console entry point: run the app, turning snakelab errors into one-line messages.

    Exit codes follow the one table of :mod:`snakelab.cli._grammar` (``snakelab --help``).
    A usage error (an unknown option, a bad value) is one line too, naming the help to
    read. A file that cannot be read or written (a missing folder, no permission, a full
    disk) is reported the same way, naming the file, instead of with a traceback. SIGTERM
    (``kill PID``) stops any verb as Ctrl-C does, with exit code 143 instead of 130.
    """
    # A verb with a start-up budget of its own is dispatched here, from sys.argv, before
    # typer and the command modules are imported.
    if sys.argv[1:3] == ["snakgame", "client"]:
        # The snakgame contest program is judged on its own CPU time (4 s a file in the
        # contest), start-up included: it goes straight to the lean program, which
        # prints its own --help (snakelab.games.snakgame.contest).
        from snakelab.games.snakgame.contest import main as contest_main

        sys.exit(contest_main(sys.argv[3:]))
    signal.signal(signal.SIGTERM, _terminated)
    import typer

    from snakelab.cli._grammar import INTERRUPTED, PIPE_CLOSED, TERMINATED, USAGE, Interrupted, PipeClosed
    from snakelab.core.errors import SnakelabError

    try:
        code = __getattr__("app")(prog_name="snakelab", standalone_mode=False)
    except SnakelabError as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        sys.exit(USAGE)
    except typer.Abort as exc:
        print("interrupted", file=sys.stderr)
        sys.exit(TERMINATED if _is_sigterm(exc.__cause__ or exc.__context__) else INTERRUPTED)
    except typer.TyperException as exc:  # click's usage errors
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        if message:  # (an empty one: a group called without a verb, whose help is shown)
            ctx = getattr(exc, "ctx", None)
            hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
            print(f"error: {' '.join(message.split())}{hint}", file=sys.stderr)
        sys.exit(USAGE)
    except KeyboardInterrupt as exc:
        print("interrupted", file=sys.stderr)
        sys.exit(TERMINATED if _is_sigterm(exc) else INTERRUPTED)
    except Interrupted as exc:
        print("interrupted", file=sys.stderr)
        sys.exit(exc.code)
    except PipeClosed:
        # The reader went away (``snakelab … | head``): nothing left to say, and Python must
        # not complain again when it flushes standard output at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(PIPE_CLOSED)
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"error: {where}{exc.strerror or exc}", file=sys.stderr)
        sys.exit(USAGE)
    if _sigterm:
        sys.exit(TERMINATED)
    sys.exit(code if isinstance(code, int) else 0)


def _is_sigterm(exc: BaseException | None) -> bool:
    """Whether ``exc`` is the interrupt SIGTERM raised (:func:`_terminated`)."""
    from snakelab.harness.parallel import Terminated

    return isinstance(exc, Terminated)
