"""Solve the 25 ICFP 2015 qualifier problems, keep the best solution per (problem, seed),
and print our scores beside the final qualifier leaderboard.

    .venv/bin/python benchmarks/hextris_leaderboard.py --spec 'champion(width=8,random=20)' --problems 3 7
    .venv/bin/python benchmarks/hextris_leaderboard.py --report --markdown

* Every (problem, seed) game is solved with the solver spec ``--spec`` (no clock: the same
  spec gives the same string anywhere; see ``snakelab.games.hextris.solver_spec``), on
  ``--jobs`` worker processes through the harness's parallel map, and scored by the
  official scorer. ``--spec`` may also be given per problem: ``--spec 24=champion(width=2)``.
* The keep-best store (``benchmarks/results/hextris/problem_K.json``, solution JSON whose
  tags record spec, CPU seconds and score) is re-scored on load and updated as each game
  finishes, so a killed run loses only the games in progress; an entry is replaced only
  by a strictly better one (or an equal one replacing an unrecorded legacy entry), and
  strings that took over 600 CPU seconds are not stored
  (``snakelab.games.hextris.solver_store``).
* The table: per problem, the best leaderboard score (and team), Snakes vs Lambdas' score,
  this run's score, the store's score, the rank the store's score would take on that
  problem (dense ranks as on the board) and the mean and the most CPU seconds a stored
  string of the problem took. Use ``--markdown`` for the docs table; ``--contest FILE``
  adds the scores of a ``benchmarks/hextris_contest.py`` results file as a last column.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

from snakelab.games.hextris.codec import Problem, SolutionEntry, load_problem_id
from snakelab.games.hextris.scoring import score_problem
from snakelab.games.hextris.solver_spec import SolverSpec, solve_spec
from snakelab.games.hextris.solver_store import StoredEntry, load_store, offer, save_store
from snakelab.harness.parallel import parallel_map

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "icfp2015"
STORE = ROOT / "benchmarks" / "results" / "hextris"
SVL = "Snakes vs Lambdas"
DEFAULT_SPEC = "champion(width=8,random=8)"


def _init() -> None:
    from snakelab.games.hextris.solver import warm_up

    warm_up()


def _solve(job: tuple[Problem, int, SolverSpec]) -> tuple[int, int, StoredEntry]:
    prob, seed, spec = job
    sol, rec = solve_spec(prob, seed, spec)
    return prob.id, seed, StoredEntry(sol.score, sol.solution, rec)


def _specs(texts: list[str], problems: list[int]) -> dict[int, SolverSpec]:
    """The spec of each problem: ``SPEC`` for all, ``K=SPEC`` for problem K (later wins)."""
    out: dict[int, SolverSpec] = {}
    for text in texts:
        pid, eq, rest = text.partition("=")
        if eq and pid.strip().isdigit():
            out[int(pid)] = SolverSpec.parse(rest)
        else:
            spec = SolverSpec.parse(text)
            out.update({p: spec for p in problems})
    return out


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
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--spec", action="append", default=None, help=f"solver spec (default {DEFAULT_SPEC})")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--problems", type=int, nargs="*", default=list(range(25)))
    ap.add_argument("--seeds", type=int, default=0, help="only the first N seeds of each problem (0: all)")
    ap.add_argument("--legacy-only", action="store_true", help="solve only the seeds whose stored string is legacy")
    ap.add_argument("--store", type=Path, default=STORE, help="keep-best store directory")
    ap.add_argument("--no-store", action="store_true", help="do not read or write the store")
    ap.add_argument(
        "--replace-legacy", action="store_true", help="recorded strings replace unrecorded ones even when worse"
    )
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown")
    ap.add_argument("--contest", type=Path, help="add the scores of a hextris_contest.py results file as a column")
    ap.add_argument("--report", action="store_true", help="solve nothing: score the store and print the table")
    ap.add_argument(
        "--rewrite", action="store_true", help="with --report: rewrite each store file with its tags recomputed"
    )
    args = ap.parse_args()

    try:
        specs = _specs(args.spec or [DEFAULT_SPEC], args.problems)
    except Exception as exc:  # ConfigError: one line, no traceback
        sys.exit(f"error: {exc}")
    probs = {p: load_problem_id(p) for p in args.problems}
    stores = {p: ({} if args.no_store else load_store(probs[p], args.store)) for p in args.problems}
    jobs = []
    for p in args.problems:
        seeds = list(dict.fromkeys(probs[p].source_seeds))
        if args.legacy_only:
            seeds = [s for s in seeds if s in stores[p] and stores[p][s].record is None]
        if args.seeds:
            seeds = seeds[: args.seeds]
        jobs.extend((probs[p], s, specs[p]) for s in seeds if p in specs)
    jobs.sort(key=lambda j: -j[0].source_length * j[0].height)
    t0 = time.monotonic()
    run: dict[int, dict[int, StoredEntry]] = {p: {} for p in args.problems}
    if not args.report:
        results = parallel_map(_solve, jobs, jobs=args.jobs, initializer=_init)
        for done, (_i, (pid, seed, entry)) in enumerate(results, 1):
            run[pid][seed] = entry
            # Checkpoint: the store is written as each game finishes.
            old = stores[pid].get(seed)
            if not args.no_store and offer(stores[pid], seed, entry, replace_legacy=args.replace_legacy):
                save_store(probs[pid], args.store, stores[pid])
                if old is not None and old.score > entry.score:
                    print(f"problem {pid} seed {seed}: legacy {old.score} replaced by {entry.score}", file=sys.stderr)
            secs = entry.record.seconds if entry.record else 0.0
            print(f"{done}/{len(jobs)} problem {pid} seed {seed}: {entry.score} ({secs:.1f}s)", file=sys.stderr)
    wall = time.monotonic() - t0

    if args.report and args.rewrite and not args.no_store:
        for p in args.problems:
            save_store(probs[p], args.store, stores[p])
    board = leaderboard()
    rows = []
    tot = {"best": 0, "svl": 0, "run": 0, "store": 0}
    beats_svl = 0
    for p in args.problems:
        prob = probs[p]
        run_score = score_problem(prob, [SolutionEntry(p, s, e.solution) for s, e in run[p].items()]).score
        best = run[p] if args.no_store else stores[p]
        store_score = score_problem(prob, [SolutionEntry(p, s, e.solution) for s, e in best.items()]).score
        secs = [e.record.seconds for e in best.values() if e.record is not None]
        legacy = sum(e.record is None for e in best.values())
        max_s = f"{sum(secs) / len(secs):.0f} / {max(secs):.0f}" if secs else "-"
        if legacy:
            max_s += f" ({legacy} legacy)"
        top_score, top_team = max(board[p])
        svl = next(s for s, t in board[p] if t == SVL)
        rank = dense_rank(store_score, board[p])
        beats_svl += store_score > svl
        rows.append((p, top_score, top_team, svl, "-" if args.report else run_score, store_score, rank, max_s))
        tot["best"] += top_score
        tot["svl"] += svl
        tot["run"] += 0 if args.report else run_score
        tot["store"] += store_score

    head = ["problem", "best", "best team", "SvL", "this run", "ours (store)", "our rank", "CPU s/seed (mean / max)"]
    if args.report:  # nothing was solved: no "this run" column
        head.remove("this run")
        rows = [(*r[:4], *r[5:]) for r in rows]
    contest_total: list[str] = []
    if args.contest:
        live = json.loads(args.contest.read_text())
        head.append(f"contest program ({args.contest.stem})")
        rows = [(*r, live[str(r[0])]["score"] if str(r[0]) in live else "-") for r in rows]
        contest_total = [str(sum(int(v["score"]) for k, v in live.items() if int(k) in args.problems))]
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rows:
            print("| " + " | ".join(str(v) for v in r) + " |")
        run_total = [] if args.report else [str(tot["run"])]
        print(
            "| "
            + " | ".join(
                ["total", str(tot["best"]), "", str(tot["svl"]), *run_total, str(tot["store"]), "", "", *contest_total]
            )
            + " |"
        )
    else:
        widths = [7, 7, 22, 6, 8, 12, 8, 0] if not args.report else [7, 7, 22, 6, 12, 8, 0]
        widths += [0] * (len(head) - len(widths))  # the contest column
        print(" ".join(f"{h:>{w}}" if w != 22 else f"{h:<22}" for h, w in zip(head, widths, strict=True)))
        for r in rows:
            cells = [str(v)[:22] if w == 22 else str(v) for v, w in zip(r, widths, strict=True)]
            print(" ".join(f"{c:>{w}}" if w != 22 else f"{c:<22}" for c, w in zip(cells, widths, strict=True)))
        run_total = [] if args.report else [str(tot["run"])]
        print(
            " ".join(
                [
                    "  total",
                    f"{tot['best']:>7}",
                    " " * 22,
                    f"{tot['svl']:>6}",
                    *[f"{t:>8}" for t in run_total],
                    f"{tot['store']:>12}",
                    *contest_total,
                ]
            )
        )
    summary = {
        "specs": [] if args.report else sorted({s.text() for s in specs.values()}),
        "jobs": args.jobs,
        "games": 0 if args.report else len(jobs),
        "wall_s": round(wall, 1),
        "beats_svl": beats_svl,
        "problems": len(args.problems),
        "total_run": tot["run"],
        "total_store": tot["store"],
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
