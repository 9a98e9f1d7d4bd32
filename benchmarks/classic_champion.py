"""The classic champion: mean steps to win, win rates on every even board, time per move.

Three parts, each printing a Markdown table (the figures in ``docs/benchmarks.md``):

* ``means``: start length 1, mean / sd / max steps to win on 12×12 (500 games),
  20×20 (200) and 30×30 (100), both tail rules, with the mean agent time per move
  (every decision timed through the match loop's ``measure`` option).
* ``sweep``: win rate on every even-sided square board from 4×4 to 30×30, plus a few
  rectangles and boards with one odd side, both tail rules.
* ``timing``: in this one process, agent wall time per decision and process CPU time
  per step (agent + engine + loop) — the CPU figure is the one to trust on a busy machine.
* ``odd``: win rate on small odd×odd boards (no Hamiltonian cycle exists), champion
  against the ``safe`` baseline, both tail rules.

Examples::

    .venv/bin/python benchmarks/classic_champion.py means --jobs 2
    .venv/bin/python benchmarks/classic_champion.py means --boards 30 --games 20 --rules strict
    .venv/bin/python benchmarks/classic_champion.py sweep --games 10 --jobs 2
    .venv/bin/python benchmarks/classic_champion.py odd --games 200 --jobs 2
    .venv/bin/python benchmarks/classic_champion.py timing --boards 30 --games 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from snakelab.harness import MatchResult, MatchSpec, match_seeds, run_many

DEFAULT_GAMES = {12: 500, 20: 200, 30: 100}
PUBLIC_BEST = {12: 1923, 20: 11286, 30: 47634}  # twanvl cell-variant, strict rule (background notes)
TARGET = {12: 1850, 20: 10900, 30: 46000}


def _run(game: str, agent: str, games: int, seed: int, jobs: int, measure: bool = False) -> list[MatchResult]:
    specs = [MatchSpec(game, (agent,), s, measure=measure, index=i) for i, s in enumerate(match_seeds(seed, games))]
    return run_many(specs, jobs=jobs)


def means(args: argparse.Namespace) -> list[dict[str, object]]:
    """Mean steps to win and time per move on the three headline boards."""
    rows: list[dict[str, object]] = []
    print("| board | tail rule | games | wins | mean steps | sd | max | target | public best | ms/move (mean) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size in args.boards:
        games = args.games or DEFAULT_GAMES.get(size, 100)
        for rule in args.rules:
            t0 = time.perf_counter()
            res = _run(
                f"classic(width={size},height={size},tail_rule={rule})", args.agent, games, args.seed, args.jobs, True
            )
            wall = time.perf_counter() - t0
            wins = sum(1 for r in res if r.outcome.details["won"])
            steps = [r.steps for r in res]
            move_s = sum(sum(r.move_times[0]) for r in res) / max(1, sum(steps))
            row = {
                "board": f"{size}×{size}",
                "rule": rule,
                "games": games,
                "wins": wins,
                "mean_steps": statistics.mean(steps),
                "sd": statistics.pstdev(steps),
                "max": max(steps),
                "ms_per_move": 1e3 * move_s,
                "wall_s": wall,
            }
            rows.append(row)
            print(
                f"| {size}×{size} | {rule} | {games} | {wins} | {row['mean_steps']:,.1f} | {row['sd']:,.0f} | "
                f"{row['max']:,} | {TARGET.get(size, '-'):,} | {PUBLIC_BEST.get(size, '-'):,} | "
                f"{row['ms_per_move']:.3f} |",
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
    args = ap.parse_args()
    if args.part == "timing" and not args.games:
        args.games = 3
    if args.part not in ("means", "timing") and not args.games:
        args.games = 10
    t0 = time.perf_counter()
    rows = {"means": means, "sweep": sweep, "odd": odd, "timing": timing}[args.part](args)
    print(f"\n{args.part}: {time.perf_counter() - t0:.0f} s wall")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
