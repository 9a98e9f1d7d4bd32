"""``snakelab hextris``: play one game, bench (solve) problems, score solutions exactly, show boards.

``play`` is one game, one seed of one problem: an agent solves it and the game is
replayed lock by lock in the terminal (``--agent human`` plays it with the keys).
``bench`` is ``solve`` under the shared verb name: every seed of the problems given,
per-problem scores and a total, the solution file as its store (``--out``, ``--resume``).

Why one module: it is the one command group of one game (``snakelab hextris``), as every
game has its own; its verbs share the problem loading, the error reporting and the
solution files, and the long parts (``solve``'s worker tasks and Ctrl-C handling, the
terminal replay of ``show`` and ``play``) serve those verbs alone.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from snakelab.cli._grammar import CHECK_FAILED, INTERRUPTED, USAGE, interrupt_code, options_command, refuse_given
from snakelab.cli.common import (
    EXECUTOR_HELP,
    advance,
    check_writable,
    console,
    err_console,
    fail,
    print_json,
    progress_bar,
)
from snakelab.core.errors import CodecError, ConfigError, IllegalActionError, SnakelabError

if TYPE_CHECKING:
    from snakelab.games.hextris.codec import Problem, SolutionEntry
    from snakelab.games.hextris.rules import Sim

NAME = "hextris"
app = typer.Typer(
    help="ICFP 2015 hexagonal Tetris: play one game, bench (solve) problems, score solutions, show boards.",
    no_args_is_help=True,
)

PROBLEMS_HELP = "Directory of problem_K.json files (default: $SNAKELAB_ICFP2015_PROBLEMS, else the 25 shipped)."


def _problems_dir(problems: Path | None) -> Path:
    from snakelab.games.hextris.codec import find_problems_dir

    try:
        return problems if problems is not None else find_problems_dir()
    except CodecError as exc:
        fail(str(exc))


def _load(pid: int, problems: Path | None) -> Problem:
    from snakelab.games.hextris.codec import load_problem_id

    return load_problem_id(pid, _problems_dir(problems))


def _warn(msg: str) -> None:
    sys.stderr.write(f"error: {' '.join(msg.split())}\n")


@app.command("score")
def score_cmd(
    solutions: list[Path] = typer.Argument(
        ...,
        help=(
            "Solution JSON files (lists of problemId/seed/solution). Entries are taken in order, files "
            "first to last: a later entry for the same problem and seed replaces the earlier one, "
            "with a warning on standard error."
        ),
    ),
    problems: Path | None = typer.Option(None, "--problems", help=PROBLEMS_HELP),
    as_json: bool = typer.Option(
        False, "--json", help="Print a JSON list of per-problem objects: problemId, score, phrases, seeds."
    ),
) -> None:
    """Score solutions exactly as the official scorer: per seed and per problem.

    A malformed file, an unknown problem or a bad problem file gives a one-line message
    on standard error (exit code 2, bad input) and everything else is still scored. A
    solution that stops with an error (a seed the problem lacks, a character outside the
    alphabet, a repeated placement) is scored up to the error, and the command exits 1. When several
    entries (in one file or across files) give the same problem and seed, the last one
    is scored, as the contest's server kept the last submission, and each replaced
    entry is named in a warning.
    """
    from snakelab.games.hextris.codec import load_solutions
    from snakelab.games.hextris.scoring import ProblemScore, score_problem

    entries: list[SolutionEntry] = []
    problems_failed = False
    first_seen: dict[tuple[int, int], str] = {}
    for path in solutions:
        try:
            loaded = load_solutions(path)
        except CodecError as exc:
            _warn(str(exc))
            problems_failed = True
            continue
        for i, e in enumerate(loaded):
            where = f"{path} entry {i}"
            key = (e.problem_id, e.seed)
            if key in first_seen:
                sys.stderr.write(f"warning: problem {e.problem_id} seed {e.seed}: {where} replaces {first_seen[key]}\n")
            first_seen[key] = where
        entries.extend(loaded)
    by_problem: dict[int, list[SolutionEntry]] = defaultdict(list)
    for e in entries:
        by_problem[e.problem_id].append(e)
    results: list[ProblemScore] = []
    for pid in sorted(by_problem):
        try:
            prob = _load(pid, problems)
        except CodecError as exc:
            _warn(f"problem {pid} not scored ({len(by_problem[pid])} solutions): {exc}")
            problems_failed = True
            continue
        results.append(score_problem(prob, by_problem[pid]))
    if as_json:
        print_json([r.to_json() for r in results])
    else:
        for r in results:
            table = Table(title=f"problem {r.problem_id}: score {r.score}, {r.phrases} distinct phrases")
            for col in ("seed", "move", "power", "total", "phrases", "error"):
                table.add_column(col, justify="right" if col != "error" else "left")
            for s in r.seeds:
                table.add_row(
                    str(s.seed), str(s.move_score), str(s.power_score), str(s.score), str(s.phrases), s.error or ""
                )
            console.print(table)
        if results:
            console.print(f"total over {len(results)} problems: {sum(r.score for r in results)}")
    if problems_failed:
        raise typer.Exit(USAGE)
    stopped = [(r.problem_id, sd.seed) for r in results for sd in r.seeds if sd.error]
    if stopped:
        # Scored as the contest scored them (up to the error), but the check failed.
        games = ", ".join(f"problem {p} seed {sd}" for p, sd in stopped[:5]) + (" …" if len(stopped) > 5 else "")
        _warn(f"{len(stopped)} solution(s) stop with an error: {games}")
        raise typer.Exit(CHECK_FAILED)


def _solve_game(task: tuple[Problem, int, str, float]) -> SolutionEntry:
    """Solve one game (a problem and one of its seeds) with the chosen solver."""
    from snakelab.games.hextris.codec import SolutionEntry
    from snakelab.games.hextris.scoring import PHRASES
    from snakelab.games.hextris.solver import SEED_PHRASES, solve_champion, solve_seed_method

    prob, seed, agent, seconds = task
    if agent == "seed":
        sol = solve_seed_method(prob, seed, SEED_PHRASES)
    else:
        sol = solve_champion(prob, seed, seconds, PHRASES)
    return SolutionEntry(prob.id, seed, sol.solution, f"snakelab-{agent}")


def _solve_spec_game(task: tuple[Problem, int, str]) -> SolutionEntry:
    """Solve one game with a recorded solver spec; the tag records spec, CPU seconds, score."""
    from snakelab.games.hextris.codec import SolutionEntry
    from snakelab.games.hextris.solver_spec import SolverSpec, solve_spec

    prob, seed, text = task
    sol, rec = solve_spec(prob, seed, SolverSpec.parse(text))
    return SolutionEntry(prob.id, seed, sol.solution, rec.tag())


def _solve_task(task: tuple[Problem, int, str, float, str | None]) -> SolutionEntry:
    """One game of ``solve``: by solver spec when one is given, else by agent and clock."""
    prob, seed, agent, seconds, spec = task
    if spec is not None:
        return _solve_spec_game((prob, seed, spec))
    return _solve_game((prob, seed, agent, seconds))


def _specs_from(path: Path, probs: dict[int, Problem]) -> dict[tuple[int, int], str]:
    """The solver spec recorded in ``path``'s tag for each (problem, seed) it holds."""
    from snakelab.games.hextris.codec import load_solutions
    from snakelab.games.hextris.solver_spec import parse_tag

    try:
        entries = load_solutions(path)
    except CodecError as exc:
        fail(f"cannot read specs from {path}: {exc}")
    out: dict[tuple[int, int], str] = {}
    for e in entries:
        rec = parse_tag(e.tag)
        if rec is not None and e.problem_id in probs:
            out[(e.problem_id, e.seed)] = rec.spec.text()
    return out


def _init_solver_worker() -> None:
    # Compile the kernels once per worker, before its first game's clock starts.
    from snakelab.games.hextris.solver import warm_up

    warm_up()


def _write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` in one step, so an interrupted run never leaves half a file."""
    part = path.with_name(path.name + ".part")
    part.write_text(text)
    os.replace(part, path)


@dataclass(frozen=True)
class SolveOptions:
    """``hextris solve``'s (and ``bench``'s) options: the problems, the solver and the run."""

    problem: Annotated[list[int], typer.Argument(help="Problem ids.")]
    agent: Annotated[str, typer.Option("--agent", "-a", help="seed or champion.")] = "champion"
    seconds: Annotated[float, typer.Option("--seconds", "-t", help="Seconds per seed (champion).")] = 5.0
    spec: Annotated[
        str | None,
        typer.Option("--spec", help="Solve with this solver spec and no clock, e.g. 'champion(width=8,random=20)'."),
    ] = None
    spec_from: Annotated[
        Path | None,
        typer.Option("--spec-from", help="Solve each game with the spec recorded in this solution file's tag for it."),
    ] = None
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Games solved at once (worker processes).")] = 1
    executor: Annotated[str | None, typer.Option("--executor", help=EXECUTOR_HELP.replace("matches", "games"))] = None
    problems: Annotated[Path | None, typer.Option("--problems", help=PROBLEMS_HELP)] = None
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write the solution JSON here (after every game).")
    ] = None
    resume: Annotated[bool, typer.Option("--resume", help="Keep the games already in --out; solve only the rest.")] = (
        False
    )


@app.command("solve")
@options_command(SolveOptions)
def solve_cmd(ctx: typer.Context, o: SolveOptions) -> None:
    """Solve problems with a solver of the ladder and print the per-problem scores.

    Every seed of every problem is one game. With ``--out`` the file is rewritten after
    each finished game; Ctrl-C lets the games in progress finish and keeps them, and
    ``--resume`` carries on from such a file (its entries are kept as they are).
    On a Dask executor a Ctrl-C keeps the finished games and drops those still on the
    cluster (a Dask task cannot be told to finish and then stop); ``--resume`` redoes them.

    ``--spec`` solves with a solver spec (``snakelab.games.hextris.solver_spec``) instead
    of an agent and a clock: the string is the same on any machine, and each entry's tag
    records the spec, the CPU seconds and the score. ``--spec-from FILE`` re-solves each
    game with the spec recorded in FILE (a keep-best store file, say), which reproduces
    the stored string.
    """
    problem, agent, seconds, spec, spec_from, jobs, executor, problems, out, resume = (
        o.problem,
        o.agent,
        o.seconds,
        o.spec,
        o.spec_from,
        o.jobs,
        o.executor,
        o.problems,
        o.out,
        o.resume,
    )
    from snakelab.games.hextris.codec import format_solutions, load_solutions
    from snakelab.games.hextris.scoring import score_problem
    from snakelab.harness.executors import make_executor
    from snakelab.harness.parallel import parallel_map, sigterm_as_interrupt

    check_writable(out)
    spec_texts: dict[tuple[int, int], str] = {}
    if spec is not None or spec_from is not None:
        try:
            refuse_given(ctx, ["agent", "seconds"], "a solver spec names the solver and its budget")
            if spec is not None and spec_from is not None:
                raise ConfigError("--spec and --spec-from exclude each other")
            if spec is not None:
                from snakelab.games.hextris.solver_spec import SolverSpec

                spec = SolverSpec.parse(spec).text()
        except SnakelabError as exc:
            fail(str(exc))
    if agent not in ("seed", "champion"):
        fail(f"unknown hextris solver {agent!r}: use seed or champion")
    if agent == "seed":
        try:
            refuse_given(ctx, ["seconds"], "the seed solver takes no time budget; --seconds is for --agent champion")
        except SnakelabError as exc:
            fail(str(exc))
    if jobs < 1:
        fail(f"--jobs must be at least 1, got {jobs}")
    if not seconds > 0:
        fail(f"--seconds must be positive, got {seconds}")
    if resume and out is None:
        fail("--resume needs --out: the solution file to carry on from")
    probs: dict[int, Problem] = {}
    for pid in dict.fromkeys(problem):
        try:
            probs[pid] = _load(pid, problems)
        except CodecError as exc:
            fail(str(exc))
    done: dict[tuple[int, int], SolutionEntry] = {}
    if resume and out is not None and out.exists():
        try:
            done = {(e.problem_id, e.seed): e for e in load_solutions(out)}
        except CodecError as exc:
            fail(f"cannot resume from {out}: {exc}")
    games = [(p, s) for p in probs.values() for s in dict.fromkeys(p.source_seeds)]
    if spec_from is not None:
        spec_texts = _specs_from(spec_from, probs)
        missing = [f"{p.id}/{s}" for p, s in games if (p.id, s) not in spec_texts]
        if missing:
            more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
            fail(f"{spec_from} records no solver spec for problem/seed {', '.join(missing[:5])}{more}")
    todo = [(p, s, agent, seconds, spec_texts.get((p.id, s), spec)) for p, s in games if (p.id, s) not in done]
    if done:
        console.print(f"{len(games) - len(todo)} of {len(games)} games already in {out}")

    rank = {(p.id, s): i for i, (p, s) in enumerate(games)}

    def finished(entry: SolutionEntry) -> None:
        done[(entry.problem_id, entry.seed)] = entry
        if out is not None:
            # Entries of other problems in a resumed file first, then the games in order.
            keys = sorted(done, key=lambda k: rank.get(k, -1))
            _write_atomically(out, format_solutions([done[k] for k in keys]))

    # Ctrl-C asks to stop after the games in progress (a second one stops at once): a game
    # cut short would be lost anyway, and compiled code must not be interrupted mid-call.
    # The pool, its workers and both kinds of stop are the harness's parallel map.
    stop = threading.Event()
    stopped_by: BaseException | None = None
    try:
        pool = make_executor(executor, jobs) if todo else None
    except SnakelabError as exc:
        fail(str(exc))
    on_cluster = pool is not None  # a Dask executor: its running tasks cannot finish first

    def on_sigint(_signum: int, _frame: object) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        if on_cluster:
            err_console.print("stopping: the games still on the cluster are dropped")
        else:
            err_console.print("stopping after the games in progress (Ctrl-C again to stop at once)")

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        with (
            sigterm_as_interrupt(),
            progress_bar(len(todo), f"solving ({agent if spec is None and spec_from is None else 'spec'})") as prog,
        ):
            games_done = parallel_map(_solve_task, todo, pool, jobs=jobs, initializer=_init_solver_worker, stop=stop)
            for _, entry in games_done:
                finished(entry)
                advance(prog)
    except KeyboardInterrupt as exc:
        stop.set()
        stopped_by = exc
    finally:
        signal.signal(signal.SIGINT, previous)
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    written = sum(key in done for key in rank)
    if written < len(games):
        kept = f"; {written} of {len(games)} games are in {out}, add --resume to finish" if out else ""
        err_console.print(f"interrupted{kept}")
        raise typer.Exit(INTERRUPTED if stopped_by is None else interrupt_code(stopped_by))
    total = 0
    for pid, prob in probs.items():
        res = score_problem(prob, [done[(pid, s)] for s in dict.fromkeys(prob.source_seeds)])
        total += res.score
        console.print(f"problem {pid}: {res.score} ({res.phrases} phrases)")
    if len(probs) > 1:
        console.print(f"total {total} over {len(probs)} problems ({len(games)} games)")
    if out is not None:
        console.print(f"solutions written to {out}")


BENCH_HELP = (
    "Solve every seed of the problems given and print per-problem scores and their total "
    "(the verb every game shares; the same as solve). With --out the solution file is the "
    "run's store: it is rewritten after each game, and --resume carries on from it."
)
app.command("bench", help=BENCH_HELP)(solve_cmd)


def _replay_frames(prob: Problem, seed: int, solution: str) -> tuple[list[tuple[Sim, str]], str | None]:
    """Snapshots after every lock (and the final one), plus the error that stopped play, if any."""
    from snakelab.games.hextris.rules import Sim, char_command

    sim = Sim(prob, seed)
    frames: list[tuple[Sim, str]] = [(sim.clone(), "")]
    err = None
    for i, ch in enumerate(solution):
        cmd = char_command(ch)
        if cmd == -1:
            continue
        if cmd < 0:
            err = f"unknown character {ch!r} at position {i}"
            break
        try:
            res = sim.command(cmd)
        except IllegalActionError as exc:
            err = f"{exc} at position {i}"
            break
        if res is not None:
            frames.append((sim.clone(), solution[: i + 1]))
    if not frames or frames[-1][1] != solution:
        frames.append((sim.clone(), solution))
    return frames, err


def _frame_text(prob: Problem, seed: int, sim: Sim, prefix: str) -> Text:
    from snakelab.games.hextris.render import board_text
    from snakelab.games.hextris.scoring import power_score

    power, _ = power_score(prefix)
    head = (
        f"problem {prob.id} seed {seed}  units locked {sim.index}/{len(sim.sequence)}  "
        f"move {sim.move_score}  power {power}  commands {len(prefix)}"
    )
    if sim.termination is None:
        body = board_text(sim.board.rows, sim.cells(), (sim.pos[0], sim.pos[1]))
    else:
        head += f"  [{sim.termination.value}]"
        body = board_text(sim.board.rows)
    return Text(head + "\n" + body)


@app.command("show")
def show_cmd(
    ctx: typer.Context,
    problem: str = typer.Argument(..., help="Problem id, or a problem JSON file."),
    solution: Path | None = typer.Option(None, "--solution", "-s", help="Replay this solution file."),
    seed: int | None = typer.Option(
        None,
        "--seed",
        help=(
            "Seed to replay (default: the seed of the file's first entry for the problem; "
            "of several entries for one seed the last counts, as in scoring)."
        ),
    ),
    speed: float = typer.Option(
        0.0, "--speed", min=0.0, help="Locks per second for a live replay; 0 shows only the end."
    ),
    problems: Path | None = typer.Option(None, "--problems", help=PROBLEMS_HELP),
) -> None:
    """Draw a problem's board as a hex layout, or replay a solution on it."""
    from snakelab.games.hextris.codec import load_problem, load_solutions
    from snakelab.games.hextris.rules import Sim

    try:
        prob = load_problem(problem) if not problem.isdigit() else _load(int(problem), problems)
    except CodecError as exc:
        fail(str(exc))
    if solution is None:
        try:
            refuse_given(ctx, ["seed", "speed"], "for replaying a --solution file only")
        except SnakelabError as exc:
            fail(str(exc))
        sd = prob.source_seeds[0]
        sim = Sim(prob, sd)
        console.print(
            Text(
                f"problem {prob.id}: {prob.width}×{prob.height}, {len(prob.units)} unit types, "
                f"{prob.source_length} units per game, seeds {list(prob.source_seeds)}"
            )
        )
        console.print(_frame_text(prob, sd, sim, ""))
        return
    try:
        entries = [e for e in load_solutions(solution) if e.problem_id == prob.id]
    except CodecError as exc:
        fail(str(exc))
    if not entries:
        fail(f"{solution} holds no solution for problem {prob.id}")
    wanted = entries[0].seed if seed is None else seed
    entries = [e for e in entries if e.seed == wanted]
    if not entries:
        fail(f"{solution} holds no solution for problem {prob.id} seed {wanted}")
    entry = entries[-1]  # a later entry for the same seed replaces an earlier one, as in scoring
    if entry.seed not in prob.source_seeds:
        fail(f"seed {entry.seed} is not one of problem {prob.id}'s seeds")
    frames, err = _replay_frames(prob, entry.seed, entry.solution)
    if speed > 0 and console.is_terminal:
        from rich.live import Live

        with Live(console=console, auto_refresh=False) as live:
            for sim, prefix in frames:
                live.update(_frame_text(prob, entry.seed, sim, prefix), refresh=True)
                time.sleep(1.0 / speed)
    else:
        sim, prefix = frames[-1]
        console.print(_frame_text(prob, entry.seed, sim, prefix))
    if err:
        fail(f"the solution stops with an error (it scores 0): {err}", code=1)


KEYS_HELP = (
    "keys: p W · b E · a SW · l SE · d turn clockwise · k turn counter-clockwise "
    "(any contest character works; phrases count); q or Esc quits"
)


def _read_key() -> str:
    import termios
    import tty

    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    try:
        tty.setraw(fd)
        return sys.stdin.read(1)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


@app.command("play")
def play_cmd(
    ctx: typer.Context,
    problem: int = typer.Argument(..., help="Problem id."),
    seed_index: int = typer.Option(0, "--seed-index", help="Which of the problem's seeds."),
    agent: str = typer.Option("champion", "--agent", "-a", help="champion, seed, or human (you, with the keys)."),
    seconds: float = typer.Option(5.0, "--seconds", "-t", help="Seconds the champion plans the game."),
    speed: float = typer.Option(4.0, "--speed", min=0.0, help="Locks per second of the replay; 0 shows only the end."),
    problems: Path | None = typer.Option(None, "--problems", help=PROBLEMS_HELP),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write the solution JSON here at the end."),
) -> None:
    """Play one game (one seed of one problem): an agent solves it, then it is replayed lock by lock.

    With ``--agent human`` you play it with the keys (or characters piped on standard
    input), and every move is drawn as you make it.
    """
    from snakelab.games.hextris.codec import SolutionEntry, format_solutions
    from snakelab.games.hextris.scoring import score_problem

    check_writable(out)
    try:
        if agent not in ("champion", "seed", "human"):
            fail(f"unknown hextris player {agent!r}: use champion, seed or human")
        if agent != "champion":
            refuse_given(ctx, ["seconds"], "only --agent champion plans against the clock")
        if agent == "human":
            refuse_given(ctx, ["speed"], "a human game is drawn move by move as you play")
        if not seconds > 0:
            fail(f"--seconds must be positive, got {seconds}")
    except SnakelabError as exc:
        fail(str(exc))
    try:
        prob = _load(problem, problems)
    except CodecError as exc:
        fail(str(exc))
    if not 0 <= seed_index < len(prob.source_seeds):
        fail(f"seed index {seed_index} out of range: problem {problem} has {len(prob.source_seeds)} seeds")
    seed = prob.source_seeds[seed_index]
    if agent == "human":
        _play_human(prob, problem, seed, out)
        return
    entry = _solve_game((prob, seed, agent, seconds))
    frames, err = _replay_frames(prob, seed, entry.solution)
    if speed > 0 and console.is_terminal:
        from rich.live import Live

        with Live(console=console, auto_refresh=False) as live:
            for sim, prefix in frames:
                live.update(_frame_text(prob, seed, sim, prefix), refresh=True)
                time.sleep(1.0 / speed)
    else:
        sim, prefix = frames[-1]
        console.print(_frame_text(prob, seed, sim, prefix))
    if err:  # a solver's own solution always replays; this would be a solver bug
        fail(f"the {agent} solution stops with an error: {err}", code=1)
    res = score_problem(prob, [entry])
    s0 = res.seeds[0]
    console.print(
        f"score {s0.score} (move {s0.move_score}, power {s0.power_score}, {s0.phrases} phrases); "
        f"{len(entry.solution)} commands by {agent}",
        highlight=False,
    )
    if out is not None:
        out.write_text(format_solutions([SolutionEntry(problem, seed, entry.solution, f"snakelab-{agent}")]))
        console.print(f"solution written to {out}")


def _play_human(prob: Problem, problem: int, seed: int, out: Path | None) -> None:
    """The keys game of ``play --agent human``."""
    from snakelab.games.hextris.codec import SolutionEntry, format_solutions
    from snakelab.games.hextris.rules import IGNORED_CHARS, Sim, char_command
    from snakelab.games.hextris.scoring import power_score

    sim = Sim(prob, seed)
    typed: list[str] = []
    interactive = sys.stdin.isatty()
    console.print(KEYS_HELP)
    console.print(_frame_text(prob, seed, sim, ""))
    stream = iter(sys.stdin.read()) if not interactive else None
    while sim.termination is None:
        if stream is not None:
            ch = next(stream, "")
            if ch == "":
                break
        else:
            ch = _read_key()
        if ch in ("\x1b", "\x03") or (interactive and ch == "q"):
            break
        if ch in IGNORED_CHARS:
            continue
        cmd = char_command(ch)
        if cmd < 0:
            console.print(Text(f"{ch!r} is not a command; {KEYS_HELP}"))
            continue
        if sim.outcome_of(cmd) == "repeat":
            console.print(Text(f"{ch!r} would move the unit back where it was (an error that scores 0); skipped"))
            continue
        sim.command(cmd)
        typed.append(ch)
        if interactive:
            console.clear()
        console.print(_frame_text(prob, seed, sim, "".join(typed)))
    sol = "".join(typed)
    power, phrases = power_score(sol)
    console.print(
        f"score {sim.move_score + power} (move {sim.move_score}, power {power}, {phrases} phrases); {len(sol)} commands"
    )
    if out is not None:
        out.write_text(format_solutions([SolutionEntry(problem, seed, sol, "snakelab-play")]))
        console.print(f"solution written to {out}")
