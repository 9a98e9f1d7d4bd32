"""The lean contest program: ``snakgame_client`` (also ``snakelab snakgame client``).

A contest program is judged on its own CPU time (the contest allowed 4 s per file, the
start-up included), so this module imports only what the dialogue needs: numpy and the
champion's compiled kernels (:mod:`~snakelab.games.snakgame.policy`, loaded from numba's
on-disk cache; importing numba is most of the start-up). No command-line framework, no
registry, no harness. A move is one call into compiled code (:func:`~.policy.play_turn`
applies Chef's cell, chooses and applies the move) between a ``readline`` on the raw
standard input and one ``os.write``.

**Its own CPU clock.** The champion keeps ``time.process_time`` (its whole CPU time, the
start-up included) and plans to finish well inside ``--time-limit`` (default 4 s): every
:data:`CHECK_EVERY` moves it projects the rest of the game (about half the free cells are
still its moves) at the recent cost per move; when the projection passes
:data:`PLAN_SHARE` of the limit it drops one work level (the same policy with searches
4 × smaller), and when the time actually used comes within :data:`EXIT_SHARE` of the
limit it plays ``EXIT``, which keeps every snake made so far (the score counts them all).

Other agents (``--agent editorial``, ...) are played by the in-process agent through
:func:`~snakelab.games.snakgame.codec.run_client`: correct, but not lean.
"""

from __future__ import annotations

import os
import sys
import time
from typing import IO

USAGE = """\
usage: snakelab snakgame client [--agent NAME] [--seed N] [--time-limit SEC]
       (also: snakgame_client ...)

Speak the CodeChef SNAKGAME protocol on standard input and output: one game.

options:
  --agent, -a NAME    the agent (default champion; the others run in-process, not lean)
  --seed, -s N        seed of the agent's own randomness (default 0)
  --time-limit SEC    the CPU seconds the champion plans to finish in (default 4, the
                      contest's); it ends the game with EXIT rather than run over
  --help              show this message
"""

#: Moves between two looks at the CPU clock.
CHECK_EVERY = 512

#: The champion drops a work level when its projected CPU time passes this share of the limit.
PLAN_SHARE = 0.75

#: The champion plays EXIT when its CPU time passes this share of the limit.
EXIT_SHARE = 0.85

#: Work levels the champion can drop to (see :mod:`~snakelab.games.snakgame.policy`).
MAX_LEVEL = 3


class UsageError(Exception):
    """Bad command-line options or unreadable judge input (exit code 2)."""


def _options(argv: list[str]) -> dict[str, str]:
    """Parse ``--agent``, ``--seed``, ``--time-limit`` and ``--help``."""
    names = {"--agent": "agent", "-a": "agent", "--seed": "seed", "-s": "seed", "--time-limit": "time_limit"}
    out = {"agent": "champion", "seed": "0", "time_limit": "4"}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("--help", "-h"):
            out["help"] = "1"
            i += 1
            continue
        key, eq, value = arg.partition("=")
        if key not in names:
            raise UsageError(f"no such option: {arg}")
        if not eq:
            if i + 1 >= len(argv):
                raise UsageError(f"option {key} requires an argument")
            value = argv[i + 1]
            i += 1
        out[names[key]] = value
        i += 1
    return out


def _read_header(inp: IO[bytes]) -> tuple[int, int, list[int]]:
    """``n m K`` and the K blocked cells, as 0-based cell numbers."""
    first = inp.readline()
    try:
        n, m, k = (int(v) for v in first.split())
    except ValueError:
        what = first.decode(errors="replace").strip()
        raise UsageError(f"cannot read the grid line {what!r}: expected 'n m K'") from None
    if n < 1 or m < 1 or k < 0:
        raise UsageError(f"the grid line {first.decode(errors='replace').strip()!r} gives no grid")
    cells = []
    for i in range(k):
        line = inp.readline()
        try:
            x, y = (int(v) for v in line.split())
        except ValueError:
            what = line.decode(errors="replace").strip()
            raise UsageError(f"cannot read blocked cell {i + 1} of {k}, {what!r}: expected 'x y'") from None
        if not (1 <= x <= n and 1 <= y <= m):
            raise UsageError(f"blocked cell ({x}, {y}) is off the {n}×{m} grid")
        cells.append((x - 1) * m + y - 1)
    return n, m, cells


def _chef_cell(line: bytes, m: int) -> int:
    """The cell a judge line takes (-1 for FREEZE), -2 for EXIT; an unreadable line is an error."""
    kind = line[:1]
    try:
        if kind == b"M":
            parts = line.split()
            if len(parts) == 5 and parts[0] == b"MOVE":
                return (int(parts[3]) - 1) * m + int(parts[4]) - 1
        elif kind == b"N":
            parts = line.split()
            if len(parts) == 3 and parts[0] == b"NEW":
                return (int(parts[1]) - 1) * m + int(parts[2]) - 1
        elif kind == b"F" and line.startswith(b"FREEZE"):
            return -1
        elif line.strip() == b"EXIT":
            return -2
    except ValueError:
        pass
    raise UsageError(f"cannot read the judge's move {line.decode(errors='replace').strip()!r}")


def play_champion(inp: IO[bytes], out_fd: int, seed: int, time_limit: float) -> int:
    """Play one game as the champion on raw streams; returns the moves made."""
    import numpy as np

    from snakelab.games.snakgame.policy import (
        P_FREE,
        P_LEVEL,
        STUCK,
        ChampionParams,
        new_memory,
        play_turn,
        start_snake,
    )

    n, m, blocked = _read_header(inp)
    size = n * m
    occ = np.zeros(size, np.uint8)
    occ[blocked] = 1
    free = size - int(occ.sum())
    p = new_memory(n, m, free, seed, ChampionParams())
    mark = np.zeros(size, np.int64)
    queue = np.empty(4 * size, np.int32)
    readline, write, clock = inp.readline, os.write, time.process_time
    plan_s, exit_s = PLAN_SHARE * time_limit, EXIT_SHARE * time_limit
    chef, moves = -1, 0
    last_t, check_at = clock(), CHECK_EVERY
    while True:
        if moves >= check_at:
            now = clock()
            per_move = (now - last_t) / CHECK_EVERY
            last_t, check_at = now, moves + CHECK_EVERY
            if now + 2 * CHECK_EVERY * per_move > exit_s:
                write(out_fd, b"EXIT\n")  # every snake made so far keeps its score
                return moves
            left = 0.52 * int(p[P_FREE])  # about half the free cells are still our moves
            if now + left * per_move > plan_s and p[P_LEVEL] < MAX_LEVEL:
                p[P_LEVEL] += 1
        code = play_turn(occ, p, mark, queue, chef)
        if code >= 0:
            e, t = divmod(code, size)
            write(out_fd, b"MOVE %d %d %d %d\n" % (e // m + 1, e % m + 1, t // m + 1, t % m + 1))
        elif code == STUCK:
            c = start_snake(occ, p, mark, queue)
            write(out_fd, b"NEW %d %d\n" % (c // m + 1, c % m + 1))
        else:  # the grid is full
            write(out_fd, b"EXIT\n")
            return moves
        moves += 1
        if moves == 1:
            # The first move loaded the kernels from numba's cache and labelled the grid:
            # the cost per move is measured from here on.
            last_t, check_at = clock(), 1 + CHECK_EVERY
        line = readline()
        # Chef's reply, read inline (this loop runs up to ~180,000 times in a file).
        head = line[:1]
        if head in (b"M", b"N"):
            parts = line.split()
            try:
                chef = (int(parts[-2]) - 1) * m + int(parts[-1]) - 1
            except (ValueError, IndexError):
                chef = -1
            if len(parts) != (5 if head == b"M" else 3) or parts[0] not in (b"MOVE", b"NEW"):
                _chef_cell(line, m)  # raises, naming the line
            if not 0 <= chef < size or occ[chef]:
                what = line.decode(errors="replace").strip()
                raise UsageError(f"the judge's move {what!r} does not take an empty cell of this grid")
        elif head == b"F":
            chef = -1
        elif not line:
            return moves  # the judge hung up
        elif _chef_cell(line, m) == -2:
            return moves  # EXIT


def _play_agent(agent: str, seed: int) -> None:
    """Any registered agent through the in-process client loop (not lean)."""
    from snakelab.core.registry import make_agent
    from snakelab.games.snakgame.codec import run_client

    ref = agent if agent.startswith("snakgame.") else f"snakgame.{agent}"
    run_client(make_agent(ref), ref, sys.stdin, sys.stdout, seed=seed)


def main(argv: list[str] | None = None) -> int:
    """The contest program's entry point; returns the exit code (0, or 2 for bad usage or input)."""
    args = sys.argv[1:] if argv is None else argv
    try:
        opts = _options(list(args))
        if "help" in opts:
            sys.stdout.write(USAGE)
            return 0
        try:
            seed = int(opts["seed"])
            limit = float(opts["time_limit"])
        except ValueError:
            raise UsageError("--seed takes an integer and --time-limit a number of seconds") from None
        if not limit > 0:
            raise UsageError("--time-limit must be > 0")
        agent = opts["agent"].removeprefix("snakgame.")
        if agent == "champion":
            sys.stdout.flush()
            play_champion(sys.stdin.buffer, sys.stdout.fileno(), seed, limit)
        else:
            _play_agent(agent, seed)
    except UsageError as exc:
        sys.stderr.write(f"error: {' '.join(str(exc).split())} (see snakelab snakgame client --help)\n")
        return 2
    except BrokenPipeError:
        sys.stderr.write("error: the judge closed the connection\n")
        return 2
    except Exception as exc:
        from snakelab.core.errors import SnakelabError

        if isinstance(exc, SnakelabError):
            sys.stderr.write(f"error: {' '.join(str(exc).split())}\n")
            return 2
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
