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


def cpu_seconds(argv: list[str], stdin: str | None = None, source: str | None = None) -> float:
    """User + system CPU seconds of one run of ``argv`` (its children included).

    ``source``: a ``src`` folder of another commit to run instead of this one (it comes
    first on ``PYTHONPATH``, before the installed working copy).
    """
    env = None if source is None else {**os.environ, "PYTHONPATH": source}
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
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
    ap.add_argument(
        "--before",
        metavar="SRC",
        default=None,
        help="the src folder of an earlier commit (git archive COMMIT src | tar -x -C DIR), measured alongside",
    )
    args = ap.parse_args()
    todo = commands(args.only)
    sources = [None] if args.before is None else [None, str(Path(args.before).resolve())]
    for source in sources:  # warm the numba caches and the file cache
        for _, _, argv, stdin, _ in todo:
            cpu_seconds(argv, stdin, source)
    best = {(i, source): float("inf") for i in range(len(todo)) for source in sources}
    for _ in range(args.repeat):
        for i, (_, _, argv, stdin, _) in enumerate(todo):
            for source in sources:  # side by side: each command before and after in turn
                best[i, source] = min(best[i, source], cpu_seconds(argv, stdin, source))
    now = [best[i, None] for i in range(len(todo))]
    before = [best[i, sources[-1]] for i in range(len(todo))] if args.before else None
    cols = " | before s | ratio" if before else ""
    print(f"| command | CPU s (best of {args.repeat}){cols} | target s | within |")
    print("|---|---:|" + ("---:|---:|" if before else "") + "---:|---|")
    for i, ((_, shown, _, _, target), seconds) in enumerate(zip(todo, now, strict=True)):
        extra = f" | {before[i]:.2f} | {before[i] / seconds:.1f}×" if before else ""
        print(f"| `{shown}` | {seconds:.2f}{extra} | {target:g} | {'yes' if seconds <= target else '**no**'} |")
    over = [shown for (_, shown, _, _, target), s in zip(todo, now, strict=True) if s > target]
    print(f"\n{len(todo) - len(over)} of {len(todo)} within their targets\n")
    summary(todo, now, before)


def summary(
    todo: list[tuple[str, str, list[str], str | None, float]], now: list[float], before: list[float] | None
) -> None:
    """The short table of docs/benchmarks.md: the verbs' ``--help`` as a spread, the rest as they are."""
    cols = " | before s" if before else ""
    print(f"| start-up | CPU s{cols} | target s |")
    print("|---|---:|" + ("---:|" if before else "") + "---:|")
    helps: list[int] = []
    for i, (kind, shown, _, _, target) in enumerate(todo):
        if kind == "help" and shown.startswith("snakelab ") and shown != "snakelab --help":
            helps.append(i)
            continue
        extra = f" | {before[i]:.2f}" if before else ""
        print(f"| `{shown}` | {now[i]:.2f}{extra} | {target:g} |")
    if helps:

        def spread(values: list[float]) -> str:
            ranked = sorted(values)
            return f"{ranked[0]:.2f}, {ranked[len(ranked) // 2]:.2f}, {ranked[-1]:.2f}"

        slowest = todo[max(helps, key=lambda i: now[i])][1]
        extra = f" | {spread([before[i] for i in helps])}" if before else ""
        print(
            f"| `--help` of the {len(helps)} groups and verbs: fastest, median, slowest (`{slowest}`) "
            f"| {spread([now[i] for i in helps])}{extra} | {HELP_TARGET_S:g} |"
        )


if __name__ == "__main__":
    main()
