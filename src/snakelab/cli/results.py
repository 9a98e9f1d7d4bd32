"""``snakelab results``: list, show and export stored runs; ratings across runs."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from snakelab.cli.common import console, err_console, fail, print_json
from snakelab.core.errors import SnakelabError

if TYPE_CHECKING:
    from snakelab.harness.match import MatchResult
    from snakelab.harness.ratings import AgentRating
    from snakelab.harness.store import Store

#: harness.store.STORE_ENV, written out: the help of these verbs loads no store code.
STORE_ENV = "SNAKELAB_STORE"

NAME = "results"
app = typer.Typer(
    help=(
        f"Stored runs (SQLite, in the user's data folder unless ${STORE_ENV} names a file or is off): "
        "list, show, export, ratings."
    ),
    no_args_is_help=True,
)

STORE_HELP = f"Results store file (default: ${STORE_ENV}, else results.sqlite in the user's data folder)."


def _open(store: Path | None) -> Store:
    """Open an existing store (reading never creates one)."""
    from snakelab.harness.store import STORE_ENV, default_store_path, open_store

    path = store if store is not None else default_store_path()
    if path is None:
        fail(f"the results store is disabled (${STORE_ENV}=off); give --store FILE")
    if not path.exists():
        fail(f"no results store at {path} yet: runs are stored there by benches and tournaments")
    try:
        db = open_store(path)
    except SnakelabError as exc:
        fail(str(exc))
    return db


def _status(done: int, planned: int, finished: str | None) -> str:
    return "done" if finished else f"{done}/{planned} (resumable)"


@app.command("list")
def list_cmd(
    store: Path | None = typer.Option(None, "--store", help=STORE_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """List every stored run, oldest first, after a line saying where the store is."""
    with _open(store) as db:
        runs = db.runs()
    if as_json:
        # Standard output stays pure JSON; the location goes to standard error.
        err_console.print(f"results store: {db.path}", soft_wrap=True, highlight=False)
        print_json([r.to_json() for r in runs])
        return
    from rich.table import Table

    # A plain line, not the table's title, so a narrow terminal cannot wrap the path.
    console.print(f"results store: {db.path}", soft_wrap=True, highlight=False)
    table = Table()
    for col in ("id", "created (UTC)", "what", "matches", "status"):
        table.add_column(col, justify="right" if col in ("id", "matches") else "left", overflow="fold")
    for r in runs:
        created = r.created.replace("T", " ")[:16]
        table.add_row(str(r.id), created, r.label, str(r.planned), _status(r.done, r.planned, r.finished))
    console.print(table)


@app.command("show")
def show_cmd(
    run_id: str = typer.Argument(..., help="Run id (see snakelab results list)."),
    store: Path | None = typer.Option(None, "--store", help=STORE_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
) -> None:
    """Show one run: what it was, and each agent's results with 95 % intervals."""
    from snakelab.harness.ratings import rate

    try:
        with _open(store) as db:
            info = db.run(run_id)
            results = list(db.results(info.id).values())
    except SnakelabError as exc:
        fail(str(exc))
    rows = rate(results)
    ends: dict[str, int] = {}
    for r in results:
        ends[r.outcome.termination] = ends.get(r.outcome.termination, 0) + 1
    if as_json:
        print_json({"run": info.to_json(), "agents": [row.to_json() for row in rows], "terminations": ends})
        return
    console.print(f"[bold]run {info.id}[/]: {info.label}")
    console.print(f"  command:  {info.command or '-'}")
    console.print(f"  created:  {info.created} UTC; seed: {info.run_seed if info.run_seed is not None else '-'}")
    left = "all stored" if info.finished else f"resume with --resume {info.id} (repeating the command's options)"
    console.print(f"  matches:  {info.done} of {info.planned} stored; {left}")
    console.print("  endings:  " + (", ".join(f"{k.lower()} {v}" for k, v in sorted(ends.items())) or "-"))
    console.print(_ratings_table(rows, f"run {info.id}"))


def _ratings_table(rows: list[AgentRating], title: str) -> object:
    """Win rates with Wilson intervals, mean score and OpenSkill μ, σ, the interval μ ± 2σ and μ − 3σ."""
    from rich import box
    from rich.table import Table

    games = sorted({r.game for r in rows})
    one_game = len(games) == 1
    rated = any(r.mu is not None for r in rows)
    table = Table(title=f"{title}: {games[0]}" if one_game else title, box=box.SIMPLE_HEAD, pad_edge=False)
    if not one_game:
        table.add_column("game", overflow="fold")
    table.add_column("agent", no_wrap=True)
    cols = ["games", "wins", "win %", "95 % CI", "score"] + (["μ", "σ", "μ ± 2σ", "μ−3σ"] if rated else [])
    for col in cols:
        table.add_column(col, justify="right", no_wrap=True)

    def num(x: float | None) -> str:
        return "-" if x is None else f"{x:.1f}"

    for r in rows:
        cells = [
            r.agent,
            str(r.games),
            str(r.wins),
            f"{100 * r.win_rate:.1f}",
            f"{100 * r.ci_low:.0f}–{100 * r.ci_high:.0f}",
            f"{r.mean_score:.1f}",
        ]
        if rated:
            span = "-" if r.low is None or r.high is None else f"{r.low:.1f}–{r.high:.1f}"
            cells += [num(r.mu), num(r.sigma), span, num(r.ordinal)]
        table.add_row(*([] if one_game else [r.game]), *cells)
    return table


def _csv_rows(results: dict[int, MatchResult]) -> str:
    seats = max((len(r.agents) for r in results.values()), default=1)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    header = ["index", "seed", "game"]
    header += [f"agent_{i}" for i in range(seats)] + [f"score_{i}" for i in range(seats)]
    header += ["winner", "termination", "steps", "wall_s", "details"]
    w.writerow(header)
    for idx, r in sorted(results.items()):
        agents = list(r.agents) + [""] * (seats - len(r.agents))
        scores = [f"{s:g}" for s in r.outcome.scores] + [""] * (seats - len(r.outcome.scores))
        winner = "" if r.outcome.winner is None else str(r.outcome.winner)
        details = json.dumps(r.outcome.details, sort_keys=True)
        w.writerow([idx, r.seed, r.game, *agents, *scores, winner, r.outcome.termination, r.steps, r.wall_s, details])
    return buf.getvalue()


@app.command("export")
def export_cmd(
    run_id: str = typer.Argument(..., help="Run id (see snakelab results list)."),
    as_csv: bool = typer.Option(True, "--csv/--jsonl", help="CSV (one row per match) or JSON lines (full results)."),
    output: Path | None = typer.Option(None, "--output", "-o", help="Write to this file instead of standard output."),
    store: Path | None = typer.Option(None, "--store", help=STORE_HELP),
) -> None:
    """Export the matches of a run in match order (CSV by default)."""
    from snakelab.harness.store import parse_run_id, result_to_json

    try:
        with _open(store) as db:
            results = db.results(parse_run_id(run_id))
    except SnakelabError as exc:
        fail(str(exc))
    if as_csv:
        text = _csv_rows(results)
    else:
        text = "".join(json.dumps(result_to_json(r)) + "\n" for _, r in sorted(results.items()))
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        console.print(f"{len(results)} matches of run {run_id} written to {output}")


@app.command("delete")
def delete_cmd(
    run_id: str = typer.Argument(..., help="Run id (see snakelab results list)."),
    store: Path | None = typer.Option(None, "--store", help=STORE_HELP),
) -> None:
    """Delete a run and its matches from the store (they stop counting in ratings)."""
    try:
        with _open(store) as db:
            info = db.run(run_id)
            db.delete_run(info.id)
    except SnakelabError as exc:
        fail(str(exc))
    console.print(f"run {info.id} ({info.label}, {info.done} matches) deleted")


@app.command("ratings")
def ratings_cmd(
    run_ids: list[str] | None = typer.Argument(None, help="Only these runs (default: every stored run)."),
    game: str | None = typer.Option(None, "--game", "-g", help="Only this game: an id (arena) or a game string."),
    runs: list[str] | None = typer.Option(None, "--run", "-r", help="Only these runs (repeatable)."),
    store: Path | None = typer.Option(None, "--store", help=STORE_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """The ladder: OpenSkill ratings and win rates (95 % Wilson intervals) per agent, across stored runs.

    Agents are ranked by μ − 3σ (a conservative skill), each with the interval μ ± 2σ.
    Multi-player games are rated from each game's placings (an arena game's own
    ranking: longest length, then kills). Single-player agents are compared on the
    same match seeds (benches run with the same --seed), duplicate-bridge style.
    """
    from snakelab.harness.ratings import rate

    wanted = [*(run_ids or []), *(runs or [])]
    try:
        with _open(store) as db:
            ids = [db.run(r).id for r in wanted] if wanted else None
            rows = rate((r for _, _, r in db.iter_results(ids)), game=game)
    except SnakelabError as exc:
        fail(str(exc))
    if as_json:
        print_json([r.to_json() for r in rows])
        return
    if not rows:
        console.print("no stored matches" + (f" of {game}" if game else ""))
        return
    console.print(_ratings_table(rows, "ratings across runs"))
