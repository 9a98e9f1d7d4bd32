"""``snakelab classic``: play a game live, benchmark an agent."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from snakelab.cli._grammar import options_command
from snakelab.cli.common import EXECUTOR_HELP, LiveView, check_writable, console, fail, print_json, run_matches
from snakelab.core.errors import SnakelabError

if TYPE_CHECKING:
    from snakelab.harness.match import MatchResult

NAME = "classic"
app = typer.Typer(help="Snake on a walled board: play live, benchmark agents.", no_args_is_help=True)


def agent_ref(name: str) -> str:
    """Accept ``hamilton`` as well as ``classic.hamilton``."""
    return name if name.startswith("classic.") else f"classic.{name}"


def game_string(width: int, height: int, tail_rule: str, start_length: int) -> str:
    """The canonical game string for these options (defaults left out)."""
    from snakelab.core.registry import format_spec

    params: dict[str, object] = {"width": width, "height": height}
    if tail_rule != "lenient":
        params["tail_rule"] = tail_rule
    if start_length != 1:
        params["start_length"] = start_length
    return format_spec("classic", params)


@app.command("play")
def play_cmd(
    agent: str = typer.Option("champion", "--agent", "-a", help="Agent name, e.g. hamilton."),
    width: int = typer.Option(12, "--width", "-W", help="Board columns."),
    height: int = typer.Option(12, "--height", "-H", help="Board rows."),
    seed: int = typer.Option(1, "--seed", "-s", help="Game seed."),
    speed: float = typer.Option(30.0, "--speed", min=0.0, help="Frames per second; 0 shows only the end."),
    tail_rule: str = typer.Option("lenient", "--tail-rule", help="lenient or strict."),
    start_length: int = typer.Option(1, "--start-length", help="Initial snake length."),
    replay: Path | None = typer.Option(None, "--replay", help="Write a replay file."),
) -> None:
    """Play one game live in the terminal and print the result."""
    from snakelab.core.registry import make, make_agent
    from snakelab.harness.match import play

    check_writable(replay)
    try:
        game = make(game_string(width, height, tail_rule, start_length))
        ref = agent_ref(agent)
        ag = make_agent(ref)
        with LiveView("classic", speed) as view:
            res = play(game, [ag], seed, agent_names=[ref], replay=replay, on_step=view)
    except SnakelabError as exc:
        fail(str(exc))
    for note in res.notices:
        console.print(f"[yellow]note:[/] {note}")
    d = res.outcome.details
    verdict = "[bold green]WON[/]" if d["won"] else f"[bold red]LOST ({res.outcome.termination.lower()})[/]"
    spa = f"{d['steps_per_apple']:.1f}" if d["steps_per_apple"] else "-"
    console.print(
        f"{verdict}  {game.info.name}  agent {ref}  seed {seed}: length {d['length']}/{width * height}, "
        f"{d['steps']} steps, {d['apples']} apples, {spa} steps per apple"
    )
    if replay is not None:
        console.print(f"replay written to {replay}")


def summarise(agent: str, width: int, height: int, results: list[MatchResult], wall: float) -> dict[str, object]:
    """The bench figures of a list of classic results (the ``--json`` object)."""
    n = len(results)
    steps = [r.steps for r in results]
    wins = sum(1 for r in results if r.outcome.details["won"])
    apples = sum(r.outcome.details["apples"] for r in results)
    won_steps = [r.steps for r in results if r.outcome.details["won"]]
    return {
        "agent": agent,
        "width": width,
        "height": height,
        "games": n,
        "wins": wins,
        "win_rate": wins / n if n else 0.0,
        "mean_steps": sum(steps) / n if n else 0.0,
        "mean_steps_won": sum(won_steps) / len(won_steps) if won_steps else None,
        "max_steps": max(steps) if steps else 0,
        "mean_steps_per_apple": sum(steps) / apples if apples else None,
        "steps_per_second": sum(steps) / wall if wall > 0 else None,
    }


@dataclass(frozen=True)
class BenchOptions:
    """``classic bench``'s options: the agent, the board and how the games run."""

    agent: Annotated[
        list[str],
        typer.Option(
            "--agent", "-a", help="Agent name, e.g. hamilton; repeat it or give a comma list to compare agents."
        ),
    ]
    width: Annotated[int, typer.Option("--width", "-W", help="Board columns.")] = 12
    height: Annotated[int, typer.Option("--height", "-H", help="Board rows.")] = 12
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = 100
    seed: Annotated[int, typer.Option("--seed", "-s", help="Run seed (per-game seeds derive from it).")] = 1
    tail_rule: Annotated[str, typer.Option("--tail-rule", help="lenient or strict.")] = "lenient"
    start_length: Annotated[int, typer.Option("--start-length", help="Initial snake length.")] = 1
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (0: all cores).")] = 0
    executor: Annotated[str | None, typer.Option("--executor", help=EXECUTOR_HELP)] = None
    resume: Annotated[
        str | None, typer.Option("--resume", help="Continue a stored run (see snakelab results list).")
    ] = None
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (a list for several agents).")] = False
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Save a PNG of steps per apple against fill fraction.")
    ] = None


@app.command("bench")
@options_command(BenchOptions)
def bench_cmd(ctx: typer.Context, o: BenchOptions) -> None:
    """Play many games in parallel; summarise win rate, steps and steps per apple by fill."""
    del ctx  # the options are all it reads
    agent, width, height, games, seed, tail_rule, start_length, jobs, executor, resume, as_json, plot = (
        o.agent,
        o.width,
        o.height,
        o.games,
        o.seed,
        o.tail_rule,
        o.start_length,
        o.jobs,
        o.executor,
        o.resume,
        o.as_json,
        o.plot,
    )
    from snakelab.analysis.classic import fill_table, plot_fill
    from snakelab.core.registry import make, make_agent
    from snakelab.harness.match import MatchSpec
    from snakelab.harness.run import match_seeds

    check_writable(plot)
    if games < 1:
        fail("--games must be ≥ 1")
    refs = [agent_ref(a.strip()) for item in agent for a in item.split(",") if a.strip()]
    if not refs:
        fail("give at least one --agent")
    if resume is not None and len(refs) > 1:
        fail("--resume continues one stored run: give the single --agent of that run")
    summaries: list[dict[str, object]] = []
    fills: dict[str, list[dict[str, float]]] = {}
    notices: set[str] = set()
    try:
        gstr = game_string(width, height, tail_rule, start_length)
        make(gstr)  # validate before starting workers
        for ref in refs:
            make_agent(ref)
        for ref in refs:
            specs = [MatchSpec(gstr, (ref,), s, index=i) for i, s in enumerate(match_seeds(seed, games))]
            t0 = time.perf_counter()
            results = run_matches(
                specs, f"{ref} on {width}×{height}", executor=executor, jobs=jobs, resume=resume, run_seed=seed
            )
            wall = time.perf_counter() - t0
            summary = summarise(ref, width, height, results, wall)
            fills[ref] = fill_table(results, start_length, width * height)
            summary["steps_per_apple_by_fill"] = [
                {k: (None if math.isnan(v) else v) for k, v in row.items()}  # NaN -> null in JSON
                for row in fills[ref]
            ]
            summaries.append(summary)
            notices.update(n for r in results for n in r.notices)
    except SnakelabError as exc:
        fail(str(exc))
    if plot is not None:
        try:
            plot_fill(fills, f"{gstr}, {games} games per agent, seed {seed}", plot)
        except OSError as exc:
            fail(f"cannot write the plot to {plot}: {exc}")
    if as_json:
        print_json(summaries[0] if len(summaries) == 1 else summaries)
        return
    from rich.table import Table

    for summary in summaries:
        table = Table(title=f"{summary['agent']} on {gstr}, {games} games, seed {seed}")
        table.add_column("figure")
        table.add_column("value", justify="right")
        for key, value in summary.items():
            if key == "steps_per_apple_by_fill":
                continue
            table.add_row(key, f"{value:,.3f}" if isinstance(value, float) else str(value))
        console.print(table)
    fill = Table(title="steps per apple by fill fraction")
    fill.add_column("fill")
    for ref in refs:
        fill.add_column(ref, justify="right")
    for b, row in enumerate(fills[refs[0]]):
        cells = []
        for ref in refs:
            r = fills[ref][b]
            cells.append(f"{r['steps_per_apple']:,.1f}" if r["apples"] else "-")
        fill.add_row(f"{row['lo']:.0%}–{row['hi']:.0%}", *cells)
    console.print(fill)
    if plot is not None:
        console.print(f"plot written to {plot}")
    for note in sorted(notices):
        console.print(f"[yellow]note:[/] {note}")
