"""Where the apples go: who was nearest when each appeared, who ate it, and how fast each length eats.

``collect`` plays a line-up with seats rotating (the games of ``snakelab arena
tournament`` on the same run seed) and appends one JSON line a game: the result, each
seat's p99 move time, every snake's length every 100 steps, and every apple: the step it
appeared, its cell, each live head's Manhattan and path distance to it then (a body
cell k cells from its tail free from step k + 1, pending growth ignored; zombies and
obstacles block), every snake's length, who ate it (-1: a zombie destroyed it or it
expired) and when; and every death's player, step and cause (``ndeaths`` has the counts).
It resumes a file it finds part-written:

    python research/arena/intake.py collect t_s56.jsonl --seed 56 --games 10 --budget-ms 50 \
        --game 'arena(duration=150)' arena.champion arena.voronoi arena.voronoi arena.voronoi

``report`` reads such files and prints, by the eater's own length, apples eaten per 100
steps alive at that length, and how often the snake nearest a new apple (by Manhattan
and by path distance) ate it, for the first agent against the others together; then,
for snakes of ``--long`` cells or more that were alone nearest a new apple by path, what
became of it: they ate it, they ate another apple before it went, a zombie destroyed it
or it expired, or another snake ate it while they ate nothing:

    python research/arena/intake.py report research/arena/results/intake_contest_seed5*.jsonl.gz

``phases`` reads the same files and prints, for each part of the game (``--phase`` steps,
400 by default), apples eaten per 100 steps by the first agent, by the longest other
snake at the start of each 100 steps (its rival), and by the rest, as the first agent
leads or trails that rival; then, per game and split by whether the first agent won, how
many new apples each of it and the eventual longest other snake was alone nearest to by
path and ate, and how many it ate while another was nearest; then how often the snake
alone nearest ate the apple by its lead over the next snake, and what became of the
apples the first agent was alone nearest to and did not eat:

    python research/arena/intake.py phases research/arena/results/intake_10ms_seed5*.jsonl.gz

(``report`` and ``phases`` read gzip-compressed files too.)
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
from collections import deque
from collections.abc import Iterator
from typing import Any

from snakelab.core.registry import make, make_agent
from snakelab.harness.match import MatchSpec, play
from snakelab.harness.tournament import tournament_specs


def _board(st: Any) -> tuple[dict[int, int], set[int]]:
    """The step from which each body cell is free (``k + 1`` for the ``k``-th from its tail), and the blocked cells."""
    freet = {c: k + 1 for b in st.bodies for k, c in enumerate(list(b)[:-1])}
    blocked = {c for z in st.zombies for c in z} | {c for o in st.obstacles for c in o}
    return freet, blocked


def steps_from(st: Any, src: int, target: int, board: tuple[dict[int, int], set[int]] | None = None) -> int | None:
    """Breadth-first steps from cell ``src`` to ``target`` (None: no path).

    A body cell is free once its tail has passed, pending growth ignored; zombies and
    obstacles block (``board``: :func:`_board` of ``st``, when the caller has it).
    """
    w, h = st.config.game_width, st.config.game_height
    freet, blocked = board or _board(st)
    dist = {src: 0}
    q = deque([src])
    while q:
        c = q.popleft()
        if c == target:
            return dist[c]
        x, y, d1 = c % w, c // w, dist[c] + 1
        for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            m = ny * w + nx
            if 0 <= nx < w and 0 <= ny < h and m not in dist and m not in blocked and freet.get(m, 0) <= d1:
                dist[m] = d1
                q.append(m)
    return None


def path_dists(st: Any, target: int) -> list[int | None]:
    """Each live head's breadth-first distance to ``target`` (None: dead or no path; see :func:`steps_from`)."""
    board = _board(st)
    return [steps_from(st, b[-1], target, board) if st.alive[i] and b else None for i, b in enumerate(st.bodies)]


class _Recorder:
    """The ``on_step`` hook of one game: apples as they appear and go, lengths every 100 steps."""

    def __init__(self, rec: dict[str, Any]) -> None:
        self.rec = rec
        self.live: dict[int, dict[str, Any]] = {}  # apple slot -> its record

    def _gone(self, cell: list[int], eater: int, step: int) -> None:
        for slot, a in list(self.live.items()):
            if list(a["cell"]) == list(cell):
                a["eater"], a["eaten"] = eater, step
                del self.live[slot]
                return

    def __call__(self, st: Any, events: Any) -> None:
        for e in events:
            if e.kind == "death":
                self.rec["deaths"].append((e.player, st.steps, e.data["cause"]))
            if e.kind == "eat":
                self._gone(e.data["cell"], e.player, st.steps)
            elif e.kind in ("apple_destroyed", "apple_expired"):
                self._gone(e.data["cell"], -1, st.steps)
        w = st.config.game_width
        for slot, c in enumerate(st.apples):
            if c >= 0 and slot not in self.live:
                x, y = c % w, c // w
                md = [
                    abs(b[-1] % w - x) + abs(b[-1] // w - y) if st.alive[i] and b else None
                    for i, b in enumerate(st.bodies)
                ]
                a = {
                    "spawn": st.steps,
                    "cell": (x, y),
                    "dist": md,
                    "pdist": path_dists(st, c),
                    "len": [len(b) for b in st.bodies],
                    "eater": None,
                }
                self.rec["apples"].append(a)
                self.live[slot] = a
        if st.steps % 100 == 0:
            self.rec["lengths"].append((st.steps, [len(b) for b in st.bodies], list(st.longest)))


def lineup(agents: list[str], seed: int, games: int, game: str, budget_ms: float) -> list[tuple[MatchSpec, int]]:
    """The games ``snakelab arena tournament`` plays for these entries and run seed, with the first entry's seat."""
    specs, seats = tournament_specs(agents, len(agents), games, seed, game, budget_ms)
    return [(spec, seat.index(0)) for spec, seat in zip(specs, seats, strict=True)]


def play_spec(spec: MatchSpec, on_step: Any, agents: list[Any] | None = None) -> Any:
    """Play one of :func:`lineup`'s games, calling ``on_step``; ``agents`` built from ``spec.agents`` unless given."""
    return play(
        make(spec.game),
        agents if agents is not None else [make_agent(a) for a in spec.agents],
        spec.seed,
        agent_names=spec.agents,
        budget=spec.budget,
        measure=spec.measure,
        on_step=on_step,
    )


def _first_seat(rec: dict[str, Any]) -> int:
    """The first entry's seat in a recorded game (older records lack ``first``: game k seats it at k mod n)."""
    return int(rec.get("first", rec["k"] % len(rec["names"])))


def collect(args: argparse.Namespace) -> None:
    """Play the line-up's games and append one JSON line per game to ``args.out``."""
    try:
        with open(args.out) as f:
            done = sum(1 for _ in f)
    except FileNotFoundError:
        done = 0
    for k, (spec, first) in enumerate(lineup(args.agents, args.seed, args.games, args.game, args.budget_ms)):
        if k < done:
            continue
        names = spec.agents
        rec: dict[str, Any] = {
            "k": k,
            "seed": spec.seed,
            "names": names,
            "first": first,
            "apples": [],
            "lengths": [],
            "deaths": [],
        }
        r = play_spec(spec, _Recorder(rec))
        d = r.outcome.details
        timing = r.to_json()["move_timing"]  # the harness's own mean, p99 and max per seat
        p99 = [t["p99_ms"] if isinstance(t, dict) else None for t in timing]
        rec.update(winner=r.outcome.winner, longest=d["longest"], kills=d["kills"], ndeaths=d["deaths"], p99=p99)
        with open(args.out, "a") as f:
            f.write(json.dumps(rec) + "\n")
        print(f"game {k}: winner {names[r.outcome.winner]} longest {d['longest']} deaths {d['deaths']}", flush=True)


def _nearest(d: list[int | None]) -> list[int]:
    """The snakes at the least distance in ``d`` (None: dead or no path)."""
    live = [i for i, v in enumerate(d) if v is not None]
    best = min((d[i] for i in live), default=None)
    return [i for i in live if d[i] == best]


def _records(paths: list[str]) -> Iterator[dict[str, Any]]:
    """Every game record of the files (gzip-compressed or not)."""
    for path in paths:
        with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
            for line in f:
                yield json.loads(line)


def report(args: argparse.Namespace) -> None:
    """Intake rates and nearest-snake conversions by own length: the first agent against the rest."""
    eat: collections.Counter[tuple[str, int]] = collections.Counter()
    alive: collections.Counter[tuple[str, int]] = collections.Counter()
    near = {key: collections.Counter[tuple[str, int]]() for key in ("dist", "pdist")}
    conv = {key: collections.Counter[tuple[str, int]]() for key in ("dist", "pdist")}
    fate: collections.Counter[tuple[str, str]] = collections.Counter()
    games = wins = 0
    for r in _records(args.files):
        games += 1
        first = _first_seat(r)
        wins += r["winner"] == first

        def side(i: int, first: int = first) -> str:
            return "first" if i == first else "others"

        for a in r["apples"]:
            e = a["eater"]
            if e is None or e < 0:
                continue
            eat[(side(e), a["len"][e] // args.bucket)] += 1
            for key in ("dist", "pdist"):
                ties = _nearest(a.get(key, []))  # files of the first version have no path distances
                for i in ties:
                    b = (side(i), a["len"][i] // args.bucket)
                    near[key][b] += 1 / len(ties)
                    conv[key][b] += (e == i) / len(ties)
        eaten_at = collections.defaultdict(list)
        for a in r["apples"]:
            if a["eater"] is not None and a["eater"] >= 0:
                eaten_at[a["eater"]].append(a["eaten"])
        for a in r["apples"]:
            ties = _nearest(a.get("pdist", []))
            if a["eater"] is None or len(ties) != 1 or a["len"][ties[0]] < args.long:
                continue
            i = ties[0]
            if a["eater"] == i:
                what = "ate it"
            elif any(a["spawn"] <= t <= a["eaten"] for t in eaten_at[i]):
                what = "ate another first"
            elif a["eater"] < 0:
                what = "destroyed or expired"
            else:
                what = "lost it, ate nothing"
            fate[(side(i), what)] += 1
        for _, lens, _ in r["lengths"]:
            for i, length in enumerate(lens):
                if length:
                    alive[(side(i), length // args.bucket)] += 100
    print(f"{games} games; the first agent won {wins}")
    print("own length | apples per 100 steps alive: first / others | nearest ate it (Manhattan; path): first / others")
    for b in sorted({k[1] for k in alive}):
        cells = []
        for s in ("first", "others"):
            rate = 100 * eat[(s, b)] / alive[(s, b)] if alive[(s, b)] else float("nan")
            cv = [conv[k][(s, b)] / near[k][(s, b)] if near[k][(s, b)] else float("nan") for k in ("dist", "pdist")]
            cells.append(f"{rate:.2f} ({alive[(s, b)] // 100} samples) {cv[0]:.2f}; {cv[1]:.2f}")
        print(f"{b * args.bucket:3d}-{(b + 1) * args.bucket - 1:3d} | " + " / ".join(cells))
    for s in ("first", "others"):
        total = sum(v for (who, _), v in fate.items() if who == s)
        if total:
            parts = ", ".join(f"{what} {100 * v / total:.0f} %" for (who, what), v in sorted(fate.items()) if who == s)
            print(f"{s}, {args.long}+ cells, alone nearest by path ({total} apples): {parts}")


def phases(args: argparse.Namespace) -> None:
    """Intake by part of the game (the first agent, its rival, the rest) and nearest apples in won and lost games."""
    rate: collections.Counter[tuple[int, str, str]] = collections.Counter()  # (phase, lead, role) -> apples
    windows: collections.Counter[tuple[int, str, str]] = collections.Counter()
    split: dict[bool, collections.Counter[str]] = {True: collections.Counter(), False: collections.Counter()}
    games = {True: 0, False: 0}
    by_lead: collections.Counter[tuple[str, str]] = collections.Counter()  # (side, lead bucket) -> nearest
    lead_ate: collections.Counter[tuple[str, str]] = collections.Counter()
    lost: collections.Counter[str] = collections.Counter()
    named: collections.Counter[int] = collections.Counter()  # phase -> windows whose rival is the final leader
    ph_windows: collections.Counter[int] = collections.Counter()  # phase -> windows (one per game)
    for r in _records(args.files):
        n = len(r["names"])
        first = _first_seat(r)
        others = [i for i in range(n) if i != first]
        eaten_at = collections.defaultdict(list)
        for a in r["apples"]:
            if a["eater"] is not None and a["eater"] >= 0:
                eaten_at[a["eater"]].append(a["eaten"])
        end = max(t for t, _, _ in r["lengths"])
        final = max(others, key=lambda i: r["longest"][i])
        for t, _, longest in r["lengths"]:
            if t >= end:
                continue  # the game's last record starts no window
            rival = max(others, key=lambda i: longest[i])
            lead = "leads" if longest[first] >= longest[rival] else "trails"
            named[t // args.phase] += rival == final
            ph_windows[t // args.phase] += 1
            for i in range(n):
                role = "first" if i == first else "rival" if i == rival else "others"
                windows[(t // args.phase, lead, role)] += 1
                rate[(t // args.phase, lead, role)] += sum(1 for e in eaten_at[i] if t < e <= t + 100)
        won = r["winner"] == first
        games[won] += 1
        for a in r["apples"]:
            e, ties = a["eater"], _nearest(a.get("pdist", []))
            if e is None or not ties:
                continue
            d = a["pdist"]
            rest = [d[i] for i in range(n) if i != ties[0] and d[i] is not None]
            if len(ties) == 1 and rest:
                gap = min(rest) - d[ties[0]]
                bucket = "1-2" if gap <= 2 else "3-4" if gap <= 4 else "5-7" if gap <= 7 else "8+"
                side = "first" if ties[0] == first else "others"
                by_lead[(side, bucket)] += 1
                lead_ate[(side, bucket)] += e == ties[0]
                if ties[0] == first and e != first:
                    if any(a["spawn"] < t <= a["eaten"] for t in eaten_at[first]):
                        lost["it ate another apple first"] += 1
                    elif e < 0:
                        lost["a zombie destroyed it or it expired"] += 1
                    else:
                        lost["another snake ate it while it ate nothing"] += 1
            for who, i in (("first", first), ("leader", final)):
                if ties == [i]:
                    split[won][f"{who} nearest"] += 1
                    split[won][f"{who} nearest, ate it"] += e == i
                elif e == i:
                    split[won][f"{who} ate, another nearer"] += 1
    print(f"apples per 100 steps, by part of the game ({args.phase} steps) and whether the first agent leads its rival")
    for key in sorted(windows):
        ph, lead, role = key
        per100 = rate[key] / windows[key]
        print(f"  steps {ph * args.phase:5d}+ {lead:6s} {role:6s} {per100:.2f} ({windows[key]} windows)")
    print(
        "windows whose rival is the longest other snake at the end: "
        + ", ".join(f"steps {p * args.phase}+ {named[p] / ph_windows[p]:.2f}" for p in sorted(ph_windows))
    )
    for won in (True, False):
        g = games[won]
        if g:
            parts = ", ".join(f"{k} {v / g:.1f}" for k, v in sorted(split[won].items()))
            print(f"games the first agent {'won' if won else 'lost'} ({g}), per game: {parts}")
    print("the snake alone nearest ate it, by its lead in steps over the next snake: first / others")
    for bucket in ("1-2", "3-4", "5-7", "8+"):
        cells = [
            f"{lead_ate[(s, bucket)] / by_lead[(s, bucket)]:.2f} of {by_lead[(s, bucket)]}" for s in ("first", "others")
        ]
        print(f"  {bucket:4s} " + " / ".join(cells))
    total = sum(games.values())
    print(
        "apples the first agent was alone nearest to and did not eat, per game: "
        + ", ".join(f"{k} {v / total:.2f}" for k, v in sorted(lost.items()))
    )


def main() -> None:
    """Parse the command line and run ``collect``, ``report`` or ``phases``."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect", help="play a line-up and record where the apples go")
    c.add_argument("out")
    c.add_argument("agents", nargs="+")
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--games", type=int, default=10)
    c.add_argument("--budget-ms", type=float, default=50.0)
    c.add_argument("--game", default="arena(duration=150)")
    r = sub.add_parser("report", help="intake rates and conversions from collected files")
    r.add_argument("files", nargs="+")
    r.add_argument("--bucket", type=int, default=25)
    r.add_argument("--long", type=int, default=100)
    ph = sub.add_parser("phases", help="intake by part of the game, and nearest apples in won and lost games")
    ph.add_argument("files", nargs="+")
    ph.add_argument("--phase", type=int, default=400)
    args = p.parse_args()
    {"collect": collect, "report": report, "phases": phases}[args.cmd](args)


if __name__ == "__main__":
    main()
