"""Solve the 25 ICFP 2015 qualifier problems, keep the best solution per (problem, seed),
and print our scores beside the final qualifier leaderboard.

    .venv/bin/python benchmarks/hextris_leaderboard.py --seconds 3 --jobs 2

* Every (problem, seed) game is solved by the chosen solver with ``--seconds`` each, on
  ``--jobs`` worker processes, and scored by the official scorer.
* The keep-best store (``benchmarks/results/hextris/problem_K.json``, solution JSON) is
  re-scored on load and an entry is replaced only by a strictly better one, so repeated
  runs only improve it.
* The table: per problem, the best leaderboard score (and team), Snakes vs Lambdas' score,
  this run's score, the store's score, and the rank the store's score would take on that
  problem (dense ranks as on the board). Use ``--markdown`` for the docs table.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from snakelab.games.hextris.codec import Problem, SolutionEntry, format_solutions, load_problem_id, load_solutions
from snakelab.games.hextris.scoring import PHRASES, score_problem, score_seed

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "icfp2015"
STORE = ROOT / "benchmarks" / "results" / "hextris"
SVL = "Snakes vs Lambdas"


def _init() -> None:
    from snakelab.games.hextris.solver import warm_up

    warm_up()


def _solve(job: tuple[Problem, int, str, float]) -> tuple[int, int, str, int, float]:
    from snakelab.games.hextris.solver import SEED_PHRASES, solve_champion, solve_seed_method

    prob, seed, agent, seconds = job
    t0 = time.monotonic()
    if agent == "seed":
        sol = solve_seed_method(prob, seed, SEED_PHRASES)
    else:
        sol = solve_champion(prob, seed, seconds, PHRASES)
    return prob.id, seed, sol.solution, sol.score, time.monotonic() - t0


def load_store(prob: Problem, store: Path) -> dict[int, tuple[int, str]]:
    """Best stored (score, solution) per seed, re-scored with the official scorer."""
    path = store / f"problem_{prob.id}.json"
    out: dict[int, tuple[int, str]] = {}
    if not path.is_file():
        return out
    for e in load_solutions(path):
        sc = score_seed(prob, e.seed, e.solution).score
        if e.seed not in out or sc > out[e.seed][0]:
            out[e.seed] = (sc, e.solution)
    return out


def save_store(prob: Problem, store: Path, best: dict[int, tuple[int, str]]) -> None:
    """Write the store file atomically (a kill never leaves it half-written)."""
    store.mkdir(parents=True, exist_ok=True)
    path = store / f"problem_{prob.id}.json"
    entries = [SolutionEntry(prob.id, s, sol, f"snakelab best {sc}") for s, (sc, sol) in sorted(best.items())]
    tmp = path.with_suffix(".tmp")
    tmp.write_text(format_solutions(entries) + "\n")
    os.replace(tmp, path)


def leaderboard() -> dict[int, list[tuple[int, str]]]:
    """Per problem, (score, team) of every team on the final qualifier board."""
    out: dict[int, list[tuple[int, str]]] = {}
    with open(DATA / "leaderboard" / "qualifier_final_per_problem.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            out.setdefault(int(row["problemId"]), []).append((int(row["score"]), row["team"]))
    return out


def dense_rank(score: int, board: list[tuple[int, str]]) -> int:
    """The rank ``score`` would take on a board with dense ranks."""
    return 1 + len({s for s, _ in board if s > score})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agent", default="champion", choices=["champion", "seed"])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per seed (champion)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--problems", type=int, nargs="*", default=list(range(25)))
    ap.add_argument("--store", type=Path, default=STORE, help="keep-best store directory")
    ap.add_argument("--no-store", action="store_true", help="do not read or write the store")
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown")
    ap.add_argument("--report", action="store_true", help="solve nothing: score the store and print the table")
    args = ap.parse_args()

    probs = {p: load_problem_id(p) for p in args.problems}
    jobs = [
        (probs[p], s, args.agent, args.seconds) for p in args.problems for s in dict.fromkeys(probs[p].source_seeds)
    ]
    jobs.sort(key=lambda j: -j[0].source_length * j[0].height)
    t0 = time.monotonic()
    run: dict[int, dict[int, tuple[int, str]]] = {p: {} for p in args.problems}
    max_seed_s = 0.0
    if not args.report:
        with ProcessPoolExecutor(max_workers=args.jobs, initializer=_init) as pool:
            for done, (pid, seed, sol, sc, secs) in enumerate(pool.map(_solve, jobs), 1):
                run[pid][seed] = (sc, sol)
                max_seed_s = max(max_seed_s, secs)
                print(f"\r{done}/{len(jobs)} games", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
    wall = time.monotonic() - t0

    board = leaderboard()
    rows = []
    tot = {"best": 0, "svl": 0, "run": 0, "store": 0}
    beats_svl = 0
    for p in args.problems:
        prob = probs[p]
        ents = [SolutionEntry(p, s, sol) for s, (_sc, sol) in run[p].items()]
        run_score = score_problem(prob, ents).score
        if args.no_store:
            store_score = run_score
        else:
            best = load_store(prob, args.store)
            improved = False
            for s, (sc, sol) in run[p].items():
                if s not in best or sc > best[s][0]:
                    best[s] = (sc, sol)
                    improved = True
            if improved:
                save_store(prob, args.store, best)
            store_score = score_problem(prob, [SolutionEntry(p, s, sol) for s, (_sc, sol) in best.items()]).score
        top_score, top_team = max(board[p])
        svl = next(s for s, t in board[p] if t == SVL)
        rank = dense_rank(store_score, board[p])
        beats_svl += store_score > svl
        rows.append((p, top_score, top_team, svl, "-" if args.report else run_score, store_score, rank))
        tot["best"] += top_score
        tot["svl"] += svl
        tot["run"] += 0 if args.report else run_score
        tot["store"] += store_score

    head = ("problem", "best", "best team", "SvL", "this run", "ours (store)", "our rank")
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rows:
            print("| " + " | ".join(str(v) for v in r) + " |")
        print(f"| total | {tot['best']} | | {tot['svl']} | {tot['run']} | {tot['store']} | |")
    else:
        print(f"{head[0]:>7} {head[1]:>7} {head[2]:<22} {head[3]:>6} {head[4]:>8} {head[5]:>12} {head[6]:>8}")
        for p, b, team, svl, rs, ss, rank in rows:
            print(f"{p:>7} {b:>7} {team[:22]:<22} {svl:>6} {rs:>8} {ss:>12} {rank:>8}")
        print(f"{'total':>7} {tot['best']:>7} {'':<22} {tot['svl']:>6} {tot['run']:>8} {tot['store']:>12}")
    summary = {
        "agent": args.agent,
        "seconds_per_seed": args.seconds,
        "jobs": args.jobs,
        "games": len(jobs),
        "wall_s": round(wall, 1),
        "max_seed_s": round(max_seed_s, 2),
        "beats_svl": beats_svl,
        "problems": len(args.problems),
        "total_run": tot["run"],
        "total_store": tot["store"],
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
