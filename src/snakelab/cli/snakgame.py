"""``snakelab snakgame``: play, judge contest programs, speak the protocol, benchmark."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from snakelab.cli._grammar import game_of, refuse_given
from snakelab.cli.common import EXECUTOR_HELP, LiveView, check_writable, console, fail, print_json, run_matches
from snakelab.core.errors import SnakelabError

if TYPE_CHECKING:
    from snakelab.harness.match import MatchResult, MatchSpec

NAME = "snakgame"
app = typer.Typer(
    help="CodeChef SNAKGAME against Chef: play, judge any program, stdio client, benchmark.",
    no_args_is_help=True,
)

#: Grids up to this many cells are drawn live and get a state in every replay line.
LIVE_CELLS = 40 * 60


def agent_ref(name: str) -> str:
    """Accept ``champion`` as well as ``snakgame.champion``."""
    return name if name.startswith("snakgame.") else f"snakgame.{name}"


def game_string(file_type: int, rows: int | None, cols: int | None, game: str | None) -> str:
    """The game string for the options: ``--game`` as given, a custom grid, or a contest type."""
    from snakelab.core.registry import format_spec

    if game is not None:
        return game
    if rows is not None or cols is not None:
        return format_spec("snakgame", {"type": 0, "rows": rows or 20, "cols": cols or 30})
    return format_spec("snakgame", {"type": file_type})


def _grid_options(ctx: typer.Context, game: str | None, rows: int | None, cols: int | None) -> None:
    """Refuse grid options that another option overrides (each option has one meaning)."""
    if game is not None:
        refuse_given(ctx, ["file_type", "rows", "cols"], "--game gives the whole game; put the grid in its string")
    elif rows is not None or cols is not None:
        refuse_given(
            ctx, ["file_type"], "--rows and --cols make a custom grid (type 0); leave them out for a contest file"
        )


@app.command("play")
def play_cmd(
    ctx: typer.Context,
    agent: str = typer.Option("champion", "--agent", "-a", help="Agent name, e.g. editorial."),
    file_type: int = typer.Option(1, "--type", "-t", help="Contest file type: 1 (200..300) or 2 (500..600)."),
    rows: int | None = typer.Option(None, "--rows", help="A custom grid of this many rows instead."),
    cols: int | None = typer.Option(None, "--cols", help="A custom grid of this many columns instead."),
    game: str | None = typer.Option(None, "--game", help="A full game string, e.g. 'snakgame(type=0,rows=9,cols=9)'."),
    seed: int = typer.Option(1, "--seed", "-s", help="Game seed (grid and Chef)."),
    speed: float = typer.Option(
        20.0, "--speed", min=0.0, help="Frames per second on small grids; 0 shows only the end."
    ),
    replay: Path | None = typer.Option(None, "--replay", help="Write a replay file."),
) -> None:
    """Play one game in-process: live on small grids, a final picture on large ones.

    The grid is a contest file (``--type``), a custom grid (``--rows``/``--cols``) or a
    full game string (``--game``): one of the three.
    """
    from snakelab.core.registry import make_agent
    from snakelab.games.snakgame.rules import State
    from snakelab.harness.match import play

    check_writable(replay)
    try:
        _grid_options(ctx, game, rows, cols)
        g = game_of("snakgame", game_string(file_type, rows, cols, game))
        ref = agent_ref(agent)
        ag = make_agent(ref)
        first = g.new_state(seed)
        small = not isinstance(first, State) or first.n * first.m <= LIVE_CELLS
        if not small:
            refuse_given(ctx, ["speed"], f"grids over {LIVE_CELLS:,} cells are drawn once, at the end")
        every = 1 if small else 0
        with LiveView("snakgame", speed if small else 0) as view:
            res = play(g, [ag], seed, agent_names=[ref], replay=replay, state_every=every, on_step=view)
    except SnakelabError as exc:
        fail(str(exc))
    d = res.outcome.details
    console.print(
        f"[bold]score {d['score']:,}[/]  {g.info.name} seed {seed}, {d['rows']}×{d['cols']}: agent {ref}, "
        f"{d['snakes']} snakes, first {d['first']}, longest {d['longest']}, {d['mine']} cells yours, "
        f"{d['chef_cells']} Chef's, {res.wall_s:.1f} s"
    )
    if replay is not None:
        console.print(f"replay written to {replay}")


@app.command("judge")
def judge_cmd(
    ctx: typer.Context,
    command: list[str] = typer.Argument(..., help="The program to judge and its arguments (after --)."),
    file_type: int = typer.Option(1, "--type", "-t", help="Contest file type: 1 (200..300) or 2 (500..600)."),
    seed: int = typer.Option(1, "--seed", "-s", help="File seed (grid and Chef)."),
    time_limit: float | None = typer.Option(
        None,
        "--time-limit",
        help="CPU seconds of the program (its processes together), as on CodeChef (the contest's was 4); default none.",
    ),
    wall_limit: float | None = typer.Option(
        None,
        "--wall-limit",
        help="Wall-clock seconds to wait for the program's lines in all (default: 10 × --time-limit; none without it).",
    ),
    game: str | None = typer.Option(None, "--game", help="A full game string instead of --type."),
    replay: Path | None = typer.Option(None, "--replay", help="Write a replay of the judged game."),
    show: bool = typer.Option(False, "--show", help="Draw the final grid."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Run any contest program against Chef over stdin/stdout and print its score and time.

    Example: ``snakelab snakgame judge --type 1 --seed 3 -- ./a.out``. An illegal or
    unreadable move, a time-out or a crash ends the file (score 0) with a message; the
    exit code is then 1.
    """
    from snakelab.games.snakgame.rules import Game

    check_writable(replay)
    from snakelab.harness.snakgame_judge import run_judge

    try:
        _grid_options(ctx, game, None, None)
        g = game_of("snakgame", game_string(file_type, None, None, game))
        if not isinstance(g, Game):
            fail(f"{g.info.name} is not a snakgame")
        if time_limit is not None and time_limit <= 0:
            fail("--time-limit must be > 0")
        if wall_limit is not None and wall_limit <= 0:
            fail("--wall-limit must be > 0")
        rep = run_judge(g, seed, command, time_limit=time_limit, wall_limit=wall_limit, replay=replay)
    except SnakelabError as exc:
        fail(str(exc))
    if as_json:
        print_json({"game": g.info.name, "seed": seed, "command": list(command), **rep.to_json()})
    else:
        line = (
            f"{rep.verdict}  {g.info.name} seed {seed}, {rep.rows}×{rep.cols}: score {rep.score:,}  "
            f"moves {rep.moves:,}  CPU {rep.cpu_s:.2f} s"
            + (f" of {rep.cpu_limit_s:g}" if rep.cpu_limit_s is not None else "")
            + f", wall {rep.wall_s:.2f} s ({rep.player_s:.2f} s waiting for the program)"
        )
        console.print(line, highlight=False, markup=False)
        if rep.message:
            console.print(f"{rep.verdict}: {rep.message} (score so far {rep.score_so_far:,})", markup=False)
        if show and rep.state is not None:
            from snakelab.games.snakgame.render import to_rich

            console.print(to_rich(rep.state))
        if replay is not None:
            console.print(f"replay written to {replay}")
    if rep.verdict != "OK":
        raise typer.Exit(1)


@app.command("client", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def client_cmd(ctx: typer.Context) -> None:
    """Speak the contest protocol on stdin/stdout: the lean contest program (``--help`` for its options).

    ``snakelab snakgame client`` reaches :func:`snakelab.games.snakgame.contest.main`
    before this command line is even loaded (see :func:`snakelab.cli.main`); this verb
    is the same program for callers that run the app in-process.
    """
    from snakelab.games.snakgame.contest import main as contest_main

    code = contest_main(list(ctx.args))
    if code:
        raise typer.Exit(code)


@app.command("replay")
def replay_cmd(
    file: Path = typer.Argument(..., help="A snakgame replay file."),
    step: int | None = typer.Option(None, "--step", "-s", help="Show the grid after this many moves (default: end)."),
) -> None:
    """Show one position of a (possibly huge) snakgame replay, re-simulated without keeping frames."""
    from snakelab.core.replay import read_replay, states
    from snakelab.games.snakgame.render import to_rich
    from snakelab.games.snakgame.rules import State

    try:
        rep = read_replay(file)
        if not rep.game.startswith("snakgame"):
            fail(f"{file} is a {rep.game} replay, not a snakgame one")
        last = len(rep.steps)
        want = last if step is None else step
        if not 0 <= want <= last:
            fail(f"step {want} is out of range 0..{last}")
        for i, (st, _) in enumerate(states(rep)):
            if i == want:
                assert isinstance(st, State)
                console.print(to_rich(st))
                console.print(f"[bold]step {i}/{last}[/]")
                break
    except SnakelabError as exc:
        fail(str(exc))


def bench_specs(agent: str, files: int, seed: int, game: str | None) -> list[MatchSpec]:
    """The matches of a bench: file i has seed ``match_seeds(seed, files)[i]``.

    The first half of the files are type 1 and the rest type 2, unless ``game`` fixes the game.
    """
    from snakelab.core.registry import format_spec
    from snakelab.harness.match import MatchSpec
    from snakelab.harness.run import match_seeds

    seeds = match_seeds(seed, files)
    specs = []
    for i, s in enumerate(seeds):
        g = game if game is not None else format_spec("snakgame", {"type": 1 if i < files // 2 else 2})
        specs.append(MatchSpec(g, (agent,), s, index=i))
    return specs


@app.command("bench")
def bench_cmd(
    agent: str = typer.Option(..., "--agent", "-a", help="Agent name, e.g. champion."),
    files: int = typer.Option(20, "--files", "-n", help="Test files: the first half type 1, the rest type 2."),
    seed: int = typer.Option(1, "--seed", "-s", help="Run seed (file seeds derive from it)."),
    game: str | None = typer.Option(None, "--game", help="Play every file on this game string instead."),
    judged: bool = typer.Option(
        True,
        "--judged/--in-process",
        help="Play each file as a contest program through the judge, with --time-limit CPU seconds "
        "(the default), or in-process without a time limit.",
    ),
    time_limit: float = typer.Option(
        4.0, "--time-limit", help="Judged files: CPU seconds of the program per file (the contest's: 4)."
    ),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Worker processes (0: all cores)."),
    executor: str | None = typer.Option(None, "--executor", help=EXECUTOR_HELP),
    resume: str | None = typer.Option(None, "--resume", help="Continue a stored run (its id)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
) -> None:
    """Play the seeded test files and compare the total with ``editorial`` on the same files.

    By default each file is judged as the contest judged it: the agent's contest program
    (``snakelab snakgame client``) runs through the judge with ``--time-limit`` CPU
    seconds, and a file scores 0 unless its verdict is OK. The editorial's figure is its
    in-process score on the same file (no time limit). ``--in-process`` plays the agent
    in-process too.
    """
    from snakelab.core.registry import make_agent
    from snakelab.harness.match import MatchSpec
    from snakelab.harness.snakgame_judge import judged_seat, play_bench_match

    if files < 1:
        fail("--files must be ≥ 1")
    if time_limit <= 0:
        fail("--time-limit must be > 0")
    try:
        ref = agent_ref(agent)
        make_agent(ref)
        if game is not None:
            game_of("snakgame", game)
        base = "snakgame.editorial"
        seat = judged_seat(ref, time_limit) if judged else ref
        mine = bench_specs(seat, files, seed, game)
        specs = list(mine)
        if seat != base:
            specs += [MatchSpec(s.game, (base,), s.seed, index=files + i) for i, s in enumerate(mine)]
        # Longest files first, so the pool is not left waiting on one big file at the end.
        order = sorted(range(len(specs)), key=lambda i: -("type=2" in specs[i].game))
        t0 = time.perf_counter()
        results = run_matches(
            [specs[i] for i in order],
            f"snakgame {seat} on {files} files",
            executor=executor,
            jobs=jobs,
            resume=resume,
            run_seed=seed,
            play=play_bench_match if judged else None,
        )
        wall = time.perf_counter() - t0
    except SnakelabError as exc:
        fail(str(exc))
    by_index: dict[int, MatchResult] = {specs[i].index: r for i, r in zip(order, results, strict=True)}
    summary = summarise(seat, files, by_index, seat == base)
    if judged:
        summary["time_limit_s"] = time_limit
    if as_json:
        print_json(summary)
        return
    from rich.table import Table

    table = Table(title=f"{seat} on {files} files, seed {seed} ({wall:.0f} s)")
    cols = ["file", "game", "grid"] + (["verdict"] if judged else [])
    cols += ["score", "editorial", "ratio", "CPU s" if judged else "seconds", "first snake", "snakes"]
    for col in cols:
        table.add_column(col, justify="left" if col in ("game", "verdict") else "right")
    for row in summary["per_file"]:  # type: ignore[attr-defined]
        cells = [str(row["file"]), row["game"], f"{row['rows']}×{row['cols']}"]
        cells += [row["verdict"]] if judged else []
        cells += [
            f"{row['score']:,}",
            f"{row['editorial']:,}",
            f"{row['score'] / row['editorial']:.2f}" if row["editorial"] else "-",
            f"{row['cpu_s']:.2f}" if judged else f"{row['seconds']:.1f}",
            str(row["first"]),
            str(row["snakes"]),
        ]
        table.add_row(*cells)
    console.print(table)
    ratio = summary["ratio_to_editorial"]
    line = f"[bold]total {summary['total']:,}[/]  ratio to editorial " + (
        f"{ratio:.3f}" if isinstance(ratio, float) else "-"
    )
    if judged:
        line += f"  ({summary['ok']} of {files} files judged OK, {time_limit:g} s CPU limit)"
    console.print(line)


def summarise(agent: str, files: int, by_index: dict[int, MatchResult], is_base: bool) -> dict[str, object]:
    """The bench figures (the ``--json`` object: agent, files, total, per_file, ratio_to_editorial, ok).

    Judged files add ``verdict`` and ``cpu_s`` (the program's CPU seconds) per file, and
    ``ok`` counts the files judged OK (in-process files all count).
    """
    per_file = []
    total = 0
    base_total = 0
    ok = 0
    for i in range(files):
        r = by_index[i]
        b = r if is_base else by_index[files + i]
        d = r.outcome.details
        score = int(d["score"])
        base = int(b.outcome.details["score"])
        total += score
        base_total += base
        verdict = str(d.get("verdict", "OK"))
        ok += verdict == "OK"
        row: dict[str, object] = {
            "file": i,
            "game": r.game,
            "seed": r.seed,
            "rows": d["rows"],
            "cols": d["cols"],
            "score": score,
            "editorial": base,
            "first": d["first"],
            "longest": d["longest"],
            "snakes": d["snakes"],
            "seconds": round(r.wall_s, 2),
        }
        if "verdict" in d:
            row.update(verdict=verdict, cpu_s=d["cpu_s"], message=d.get("message"))
        per_file.append(row)
    return {
        "agent": agent,
        "files": files,
        "total": total,
        "per_file": per_file,
        "ratio_to_editorial": total / base_total if base_total else None,
        "ok": ok,
    }
