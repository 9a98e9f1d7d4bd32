"""``snakelab blind``: watch a walk, bench strategies, exact cover times, the exhaustive sweep.

``play`` is one game watched: the snake walks its strategy on one torus until it finds
the apple (start and apple drawn from the seed). ``bench`` plays many games (random tori
up to an area, or one torus) through the shared runner (statistics, the results store,
``--resume``). The exact figures of the field (a strategy's worst case over every apple
position) come from ``cover`` (one torus) and ``sweep`` (every torus up to an area).

Why one module over 400 lines: these are the verbs of one command group, sharing the
strategy options and their checks; split, each verb's file would import the others'.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from snakelab.cli._grammar import interrupt_code, options_command, refuse_given
from snakelab.cli.common import (
    EXECUTOR_HELP,
    LiveView,
    check_writable,
    console,
    err_console,
    fail,
    print_json,
    progress_bar,
    run_matches,
)
from snakelab.core.errors import ConfigError, SnakelabError

NAME = "blind"
app = typer.Typer(
    help="The blind snake on an unknown torus: watch a walk, bench, exact cover times, sweeps and their plots.",
    no_args_is_help=True,
)

STRATEGY_HELP = "Strategy: spiral, zigzag, dynamic-zigzag, champion (or NAME(k=...)); default champion."
K_HELP = "Parameter k of dynamic-zigzag (refused if the strategy string gives k too)."
MOVES_HELP = (
    "A move file (letters R, L, U, D in either case; spaces and line breaks ignored) instead of a "
    "strategy; refused together with --strategy or --k."
)


def _strategy(name: str | None, k: int | None, moves: Path | None = None) -> Any:
    """The strategy the options name; two options that say different things are refused.

    Raises:
        ConfigError: for ``--moves`` with ``--strategy`` or ``--k``, or ``--k`` with a
            strategy string that sets ``k`` itself.
    """
    from snakelab.core.registry import parse_spec
    from snakelab.games.blind.strategies import FileStrategy, make_strategy

    if moves is not None:
        if name is not None or k is not None:
            given = "--strategy" if name is not None else "--k"
            raise ConfigError(f"--moves and {given} both say what to walk: give one of them")
        return FileStrategy(moves)
    spec = name if name is not None else "champion"
    if k is not None and "k" in parse_spec(spec)[1]:
        raise ConfigError(f"--k {k} and {spec!r} both set k: give it once")
    return make_strategy(spec, k=k)


def _ran_out(strat: Any, needed: int) -> int | None:
    """The number of moves of a move file that ends before ``needed`` moves, else None."""
    from snakelab.games.blind.strategies import FileStrategy

    if isinstance(strat, FileStrategy) and len(strat) < needed:
        return len(strat)
    return None


def _agent(strategy: str, k: int | None) -> str:
    """The agent string of a strategy (``blind.dynamic-zigzag(k=11)``), validated."""
    from snakelab.core.registry import make_agent

    ref = f"blind.{_strategy(strategy, k).spec}"
    make_agent(ref)
    return ref


@app.command("play")
def play_cmd(
    strategy: str = typer.Option("champion", "--strategy", "-s", help=STRATEGY_HELP),
    k: int | None = typer.Option(None, "--k", help=K_HELP),
    width: int = typer.Option(12, "--width", "-W", help="A, columns of the torus."),
    height: int = typer.Option(8, "--height", "-H", help="B, rows of the torus."),
    seed: int = typer.Option(1, "--seed", help="Game seed (with --seeded-apple: draws the start and the apple)."),
    seeded_apple: bool = typer.Option(
        False, "--seeded-apple", help="Draw start and apple from the seed instead of watching the whole cover walk."
    ),
    speed: float = typer.Option(30.0, "--speed", min=0.0, help="Frames per second; 0 shows only the end."),
    replay: Path | None = typer.Option(None, "--replay", help="Write a replay file."),
) -> None:
    """Watch one cover walk: the snake follows its strategy on one torus until every cell is visited.

    The apple is put on the cell the walk visits last, so the game lasts exactly the
    strategy's cover time on this torus (the same from every start: a torus looks the
    same from each cell). With ``--seeded-apple`` start and apple are drawn from the
    seed instead, and the walk ends where it finds that apple.
    """
    check_writable(replay)
    from snakelab.core.registry import format_spec, make
    from snakelab.harness.match import play

    try:
        ref = _agent(strategy, k)
        params: dict[str, object] = {"width": width, "height": height}
        if not seeded_apple:
            x, y = _last_cell(_strategy(strategy, k), width, height)
            params.update(start_x=0, start_y=0, apple_x=x, apple_y=y)
        game = make(format_spec("blind", params))
        with LiveView("blind", speed) as view:
            res = play(game, [_make_agent(ref)], seed, agent_names=[ref], replay=replay, on_step=view)
    except SnakelabError as exc:
        fail(str(exc))
    d = res.outcome.details
    if not d["found"]:
        verdict = f"did not find the apple ({res.outcome.termination.lower()})"
    else:
        verdict = "found the apple" if seeded_apple else "visited every cell"
    console.print(
        f"{ref} on {width}×{height}, seed {seed}: {verdict} after {d['steps']:,} moves = {d['ratio']:.3f}·S",
        highlight=False,
    )
    if replay is not None:
        console.print(f"replay written to {replay}")


def _last_cell(strat: Any, width: int, height: int) -> tuple[int, int]:
    """The cell a strategy's walk from (0, 0) visits last on a torus (its cover time's cell).

    Raises:
        ConfigError: if the walk does not cover the torus within 35·S moves.
    """
    from snakelab.core.errors import ConfigError
    from snakelab.games.blind.evaluate import check_grid
    from snakelab.games.blind.strategies import letters

    check_grid(width, height)
    size = width * height
    seen = bytearray(size)
    seen[0] = 1
    left, x, y = size - 1, 0, 0
    step = {"R": (1, 0), "L": (-1, 0), "D": (0, 1), "U": (0, -1)}
    for ch in letters(strat.moves_array(35 * size)):
        dx, dy = step[ch]
        x, y = (x + dx) % width, (y + dy) % height
        if not seen[y * width + x]:
            seen[y * width + x] = 1
            left -= 1
            if left == 0:
                return x, y
    raise ConfigError(f"{strat.spec} does not cover {width}×{height} within 35·S moves: add --seeded-apple to watch it")


def _make_agent(ref: str) -> Any:
    from snakelab.core.registry import make_agent

    return make_agent(ref)


def random_tori(max_area: int, seeds: list[int]) -> list[tuple[int, int]]:
    """One torus per seed, uniform over the ordered grids A×B with 2 ≤ A·B ≤ ``max_area``.

    The same population as ``sweep --max-area``; each torus comes from its game seed,
    so a resumed bench plans the same games.
    """
    import numpy as np

    from snakelab.core.rng import derive_seed

    a = np.arange(1, max_area + 1)
    counts = max_area // a
    counts[0] -= 1  # no 1×1
    ends = np.cumsum(counts)
    tori = []
    for s in seeds:
        r = int(np.random.default_rng(derive_seed(s, "torus")).integers(int(ends[-1])))
        i = int(np.searchsorted(ends, r, side="right"))
        b = r - (int(ends[i - 1]) if i else 0) + (2 if i == 0 else 1)
        tori.append((i + 1, b))
    return tori


@dataclass(frozen=True)
class BenchOptions:
    """``blind bench``'s options: the strategy, the tori and how the games run."""

    strategy: Annotated[str, typer.Option("--strategy", "-s", help=STRATEGY_HELP)] = "champion"
    k: Annotated[int | None, typer.Option("--k", help=K_HELP)] = None
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = 200
    max_area: Annotated[
        int, typer.Option("--max-area", "-N", help="Each game on a random torus A×B with A·B ≤ N (the sweep's grids).")
    ] = 10_000
    width: Annotated[int | None, typer.Option("--width", "-W", help="Play every game on this torus (with -H).")] = None
    height: Annotated[int | None, typer.Option("--height", "-H", help="Rows of that torus (with -W).")] = None
    seed: Annotated[
        int, typer.Option("--seed", help="Run seed (per-game seeds, tori, starts and apples derive from it).")
    ] = 1
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (0: all cores).")] = 0
    executor: Annotated[str | None, typer.Option("--executor", help=EXECUTOR_HELP)] = None
    resume: Annotated[
        str | None, typer.Option("--resume", help="Continue a stored run (see snakelab results list).")
    ] = None
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False


@app.command("bench")
@options_command(BenchOptions)
def bench_cmd(ctx: typer.Context, o: BenchOptions) -> None:
    """Play many games of one strategy: moves to find the apple, as a multiple of S = A·B.

    Each game is a random torus (``--max-area``) or one torus (``-W`` and ``-H``), with
    start and apple drawn from the game seed. Games are stored and resumable like
    every bench. These are sampled games; the exact worst case is ``cover`` / ``sweep``.
    """
    strategy, k, games, max_area, width, height, seed, jobs, executor, resume, as_json = (
        o.strategy,
        o.k,
        o.games,
        o.max_area,
        o.width,
        o.height,
        o.seed,
        o.jobs,
        o.executor,
        o.resume,
        o.as_json,
    )
    from snakelab.core.registry import format_spec
    from snakelab.games.blind.rules import MAX_AREA
    from snakelab.harness.match import MatchSpec
    from snakelab.harness.run import match_seeds

    if games < 1:
        fail("--games must be ≥ 1")
    try:
        if (width is None) != (height is None):
            fail("give both --width and --height, or neither (random tori up to --max-area)")
        if width is not None:
            refuse_given(ctx, ["max_area"], "-W and -H fix the torus of every game")
        elif not 2 <= max_area <= MAX_AREA:
            fail(f"--max-area must be between 2 and {MAX_AREA:,}")
        ref = _agent(strategy, k)
        seeds = match_seeds(seed, games)
        tori = [(width, height)] * games if width is not None and height is not None else random_tori(max_area, seeds)
        specs = [
            MatchSpec(format_spec("blind", {"width": a, "height": b}), (ref,), s, index=i)
            for i, ((a, b), s) in enumerate(zip(tori, seeds, strict=True))
        ]
        where = f"{width}×{height}" if width is not None else f"tori A·B ≤ {max_area:,}"
        results = run_matches(specs, f"{ref} on {where}", executor=executor, jobs=jobs, resume=resume, run_seed=seed)
    except SnakelabError as exc:
        fail(str(exc))
    ratios = [r.outcome.details["ratio"] for r in results]
    found = sum(1 for r in results if r.outcome.details["found"])
    worst = max(range(len(results)), key=lambda i: ratios[i])
    summary = {
        "strategy": ref.removeprefix("blind."),
        "games": len(results),
        "found": found,
        "mean_ratio": sum(ratios) / len(ratios),
        "max_ratio": ratios[worst],
        "max_grid": list(tori[worst]),
        "mean_steps": sum(r.outcome.details["steps"] for r in results) / len(results),
    }
    if as_json:
        print_json(summary)
        return
    a, b = tori[worst]
    console.print(
        f"{ref} on {where}, {len(results)} games, seed {seed}: apple found in {found}; "
        f"moves / S mean {summary['mean_ratio']:.3f}, max {summary['max_ratio']:.3f} (at {a}×{b})",
        highlight=False,
    )


@app.command("cover")
def cover_cmd(
    strategy: str | None = typer.Option(None, "--strategy", "-s", help=STRATEGY_HELP),
    k: int | None = typer.Option(None, "--k", help=K_HELP),
    width: int = typer.Option(..., "--width", "-W", help="A, columns of the torus."),
    height: int = typer.Option(..., "--height", "-H", help="B, rows of the torus."),
    moves: Path | None = typer.Option(None, "--moves", help=MOVES_HELP),
    cap_ratio: float = typer.Option(35.0, "--cap-ratio", help="Give up after this many times S moves."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Exact cover time of a strategy on one torus (moves until every cell is visited).

    A move file that ends before every cell is visited (and before the cap) leaves the
    cover undecided: that is an error (exit 1) naming how many moves the file held.
    """
    from snakelab.games.blind.evaluate import RunTable, check_grid, fast_covers

    try:
        check_grid(width, height)
        if not cap_ratio > 0:
            fail("--cap-ratio must be > 0")
        strat = _strategy(strategy, k, moves)
        size = width * height
        table = RunTable(strat.moves_array(int(cap_ratio * size) + 1))
        cover = int(fast_covers(table, [width], [height], cap_ratio)[0])
    except SnakelabError as exc:
        fail(str(exc))
    short = _ran_out(strat, int(cap_ratio * size))
    if cover < 0 and short is not None:
        fail(
            f"move file {moves} ran out after {short:,} moves with cells of the {width}×{height} torus "
            f"still unvisited: the cover is not decided (the cap is {int(cap_ratio * size):,} moves)",
            code=1,
        )
    result = {
        "strategy": strat.spec,
        "width": width,
        "height": height,
        "cover": cover if cover >= 0 else None,
        "ratio": cover / size if cover >= 0 else None,
    }
    if as_json:
        print_json(result)
    elif cover >= 0:
        console.print(
            f"{strat.spec} on {width}×{height}: every cell visited after {cover:,} moves = {cover / size:.4f}·S"
        )
    else:
        console.print(f"{strat.spec} on {width}×{height}: [red]not covered[/] within {cap_ratio:g}·S moves")


@dataclass(frozen=True, kw_only=True)
class SweepOptions:
    """``blind sweep``'s options: the strategy, the grids, the map and the report."""

    strategy: Annotated[str | None, typer.Option("--strategy", "-s", help=STRATEGY_HELP)] = None
    k: Annotated[int | None, typer.Option("--k", help=K_HELP)] = None
    max_area: Annotated[int, typer.Option("--max-area", "-N", help="Every ordered grid A×B with A·B ≤ N.")]
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (0: all cores; 1: in this process).")] = 0
    executor: Annotated[str | None, typer.Option("--executor", help=EXECUTOR_HELP)] = None
    cap_ratio: Annotated[
        float, typer.Option("--cap-ratio", help="Give up on a grid after this many times S moves.")
    ] = 35.0
    checkpoint: Annotated[
        Path | None,
        typer.Option("--checkpoint", help="File of finished chunks (default: a file under ~/.cache/snakelab/blind)."),
    ] = None
    fresh: Annotated[bool, typer.Option("--fresh", help="Ignore (and replace) an existing checkpoint.")] = False
    no_checkpoint: Annotated[bool, typer.Option("--no-checkpoint", help="Keep no checkpoint at all.")] = False
    chunks: Annotated[int, typer.Option("--chunks", help="Number of work chunks (0: default).")] = 0
    top: Annotated[int, typer.Option("--top", help="Worst grids to list in the table view.")] = 10
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Print one JSON object: strategy, max_area, grids, worst_ratio, worst_grid, mean_ratio."
        ),
    ] = False
    details: Annotated[
        bool,
        typer.Option(
            "--details", help="With --json: add uncovered, bands, histogram, worst grids, ratio map and wall_s."
        ),
    ] = False
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot", help="Also save a PNG: ratio map over A and B, worst and mean per band of S, histogram."
        ),
    ] = None


@app.command("sweep")
@options_command(SweepOptions)
def sweep_cmd(ctx: typer.Context, o: SweepOptions) -> None:
    """Exact worst cover ratio over every grid A·B ≤ N (resumable: Ctrl-C keeps finished chunks).

    A move file (``-s 'file(path=...)'``) with no moves is refused; one that runs out before
    the cap on some grid leaves those grids undecided: the figures are printed, then an
    error (exit 1) says how many moves the file held.
    """
    (
        strategy,
        k,
        max_area,
        jobs,
        executor,
        cap_ratio,
        checkpoint,
        fresh,
        no_checkpoint,
        chunks,
        top,
        as_json,
        details,
        plot,
    ) = (
        o.strategy,
        o.k,
        o.max_area,
        o.jobs,
        o.executor,
        o.cap_ratio,
        o.checkpoint,
        o.fresh,
        o.no_checkpoint,
        o.chunks,
        o.top,
        o.as_json,
        o.details,
        o.plot,
    )
    from snakelab.games.blind.sweep import check_options, count_grids, default_checkpoint, run_sweep
    from snakelab.harness.executors import make_executor
    from snakelab.harness.parallel import mapper, sigterm_as_interrupt

    try:
        if no_checkpoint:
            refuse_given(ctx, ["checkpoint", "fresh"], "--no-checkpoint keeps no checkpoint file")
        if as_json:
            refuse_given(ctx, ["top"], "--top sizes the table view; with --json add --details for the worst grids")
        else:
            refuse_given(ctx, ["details"], "--details adds to the --json report; the table view shows them already")
        check_options(max_area, cap_ratio, chunks, jobs)  # before --fresh deletes anything
        if plot is not None:
            from snakelab.analysis.blind import check_output

            check_output(plot)  # before minutes of sweeping
        strat = _strategy(strategy, k)
        spec = strat.spec
        ex = make_executor(executor, jobs)
        path = None if no_checkpoint else checkpoint or default_checkpoint(spec, max_area, cap_ratio)
        if path is not None and fresh and path.exists():
            path.unlink()
    except SnakelabError as exc:
        fail(str(exc))
    t0 = time.perf_counter()
    label = f"{spec}, {count_grids(max_area):,} grids"
    try:
        with sigterm_as_interrupt(), progress_bar(1, label) as prog:
            task = prog.task_ids[0]

            def started(total: int, done: int) -> None:
                prog.update(task, total=total, completed=done)

            res = run_sweep(
                spec,
                max_area,
                cap_ratio=cap_ratio,
                map_chunks=mapper(ex, jobs=jobs),
                checkpoint=path,
                chunks=chunks,
                on_start=started,
                on_chunk=lambda: prog.advance(task),
            )
    except KeyboardInterrupt as exc:
        where = f"; finished chunks are kept in {path}, run the same command to resume" if path else ""
        err_console.print(f"interrupted{where}")
        raise typer.Exit(interrupt_code(exc)) from None
    except SnakelabError as exc:
        fail(str(exc))
    finally:
        if ex is not None:
            ex.shutdown(cancel_futures=True)
    wall = time.perf_counter() - t0
    if as_json:
        keys = ["strategy", "max_area", "grids", "worst_ratio", "worst_grid", "mean_ratio"]
        out = {key: res[key] for key in keys}
        if details:
            extra = ("uncovered", "weighted_mean_ratio", "cap_ratio", "top", "bands", "histogram", "ratio_map")
            out.update({key: res[key] for key in extra})
            out["wall_s"] = round(wall, 2)
        print_json(out)
    else:
        _print_sweep(res, top, wall, path)
    if plot is not None:  # after the figures are out, so a failed plot loses nothing
        from snakelab.analysis.blind import plot_sweeps

        try:
            plot_sweeps([res], plot)
        except SnakelabError as exc:
            fail(str(exc))
        err_console.print(f"plot: {plot}")
    short = _ran_out(strat, int(cap_ratio * max_area))
    if short is not None and res["uncovered"]:
        fail(
            f"the move file ran out after {short:,} moves: {res['uncovered']:,} grids were not covered by then "
            f"or within {cap_ratio:g}·S, so their cover and the worst ratio are not decided",
            code=1,
        )


def _print_sweep(res: dict[str, Any], top: int, wall: float, path: Path | None) -> None:
    from rich.table import Table

    if res["uncovered"]:
        ex = ", ".join(f"{a}×{b}" for a, b in res["uncovered_examples"][:5])
        console.print(
            f"[red]{res['uncovered']:,} grids not covered within {res['cap_ratio']:g}·S[/] (e.g. {ex}); "
            f"worst covered ratio {res['worst_covered_ratio']:.4f}"
        )
    else:
        a, b = res["worst_grid"]
        console.print(
            f"[bold]{res['strategy']}[/], all {res['grids']:,} grids A·B ≤ {res['max_area']:,}: worst ratio "
            f"[bold]{res['worst_ratio']:.4f}[/] at {a}×{b}; mean {res['mean_ratio']:.3f}, "
            f"S-weighted mean {res['weighted_mean_ratio']:.3f}  ({wall:.1f} s)"
        )
    bands = Table("log10 S ≥", "S from", "grids", "max ratio", "at", "mean", "> 10", title="per band of S")
    for band in res["bands"]:
        at = f"{band['at'][0]}×{band['at'][1]}" if band["at"] else "-"
        mx = f"{band['max_ratio']:.3f}" if band["max_ratio"] is not None else "-"
        mean = f"{band['mean_ratio']:.3f}" if band["mean_ratio"] is not None else "-"
        bands.add_row(band["band"], f"{band['s_from']:,}", f"{band['grids']:,}", mx, at, mean, str(band["over_10"]))
    console.print(bands)
    worst = Table("grid", "S", "cover", "ratio", title=f"{min(top, len(res['top']))} worst grids")
    for t in res["top"][:top]:
        a, b = t["grid"]
        worst.add_row(f"{a}×{b}", f"{a * b:,}", f"{t['cover']:,}", f"{t['ratio']:.4f}")
    console.print(worst)
    if path is not None:
        console.print(f"checkpoint: {path}")


@app.command("sweep-plot")
def sweep_plot_cmd(
    reports: list[Path] = typer.Argument(..., help="Sweep reports (`blind sweep ... --json --details > FILE`)."),
    out: Path = typer.Option(..., "--out", "-o", help="PNG file to write."),
    title: str | None = typer.Option(None, "--title", help="Figure title (default: the grids swept)."),
) -> None:
    """Plot saved sweeps side by side: ratio maps over A and B, worst and mean per band of S, histograms."""
    from snakelab.analysis.blind import load_report, plot_sweeps

    try:
        loaded = [load_report(p) for p in reports]
        plot_sweeps(loaded, out, title)
    except SnakelabError as exc:
        fail(str(exc))
    console.print(f"wrote {out}")


@app.command("moves")
def moves_cmd(
    strategy: str | None = typer.Option(None, "--strategy", "-s", help=STRATEGY_HELP),
    k: int | None = typer.Option(None, "--k", help=K_HELP),
    count: int = typer.Option(35_000_000, "--count", "-n", help="Number of moves to write."),
    out: Path = typer.Option(..., "--out", "-o", help="Move file to write (one letter R/L/U/D per move)."),
    line_length: int = typer.Option(0, "--line-length", help="Letters per line (0: one line)."),
) -> None:
    """Write a strategy's first moves to a move file (the seed's generate_moves)."""
    from snakelab.games.blind.strategies import write_moves

    try:
        n = write_moves(out, _strategy(strategy, k), count, line_length=line_length)
    except SnakelabError as exc:
        fail(str(exc))
    console.print(f"wrote {n:,} moves to {out}")


@app.command("show")
def show_cmd(
    strategy: str | None = typer.Option(None, "--strategy", "-s", help=STRATEGY_HELP),
    k: int | None = typer.Option(None, "--k", help=K_HELP),
    width: int = typer.Option(..., "--width", "-W", help="A, columns of the torus."),
    height: int = typer.Option(..., "--height", "-H", help="B, rows of the torus."),
    moves: Path | None = typer.Option(None, "--moves", help=MOVES_HELP),
) -> None:
    """Trace view: the torus with every cell coloured by the move of its first visit (S ≤ 10^4)."""
    from snakelab.games.blind.render import trace

    try:
        text = trace(_strategy(strategy, k, moves), width, height)
    except SnakelabError as exc:
        fail(str(exc))
    console.print(text)
