"""What every ``snakelab`` verb shares beyond running matches: help layout, exit codes, option checks.

**Help.** Every command and group is built with :class:`Command` / :class:`Group`, which
show a flag (an option that takes no value) without a type in the options table: typer
would otherwise print ``<bool>`` for ``--json``, as if it wanted a value.

**Exit codes.** One table for every verb (:data:`EXIT_CODES`), printed at the end of
``snakelab --help`` and in the README: 0 success; 1 the run finished but what it checks
failed (a replay that does not match, a judged program that is not OK, a solution that
stops with an error); 2 bad usage or input (an unknown, conflicting or ignored option, a
bad value, a file that is missing, malformed or cannot be written); 130 interrupted with
Ctrl-C (what finished is kept; the message says how to resume); 141 standard
output closed by its reader (``snakelab ... | head``), as a shell tool killed by SIGPIPE;
143 stopped by SIGTERM (``kill PID``), which every verb takes as it takes Ctrl-C. The
codes above 128 are 128 plus the signal's number, as shells report a command the
signal killed.

**No silent options.** An option that the chosen mode would ignore is refused with
:func:`refuse_given`, naming what applies instead; a ``--game`` string of another game is
refused by :func:`game_of`.
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import typer
from rich.console import Console
from typer.core import TyperCommand, TyperGroup

from snakelab.core.errors import ConfigError

if TYPE_CHECKING:
    from snakelab.core.game import Game

OptionsT = TypeVar("OptionsT")

#: Exit codes shared by every verb (see the module docstring).
OK, CHECK_FAILED, USAGE, INTERRUPTED, PIPE_CLOSED, TERMINATED = 0, 1, 2, 130, 141, 143

EXIT_CODES: tuple[tuple[int, str], ...] = (
    (OK, "success"),
    (CHECK_FAILED, "the run finished but what it checks failed: a replay mismatch, a judged program not OK, "
     "a solution that stops with an error"),
    (USAGE, "bad usage or input: an unknown, conflicting or ignored option, a bad value, "
     "a file that is missing, malformed or cannot be written"),
    (INTERRUPTED, "interrupted (Ctrl-C): finished work is kept and the message says how to resume"),
    (PIPE_CLOSED, "standard output was closed by its reader (a pipe into head, say)"),
    (TERMINATED, "stopped by SIGTERM (kill PID): as Ctrl-C, finished work is kept and the message says how to resume"),
)  # fmt: skip


def interrupt_code(exc: BaseException) -> int:
    """The exit code of a command stopped by ``exc``: :data:`TERMINATED` for SIGTERM, else :data:`INTERRUPTED`."""
    from snakelab.harness.parallel import Terminated

    return TERMINATED if isinstance(exc, Terminated) else INTERRUPTED


def exit_codes_markdown() -> str:
    """The exit-code table as a Markdown table (the ``--help`` epilogue and the README)."""
    rows = "\n".join(f"| {code} | {what} |" for code, what in EXIT_CODES)
    return "| exit code | meaning |\n|---|---|\n" + rows


def _hide_flag_types(params: Iterable[Any]) -> None:
    # A flag takes no value; an empty metavar leaves its type cell blank instead of "<bool>".
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""


class Command(TyperCommand):
    """A typer command whose help shows flags without a ``<bool>`` type."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """Render the help (flags first lose their type label)."""
        _hide_flag_types(self.get_params(ctx))
        super().format_help(ctx, formatter)


class PipeClosed(Exception):  # noqa: N818 - a condition, not a fault
    """Standard output was closed by its reader; :func:`snakelab.cli.main` exits 141."""


class Interrupted(Exception):  # noqa: N818 - a condition, not a fault
    """Ctrl-C or SIGTERM stopped the command; :func:`snakelab.cli.main` exits with :attr:`code`.

    typer turns a ``KeyboardInterrupt`` into exit code 130 whatever raised it, so
    :class:`Group` carries it past typer as this, with the code its signal gives
    (:func:`interrupt_code`: 143 for SIGTERM).
    """

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class CliConsole(Console):
    """The CLI's rich console: a closed standard output ends the command with exit code 141.

    rich's own console exits 1 there, the code of a failed check; this one raises
    ``BrokenPipeError`` so that :func:`snakelab.cli.main` reports it like any other.
    """

    def on_broken_pipe(self) -> None:
        """Stop writing and let the pipe error reach the entry point."""
        self.quiet = True
        raise BrokenPipeError


class Group(TyperGroup):
    """A typer group whose help shows flags without a ``<bool>`` type.

    It also lets a closed standard output (``BrokenPipeError``) reach
    :func:`snakelab.cli.main` as :class:`PipeClosed`, which typer would otherwise turn
    into exit code 1, the code of a failed check, and an interrupt as
    :class:`Interrupted`, which typer would turn into 130 even for SIGTERM.
    """

    def invoke(self, ctx: Any) -> Any:
        """Run the chosen command."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise PipeClosed from None
        except KeyboardInterrupt as exc:
            raise Interrupted(interrupt_code(exc)) from None

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """Render the help (flags first lose their type label)."""
        _hide_flag_types(self.get_params(ctx))
        super().format_help(ctx, formatter)


def _plain(cls: Any, default: type) -> bool:
    # typer leaves its own class, None or a DefaultPlaceholder where none was chosen.
    return cls is None or cls is default or type(cls).__name__ == "DefaultPlaceholder"


def use_help_classes(app: typer.Typer) -> None:
    """Build ``app``, its commands and its sub-groups (recursively) with :class:`Command` / :class:`Group`."""
    if _plain(app.info.cls, TyperGroup):
        app.info.cls = Group
    for cmd in app.registered_commands:
        if _plain(cmd.cls, TyperCommand):
            cmd.cls = Command
    for grp in app.registered_groups:
        if _plain(grp.cls, TyperGroup):
            grp.cls = Group
        if grp.typer_instance is not None:
            use_help_classes(grp.typer_instance)


def given(ctx: typer.Context, *names: str) -> list[str]:
    """The options among ``names`` (parameter names) set on the command line, as the user spelled them."""
    out = []
    for name in names:
        source = ctx.get_parameter_source(name)
        if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP"):
            out.append(option_name(ctx, name))
    return out


def option_name(ctx: typer.Context, name: str) -> str:
    """The long form (``--seconds``) of parameter ``name`` of the running command."""
    for param in ctx.command.params:
        if param.name == name:
            longs = [o for o in param.opts if o.startswith("--")]
            return (longs or list(param.opts) or [name])[0]
    return name


def options_command(
    options: type[OptionsT],
) -> Callable[[Callable[[typer.Context, OptionsT], None]], Callable[..., None]]:
    """Make ``body(ctx, opts)`` a typer command whose options are the fields of the frozen dataclass ``options``.

    Each field is annotated ``Annotated[type, typer.Option(...)]`` (or ``typer.Argument``)
    with its default as the field's, so one dataclass is both the verb's option block
    (shared where two verbs take the same options) and the value its body receives.
    The command's parameters are ``ctx`` and the fields by name, so :func:`given` and
    :func:`refuse_given` name options as before.
    """
    hints = typing.get_type_hints(options, include_extras=True)
    params = [inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context)]
    for f in dataclasses.fields(options):  # type: ignore[arg-type]
        default = inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        params.append(
            inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=hints[f.name])
        )

    def wrap(body: Callable[[typer.Context, OptionsT], None]) -> Callable[..., None]:
        def command(ctx: typer.Context, **values: Any) -> None:
            body(ctx, options(**values))

        command.__name__ = body.__name__
        command.__qualname__ = body.__qualname__
        command.__doc__ = body.__doc__
        command.__module__ = body.__module__
        command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        command.__annotations__ = {p.name: p.annotation for p in params}
        return command

    return wrap


def refuse_given(ctx: typer.Context, names: Iterable[str], why: str) -> None:
    """Refuse options that this mode ignores: a one-line usage error naming them and ``why``.

    Args:
        ctx: The running command's context.
        names: Parameter names (``"seconds"``) that do not apply in the chosen mode.
        why: What applies instead, e.g. ``"apply only to --agent champion"``.

    Raises:
        ConfigError: if any of them was given on the command line.
    """
    used = given(ctx, *names)
    if used:
        verb = "does not apply" if len(used) == 1 else "do not apply"
        raise ConfigError(f"{', '.join(used)} {verb}: {why}")


def game_of(game_id: str, spec: str) -> Game:
    """Build the game of ``spec`` and check that it is a ``game_id`` game.

    A verb of one game given another game's string (``snakgame play --game 'classic(width=5)'``)
    is refused in one line instead of failing later on the wrong kind of result.

    Raises:
        ConfigError: for a game string of another game.
        SnakelabError: for an unknown game or bad parameters.
    """
    from snakelab.core.registry import make, parse_spec

    name, _ = parse_spec(spec)
    if name != game_id:
        raise ConfigError(f"{spec!r} is a {name} game; snakelab {game_id} takes {game_id}(...) game strings")
    game = make(spec)
    if game.info.id != game_id:  # an alias of another game
        raise ConfigError(f"{spec!r} is a {game.info.id} game; snakelab {game_id} takes {game_id}(...) game strings")
    return game


__all__ = [
    "EXIT_CODES",
    "CliConsole",
    "Command",
    "Group",
    "Interrupted",
    "PipeClosed",
    "exit_codes_markdown",
    "game_of",
    "given",
    "interrupt_code",
    "option_name",
    "options_command",
    "refuse_given",
    "use_help_classes",
]
