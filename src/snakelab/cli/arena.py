"""``snakelab arena``: play a snAIke game with external bots, bench a line-up, run tournaments.

``play`` is one game (``run`` is its older, hidden name); ``bench`` many games of one
line-up in fixed seats; ``tournament`` many games with rotating seats.

Why one module: these are the three verbs of one command group, and they share the
seat grammar (``-p``/``-b``/``-e`` in command-line order), the bot-file options and
their refusals, and the bench's and the tournament's option block (:class:`ManyOptions`);
split, each verb's file would import most of the others'. The line-ups and their table
are the harness's (:mod:`snakelab.harness.tournament`).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from snakelab.cli._grammar import Command, options_command, refuse_given
from snakelab.cli.common import (
    EXECUTOR_HELP,
    LiveView,
    check_writable,
    console,
    err_console,
    fail,
    print_json,
    run_matches,
)
from snakelab.core.errors import ConfigError, SnakelabError

if TYPE_CHECKING:  # the verbs import what they use: `arena --help` loads no game or harness code
    from snakelab.core.game import Agent
    from snakelab.harness.arena_bot import WaitStatus
    from snakelab.harness.match import MatchResult

NAME = "arena"
app = typer.Typer(
    help="snAIke: 4 snakes, apples and zombies; bots in any language over stdin/stdout: play, bench, tournament.",
    no_args_is_help=True,
)

BUDGET_HELP = (
    "Milliseconds each built-in agent may think per move (default: the game's speed). "
    "Sets the move budget apart from the game's pace, e.g. 1,200 steps of "
    "arena(duration=60) at 10 ms a move; bot files keep the game's speed and --timeout."
)

NODES_HELP = (
    "Search nodes per move for built-in agents that search (the champion's look-ahead), "
    "instead of the clock: runs become exactly reproducible. Without it they stop on the "
    "clock and runs on a loaded machine can differ."
)

SEAT_FLAGS = {
    "-p": "python",
    "--python-bot": "python",
    "-j": "java",
    "--jar": "java",
    "-e": "exec",
    "--exec": "exec",
    "-b": "builtin",
    "--builtin": "builtin",
}


def parse_seats(args: list[str]) -> list[tuple[str, str]]:
    """Seats in command-line order from ``-p FILE -j FILE -e FILE -b NAME`` arguments.

    Raises:
        ConfigError: for an unknown argument or a flag without its value.
    """
    seats: list[tuple[str, str]] = []
    k = 0
    while k < len(args):
        flag = args[k]
        kind = SEAT_FLAGS.get(flag)
        if kind is None:
            raise ConfigError(f"unexpected argument {flag!r}: add players with -p FILE, -j FILE, -e FILE or -b NAME")
        if k + 1 >= len(args):
            raise ConfigError(f"{flag} needs a value")
        seats.append((kind, args[k + 1]))
        k += 2
    return seats


def seats_in_order(args: list[str], value_options: set[str]) -> list[tuple[str, str]]:
    """The seats of a ``play`` command line in the order given, from its raw arguments.

    The seat options are real options (so ``--help`` lists them), but click groups the
    values of each option; the seat order is the order on the command line, so it is
    read from the raw arguments. ``value_options`` are the other options that take a
    value (their values are skipped, so ``--python -p`` is not a seat).
    """
    seats: list[tuple[str, str]] = []
    k = 0
    while k < len(args):
        arg = args[k]
        if arg == "--":
            break
        name, eq, value = arg.partition("=")
        if arg.startswith("--") and eq and name in SEAT_FLAGS:
            seats.append((SEAT_FLAGS[name], value))
        elif arg in SEAT_FLAGS and k + 1 < len(args):
            seats.append((SEAT_FLAGS[arg], args[k + 1]))
            k += 1
        elif not arg.startswith("--") and len(arg) > 2 and arg[:2] in SEAT_FLAGS:
            seats.append((SEAT_FLAGS[arg[:2]], arg[2:]))  # -pbot.py
        elif arg in value_options:
            k += 1
        k += 1
    return seats


class _SeatsCommand(Command):
    """``arena play``: keeps the raw arguments, from which the seat order is read."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Parse as usual, remembering the arguments as given."""
        ctx.meta["arena.args"] = list(args)
        result: list[str] = super().parse_args(ctx, args)
        return result


def _ordered_seats(ctx: typer.Context, grouped: dict[str, list[str]]) -> list[tuple[str, str]]:
    value_options = {
        opt for p in ctx.command.params if not getattr(p, "is_flag", False) for opt in (*p.opts, *p.secondary_opts)
    }
    seats = seats_in_order(ctx.meta.get("arena.args", []), value_options)
    want = sorted((kind, v) for kind, values in grouped.items() for v in values)
    if sorted(seats) != want:  # e.g. called without the command line (as a function): by kind
        seats = [(kind, v) for kind, values in grouped.items() for v in values]
    return seats


def builtin_ref(name: str) -> str:
    """Accept ``greedy`` as well as ``arena.greedy``."""
    return name if name.startswith("arena.") else f"arena.{name}"


def load_game_config(config: list[Path] | None, folder: Path = Path()) -> tuple[dict[str, Any], int | None, list[Path]]:
    """Game parameters and seed from ``--config`` files, else from ``snake_config*`` files in ``folder``."""
    from snakelab.games.arena.config import find_config_files, load_config_files

    files = list(config) if config else find_config_files(folder)
    fc = load_config_files(files)
    return fc.params, fc.seed, files


def game_string(params: dict[str, Any]) -> str:
    """The canonical game string (validated)."""
    from snakelab.games.arena.rules import Game, make_game

    game: Game = make_game(**params)
    return game.info.name


def ranking_rows(result: MatchResult) -> list[dict[str, Any]]:
    """One row per snake, best first, with the figures the ``--json`` output promises."""
    d = result.outcome.details
    rows = []
    for rank, p in enumerate(d["ranking"], 1):
        rows.append(
            {
                "rank": rank,
                "player": p,
                "agent": result.agents[p],
                "longest": d["longest"][p],
                "kills": d["kills"][p],
                "deaths": d["deaths"][p],
                "timeouts": d["timeouts"][p],
                "invalid": d["invalid"][p],
                "crashes": d["crashes"][p],
            }
        )
    return rows


SEAT_HELP = "A seat, in command-line order with the other seat options (repeatable)."


@dataclass(frozen=True)
class PlayOptions:
    """``arena play``'s options: the seats (in command-line order) and how the game is run."""

    python_bots: Annotated[
        list[str] | None,
        typer.Option("--python-bot", "-p", metavar="FILE", help="A Python bot (run with --python). " + SEAT_HELP),
    ] = None
    jars: Annotated[
        list[str] | None, typer.Option("--jar", "-j", metavar="FILE", help="A Java bot (java -jar). " + SEAT_HELP)
    ] = None
    execs: Annotated[
        list[str] | None, typer.Option("--exec", "-e", metavar="FILE", help="An executable bot. " + SEAT_HELP)
    ] = None
    builtins: Annotated[
        list[str] | None,
        typer.Option("--builtin", "-b", metavar="NAME", help="A built-in agent (greedy, champion...). " + SEAT_HELP),
    ] = None
    config: Annotated[
        list[Path] | None,
        typer.Option("--config", "-c", help="Config file(s); default: every snake_config* file here."),
    ] = None
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Game seed (overrides random_seed).")] = None
    speed: Annotated[
        float | None,
        typer.Option(
            "--speed",
            min=0.0,
            help="Frames per second of the live view (default: the game's pace); 0 shows only the end.",
        ),
    ] = None
    lockstep: Annotated[bool, typer.Option("--lockstep", help="Wait for every bot's answer (reproducible).")] = False
    timeout: Annotated[
        float | None,
        typer.Option(
            "--timeout",
            min=0.001,
            help="Lockstep: seconds a bot may take per answer (default 20 × the game's speed, at least 1 s).",
        ),
    ] = None
    replay: Annotated[Path | None, typer.Option("--replay", help="Write a replay file.")] = None
    as_json: Annotated[bool, typer.Option("--json", help="Print the ranking as JSON.")] = False
    no_view: Annotated[bool, typer.Option("--no-view", help="No live view of the board.")] = False
    run_dir: Annotated[Path | None, typer.Option("--run-dir", help="Folder for the bots' log and error files.")] = None
    python: Annotated[str, typer.Option("--python", help="Interpreter for -p bots.")] = "python3"
    startup: Annotated[float, typer.Option("--startup", min=0.0, help="Real time: seconds bots get to start.")] = 1.0
    nodes: Annotated[int | None, typer.Option("--nodes", min=1, help=NODES_HELP)] = None


@app.command("play", cls=_SeatsCommand)
@options_command(PlayOptions)
def play_cmd(ctx: typer.Context, o: PlayOptions) -> None:
    """Play one game, watched live. Seats in command-line order: -p bot.py, -j bot.jar, -e ./bot, -b NAME.

    Empty seats get the built-in greedy agent. Each bot's log lines and standard
    error go to its own files in the run folder. Options that would be ignored are
    refused: --lockstep, --timeout, --startup and --run-dir need an external bot,
    --python a -p bot; --timeout applies with --lockstep, --startup without it.
    """
    try:
        seats = _ordered_seats(
            ctx,
            {"python": o.python_bots or [], "java": o.jars or [], "exec": o.execs or [], "builtin": o.builtins or []},
        )
        external = [kind for kind, _ in seats if kind != "builtin"]
        if not external:
            refuse_given(
                ctx,
                ["lockstep", "timeout", "run_dir", "startup"],
                "for external bots only (-p, -j, -e); these seats are all built-in",
            )
        if "python" not in external:
            refuse_given(ctx, ["python"], "for Python bots (-p) only")
        if o.lockstep:
            refuse_given(ctx, ["startup"], "for real-time games only; with --lockstep a bot has --timeout per answer")
        else:
            refuse_given(ctx, ["timeout"], "with --lockstep only; in real time a bot has the game's speed per step")
        if o.as_json or o.no_view:
            refuse_given(ctx, ["speed"], "no live view is drawn with --json or --no-view")
    except SnakelabError as exc:
        fail(str(exc))
    _play(seats, o)


# The older name, kept for scripts; hidden from the help, same options and help.
app.command("run", cls=_SeatsCommand, hidden=True)(play_cmd)


def _play(seats: list[tuple[str, str]], o: PlayOptions) -> None:
    from snakelab.core.game import Budget
    from snakelab.core.registry import make_agent
    from snakelab.harness.arena_bot import watch_waits
    from snakelab.harness.match import play

    check_writable(o.replay)
    from snakelab.harness.arena_bot import BotAgent, BotOptions

    seed, speed, replay, as_json, no_view = o.seed, o.speed, o.replay, o.as_json, o.no_view

    try:
        params, file_seed, files = load_game_config(o.config)
        gstr = game_string(params)
        from snakelab.core.registry import make

        game = make(gstr)
        cfg = game.info.config
        if len(seats) > cfg.num_snakes:
            raise ConfigError(f"{len(seats)} players for {cfg.num_snakes} seats: set num_snakes in a config file")
        the_seed = seed if seed is not None else file_seed if file_seed is not None else secrets.randbelow(2**31)
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        folder = o.run_dir or Path("arena_runs") / f"{stamp}-seed{the_seed}"
        agents: list[Agent] = []
        names: list[str] = []
        bots: list[BotAgent] = []
        for kind, value in seats:
            if kind == "builtin":
                ref = builtin_ref(value)
                agents.append(make_agent(ref))
                names.append(ref)
            else:
                opts = BotOptions(
                    kind=kind,
                    lockstep=o.lockstep,
                    timeout_s=o.timeout,
                    run_dir=str(folder),
                    python=o.python,
                    startup_s=o.startup,
                )
                b = BotAgent(value, opts)
                agents.append(b)
                bots.append(b)
                names.append(f"{kind}:{Path(value).name}")
        while len(agents) < cfg.num_snakes:
            agents.append(make_agent("arena.greedy"))
            names.append("arena.greedy")
        budget = Budget(time_s=cfg.speed / 1000, nodes=o.nodes)
        if not as_json and files:
            console.print(f"config: {', '.join(map(str, files))}")
        with watch_waits(_show_wait):
            if no_view or as_json:
                res = play(game, agents, the_seed, agent_names=names, budget=budget, replay=replay)
            else:
                with LiveView("arena", 1000 / cfg.speed if speed is None else speed) as view:
                    res = play(game, agents, the_seed, agent_names=names, budget=budget, replay=replay, on_step=view)
    except SnakelabError as exc:
        fail(str(exc))
    rows = ranking_rows(res)
    logs = {f"player {b.player}": {"log": str(b.log_path), "err": str(b.err_path)} for b in bots}
    if as_json:
        print_json(
            {
                "game": res.game,
                "seed": the_seed,
                "steps": res.steps,
                "termination": res.outcome.termination,
                "ranking": rows,
                "notices": res.notices,
                "replay": str(replay) if replay else None,
                "logs": logs,
            }
        )
        return
    from rich.table import Table

    table = Table(title=f"{res.game}, seed {the_seed}, {res.steps} steps ({res.outcome.termination.lower()})")
    for col in ("rank", "player", "agent", "longest", "kills", "deaths", "timeouts", "invalid", "crashes"):
        table.add_column(col, justify="left" if col == "agent" else "right")
    for r in rows:
        table.add_row(*(str(r[c]) for c in r))
    console.print(table)
    for note in res.notices:
        console.print(f"[yellow]note:[/] {note}")
    for who, paths in logs.items():
        console.print(f"{who}: log {paths['log']}, errors {paths['err']}")
    if replay is not None:
        console.print(f"replay written to {replay}")


def _show_wait(status: WaitStatus | None) -> None:
    from snakelab.harness.arena_bot import WAIT_NOTICE_S

    """Say on standard error which bot a lockstep game waits for (once per answer)."""
    if status is not None and status.waited_s < WAIT_NOTICE_S + 0.5:
        err_console.print(f"[yellow]{status.describe()}…[/]", highlight=False)


def bot_ref(bot: str, timeout: float | None, run_dir: str, python: str) -> tuple[str, str]:
    """(label, agent string) of a tournament entry: a built-in name or a bot file."""
    from snakelab.core.registry import format_spec, make_agent

    p = Path(bot)
    if p.suffix in (".py", ".jar") or (p.exists() and p.is_file()):
        params: dict[str, Any] = {"path": str(p.resolve()), "lockstep": True}
        if timeout is not None:
            params["timeout_s"] = timeout
        params["run_dir"] = f"{run_dir}/match{{match}}"  # one folder per match (see tournament_specs)
        params["python"] = python
        return p.name, format_spec("arena.bot", params)
    ref = builtin_ref(bot)
    make_agent(ref)  # validate the name now, not in a worker
    return ref, ref


@dataclass(frozen=True)
class ManyOptions:
    """The options of ``arena bench`` and ``arena tournament``: the entries, the games, how they run."""

    bots: Annotated[list[str], typer.Argument(help="Built-in agents (greedy, champion...) or bot files.")]
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = 20
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (0: all cores).")] = 0
    seed: Annotated[int, typer.Option("--seed", "-s", help="Run seed (per-game seeds derive from it).")] = 1
    config: Annotated[list[Path] | None, typer.Option("--config", "-c", help="Config file(s) for the games.")] = None
    timeout: Annotated[
        float | None,
        typer.Option(
            "--timeout",
            min=0.001,
            help="Seconds a bot file may take per answer (lockstep; default 20 × the game's speed, at least 1 s).",
        ),
    ] = None
    executor: Annotated[str | None, typer.Option("--executor", help=EXECUTOR_HELP)] = None
    resume: Annotated[str | None, typer.Option("--resume", help="Continue a stored run by its id.")] = None
    run_dir: Annotated[Path | None, typer.Option("--run-dir", help="Folder for bot log and error files.")] = None
    python: Annotated[str, typer.Option("--python", help="Interpreter for .py bots.")] = "python3"
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a table.")] = False
    nodes: Annotated[int | None, typer.Option("--nodes", min=1, help=NODES_HELP)] = None
    budget_ms: Annotated[float | None, typer.Option("--budget-ms", min=0.1, help=BUDGET_HELP)] = None


@app.command("bench")
@options_command(ManyOptions)
def bench_cmd(ctx: typer.Context, o: ManyOptions) -> None:
    """Play many lockstep games of one line-up in fixed seats; per seat win rates with 95% intervals.

    Seat i is the i-th entry in every game (empty seats get the built-in greedy agent);
    only the game seeds change. Use ``tournament`` to rotate seats between entries.
    """
    rows, gstr, n, wall, ms = _many(ctx, o, rotate=False)
    _print_many(rows, gstr, n, o.seed, wall, ms, o.as_json, "fixed seats")


@app.command("tournament")
@options_command(ManyOptions)
def tournament_cmd(ctx: typer.Context, o: ManyOptions) -> None:
    """Play many lockstep games with rotating seats; win rates with 95% intervals.

    Game k seats the entries rotated by k, so each entry plays every seat; with more
    entries than seats they take turns sitting out, with fewer the built-in greedy
    agent fills the empty seats. Built-in agents that search stop on the clock unless
    ``--nodes`` is given, so two runs agree exactly only with ``--nodes`` (and lockstep
    bots that are deterministic).
    """
    rows, gstr, n, wall, ms = _many(ctx, o, rotate=True)
    _print_many(rows, gstr, n, o.seed, wall, ms, o.as_json, "win = ranked first")


def _many(ctx: typer.Context, o: ManyOptions, *, rotate: bool) -> tuple[list[dict[str, Any]], str, int, float, float]:
    from snakelab.harness.arena_bot import watch_waits
    from snakelab.harness.tournament import summarise, tournament_specs

    """Run a bench or tournament: (rows per entry, game string, games played, wall seconds, move budget ms)."""
    bots, games, seed = o.bots, o.games, o.seed
    if games < 1:
        fail("--games must be ≥ 1")
    try:
        params, _file_seed, _files = load_game_config(o.config)
        gstr = game_string(params)
        from snakelab.core.registry import make

        cfg = make(gstr).info.config
        if not rotate and len(bots) > cfg.num_snakes:
            raise ConfigError(f"{len(bots)} entries for {cfg.num_snakes} seats: set num_snakes in a config file")
        folder = str(o.run_dir or Path("arena_runs") / f"tournament-{datetime.now(UTC).strftime('%Y%m%d-%H%M%S')}")
        entries = [bot_ref(b, o.timeout, folder, o.python) for b in bots]
        files = [b for b, (_, ref) in zip(bots, entries, strict=True) if ref.startswith("arena.bot(")]
        if not files:
            refuse_given(ctx, ["timeout", "run_dir", "python"], "for bot files only; these entries are all built-in")
        elif len(files) == len(bots) and cfg.num_snakes <= len(bots):
            refuse_given(ctx, ["budget_ms"], "for built-in agents only; these entries are all bot files")
        elif not any(f.endswith(".py") for f in files):
            refuse_given(ctx, ["python"], "for .py bots only")
        labels = [label for label, _ in entries]
        if not rotate:
            labels = [f"seat {i}: {label}" for i, label in enumerate(labels)]
        ms = float(cfg.speed if o.budget_ms is None else o.budget_ms)
        refs = [ref for _, ref in entries]
        specs, lineups = tournament_specs(refs, cfg.num_snakes, games, seed, gstr, ms, o.nodes, rotate=rotate)
        what = "tournament" if rotate else "bench"
        t0 = time.perf_counter()
        with watch_waits(_show_wait):  # heard when the matches run in this process (-j 1)
            results = run_matches(
                specs, f"arena {what}, {games} games", executor=o.executor, jobs=o.jobs, resume=o.resume, run_seed=seed
            )
        wall = time.perf_counter() - t0
    except SnakelabError as exc:
        fail(str(exc))
    return summarise(labels, results, lineups), gstr, len(results), wall, ms


def _print_many(
    rows: list[dict[str, Any]], gstr: str, games: int, seed: int, wall: float, ms: float, as_json: bool, note: str
) -> None:
    if as_json:
        print_json({"game": gstr, "games": games, "seed": seed, "budget_ms": ms, "wall_s": wall, "bots": rows})
        return
    from rich.table import Table

    table = Table(title=f"{gstr}: {games} games, seed {seed}, {ms:g} ms a move ({note})")
    for col in ("bot", "games", "wins", "win rate", "95% CI", "mean longest", "p99 move ms"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for r in rows:
        lo, hi = r["ci95"]
        p99 = "-" if r["p99_move_ms"] is None else f"{r['p99_move_ms']:.1f}"
        table.add_row(
            r["bot"],
            str(r["games"]),
            str(r["wins"]),
            f"{r['win_rate']:.1%}",
            f"{lo:.1%}–{hi:.1%}",
            f"{r['mean_longest']:.1f}",
            p99,
        )
    console.print(table)
