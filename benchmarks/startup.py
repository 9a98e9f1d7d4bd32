"""Start-up CPU of every ``snakelab`` verb's ``--help`` and of the two contest programs, side by side.

CPU seconds (user + system) of each child process, read with ``os.wait4``, so a busy
machine changes them little; the best of ``--repeat`` runs is quoted (start-up has no
useful spread above its floor: a slower run only met a busier machine). Every command
is run once before the measured rounds, so the numba cache is warm, and the rounds
interleave the commands, so that each sees the same machine.

Targets: ``--help`` of any verb under 0.3 s; the contest programs ready to play within
1 s. "Ready to play" is, for ``play_icfp2015``, its imports and its kernels loaded (what
runs before the first game's clock: ``warm_up``), and, for ``snakelab snakgame client``,
the program reading the judge's first line (an 8 × 9 grid) and answering its first move.

    .venv/bin/python benchmarks/startup.py [--repeat 5] [--only help|contest]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import typer

BIN = Path(sys.executable).parent
SNAKELAB = [str(BIN / "snakelab")]
HELP_TARGET_S = 0.3
CONTEST_TARGET_S = 1.0

ICFP_READY = "from snakelab.cli import icfp2015\nfrom snakelab.games.hextris.solver import warm_up\nwarm_up()\n"


def verbs() -> list[tuple[str, ...]]:
    """Every command path of the CLI: the root, each group, each visible verb."""
    from snakelab.cli import app

    paths: list[tuple[str, ...]] = [()]

    def walk(group: object, path: tuple[str, ...]) -> None:
        ctx = typer.Context(group)  # type: ignore[arg-type]
        for name in group.list_commands(ctx):  # type: ignore[attr-defined]
            cmd = group.get_command(ctx, name)  # type: ignore[attr-defined]
            if cmd is None or cmd.hidden:
                continue
            paths.append((*path, name))
            if hasattr(cmd, "list_commands"):
                walk(cmd, (*path, name))

    walk(typer.main.get_command(app), ())
    return paths


def cpu_seconds(argv: list[str], stdin: str | None = None) -> float:
    """User + system CPU seconds of one run of ``argv`` (its children included)."""
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    if stdin is not None:
        assert proc.stdin is not None
        proc.stdin.write(stdin)
        proc.stdin.close()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime


def commands(only: str | None) -> list[tuple[str, str, list[str], str | None, float]]:
    """(kind, shown command, argv, standard input, target seconds) of every measured command."""
    out: list[tuple[str, str, list[str], str | None, float]] = []
    if only in (None, "help"):
        for path in verbs():
            out.append(
                ("help", " ".join(["snakelab", *path, "--help"]), [*SNAKELAB, *path, "--help"], None, HELP_TARGET_S)
            )
        out.append(("help", "play_icfp2015 --help", [str(BIN / "play_icfp2015"), "--help"], None, HELP_TARGET_S))
    if only in (None, "contest"):
        out.append(
            ("contest", "play_icfp2015, ready to play", [sys.executable, "-c", ICFP_READY], None, CONTEST_TARGET_S)
        )
        out.append(
            ("contest", "snakelab snakgame client, first move", [*SNAKELAB, "snakgame", "client"], "8 9 0\n",
             CONTEST_TARGET_S)
        )  # fmt: skip
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="measured rounds (the best is quoted)")
    ap.add_argument("--only", choices=["help", "contest"], default=None, help="measure one kind only")
    args = ap.parse_args()
    todo = commands(args.only)
    for _, _, argv, stdin, _ in todo:  # warm the numba cache and the file cache
        cpu_seconds(argv, stdin)
    best = [float("inf")] * len(todo)
    for _ in range(args.repeat):
        for i, (_, _, argv, stdin, _) in enumerate(todo):
            best[i] = min(best[i], cpu_seconds(argv, stdin))
    print(f"| command | CPU s (best of {args.repeat}) | target s | within |")
    print("|---|---:|---:|---|")
    for (_, shown, _, _, target), seconds in zip(todo, best, strict=True):
        print(f"| `{shown}` | {seconds:.2f} | {target:g} | {'yes' if seconds <= target else '**no**'} |")
    over = [shown for (_, shown, _, _, target), s in zip(todo, best, strict=True) if s > target]
    print(f"\n{len(todo) - len(over)} of {len(todo)} within their targets\n")
    # The short table of docs/benchmarks.md: the verbs' --help as a spread, the rest as they are.
    helps = sorted(
        (s, shown) for (kind, shown, _, _, _), s in zip(todo, best, strict=True)
        if kind == "help" and shown.startswith("snakelab ") and shown != "snakelab --help"
    )  # fmt: skip
    print("| start-up | CPU s | target s |")
    print("|---|---:|---:|")
    for (kind, shown, _, _, target), s in zip(todo, best, strict=True):
        if kind == "contest" or not shown.startswith("snakelab ") or shown == "snakelab --help":
            print(f"| `{shown}` | {s:.2f} | {target:g} |")
    if helps:
        median = helps[len(helps) // 2][0]
        print(
            f"| `--help` of the {len(helps)} groups and verbs: fastest, median, slowest (`{helps[-1][1]}`) "
            f"| {helps[0][0]:.2f}, {median:.2f}, {helps[-1][0]:.2f} | {HELP_TARGET_S:g} |"
        )


if __name__ == "__main__":
    main()
