"""``snakelab arena``: play a snAIke game with external bots, bench a line-up, run tournaments.

``play`` is one game (``run`` is its older, hidden name); ``bench`` many games of one
line-up in fixed seats; ``tournament`` many games with rotating seats.

Why one module: these are the three verbs of one command group, and they share the
seat grammar (``-p``/``-b``/``-e`` in command-line order), the bot-file options and
their refusals, the line-up planning (:func:`tournament_specs`) and the table
(:func:`summarise`); split, each verb's file would import most of the others'.
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from snakelab.cli._grammar import Command, refuse_given
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

if TYPE_CHECKING:
    from snakelab.harness.arena_bot import WaitStatus
    from snakelab.harness.match import MatchResult, MatchSpec

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


@app.command("play", cls=_SeatsCommand)
def play_cmd(
    ctx: typer.Context,
    python_bots: list[str] | None = typer.Option(
        None, "--python-bot", "-p", metavar="FILE", help="A Python bot (run with --python). " + SEAT_HELP
    ),
    jars: list[str] | None = typer.Option(
        None, "--jar", "-j", metavar="FILE", help="A Java bot (java -jar). " + SEAT_HELP
    ),
    execs: list[str] | None = typer.Option(
        None, "--exec", "-e", metavar="FILE", help="An executable bot. " + SEAT_HELP
    ),
    builtins: list[str] | None = typer.Option(
        None, "--builtin", "-b", metavar="NAME", help="A built-in agent (greedy, champion...). " + SEAT_HELP
    ),
    config: list[Path] | None = typer.Option(
        None, "--config", "-c", help="Config file(s); default: every snake_config* file here."
    ),
    seed: int | None = typer.Option(None, "--seed", "-s", help="Game seed (overrides random_seed)."),
    speed: float | None = typer.Option(
        None,
        "--speed",
        min=0.0,
        help="Frames per second of the live view (default: the game's pace); 0 shows only the end.",
    ),
    lockstep: bool = typer.Option(False, "--lockstep", help="Wait for every bot's answer (reproducible)."),
    timeout: float | None = typer.Option(
        None,
        "--timeout",
        min=0.001,
        help="Lockstep: seconds a bot may take per answer (default 20 × the game's speed, at least 1 s).",
    ),
    replay: Path | None = typer.Option(None, "--replay", help="Write a replay file."),
    as_json: bool = typer.Option(False, "--json", help="Print the ranking as JSON."),
    no_view: bool = typer.Option(False, "--no-view", help="No live view of the board."),
    run_dir: Path | None = typer.Option(None, "--run-dir", help="Folder for the bots' log and error files."),
    python: str = typer.Option("python3", "--python", help="Interpreter for -p bots."),
    startup: float = typer.Option(1.0, "--startup", min=0.0, help="Real time: seconds bots get to start."),
    nodes: int | None = typer.Option(None, "--nodes", min=1, help=NODES_HELP),
) -> None:
    """Play one game, watched live. Seats in command-line order: -p bot.py, -j bot.jar, -e ./bot, -b NAME.

    Empty seats get the built-in greedy agent. Each bot's log lines and standard
    error go to its own files in the run folder. Options that would be ignored are
    refused: --lockstep, --timeout, --startup and --run-dir need an external bot,
    --python a -p bot; --timeout applies with --lockstep, --startup without it.
    """
    try:
        seats = _ordered_seats(
            ctx, {"python": python_bots or [], "java": jars or [], "exec": execs or [], "builtin": builtins or []}
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
        if lockstep:
            refuse_given(ctx, ["startup"], "for real-time games only; with --lockstep a bot has --timeout per answer")
        else:
            refuse_given(ctx, ["timeout"], "with --lockstep only; in real time a bot has the game's speed per step")
        if as_json or no_view:
            refuse_given(ctx, ["speed"], "no live view is drawn with --json or --no-view")
    except SnakelabError as exc:
        fail(str(exc))
    _play(seats, config, seed, speed, lockstep, timeout, replay, as_json, no_view, run_dir, python, startup, nodes)


# The older name, kept for scripts; hidden from the help, same options and help.
app.command("run", cls=_SeatsCommand, hidden=True)(play_cmd)


def _play(
    seats: list[tuple[str, str]],
    config: list[Path] | None,
    seed: int | None,
    speed: float | None,
    lockstep: bool,
    timeout: float | None,
    replay: Path | None,
    as_json: bool,
    no_view: bool,
    run_dir: Path | None,
    python: str,
    startup: float,
    nodes: int | None,
) -> None:
    from snakelab.core.game import Agent, Budget
    from snakelab.core.registry import make_agent
    from snakelab.harness.arena_bot import watch_waits
    from snakelab.harness.match import play

    check_writable(replay)
    from snakelab.harness.arena_bot import BotAgent

    try:
        params, file_seed, files = load_game_config(config)
        gstr = game_string(params)
        from snakelab.core.registry import make

        game = make(gstr)
        cfg = game.info.config
        if len(seats) > cfg.num_snakes:
            raise ConfigError(f"{len(seats)} players for {cfg.num_snakes} seats: set num_snakes in a config file")
        the_seed = seed if seed is not None else file_seed if file_seed is not None else secrets.randbelow(2**31)
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        folder = run_dir or Path("arena_runs") / f"{stamp}-seed{the_seed}"
        agents: list[Agent] = []
        names: list[str] = []
        bots: list[BotAgent] = []
        for kind, value in seats:
            if kind == "builtin":
                ref = builtin_ref(value)
                agents.append(make_agent(ref))
                names.append(ref)
            else:
                b = BotAgent(
                    value,
                    kind=kind,
                    lockstep=lockstep,
                    timeout_s=timeout,
                    run_dir=str(folder),
                    python=python,
                    startup_s=startup,
                )
                agents.append(b)
                bots.append(b)
                names.append(f"{kind}:{Path(value).name}")
        while len(agents) < cfg.num_snakes:
            agents.append(make_agent("arena.greedy"))
            names.append("arena.greedy")
        budget = Budget(time_s=cfg.speed / 1000, nodes=nodes)
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
    """Say on standard error which bot a lockstep game waits for (once per answer)."""
    from snakelab.harness.arena_bot import WAIT_NOTICE_S

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


def tournament_specs(
    refs: list[str],
    seats: int,
    games: int,
    seed: int,
    gstr: str,
    budget_ms: float,
    nodes: int | None = None,
    *,
    rotate: bool = True,
) -> tuple[list[MatchSpec], list[list[int]]]:
    """Matches with rotating seats, and per match the entry index of each seat (-1: greedy filler).

    Each move's budget is ``budget_ms`` in time (the game's ``speed`` unless the user
    set ``--budget-ms``) and, with ``nodes``, that many search nodes, which searching
    agents then use instead of the clock. Bot files are not given the budget: their
    pace is the game's and their limit ``--timeout``.

    Game k seats the entries rotated by k; with fewer entries than seats the rest
    are greedy fillers, with more the entries take turns sitting out. With
    ``rotate=False`` (a bench) every game seats entry i in seat i. ``{match}`` in an
    agent string becomes the match number (bots' log folders).
    """
    from snakelab.core.game import Budget
    from snakelab.harness.match import MatchSpec
    from snakelab.harness.run import match_seeds

    specs: list[MatchSpec] = []
    lineups: list[list[int]] = []
    n = len(refs)
    for k, s in enumerate(match_seeds(seed, games)):
        lineup = [-1] * seats
        if not rotate:
            lineup[:n] = range(n)
        elif n <= seats:
            for e in range(n):
                lineup[(e + k) % seats] = e
        else:
            for i in range(seats):
                lineup[i] = (k + i) % n
        agents = tuple(refs[e].replace("{match}", f"{k:04d}") if e >= 0 else "arena.greedy" for e in lineup)
        specs.append(
            MatchSpec(gstr, agents, s, budget=Budget(time_s=budget_ms / 1000, nodes=nodes), measure=True, index=k)
        )
        lineups.append(lineup)
    return specs, lineups


def summarise(labels: list[str], results: list[MatchResult], lineups: list[list[int]]) -> list[dict[str, Any]]:
    """Per entry label: games, wins, win rate with its 95% Wilson interval, mean longest, p99 move time."""
    from snakelab.harness.ratings import wilson_interval

    stats: dict[str, dict[str, Any]] = {}
    for res in results:
        lineup = lineups[res.index]
        d = res.outcome.details
        for seat, entry in enumerate(lineup):
            label = labels[entry] if entry >= 0 else "arena.greedy (filler)"
            st = stats.setdefault(label, {"games": 0, "wins": 0, "longest": 0, "times": []})
            st["games"] += 1
            st["wins"] += int(res.outcome.winner == seat)
            st["longest"] += d["longest"][seat]
            if res.move_times:
                st["times"].extend(res.move_times[seat])
    rows = []
    for label, st in stats.items():
        lo, hi = wilson_interval(st["wins"], st["games"])
        times = sorted(st["times"])
        p99 = 1e3 * times[min(len(times) - 1, int(0.99 * len(times)))] if times else None
        rows.append(
            {
                "bot": label,
                "games": st["games"],
                "wins": st["wins"],
                "win_rate": st["wins"] / st["games"],
                "ci95": [lo, hi],
                "mean_longest": st["longest"] / st["games"],
                "p99_move_ms": p99,
            }
        )
    rows.sort(key=lambda r: -r["win_rate"])
    return rows


@app.command("bench")
def bench_cmd(
    ctx: typer.Context,
    bots: list[str] = typer.Argument(..., help="The line-up in seat order: built-in agents or bot files."),
    games: int = typer.Option(20, "--games", "-n", help="Number of games."),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Worker processes (0: all cores)."),
    seed: int = typer.Option(1, "--seed", "-s", help="Run seed (per-game seeds derive from it)."),
    config: list[Path] | None = typer.Option(None, "--config", "-c", help="Config file(s) for the games."),
    timeout: float | None = typer.Option(
        None,
        "--timeout",
        min=0.001,
        help="Seconds a bot file may take per answer (default 20 × the game's speed, at least 1 s).",
    ),
    executor: str | None = typer.Option(None, "--executor", help=EXECUTOR_HELP),
    resume: str | None = typer.Option(None, "--resume", help="Continue a stored run by its id."),
    run_dir: Path | None = typer.Option(None, "--run-dir", help="Folder for bot log and error files."),
    python: str = typer.Option("python3", "--python", help="Interpreter for .py bots."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
    nodes: int | None = typer.Option(None, "--nodes", min=1, help=NODES_HELP),
    budget_ms: float | None = typer.Option(None, "--budget-ms", min=0.1, help=BUDGET_HELP),
) -> None:
    """Play many lockstep games of one line-up in fixed seats; per seat win rates with 95% intervals.

    Seat i is the i-th entry in every game (empty seats get the built-in greedy agent);
    only the game seeds change. Use ``tournament`` to rotate seats between entries.
    """
    rows, gstr, n, wall, ms = _many(
        ctx, bots, games, jobs, seed, config, timeout, executor, resume, run_dir, python, nodes, budget_ms, rotate=False
    )
    _print_many(rows, gstr, n, seed, wall, ms, as_json, "fixed seats")


@app.command("tournament")
def tournament_cmd(
    ctx: typer.Context,
    bots: list[str] = typer.Argument(..., help="Built-in agents (greedy, champion...) or bot files."),
    games: int = typer.Option(20, "--games", "-n", help="Number of games."),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Worker processes (0: all cores)."),
    seed: int = typer.Option(1, "--seed", "-s", help="Run seed (per-game seeds derive from it)."),
    config: list[Path] | None = typer.Option(None, "--config", "-c", help="Config file(s) for the games."),
    timeout: float | None = typer.Option(
        None,
        "--timeout",
        min=0.001,
        help="Seconds a bot may take per answer (lockstep; default 20 × the game's speed, at least 1 s).",
    ),
    executor: str | None = typer.Option(None, "--executor", help=EXECUTOR_HELP),
    resume: str | None = typer.Option(None, "--resume", help="Continue a stored run by its id."),
    run_dir: Path | None = typer.Option(None, "--run-dir", help="Folder for bot log and error files."),
    python: str = typer.Option("python3", "--python", help="Interpreter for .py bots."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
    nodes: int | None = typer.Option(None, "--nodes", min=1, help=NODES_HELP),
    budget_ms: float | None = typer.Option(None, "--budget-ms", min=0.1, help=BUDGET_HELP),
) -> None:
    """Play many lockstep games with rotating seats; win rates with 95% intervals.

    Game k seats the entries rotated by k, so each entry plays every seat; with more
    entries than seats they take turns sitting out, with fewer the built-in greedy
    agent fills the empty seats. Built-in agents that search stop on the clock unless
    ``--nodes`` is given, so two runs agree exactly only with ``--nodes`` (and lockstep
    bots that are deterministic).
    """
    rows, gstr, n, wall, ms = _many(
        ctx, bots, games, jobs, seed, config, timeout, executor, resume, run_dir, python, nodes, budget_ms
    )
    _print_many(rows, gstr, n, seed, wall, ms, as_json, "win = ranked first")


def _many(
    ctx: typer.Context,
    bots: list[str],
    games: int,
    jobs: int,
    seed: int,
    config: list[Path] | None,
    timeout: float | None,
    executor: str | None,
    resume: str | None,
    run_dir: Path | None,
    python: str,
    nodes: int | None,
    budget_ms: float | None,
    *,
    rotate: bool = True,
) -> tuple[list[dict[str, Any]], str, int, float, float]:
    """Run a bench or tournament: (rows per entry, game string, games played, wall seconds, move budget ms)."""
    from snakelab.harness.arena_bot import watch_waits

    if games < 1:
        fail("--games must be ≥ 1")
    try:
        params, _file_seed, _files = load_game_config(config)
        gstr = game_string(params)
        from snakelab.core.registry import make

        cfg = make(gstr).info.config
        if not rotate and len(bots) > cfg.num_snakes:
            raise ConfigError(f"{len(bots)} entries for {cfg.num_snakes} seats: set num_snakes in a config file")
        folder = str(run_dir or Path("arena_runs") / f"tournament-{datetime.now(UTC).strftime('%Y%m%d-%H%M%S')}")
        entries = [bot_ref(b, timeout, folder, python) for b in bots]
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
        ms = float(cfg.speed if budget_ms is None else budget_ms)
        specs, lineups = tournament_specs(
            [ref for _, ref in entries],
            cfg.num_snakes,
            games,
            seed,
            gstr,
            ms,
            nodes,
            rotate=rotate,
        )
        what = "tournament" if rotate else "bench"
        t0 = time.perf_counter()
        with watch_waits(_show_wait):  # heard when the matches run in this process (-j 1)
            results = run_matches(
                specs, f"arena {what}, {games} games", executor=executor, jobs=jobs, resume=resume, run_seed=seed
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
