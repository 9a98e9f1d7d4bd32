"""The classic champion: mean steps to win, win rates on every even board, time per move.

Three parts, each printing a Markdown table (the figures in ``docs/benchmarks.md``):

* ``means``: start length 1, mean steps to win with 95 % intervals on 12×12 (500 games),
  20×20 (200) and 30×30 (100), both tail rules, with the mean agent time
  per move (every decision timed through the match loop's ``measure`` option) and the
  body-free lower bound: the Manhattan-distance sum over the same apples, what a snake
  that ignored its own body would need. A progress bar shows the games; each is written
  to ``--out`` when done, and ``--resume`` continues an interrupted run. The games are
  interleaved so that a run stopped early has run the same share of every row.
* ``sweep``: win rate on every even-sided square board from 4×4 to 30×30, plus a few
  rectangles and boards with one odd side, both tail rules.
* ``timing``: in this one process, agent wall time per decision and process CPU time
  per step (agent + engine + loop) — the CPU figure is the one to trust on a busy machine.
* ``odd``: win rate on small odd×odd boards (no Hamiltonian cycle exists), champion
  against the ``safe`` baseline, both tail rules.

Examples::

    nice -n 5 .venv/bin/python benchmarks/classic_champion.py means --jobs 1 --resume
    .venv/bin/python benchmarks/classic_champion.py means --report
    .venv/bin/python benchmarks/classic_champion.py means --boards 30 --games 20 --rules strict
    .venv/bin/python benchmarks/classic_champion.py sweep --games 10 --jobs 2
    .venv/bin/python benchmarks/classic_champion.py odd --games 200 --jobs 2
    .venv/bin/python benchmarks/classic_champion.py timing --boards 30 --games 3
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import time
from pathlib import Path

from snakelab.harness import MatchResult, MatchSpec, match_seeds, run_many

DEFAULT_GAMES = {12: 500, 20: 200, 30: 100}
PUBLIC_BEST = {12: 1923, 20: 11286, 30: 47634}  # twanvl cell-variant, strict rule (background notes)
TARGET = {12: 1630, 20: 9590, 30: 40490}  # 15 % below the public best


def _run(game: str, agent: str, games: int, seed: int, jobs: int, measure: bool = False) -> list[MatchResult]:
    specs = [MatchSpec(game, (agent,), s, measure=measure, index=i) for i, s in enumerate(match_seeds(seed, games))]
    return run_many(specs, jobs=jobs)


def _means_game(item: tuple[str, str, int, str, int]) -> dict[str, object]:
    """One ``means`` game: steps, agent time and the body-free lower bound of its apple sequence."""
    from snakelab import make, make_agent
    from snakelab.harness.match import play

    agent, game, index, rule, seed = item
    g = make(game)
    w = g.config.width
    cells: list[int] = []

    def on_step(state: object, _events: object) -> None:
        # The first call has the start; after that the head, then each new apple.
        if not cells:
            cells.append(state.head)  # type: ignore[attr-defined]
        apple: int = state.apple  # type: ignore[attr-defined]
        if apple >= 0 and cells[-1] != apple:
            cells.append(apple)

    res = play(g, [make_agent(agent)], seed, measure=True, on_step=on_step)
    # A snake that ignored its own body would walk the Manhattan distance from apple to apple.
    lower = sum(abs(a % w - b % w) + abs(a // w - b // w) for a, b in itertools.pairwise(cells))
    return {
        "game": game,
        "rule": rule,
        "index": index,
        "won": bool(res.outcome.details["won"]),
        "steps": res.steps,
        "agent_s": sum(res.move_times[0]),
        "lower": lower,
    }


def _ci95(xs: list[float]) -> float:
    return 1.96 * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else float("nan")


def means(args: argparse.Namespace) -> list[dict[str, object]]:
    """Mean steps to win with 95 % intervals, the body-free lower bound and time per move.

    Every finished game is appended to ``--out`` (JSON lines) at once; ``--resume`` skips
    the games already there, so an interrupted run loses nothing it finished.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from snakelab.harness.parallel import parallel_map

    out = Path(args.out)
    done: dict[tuple[str, int], dict[str, object]] = {}
    if args.resume and out.is_file():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            done[(row["game"], row["index"])] = row
    elif out.exists():
        out.unlink()
    plan: list[tuple[str, str, int, str, int]] = []
    for rule in args.rules:
        for size in args.boards:
            games = args.games or DEFAULT_GAMES.get(size, 100)
            game = f"classic(width={size},height={size},tail_rule={rule})"
            for i, seed in enumerate(match_seeds(args.seed, games)):
                plan.append((args.agent, game, i, rule, seed))
    # Interleaved so that at any moment every board and rule has run the same share of its
    # games (strict first): a run stopped early still gives every row, with fewer games.
    share = {it[1]: sum(1 for x in plan if x[1] == it[1]) for it in plan}
    rank = {rule: i for i, rule in enumerate(args.rules)}
    plan.sort(key=lambda it: ((it[2] + 1) / share[it[1]], rank[it[3]]))
    todo = [it for it in plan if (it[1], it[2]) not in done]
    out.parent.mkdir(parents=True, exist_ok=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns) as bar, out.open("a") as fh:
        task = bar.add_task("means", total=len(plan), completed=len(plan) - len(todo))
        for _, row in parallel_map(_means_game, todo, jobs=args.jobs):
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            done[(str(row["game"]), int(row["index"]))] = row  # type: ignore[call-overload]
            bar.update(task, advance=1, description=str(row["game"]))
    plan.sort(key=lambda it: (rank[it[3]], args.boards.index(int(it[1].split("width=")[1].split(",")[0])), it[2]))
    return means_table([done[(it[1], it[2])] for it in plan if (it[1], it[2]) in done])


def means_table(results: list[dict[str, object]]) -> list[dict[str, object]]:
    """Print the ``means`` table (one row per board and rule) from per-game results."""
    rows: list[dict[str, object]] = []
    print(
        "| board | tail rule | games | wins | mean steps (95 % interval) | bar | public best "
        "| body-free lower bound | gap left | ms/move (mean) |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    groups: dict[str, list[dict[str, object]]] = {}
    for r in results:
        groups.setdefault(str(r["game"]), []).append(r)
    for game, rs in groups.items():
        size = int(game.split("width=")[1].split(",")[0])
        steps = [float(r["steps"]) for r in rs]  # type: ignore[arg-type]
        lower = statistics.mean(float(r["lower"]) for r in rs)  # type: ignore[arg-type]
        mean = statistics.mean(steps)
        ms = 1e3 * sum(float(r["agent_s"]) for r in rs) / sum(steps)  # type: ignore[arg-type]
        wins = sum(1 for r in rs if r["won"])
        rule = str(rs[0]["rule"])
        row = {"board": f"{size}×{size}", "rule": rule, "games": len(rs), "wins": wins, "mean_steps": mean}
        row.update({"ci95": _ci95(steps), "lower": lower, "ms_per_move": ms})
        rows.append(row)
        bar = f"≤ {TARGET[size]:,}" if rule == "strict" and size in TARGET else "–"
        best = f"{PUBLIC_BEST[size]:,}" if rule == "strict" and size in PUBLIC_BEST else "–"
        print(
            f"| {size}×{size} | {rule} | {len(rs)} | {wins} | {mean:,.1f} ± {_ci95(steps):,.1f} | {bar} | {best} | "
            f"{lower:,.1f} | {mean / lower - 1:.0%} | {ms:.3f} |",
            flush=True,
        )
    return rows


def sweep(args: argparse.Namespace) -> list[dict[str, object]]:
    """Win rate on every even square board 4..30 and a few other shapes."""
    boards = [(s, s) for s in range(4, 31, 2)] + [(2, 8), (8, 2), (6, 10), (16, 10), (5, 6), (12, 7), (9, 14)]
    rows: list[dict[str, object]] = []
    print("| board | tail rule | games | wins | mean steps |")
    print("|---|---|---:|---:|---:|")
    for w, h in boards:
        for rule in args.rules:
            res = _run(f"classic(width={w},height={h},tail_rule={rule})", args.agent, args.games, args.seed, args.jobs)
            wins = sum(1 for r in res if r.outcome.details["won"])
            mean = statistics.mean(r.steps for r in res)
            rows.append({"board": f"{w}×{h}", "rule": rule, "games": args.games, "wins": wins, "mean_steps": mean})
            print(f"| {w}×{h} | {rule} | {args.games} | {wins} | {mean:,.1f} |", flush=True)
    return rows


def odd(args: argparse.Namespace) -> list[dict[str, object]]:
    """Win rates on small odd×odd boards, champion against the safe baseline."""
    rows: list[dict[str, object]] = []
    print("| board | tail rule | agent | games | win rate | mean final length |")
    print("|---|---|---|---:|---:|---:|")
    for w, h in [(3, 3), (3, 5), (3, 7), (5, 5), (5, 7), (7, 7), (9, 9)]:
        for rule in args.rules:
            for agent in (args.agent, "classic.safe"):
                res = _run(f"classic(width={w},height={h},tail_rule={rule})", agent, args.games, args.seed, args.jobs)
                wins = sum(1 for r in res if r.outcome.details["won"])
                length = statistics.mean(r.outcome.details["length"] for r in res)
                rows.append({"board": f"{w}×{h}", "rule": rule, "agent": agent, "wins": wins, "games": args.games})
                print(
                    f"| {w}×{h} | {rule} | {agent} | {args.games} | {wins / args.games:.3f} | {length:.2f} |",
                    flush=True,
                )
    return rows


def timing(args: argparse.Namespace) -> list[dict[str, object]]:
    """Time per move in this process: agent decision wall time and process CPU time per step."""
    from snakelab import make, make_agent
    from snakelab.harness import play

    play(make("classic(width=4,height=4)"), [make_agent(args.agent)], 0)  # load the compiled kernels
    rows: list[dict[str, object]] = []
    print("| board | tail rule | games | steps | agent wall ms/move (mean) | p99 | CPU ms/step (all) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for size in args.boards:
        for rule in args.rules:
            game = make(f"classic(width={size},height={size},tail_rule={rule})")
            times: list[float] = []
            c0 = time.process_time()
            steps = 0
            for s in match_seeds(args.seed, args.games):
                res = play(game, [make_agent(args.agent)], s, measure=True)
                times.extend(res.move_times[0])
                steps += res.steps
            cpu = (time.process_time() - c0) / steps
            times.sort()
            mean = sum(times) / len(times)
            p99 = times[int(0.99 * (len(times) - 1))]
            rows.append(
                {"board": f"{size}×{size}", "rule": rule, "steps": steps, "wall_ms": 1e3 * mean, "cpu_ms": 1e3 * cpu}
            )
            print(
                f"| {size}×{size} | {rule} | {args.games} | {steps:,} | {1e3 * mean:.3f} | {1e3 * p99:.3f} | "
                f"{1e3 * cpu:.3f} |",
                flush=True,
            )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=["means", "sweep", "odd", "timing"])
    ap.add_argument("--agent", default="classic.champion")
    ap.add_argument("--boards", type=int, nargs="+", default=[12, 20, 30], help="square sizes for 'means'")
    ap.add_argument("--rules", nargs="+", default=["strict", "lenient"])
    ap.add_argument("--games", type=int, default=0, help="games per board (0: 500/200/100 for means, 10 otherwise)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=0, help="worker processes (0: all cores)")
    ap.add_argument("--json", help="also write the rows to this JSON file")
    ap.add_argument("--out", default="benchmarks/results/classic_means.jsonl", help="'means': per-game results")
    ap.add_argument("--resume", action="store_true", help="'means': keep the games already in --out")
    ap.add_argument("--report", action="store_true", help="'means': only print the table from --out")
    args = ap.parse_args()
    if args.part == "timing" and not args.games:
        args.games = 3
    if args.part not in ("means", "timing") and not args.games:
        args.games = 10
    t0 = time.perf_counter()
    if args.part == "means" and args.report:
        results = [json.loads(line) for line in Path(args.out).read_text().splitlines()]
        means_table(results)
        return
    rows = {"means": means, "sweep": sweep, "odd": odd, "timing": timing}[args.part](args)
    print(f"\n{args.part}: {time.perf_counter() - t0:.0f} s wall")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
