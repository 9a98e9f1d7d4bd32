"""The contest program as the judges ran it: ``play_icfp2015 -t T -c C`` once per problem file.

    .venv/bin/python benchmarks/hextris_contest.py -t 60 -c 2

Each of the 25 qualifier problems is given to ``play_icfp2015`` alone, with the whole
``-t`` budget and ``-c`` cores, as the contest's judges did; its output is scored by the
official scorer and printed beside the keep-best store of ``hextris_leaderboard.py`` (the
offline figure: long searches per seed) and the board's best score. So a reader sees what
the live program reaches in its time and what the store reaches with hours.

The program's own wall time per run is printed too: it keeps its clock from the moment it
starts, so the runs end inside ``-t`` even on a busy machine (they search less then).

Each finished problem is written to ``--out`` (JSON, default
``benchmarks/results/hextris_contest_t{T}.json``) as it finishes; ``--resume`` skips the
problems already there, so an interrupted run continues where it stopped.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from snakelab.games.hextris.codec import find_problems_dir, load_problem_id, load_solutions
from snakelab.games.hextris.scoring import score_problem

ROOT = Path(__file__).resolve().parents[1]
STORE = ROOT / "benchmarks" / "results" / "hextris"
BOARD = ROOT / "data" / "icfp2015" / "leaderboard" / "qualifier_final_per_problem.csv"


def board_best() -> dict[int, int]:
    """Per problem, the best score on the final qualifier board."""
    best: dict[int, int] = {}
    with open(BOARD, newline="") as fh:
        for row in csv.DictReader(fh):
            p = int(row["problemId"])
            best[p] = max(best.get(p, 0), int(row["score"]))
    return best


def store_score(pid: int) -> int:
    """The keep-best store's score on problem ``pid`` (0 without a store file)."""
    path = STORE / f"problem_{pid}.json"
    if not path.is_file():
        return 0
    return score_problem(load_problem_id(pid), load_solutions(path)).score


def run_one(pid: int, seconds: float, cores: int) -> dict[str, float | int]:
    """Run the contest program on one problem file; its score and wall seconds."""
    exe = shutil.which("play_icfp2015") or str(Path(sys.executable).with_name("play_icfp2015"))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        t0 = time.monotonic()
        with open(out, "w") as fh:
            proc = subprocess.run(
                [exe, "-f", str(find_problems_dir() / f"problem_{pid}.json"), "-t", f"{seconds:g}", "-c", str(cores)],
                stdout=fh,
                stderr=subprocess.PIPE,
                text=True,
                check=False,
            )
        wall = time.monotonic() - t0
        if proc.returncode != 0:
            raise SystemExit(f"play_icfp2015 failed on problem {pid} (exit {proc.returncode}): {proc.stderr.strip()}")
        score = score_problem(load_problem_id(pid), load_solutions(out)).score
    return {"score": score, "wall_s": round(wall, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-t", dest="seconds", type=float, default=60.0, help="time limit per problem file (seconds)")
    ap.add_argument("-c", dest="cores", type=int, default=2, help="cores per run")
    ap.add_argument("--problems", type=int, nargs="*", default=list(range(25)))
    ap.add_argument("--out", type=Path, help="results JSON (default: benchmarks/results/hextris_contest_tT.json)")
    ap.add_argument("--resume", action="store_true", help="skip the problems already in --out")
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown")
    args = ap.parse_args()
    out = args.out or ROOT / "benchmarks" / "results" / f"hextris_contest_t{args.seconds:g}.json"
    done: dict[str, dict[str, float | int]] = {}
    if args.resume and out.is_file():
        done = json.loads(out.read_text())
    for k, pid in enumerate(args.problems, 1):
        if str(pid) in done:
            continue
        print(f"\r{k}/{len(args.problems)} problem {pid} ...", end="", file=sys.stderr, flush=True)
        done[str(pid)] = run_one(pid, args.seconds, args.cores)
        tmp = out.with_suffix(".tmp")
        tmp.write_text(json.dumps(done, indent=1, sort_keys=True) + "\n")
        os.replace(tmp, out)  # a kill between problems loses nothing already run
    print(file=sys.stderr)

    best = board_best()
    rows = []
    tot = {"live": 0, "store": 0, "best": 0}
    for pid in args.problems:
        live = int(done[str(pid)]["score"])
        st = store_score(pid)
        tot["live"] += live
        tot["store"] += st
        tot["best"] += best[pid]
        rows.append((pid, live, done[str(pid)]["wall_s"], st, best[pid]))
    head = ("problem", f"play_icfp2015 -t {args.seconds:g} -c {args.cores}", "wall s", "keep-best store", "board best")
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---:|" * len(head))
        for pid, live, wall, st, b in rows:
            print(f"| {pid} | {live:,} | {wall:.1f} | {st:,} | {b:,} |")
        print(f"| **total** | **{tot['live']:,}** | | **{tot['store']:,}** | **{tot['best']:,}** |")
    else:
        print("  ".join(f"{h:>16}" for h in head))
        for pid, live, wall, st, b in rows:
            print(f"{pid:>16}  {live:>16,}  {wall:>16.1f}  {st:>16,}  {b:>16,}")
        print(f"{'total':>16}  {tot['live']:>16,}  {'':>16}  {tot['store']:>16,}  {tot['best']:>16,}")


if __name__ == "__main__":
    main()
