"""Blind strategies: fixed move sequences, as lazy generators and as compact arrays.

A blind strategy cannot react to anything (its observations are empty), so it *is*
one infinite move sequence. Each strategy gives it two ways:

* :meth:`Strategy.moves` — a lazy generator of letters ``R``, ``D``, ``L``, ``U``
  (what agents play and what move files hold; no 35-million-character string);
* :meth:`Strategy.moves_array` — the first ``n`` moves as a ``uint8`` array of move
  codes (``R=0, D=1, L=2, U=3``), built by a compiled loop, for the evaluators.

Both forms are checked against each other in the tests.

Strategies (the problem's own three, as ``docs/blind.md`` states them):

* ``spiral`` — R, D, L, U with run lengths 1, 1, 2, 2, 3, 3, …
* ``zigzag`` — R, D, R, D, … (never covers a torus with gcd(A, B) > 2).
* ``dynamic-zigzag`` (parameter ``k``, default 11) — the seed's walk: alternate R and
  D; after segments of 1, 1+k, 1+2k, … alternating moves add one extra R (the
  alternation carries on across extras).
* ``ramp-zigzag``, ``tuned-zigzag`` (alias ``champion``) and ``sweeping-zigzag`` — see
  :mod:`snakelab.games.blind.champion`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from snakelab.core.errors import CodecError, ConfigError, UnknownNameError
from snakelab.core.registry import format_spec, parse_spec
from snakelab.games.blind._jit import jit

LETTERS = "RDLU"
"""Move letters indexed by move code: ``LETTERS[code]``."""
CODE = {ch: i for i, ch in enumerate(LETTERS)}
"""Move code of each letter."""
R, D, L, U = 0, 1, 2, 3

Moves = npt.NDArray[np.uint8]


class Strategy:
    """A fixed move sequence with a name and parameters.

    Attributes:
        name: Registry name, e.g. ``"dynamic-zigzag"``.
        params: The parameters that define the sequence (e.g. ``{"k": 11}``).
        monotone: True when the sequence only ever moves R and D.
    """

    name: str = ""
    monotone: bool = True

    def __init__(self, **params: Any) -> None:
        self.params: dict[str, Any] = params

    @property
    def spec(self) -> str:
        """The canonical strategy string, e.g. ``"dynamic-zigzag(k=11)"``."""
        return format_spec(self.name, self.params)

    def moves(self) -> Iterator[str]:
        """The moves, lazily, one letter at a time."""
        raise NotImplementedError

    def moves_array(self, n: int) -> Moves:
        """The first ``n`` moves as codes (fewer only for finite sequences)."""
        return np.frombuffer("".join(islice(self.moves(), n)).encode().translate(_TO_CODE), dtype=np.uint8).copy()

    def __repr__(self) -> str:
        return f"<blind strategy {self.spec}>"


_TO_CODE = bytes.maketrans(b"RDLU", bytes([R, D, L, U]))
_TO_LETTER = bytes.maketrans(bytes([R, D, L, U]), b"RDLU")


def letters(codes: Moves) -> str:
    """The letters of an array of move codes."""
    return codes.tobytes().translate(_TO_LETTER).decode()


# -- the seed's strategies ----------------------------------------------------------


class Spiral(Strategy):
    """R, D, L, U with run lengths 1, 1, 2, 2, 3, 3, … (a square spiral)."""

    name = "spiral"
    monotone = False

    def __init__(self) -> None:
        super().__init__()

    def moves(self) -> Iterator[str]:
        """The spiral, lazily."""
        run, turn = 1, 0
        while True:
            letter = "RDLU"[turn % 4]
            for _ in range(run):
                yield letter
            turn += 1
            if turn % 2 == 0:
                run += 1

    def moves_array(self, n: int) -> Moves:
        """The first ``n`` moves (compiled)."""
        return _spiral_array(n)


@jit
def _spiral_array(n: int) -> Moves:
    out = np.empty(n, np.uint8)
    run = 1
    turn = 0
    i = 0
    while i < n:
        code = turn % 4  # R, D, L, U are codes 0, 1, 2, 3 in this order
        j = 0
        while j < run and i < n:
            out[i] = code
            i += 1
            j += 1
        turn += 1
        if turn % 2 == 0:
            run += 1
    return out


class Zigzag(Strategy):
    """R, D, R, D, … forever."""

    name = "zigzag"

    def __init__(self) -> None:
        super().__init__()

    def moves(self) -> Iterator[str]:
        """The zig-zag, lazily."""
        while True:
            yield "R"
            yield "D"

    def moves_array(self, n: int) -> Moves:
        """The first ``n`` moves."""
        return (np.arange(n) % 2).astype(np.uint8)


class DynamicZigzag(Strategy):
    """The seed's dynamic zig-zag with parameter ``k`` (segments 1, 1+k, 1+2k, …).

    Args:
        k: Growth of the segment length between extra R moves (≥ 1, default 11).
    """

    name = "dynamic-zigzag"

    def __init__(self, k: int = 11) -> None:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ConfigError(f"dynamic-zigzag needs an integer k ≥ 1, got {k!r}")
        super().__init__(k=k)
        self.k = k

    def moves(self) -> Iterator[str]:
        """The walk, lazily (the seed's ``SimulateKDynamicZigZagMoves``)."""
        countdown = prev = 1
        zig = 0
        while True:
            yield "RD"[zig]
            zig ^= 1
            countdown -= 1
            if countdown == 0:
                yield "R"
                countdown = prev + self.k
                prev = countdown

    def moves_array(self, n: int) -> Moves:
        """The first ``n`` moves (compiled)."""
        return zigzag_moves_array(n, lambda start, stop: 1 + self.k * np.arange(start, stop, dtype=np.int64))


@jit
def zigzag_lengths_array(n: int, lengths: np.ndarray) -> Moves:
    """The first ``n`` moves of a zig-zag whose segment ``j`` has ``lengths[j]`` alternating moves.

    Each segment ends with an extra R and the alternation carries on across extras, as in
    the seed's walk; the moves stop early if ``lengths`` runs out.
    """
    out = np.empty(n, np.uint8)
    zig = 0
    i = 0
    for j in range(lengths.shape[0]):
        for _ in range(lengths[j]):
            if i == n:
                return out
            out[i] = zig
            i += 1
            zig ^= 1
        if i == n:
            return out
        out[i] = R
        i += 1
    return out[:i]


SegmentLengths = Callable[[int, int], np.ndarray]
"""``lengths(start, stop)``: the alternating moves of segments ``start..stop − 1`` (int64)."""


def zigzag_letters(lengths: SegmentLengths, block: int = 1024) -> Iterator[str]:
    """The seed's walk for the given segment lengths, lazily (blocks of ``block`` segments)."""
    zig = 0
    start = 0
    while True:
        for length in lengths(start, start + block).tolist():
            for _ in range(length):
                yield "RD"[zig]
                zig ^= 1
            yield "R"
        start += block


def zigzag_moves_array(n: int, lengths: SegmentLengths) -> Moves:
    """The first ``n`` moves of the seed's walk for the given segment lengths (compiled)."""
    count = 64
    first = lengths(0, count)
    while int(first.sum()) + count < n:  # each segment is its alternations plus one extra R
        count *= 2
        first = lengths(0, count)
    return zigzag_lengths_array(n, first)


# -- move files ---------------------------------------------------------------------


class FileStrategy(Strategy):
    """The moves of a move file (finite: the sequence ends with the file).

    A cover that the file runs out before is not decided (see ``snakelab blind cover``).

    Args:
        path: A text file of move letters; see :func:`read_moves`.

    Raises:
        CodecError: for an unreadable file, a stray character, or a file with no moves.
    """

    name = "file"

    def __init__(self, path: str | Path) -> None:
        super().__init__(path=str(path))
        self.path = Path(path)
        self._codes = read_moves(self.path)
        if len(self._codes) == 0:
            raise CodecError(f"move file {self.path} holds no moves")
        self.monotone = bool(np.all(self._codes <= D))

    def moves(self) -> Iterator[str]:
        """The file's moves."""
        yield from letters(self._codes)

    def moves_array(self, n: int) -> Moves:
        """The first ``n`` moves of the file (all of them if it is shorter)."""
        return self._codes[:n].copy()

    def __len__(self) -> int:
        return len(self._codes)


def write_moves(path: str | Path, strategy: Strategy, count: int, *, line_length: int = 0) -> int:
    """Write the first ``count`` moves of ``strategy`` to a move file.

    Args:
        path: Destination file (overwritten).
        strategy: The strategy to write.
        count: Number of moves.
        line_length: Letters per line, or 0 for one single line.

    Returns:
        The number of moves written.

    Raises:
        ConfigError: for a negative count or line length.
    """
    if count < 0:
        raise ConfigError(f"cannot write {count} moves: the count must be ≥ 0")
    if line_length < 0:
        raise ConfigError(f"--line-length must be ≥ 0 (0: one line), got {line_length}")
    codes = strategy.moves_array(count)
    text = letters(codes)
    if line_length > 0:
        text = "\n".join(text[i : i + line_length] for i in range(0, len(text), line_length))
    Path(path).write_text(text + "\n")
    return len(codes)


def parse_moves(text: str, source: str = "moves") -> Moves:
    """Read move letters (``R L U D`` in either case; spaces, tabs and line breaks ignored).

    Lower-case letters are the same moves as upper-case ones: a hand-written file need
    not shout, and the error message says so.

    Raises:
        CodecError: naming the line and column of the first stray character.
    """
    raw = text.encode("utf-8", "surrogateescape")
    clean = raw.translate(None, b" \t\r\n").upper()
    bad = clean.translate(None, b"RDLU")
    if bad:
        # Find the first offending character in the original text for a precise message.
        for lineno, line in enumerate(text.splitlines(), start=1):
            for col, ch in enumerate(line, start=1):
                if ch.upper() not in "RDLU" and ch not in " \t\r":
                    raise CodecError(
                        f"{source}: line {lineno}, column {col}: stray character {ch!r}; "
                        "a move file holds only the letters R, L, U and D (either case)"
                    )
    return np.frombuffer(clean.translate(_TO_CODE), dtype=np.uint8).copy()


def read_moves(path: str | Path) -> Moves:
    """Read a move file written by :func:`write_moves` (or by hand).

    Raises:
        CodecError: for a missing file or a stray character (with line and column).
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8", errors="surrogateescape")
    except OSError as exc:
        raise CodecError(f"cannot read move file {p}: {exc.strerror or exc}") from None
    return parse_moves(text, str(p))


# -- the registry of strategies ------------------------------------------------------


@dataclass(frozen=True)
class StrategyEntry:
    """A registered strategy: its factory and a one-line summary."""

    name: str
    factory: Callable[..., Strategy]
    summary: str
    alias_of: str | None = None


STRATEGIES: dict[str, StrategyEntry] = {}


def register_strategy(
    name: str, factory: Callable[..., Strategy], summary: str, *, aliases: tuple[str, ...] = ()
) -> None:
    """Register a strategy factory under ``name`` (and aliases)."""
    STRATEGIES[name] = StrategyEntry(name, factory, summary)
    for alias in aliases:
        STRATEGIES[alias] = StrategyEntry(alias, factory, summary, alias_of=name)


def make_strategy(spec: str, **overrides: Any) -> Strategy:
    """Build a strategy from ``"name"`` or ``"name(k=v,...)"`` plus keyword overrides.

    ``None`` overrides are ignored, so CLI options that were not given do not count.

    Raises:
        UnknownNameError: for an unknown strategy.
        ConfigError: for a bad or unknown parameter.
    """
    name, kwargs = parse_spec(spec)
    kwargs.update({k: v for k, v in overrides.items() if v is not None})
    entry = STRATEGIES.get(name)
    if entry is None:
        known = ", ".join(sorted(STRATEGIES))
        raise UnknownNameError(f"unknown strategy {name!r}; known strategies: {known}")
    try:
        return entry.factory(**kwargs)
    except TypeError:
        raise ConfigError(f"bad parameters {kwargs} for strategy {name!r}") from None


register_strategy("spiral", Spiral, "R, D, L, U with run lengths 1, 1, 2, 2, 3, 3, …")
register_strategy("zigzag", Zigzag, "R, D, R, D, … (fails when gcd(A, B) > 2)")
register_strategy("dynamic-zigzag", DynamicZigzag, "the seed's zig-zag with an extra R after segments 1, 1+k, 1+2k, …")
register_strategy("file", FileStrategy, "the moves of a move file (path=...)")
