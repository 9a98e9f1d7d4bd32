r"""hextris — the ICFP Programming Contest 2015 game (hexagonal Tetris with phrases of power).

Rules (the official ones, as the organisers' code settles them; for users in ``docs/hextris.md``):

* Board ``height`` × ``width``; cell ``(x, y)`` = (column, row), row 0 on top; odd rows are
  shifted half a cell right (see :mod:`snakelab.core.hexgrid`). ``filled`` cells start full.
* Units ``{"members", "pivot"}``; a placement is valid when every member is on the board and
  on an empty cell (the pivot is never checked). Rotation turns members about the pivot by
  60°. A unit's identity for the repeat rule is (pivot, set of member cells).
* Source: LCG ``state' = (1103515245·state + 12345) mod 2^32``, output
  ``(state >> 16) & 0x7FFF`` taken before advancing; unit ``i`` is
  ``units[output_i mod len(units)]`` for ``i < sourceLength``.
* Spawn: subtract (min member x, min member y) from members and pivot, then shift east by
  ``floor((width − unit width) / 2)`` columns. An invalid spawn ends the game (no error).
* Commands (letters case-insensitive): W ``p'!.03``, E ``bcefy2``, SW ``aghij4``,
  SE ``lmno 5`` (space included), CW ``dqrvz1``, CCW ``kstuwx``; ``\t\n\r`` are ignored.
  A command whose result is invalid **locks** the unit where it stands: its members fill,
  full rows are removed (rows above drop), the next unit spawns, or the game ends after
  ``sourceLength`` locks.
* Errors (the whole seed scores 0): an unknown character; moving to a (pivot, member set)
  already held since the last successful SW/SE (the spawn placement counts; so E then W,
  and any turn of a unit symmetric under that turn, are errors); any command after the end.
* Move score per lock: ``points = size + 100·(1 + ls)·ls/2`` with ``ls`` rows cleared, plus
  ``floor((ls_old − 1)·points/10)`` when the previous lock cleared ``ls_old > 1`` rows.
  Power score per phrase: ``2·len·reps + 300`` if ``reps > 0``, counting overlapping
  occurrences in the lower-cased raw string (see :mod:`.scoring`).

The game for the harness (``hextris(problem=3,seed_index=0)``):

* An action is **one command character** (a ``str`` of length 1). ``legal_actions`` lists
  the lower-case command characters whose command is not an error now (a repeat is
  illegal, not a zero score, so agents cannot blunder into it); upper-case letters are
  accepted as the same command. Ignored and unknown characters are illegal actions.
* Observation: the state itself (perfect information; agents must not mutate it).
* Events: ``lock`` (``unit`` index, ``cells``, ``rows`` cleared, ``points``), ``spawn``
  (``unit``, ``type``), ``end`` (``reason``).
* Outcome: ``scores = (move_score + power_score,)`` and details ``move_score, power_score,
  phrases, units, commands, seed``.
* Randomness: none beyond the problem's LCG seed, which the config fixes (``seed_index``)
  or the match seed picks (``seed % len(sourceSeeds)`` when ``seed_index`` is none).

Why one module: everything here is the official rules, and the parts depend on each other
closely: the unit shapes and placement steps (:class:`UnitShape`, :func:`step_placement`)
are what the board simulator :class:`Sim` moves, and :class:`Sim` is what both the
harness :class:`State` and the official scorer (:mod:`.scoring`) play, so that a solution
scores the same everywhere. Splitting them would put one rule set in several files; the
solvers' compiled copies of these rules are in :mod:`.kernels`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import lru_cache
from typing import Any

from snakelab.core.errors import CodecError, ConfigError, GameOverError, IllegalActionError
from snakelab.core.game import JSON, Dynamics, Event, OnePlayerState, Outcome
from snakelab.core.hexgrid import cube_sub, rotate_cube, to_cube
from snakelab.core.registry import config_from_kwargs, game_info
from snakelab.games.hextris.codec import Problem, load_problem, load_problem_id
from snakelab.games.hextris.power import power_score

RULES_VERSION = 1

Action = str
"""One command character, e.g. ``"p"`` (W) or ``"!"`` (also W)."""


class Command(IntEnum):
    """The six commands."""

    W = 0
    """Move west."""
    E = 1
    """Move east."""
    SW = 2
    """Move south-west."""
    SE = 3
    """Move south-east."""
    CW = 4
    """Rotate clockwise."""
    CCW = 5
    """Rotate counter-clockwise."""


#: Characters of each command, in :class:`Command` order (the first is the canonical one).
COMMAND_CHARS: tuple[str, ...] = ("p'!.03", "bcefy2", "aghij4", "lmno 5", "dqrvz1", "kstuwx")
#: The characters that are skipped.
IGNORED_CHARS = "\t\n\r"
#: Lower-case character -> command index.
CHAR_TO_COMMAND: dict[str, int] = {ch: i for i, chars in enumerate(COMMAND_CHARS) for ch in chars}
#: The canonical character of each command.
CANONICAL: tuple[str, ...] = tuple(chars[0] for chars in COMMAND_CHARS)
_ALL_CHARS: tuple[str, ...] = tuple(ch for chars in COMMAND_CHARS for ch in chars)


def char_command(ch: str) -> int:
    """The command index of a character (case-insensitive), -1 if ignored, -2 if unknown."""
    c = ch.lower()
    got = CHAR_TO_COMMAND.get(c)
    if got is not None:
        return got
    return -1 if ch in IGNORED_CHARS else -2


class Termination(Enum):
    """Why a hextris game ended."""

    SOURCE_EXHAUSTED = "source_exhausted"
    """All ``sourceLength`` units have been locked."""
    SPAWN_BLOCKED = "spawn_blocked"
    """The next unit's spawn placement was invalid."""


def lcg_outputs(seed: int, n: int) -> list[int]:
    """The first ``n`` outputs of the contest's random source for ``seed``."""
    out: list[int] = []
    state = seed & 0xFFFFFFFF
    for _ in range(n):
        out.append((state >> 16) & 0x7FFF)
        state = (1103515245 * state + 12345) & 0xFFFFFFFF
    return out


def unit_sequence(problem: Problem, seed: int) -> list[int]:
    """Unit type indices of the game with ``seed`` (length ``sourceLength``)."""
    k = len(problem.units)
    return [v % k for v in lcg_outputs(seed, problem.source_length)]


@dataclass(frozen=True)
class UnitShape:
    """A unit compiled for fast play.

    Attributes:
        size: Number of members.
        spawn: Spawn placement ``(px, py, rot)`` (pivot column, pivot row, rotation 0).
        deltas: ``deltas[rot][py & 1]`` = member offsets ``(dx, dy)`` from the pivot for
            a pivot on a row of that parity.
        canon: ``canon[rot]`` = the smallest rotation with the same member set, so
            (px, py, canon[rot]) is the unit's identity for the repeat rule.
        extent: Largest ``|dx|`` or ``|dy|`` over all rotations (bounds pivot positions).
    """

    size: int
    spawn: tuple[int, int, int]
    deltas: tuple[tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]], ...]
    canon: tuple[int, ...]
    extent: int


def compile_unit(members: Sequence[tuple[int, int]], pivot: tuple[int, int], width: int) -> UnitShape:
    """Normalise a unit as the spawn rule says and tabulate its six rotations."""
    mx = min(x for x, _ in members)
    my = min(y for _, y in members)
    mem = [(x - mx, y - my) for x, y in members]
    pv = (pivot[0] - mx, pivot[1] - my)
    uw = max(x for x, _ in mem) + 1
    shift = (width - uw) // 2
    mem = [(x + shift, y) for x, y in mem]
    pv = (pv[0] + shift, pv[1])
    pc = to_cube(*pv)
    rel = [cube_sub(to_cube(*m), pc) for m in mem]
    rots = [[rotate_cube(v, r) for v in rel] for r in range(6)]
    deltas = []
    extent = 0
    for r in range(6):
        per_parity = []
        for par in (0, 1):
            ds = []
            for q, rr, _ in rots[r]:
                # Pivot (px, py) with py = 2k + par: member column = px + q + (par + rr - ((par + rr) & 1)) // 2.
                dx = q + (par + rr - ((par + rr) & 1)) // 2
                ds.append((dx, rr))
                extent = max(extent, abs(dx), abs(rr))
            per_parity.append(tuple(ds))
        deltas.append((per_parity[0], per_parity[1]))
    sets = [frozenset(rots[r]) for r in range(6)]
    canon = tuple(min(k for k in range(6) if sets[k] == sets[r]) for r in range(6))
    return UnitShape(len(mem), (pv[0], pv[1], 0), tuple(deltas), canon, extent)


def step_placement(px: int, py: int, rot: int, cmd: int) -> tuple[int, int, int]:
    """The placement after ``cmd`` (validity and identity not checked)."""
    if cmd == 0:
        return (px - 1, py, rot)
    if cmd == 1:
        return (px + 1, py, rot)
    if cmd == 2:
        return (px - (1 - (py & 1)), py + 1, rot)
    if cmd == 3:
        return (px + (py & 1), py + 1, rot)
    if cmd == 4:
        return (px, py, (rot + 1) % 6)
    return (px, py, (rot + 5) % 6)


@dataclass(frozen=True)
class Config:
    """Parameters of a hextris game.

    Attributes:
        problem: Contest problem id (0–24 ship with the package), loaded from the problems
            directory. Default 0.
        problem_file: A problem JSON file to use instead of ``problem``. Default None.
        problems_dir: Where ``problem_<id>.json`` lives; None takes
            ``$SNAKELAB_ICFP2015_PROBLEMS``, else the problems shipped in the package.
        seed_index: Which of the problem's ``sourceSeeds`` to play; None lets the match
            seed choose (``seed % len(sourceSeeds)``). Default 0.
        source_length: Play only this many units (a shorter game for tests), or None for
            the problem's ``sourceLength``. Default None.
    """

    problem: int = 0
    problem_file: str | None = None
    problems_dir: str | None = None
    seed_index: int | None = 0
    source_length: int | None = None

    def __post_init__(self) -> None:
        if self.problem < 0:
            raise ConfigError(f"hextris problem {self.problem} must be ≥ 0")
        if self.seed_index is not None and self.seed_index < 0:
            raise ConfigError(f"hextris seed_index {self.seed_index} must be ≥ 0")
        if self.source_length is not None and self.source_length < 1:
            raise ConfigError(f"hextris source_length {self.source_length} must be ≥ 1")

    def inapplicable(self) -> dict[str, str]:
        """Parameters this configuration ignores, with what applies instead (given ones are refused)."""
        if self.problem_file is None:
            return {}
        why = "problem_file names the problem; problem and problems_dir apply without it only"
        return {"problem": why, "problems_dir": why}

    def load(self) -> Problem:
        """The problem this config names.

        Raises:
            ConfigError: if the file is missing or malformed, or ``seed_index`` is out of range.
        """
        try:
            prob = (
                load_problem(self.problem_file)
                if self.problem_file
                else _cached_problem(self.problem, self.problems_dir)
            )
        except CodecError as exc:
            raise ConfigError(str(exc)) from None
        if self.seed_index is not None and self.seed_index >= len(prob.source_seeds):
            raise ConfigError(
                f"seed_index {self.seed_index} is out of range: problem {prob.id} has "
                f"{len(prob.source_seeds)} seeds (0..{len(prob.source_seeds) - 1})"
            )
        if self.source_length is not None:
            prob = Problem(
                prob.id,
                prob.width,
                prob.height,
                prob.units,
                prob.filled,
                min(self.source_length, prob.source_length),
                prob.source_seeds,
            )
        return prob


@lru_cache(maxsize=64)
def _cached_problem(problem_id: int, problems_dir: str | None) -> Problem:
    return load_problem_id(problem_id, problems_dir)


class Board:
    """Cells of a board as one ``bytearray`` per row (1 = full)."""

    __slots__ = ("height", "rows", "width")

    def __init__(self, width: int, height: int, rows: list[bytearray] | None = None) -> None:
        self.width = width
        self.height = height
        self.rows = rows if rows is not None else [bytearray(width) for _ in range(height)]

    def copy(self) -> Board:
        """An independent copy."""
        return Board(self.width, self.height, [bytearray(r) for r in self.rows])

    def fits(self, cells: Sequence[tuple[int, int]]) -> bool:
        """Whether every cell is on the board and empty."""
        w, h, rows = self.width, self.height, self.rows
        return all(0 <= x < w and 0 <= y < h and not rows[y][x] for x, y in cells)

    def lock(self, cells: Sequence[tuple[int, int]]) -> int:
        """Fill ``cells``, clear full rows (rows above drop) and return how many were cleared."""
        rows, w = self.rows, self.width
        touched = set()
        for x, y in cells:
            rows[y][x] = 1
            touched.add(y)
        full = [y for y in touched if sum(rows[y]) == w]
        if not full:
            return 0
        for y in sorted(full, reverse=True):
            del rows[y]
        for _ in full:
            rows.insert(0, bytearray(w))
        return len(full)


class Sim:
    """The exact rule engine, one seed's game, driven one command at a time.

    Used by :class:`State` (the harness game) and by the scorer. Errors raise
    :class:`IllegalActionError` (repeat, unknown command) or :class:`GameOverError`
    (a command after the end) and leave the game unchanged.

    Attributes:
        board: The cells.
        shapes: Compiled unit types.
        sequence: Unit type of each unit of this game.
        index: Index of the current unit in ``sequence`` (== units locked).
        pos: Current placement ``(px, py, rot)``.
        visited: Identities held since the last SW/SE (the repeat rule).
        move_score: Points from locks so far.
        ls_old: Rows cleared by the previous lock.
        termination: Why the game ended, or None while it runs.
    """

    __slots__ = (
        "board",
        "index",
        "ls_old",
        "move_score",
        "pos",
        "sequence",
        "shapes",
        "termination",
        "visited",
    )

    def __init__(self, problem: Problem, seed: int, shapes: Sequence[UnitShape] | None = None) -> None:
        self.shapes = tuple(shapes) if shapes is not None else compile_shapes(problem)
        self.sequence = unit_sequence(problem, seed)
        self.board = Board(problem.width, problem.height)
        for x, y in problem.filled:
            self.board.rows[y][x] = 1
        self.index = 0
        self.move_score = 0
        self.ls_old = 0
        self.pos = (0, 0, 0)
        self.visited: set[tuple[int, int, int]] = set()
        self.termination: Termination | None = None
        self._spawn()

    def clone(self) -> Sim:
        """An independent copy."""
        s = Sim.__new__(Sim)
        s.shapes = self.shapes
        s.sequence = self.sequence
        s.board = self.board.copy()
        s.index = self.index
        s.move_score = self.move_score
        s.ls_old = self.ls_old
        s.pos = self.pos
        s.visited = set(self.visited)
        s.termination = self.termination
        return s

    @property
    def shape(self) -> UnitShape:
        """The current unit's compiled shape."""
        return self.shapes[self.sequence[self.index]]

    def cells(self, pos: tuple[int, int, int] | None = None) -> list[tuple[int, int]]:
        """Member cells of the current unit at ``pos`` (default: where it stands)."""
        px, py, rot = pos if pos is not None else self.pos
        return [(px + dx, py + dy) for dx, dy in self.shape.deltas[rot][py & 1]]

    def _spawn(self) -> bool:
        if self.index >= len(self.sequence):
            self.termination = Termination.SOURCE_EXHAUSTED
            return False
        shape = self.shape
        self.pos = shape.spawn
        if not self.board.fits(self.cells()):
            self.termination = Termination.SPAWN_BLOCKED
            return False
        px, py, rot = shape.spawn
        self.visited = {(px, py, shape.canon[rot])}
        return True

    def outcome_of(self, cmd: int) -> str:
        """What ``cmd`` would do now: ``"move"``, ``"lock"``, ``"repeat"`` or ``"over"``."""
        if self.termination is not None:
            return "over"
        new = step_placement(*self.pos, cmd)
        if not self.board.fits(self.cells(new)):
            return "lock"
        ident = (new[0], new[1], self.shape.canon[new[2]])
        if cmd not in (2, 3) and ident in self.visited:
            return "repeat"
        return "move"

    def command(self, cmd: int) -> tuple[int, int] | None:
        """Apply one command (a :class:`Command` index).

        Returns:
            None for a move, or ``(rows cleared, points)`` for a lock.

        Raises:
            GameOverError: if the game has ended.
            IllegalActionError: for a repeat placement or a bad command index.
        """
        if self.termination is not None:
            raise GameOverError("command after the end of the game")
        if not 0 <= cmd < 6:
            raise IllegalActionError(f"{cmd!r} is not a command index 0..5")
        shape = self.shape
        new = step_placement(*self.pos, cmd)
        cells = [(new[0] + dx, new[1] + dy) for dx, dy in shape.deltas[new[2]][new[1] & 1]]
        if not self.board.fits(cells):
            return self._lock()
        ident = (new[0], new[1], shape.canon[new[2]])
        if cmd in (2, 3):
            self.visited = {ident}
        else:
            if ident in self.visited:
                raise IllegalActionError(
                    f"{Command(cmd).name} moves unit {self.index} back to a placement it already held (repeat)"
                )
            self.visited.add(ident)
        self.pos = new
        return None

    def _lock(self) -> tuple[int, int]:
        shape = self.shape
        ls = self.board.lock(self.cells())
        points = shape.size + 100 * (1 + ls) * ls // 2
        bonus = (self.ls_old - 1) * points // 10 if self.ls_old > 1 else 0
        self.move_score += points + bonus
        self.ls_old = ls
        self.index += 1
        self._spawn()
        return (ls, points + bonus)


def compile_shapes(problem: Problem) -> tuple[UnitShape, ...]:
    """Compile every unit type of ``problem``."""
    return tuple(compile_unit(u.members, u.pivot, problem.width) for u in problem.units)


_NO_EVENTS: tuple[Event, ...] = ()


class State(OnePlayerState):
    """A hextris position for the harness: one :class:`Sim` plus the command string.

    Attributes:
        problem: The problem.
        seed: The LCG seed of this game.
        sim: The rule engine.
        commands: The characters applied so far (for the power score).
    """

    __slots__ = ("commands", "problem", "seed", "sim")

    def __init__(self, problem: Problem, seed: int, sim: Sim) -> None:
        self.problem = problem
        self.seed = seed
        self.sim = sim
        self.commands: list[str] = []

    @property
    def termination(self) -> Termination | None:
        """Why the game ended (the engine's), or None while it runs."""
        return self.sim.termination

    @property
    def steps(self) -> int:  # type: ignore[override]
        """Commands applied so far."""
        return len(self.commands)

    def legal_actions(self, player: int = 0) -> list[str]:
        """Lower-case characters of every command that is not an error now."""
        del player  # single player
        if self.sim.termination is not None:
            return []
        return [ch for i, chars in enumerate(COMMAND_CHARS) if self.sim.outcome_of(i) != "repeat" for ch in chars]

    def is_legal(self, player: int, action: object) -> bool:
        """Whether ``action`` may be applied now (any case)."""
        del player  # single player
        if not isinstance(action, str) or len(action) != 1 or self.sim.termination is not None:
            return False
        cmd = char_command(action)
        return cmd >= 0 and self.sim.outcome_of(cmd) != "repeat"

    def observe(self, player: int = 0) -> State:
        """The state itself (perfect information)."""
        del player  # single player
        return self

    def apply(self, actions: Sequence[Any]) -> Sequence[Event]:
        """Apply one command character; see the module docstring."""
        a = actions[0]
        if self.sim.termination is not None:
            raise GameOverError("the hextris game is over; a command after the end is an error")
        if not isinstance(a, str) or len(a) != 1:
            raise IllegalActionError(f"{a!r} is not a command character")
        cmd = char_command(a)
        if cmd < 0:
            raise IllegalActionError(f"{a!r} is not a command character (ignored and unknown characters are illegal)")
        sim = self.sim
        locked_index = sim.index
        locked_cells = sim.cells()
        res = sim.command(cmd)  # raises on a repeat, leaving the game unchanged
        self.commands.append(a)
        if res is None:
            return _NO_EVENTS
        ls, points = res
        events = [
            Event(
                "lock",
                0,
                {"unit": locked_index, "cells": [list(c) for c in locked_cells], "rows": ls, "points": points},
            )
        ]
        if sim.termination is None:
            events.append(Event("spawn", 0, {"unit": sim.index, "type": sim.sequence[sim.index]}))
        else:
            events.append(Event("end", 0, {"reason": sim.termination.value}))
        return events

    def outcome(self) -> Outcome:
        """The result of a finished game."""
        if self.sim.termination is None:
            raise IllegalActionError("the game is not over yet")
        power, phrases = power_score("".join(self.commands))
        move = self.sim.move_score
        return Outcome(
            termination=self.sim.termination.name,
            scores=(float(move + power),),
            winner=None,
            details={
                "move_score": move,
                "power_score": power,
                "phrases": phrases,
                "units": self.sim.index,
                "commands": len(self.commands),
                "seed": self.seed,
            },
        )

    def clone(self) -> State:
        """An independent copy."""
        s = State(self.problem, self.seed, self.sim.clone())
        s.commands = list(self.commands)
        return s

    def to_json(self) -> dict[str, JSON]:
        """Complete JSON form (board rows as strings of ``.``/``#``)."""
        sim = self.sim
        return {
            "problem": self.problem.id,
            "seed": self.seed,
            "board": ["".join("#" if v else "." for v in row) for row in sim.board.rows],
            "index": sim.index,
            "pos": list(sim.pos),
            "visited": sorted(list(v) for v in sim.visited),
            "move_score": sim.move_score,
            "ls_old": sim.ls_old,
            "commands": "".join(self.commands),
            "termination": sim.termination.name if sim.termination else None,
        }

    def __repr__(self) -> str:
        return f"<hextris.State problem={self.problem.id} seed={self.seed} unit={self.sim.index}>"


class Game:
    """A configured hextris game; see the module docstring for the rules."""

    def __init__(self, config: Config | None = None) -> None:
        self.config = config or Config()
        self.problem = self.config.load()
        self.shapes = compile_shapes(self.problem)
        self.info = game_info(
            "hextris", self.config, num_players=1, dynamics=Dynamics.SINGLE, rules_version=RULES_VERSION
        )

    def source_seed(self, seed: int) -> int:
        """The LCG seed played for match seed ``seed``."""
        seeds = self.problem.source_seeds
        idx = self.config.seed_index if self.config.seed_index is not None else seed % len(seeds)
        return seeds[idx]

    def new_state(self, seed: int) -> State:
        """A fresh game (the LCG seed from the config, or picked by ``seed``)."""
        src = self.source_seed(seed)
        return State(self.problem, src, Sim(self.problem, src, self.shapes))

    def state_from_json(self, data: dict[str, JSON]) -> State:
        """Restore a state written by :meth:`State.to_json`."""
        if int(data["problem"]) != self.problem.id:
            raise ConfigError(f"state is for problem {data['problem']}, game is problem {self.problem.id}")
        sim = Sim(self.problem, int(data["seed"]), self.shapes)
        sim.board.rows = [bytearray(1 if ch == "#" else 0 for ch in row) for row in data["board"]]
        sim.index = int(data["index"])
        px, py, rot = data["pos"]
        sim.pos = (int(px), int(py), int(rot))
        sim.visited = {(int(a), int(b), int(c)) for a, b, c in data["visited"]}
        sim.move_score = int(data["move_score"])
        sim.ls_old = int(data["ls_old"])
        sim.termination = Termination[data["termination"]] if data["termination"] else None
        s = State(self.problem, int(data["seed"]), sim)
        s.commands = list(str(data["commands"]))
        return s

    def action_to_json(self, action: Any) -> JSON:
        """Actions are characters already."""
        return str(action)

    def action_from_json(self, data: JSON) -> Any:
        """Inverse of :meth:`action_to_json`."""
        return str(data)

    def candidate_actions(self, state: Any, player: int) -> Sequence[Any]:
        """The canonical character of each command plus an ignored and an unknown one."""
        del state, player
        return [*CANONICAL, "\n", "#"]


def make_game(**kwargs: Any) -> Game:
    """Registry factory: ``make("hextris(problem=3,seed_index=0)")``."""
    return Game(config_from_kwargs(Config, "hextris", kwargs))
