"""External formats of the ICFP 2015 contest: problem JSON and solution JSON.

* Problem: ``{"id", "units", "width", "height", "filled", "sourceLength", "sourceSeeds"}``
  where a unit is ``{"members": [cell], "pivot": cell}`` and a cell ``{"x": n, "y": n}``.
* Solution file: a JSON list of ``{"problemId", "seed", "tag", "solution"}`` (``tag``
  optional).

Every malformed file raises :class:`~snakelab.core.errors.CodecError` naming the file
and the field that was wrong: not UTF-8, not JSON, a missing or mistyped field, a seed
outside ``0 .. 2^32-1`` (the contest's generator is 32-bit), or sizes far beyond the
contest's (see :data:`LIMITS`), which are refused before anything is allocated for them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from snakelab.core.errors import CodecError

Cell = tuple[int, int]

#: Where the problems are looked for when no directory is given: ``$SNAKELAB_ICFP2015_PROBLEMS``
#: if set, else the 25 qualifier problems shipped inside the package (see :func:`find_problems_dir`).
ENV_PROBLEMS = "SNAKELAB_ICFP2015_PROBLEMS"

#: The largest problem accepted, per quantity. The contest's biggest are a 100×50 board
#: (4000 cells), 54 unit types of up to 17 members, 265 filled cells, 1620 units per game
#: and 50 seeds; these bounds leave room for harder hand-made problems while refusing a
#: file that would take gigabytes (a 10^6×10^6 board) before anything is built from it.
LIMITS: dict[str, int] = {
    "side": 1000,  # width or height
    "cells": 250_000,  # width × height
    "units": 10_000,
    "members": 10_000,  # members of one unit
    "coordinate": 100_000,  # |x| and |y| of a unit cell or pivot
    "sourceLength": 1_000_000,
    "sourceSeeds": 100_000,
}

#: Largest file read as a problem or solution (bytes): far above any real one.
MAX_FILE_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class Unit:
    """A unit as written in the problem file.

    Attributes:
        members: Member cells ``(x, y)``.
        pivot: The pivot cell (need not be a member, may lie off the board).
    """

    members: tuple[Cell, ...]
    pivot: Cell


@dataclass(frozen=True)
class Problem:
    """One contest problem.

    Attributes:
        id: Problem id.
        width: Columns.
        height: Rows.
        units: Unit types, in file order.
        filled: Initially full cells.
        source_length: Units per game.
        source_seeds: The seeds of the problem's games, in file order (may repeat).
    """

    id: int
    width: int
    height: int
    units: tuple[Unit, ...]
    filled: tuple[Cell, ...]
    source_length: int
    source_seeds: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The problem in the contest's JSON form."""

        def cell(c: Cell) -> dict[str, int]:
            return {"x": c[0], "y": c[1]}

        return {
            "id": self.id,
            "units": [{"members": [cell(m) for m in u.members], "pivot": cell(u.pivot)} for u in self.units],
            "width": self.width,
            "height": self.height,
            "filled": [cell(c) for c in self.filled],
            "sourceLength": self.source_length,
            "sourceSeeds": list(self.source_seeds),
        }


def _int(obj: Any, key: str, where: str) -> int:
    if not isinstance(obj, dict) or key not in obj:
        raise CodecError(f"{where}: missing field {key!r}")
    v = obj[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise CodecError(f"{where}: field {key!r} must be an integer, not {v!r}")
    return v


def _cell(obj: Any, where: str) -> Cell:
    if not isinstance(obj, dict):
        raise CodecError(f'{where}: a cell must be an object {{"x": n, "y": n}}, not {obj!r}')
    return (_int(obj, "x", where), _int(obj, "y", where))


#: Largest seed: the contest's random generator keeps 32 bits of state.
MAX_SEED = 2**32 - 1


def _at_most(n: int, limit: str, what: str, where: str) -> None:
    if n > LIMITS[limit]:
        raise CodecError(f"{where}: {n:,} {what} is too many (at most {LIMITS[limit]:,})")


def _coord(c: Cell, where: str) -> Cell:
    bound = LIMITS["coordinate"]
    if abs(c[0]) > bound or abs(c[1]) > bound:
        raise CodecError(f"{where}: cell ({c[0]}, {c[1]}) is too far out (|x|, |y| ≤ {bound:,})")
    return c


def _list(obj: dict[str, Any], key: str, where: str) -> list[Any]:
    if key not in obj:
        raise CodecError(f"{where}: missing field {key!r}")
    v = obj[key]
    if not isinstance(v, list):
        raise CodecError(f"{where}: field {key!r} must be a list")
    return v


def parse_problem(obj: Any, source: str = "problem") -> Problem:
    """Build a :class:`Problem` from parsed JSON, checking every field.

    Args:
        obj: The parsed JSON document.
        source: Name used in error messages (usually the file name).

    Raises:
        CodecError: naming the source and the bad field.
    """
    if not isinstance(obj, dict):
        raise CodecError(f"{source}: a problem must be a JSON object")
    pid = _int(obj, "id", source)
    if pid < 0:
        raise CodecError(f"{source}: id {pid} must be ≥ 0")
    width = _int(obj, "width", source)
    height = _int(obj, "height", source)
    if width < 1 or height < 1:
        raise CodecError(f"{source}: board {width}×{height} must have width and height ≥ 1")
    if max(width, height) > LIMITS["side"] or width * height > LIMITS["cells"]:
        raise CodecError(
            f"{source}: board {width}×{height} is too big (at most {LIMITS['side']} a side and "
            f"{LIMITS['cells']:,} cells; the contest's largest is 100×50)"
        )
    raw_units = _list(obj, "units", source)
    _at_most(len(raw_units), "units", "unit types", source)
    units: list[Unit] = []
    for i, u in enumerate(raw_units):
        where = f"{source}: unit {i}"
        if not isinstance(u, dict):
            raise CodecError(f"{where}: must be an object with members and pivot")
        raw_members = _list(u, "members", where)
        _at_most(len(raw_members), "members", "members", where)
        members = tuple(_coord(_cell(c, where), where) for c in raw_members)
        if not members:
            raise CodecError(f"{where}: has no members")
        if len(set(members)) != len(members):
            raise CodecError(f"{where}: lists a member twice")
        if "pivot" not in u:
            raise CodecError(f"{where}: missing field 'pivot'")
        units.append(Unit(members, _coord(_cell(u["pivot"], where), where)))
    if not units:
        raise CodecError(f"{source}: has no units")
    raw_filled = _list(obj, "filled", source)
    _at_most(len(raw_filled), "cells", "filled cells", source)
    filled = tuple(_cell(c, f"{source}: filled") for c in raw_filled)
    for x, y in filled:
        if not (0 <= x < width and 0 <= y < height):
            raise CodecError(f"{source}: filled cell ({x}, {y}) is off the {width}×{height} board")
    source_length = _int(obj, "sourceLength", source)
    if source_length < 0:
        raise CodecError(f"{source}: sourceLength must be ≥ 0")
    _at_most(source_length, "sourceLength", "units per game (sourceLength)", source)
    seeds = _list(obj, "sourceSeeds", source)
    _at_most(len(seeds), "sourceSeeds", "seeds", source)
    for s in seeds:
        if isinstance(s, bool) or not isinstance(s, int):
            raise CodecError(f"{source}: sourceSeeds must hold integers, not {s!r}")
        if not 0 <= s <= MAX_SEED:
            raise CodecError(f"{source}: seed {s} in sourceSeeds is outside 0..{MAX_SEED} (a 32-bit seed)")
    if not seeds:
        raise CodecError(f"{source}: sourceSeeds is empty")
    return Problem(pid, width, height, tuple(units), filled, source_length, tuple(seeds))


def _read_json(path: str | os.PathLike[str], what: str) -> Any:
    """The JSON value in the ``what`` file at ``path``; CodecError when unreadable or not JSON."""
    p = Path(path)
    try:
        with p.open("rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise CodecError(f"cannot read {what} file {p}: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise CodecError(f"{p}: {what} file is over {MAX_FILE_BYTES // 2**20} MiB; not read")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CodecError(f"{p}: not a UTF-8 text file (byte {exc.start} cannot be decoded)") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CodecError(f"{p}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise CodecError(f"{p}: not a {what} file (JSON nested too deeply)") from None


def load_problem(path: str | os.PathLike[str]) -> Problem:
    """Read and check a problem JSON file.

    Raises:
        CodecError: if the file cannot be read, is not JSON, or a field is wrong.
    """
    return parse_problem(_read_json(path, "problem"), str(Path(path)))


def find_problems_dir() -> Path:
    """The directory holding ``problem_K.json`` files (see :data:`ENV_PROBLEMS`).

    The 25 ICFP 2015 qualifier problems ship as package data
    (``snakelab/games/hextris/problems``, byte-for-byte the organisers' files, with their
    ``SHA256SUMS``), located with :mod:`importlib.resources`, so an installed snakelab
    needs nothing beside it. ``$SNAKELAB_ICFP2015_PROBLEMS`` (or ``--problems DIR`` on
    the command line) points elsewhere, e.g. at the finals' problems.

    Raises:
        CodecError: if the package data cannot be reached as a directory (a zipped
            install); set ``$SNAKELAB_ICFP2015_PROBLEMS`` then.
    """
    env = os.environ.get(ENV_PROBLEMS)
    if env:
        return Path(env)
    shipped = resources.files("snakelab.games.hextris") / "problems"
    # An ordinary install (wheel, editable, source tree) gives a real directory; a zip
    # import would not, and the problems are read as files by path.
    if isinstance(shipped, Path) and (shipped / "problem_0.json").is_file():
        return shipped
    raise CodecError(
        "cannot find the ICFP 2015 problems shipped with snakelab: "
        f"set {ENV_PROBLEMS} or pass --problems DIR (a directory of problem_K.json files)"
    )


def load_problem_id(problem_id: int, problems_dir: str | os.PathLike[str] | None = None) -> Problem:
    """Load ``problem_<id>.json`` from ``problems_dir`` (default: :func:`find_problems_dir`).

    Raises:
        CodecError: if the file is missing or malformed.
    """
    d = Path(problems_dir) if problems_dir is not None else find_problems_dir()
    path = d / f"problem_{problem_id}.json"
    if not path.is_file():
        raise CodecError(f"no problem {problem_id}: {path} does not exist")
    return load_problem(path)


@dataclass(frozen=True)
class SolutionEntry:
    """One entry of a solution file.

    Attributes:
        problem_id: The problem.
        seed: The game's seed.
        solution: The command string.
        tag: Free text, or None.
    """

    problem_id: int
    seed: int
    solution: str
    tag: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The entry in the contest's JSON form."""
        out: dict[str, Any] = {"problemId": self.problem_id, "seed": self.seed}
        if self.tag is not None:
            out["tag"] = self.tag
        out["solution"] = self.solution
        return out


def parse_solutions(obj: Any, source: str = "solutions") -> list[SolutionEntry]:
    """Check and convert a parsed solution document (a list of entries).

    Raises:
        CodecError: naming the source, the entry index and the bad field.
    """
    if isinstance(obj, dict):
        obj = [obj]
    if not isinstance(obj, list):
        raise CodecError(f"{source}: a solution file must be a JSON list of objects")
    out: list[SolutionEntry] = []
    for i, e in enumerate(obj):
        where = f"{source}: entry {i}"
        if not isinstance(e, dict):
            raise CodecError(f"{where}: must be an object with problemId, seed, solution")
        pid = _int(e, "problemId", where)
        seed = _int(e, "seed", where)
        sol = e.get("solution")
        if not isinstance(sol, str):
            raise CodecError(f"{where}: field 'solution' must be a string")
        tag = e.get("tag")
        out.append(SolutionEntry(pid, seed, sol, None if tag is None else str(tag)))
    return out


def load_solutions(path: str | os.PathLike[str]) -> list[SolutionEntry]:
    """Read a solution JSON file.

    Raises:
        CodecError: if unreadable, not JSON or malformed.
    """
    return parse_solutions(_read_json(path, "solution"), str(Path(path)))


def format_solutions(entries: list[SolutionEntry]) -> str:
    """The solution JSON text for ``entries`` (inverse of :func:`parse_solutions`)."""
    return json.dumps([e.to_json() for e in entries])
