"""snakgame — CodeChef SNAKGAME (April 2016): you against Chef, snakes on a blocked grid.

Rules (also stated for users in ``docs/snakgame.md``; from the contest's statement and editorial):

* A grid of ``n`` rows × ``m`` columns, cells written 1-based ``(x, y)`` = (row, column).
  Some cells are blocked. Contest files: type 1 has n, m uniform in 200..300, type 2 in
  500..600; every cell is blocked independently with probability 1/25
  (:func:`generate_grid`, seeded by the game seed).
* You move first, then Chef, alternately. Your move (:class:`Move`) is one of
  ``NEW x y`` (start a new snake on an empty cell; your previous snake is finished for
  good — allowed even while it could still grow), ``MOVE fx fy tx ty`` (an end of your
  current snake moves to an empty 4-neighbour: the snake grows by one) or ``EXIT``.
* Non-empty cells: blocked ones and every cell of any snake of either player.
* The game ends on ``EXIT`` or as soon as no empty cell is left (after your move or
  Chef's).
* Score: each of your snakes, the last one included, scores (L − 1)·⌊√L⌋
  (:func:`snake_score`). Chef's snakes score nothing; they only take cells.
* An illegal move (not an end, not adjacent, not empty, off the grid, FREEZE) is
  rejected with :class:`~snakelab.core.errors.IllegalActionError` naming the move and
  the reason; the state is unchanged.

Design: Chef is the judge, so this is a **one-player** game. ``apply`` plays your move
and then, unless the game ended, Chef's reply, which it reports as a ``chef`` event.
Chef's turn, in the statement's order (:meth:`State.chef_turn`; his choice is made in
:mod:`~snakelab.games.snakgame.chef`):

1. if his last move was ``FREEZE t`` with t > 1 he plays ``FREEZE t−1``;
2. else with probability 1/500 he plays ``FREEZE t``, t uniform in 1..50 (only when
   ``Config.freeze``; the ``chef`` agent plays without it);
3. at the start of the game he starts a new snake;
4. if his snake cannot be extended he starts a new snake;
5. else with probability 99/100 he extends into a uniformly random entry of the list
   (empty neighbours of his head, then of his tail; duplicates kept);
6. else he starts a new snake. New snakes go on a uniformly random empty cell.

Randomness is counter-based: Chef's k-th turn uses draws ``splitmix64(base + j·γ)``
for j = 8k, 8k+1, ... where ``base = derive_seed(seed, "chef")``; a uniform integer below
r is ``(draw · r) >> 64`` (bias below r/2⁶⁴). So the state carries only its seed and
counters, and clone / JSON round-trips are exact.

Actions: :class:`Move` values. ``legal_actions`` is a lazy sequence (``EXIT``, then the
MOVEs of your ends, then ``NEW`` on every empty cell in row-major order); ``is_legal``
is exact.

Observation: the state itself (perfect information; agents must not mutate it). Agents
read ``occ`` (a bytearray, row-major, values :data:`EMPTY`, :data:`BLOCKED`,
:data:`MINE`, :data:`CHEF`), ``n``, ``m``, the ends ``head`` / ``tail`` (0-based cell
numbers ``r·m + c``, -1 with no snake), ``last_chef`` and ``last_chef_cell``.

Events: ``snake_done`` (your previous snake finished by a NEW: ``length``, ``score``),
``chef`` (Chef's reply: ``move`` in protocol text), ``full`` (no empty cell left),
``exit`` (you played EXIT).

Outcome: ``scores = (score,)`` and details ``score, snakes, first, longest, mine,
chef_cells, free_start, chef_turns, chef_frozen, rows, cols``.

Layout: the move type and its protocol line are in :mod:`~snakelab.games.snakgame.moves`,
the board (cell values, file types, ``snake_score``, ``Config`` and ``generate_grid``, and
:class:`~snakelab.games.snakgame.board.Board`, the data of a position with its grid
queries) in :mod:`~snakelab.games.snakgame.board`, below both this module and Chef's
policy (:mod:`~snakelab.games.snakgame.chef`); all are re-exported here. The judge's
header and client loop are in :mod:`~snakelab.games.snakgame.codec`.

Why this module is over 400 lines and still one idea: it is the exact rules of one game,
which the judge, the agents, the golden playthroughs and the conformance kit all read:
:class:`State` (legal moves, the reasons an illegal move is refused, applying both
players' moves, the end of the game and the JSON round trip) and :class:`Game`, which must
change as one piece when a rule does.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np

from snakelab.core.errors import CodecError, ConfigError, GameOverError, IllegalActionError
from snakelab.core.game import JSON, Dynamics, Event, OnePlayerState, Outcome
from snakelab.core.registry import config_from_kwargs, game_info
from snakelab.games.snakgame.board import (
    BLOCKED,
    CELL_CHARS,
    CHEF,
    EMPTY,
    MINE,
    TYPE_RANGES,
    Board,
    Config,
    Termination,
    generate_grid,
    snake_score,
)
from snakelab.games.snakgame.chef import chef_choice
from snakelab.games.snakgame.moves import EXIT, Action, Move, format_move, parse_move

# The move type and its text are defined in moves.py, the board's names in board.py; the
# rules export them too, as the game's own.
__all__ = [
    "BLOCKED",
    "CHEF",
    "EMPTY",
    "EXIT",
    "MINE",
    "RULES_VERSION",
    "TYPE_RANGES",
    "Action",
    "Config",
    "Game",
    "Move",
    "State",
    "Termination",
    "format_move",
    "generate_grid",
    "make_game",
    "parse_move",
    "snake_score",
]

RULES_VERSION = 1


class _LegalMoves(Sequence[Move]):
    """Lazy legal-move list: EXIT, the MOVEs of your ends, NEW on each empty cell."""

    def __init__(self, state: State) -> None:
        self._s = state
        self._moves = state._end_moves()

    def __len__(self) -> int:
        if self._s.termination is not None:
            return 0
        return 1 + len(self._moves) + self._s.free

    @overload
    def __getitem__(self, i: int) -> Move: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Move]: ...
    def __getitem__(self, i: int | slice) -> Move | Sequence[Move]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        if i == 0:
            return EXIT
        i -= 1
        if i < len(self._moves):
            return self._moves[i]
        c = self._s.kth_empty(i - len(self._moves))
        r, col = divmod(c, self._s.m)
        return Move("NEW", r + 1, col + 1)

    def __contains__(self, move: object) -> bool:
        return self._s.is_legal(0, move)

    def __iter__(self) -> Iterator[Move]:
        for i in range(len(self)):
            yield self[i]


class State(Board, OnePlayerState):
    """A snakgame position with its rules; see the module docstring. Mutable; :meth:`clone` copies it.

    The data and the grid queries are :class:`~snakelab.games.snakgame.board.Board`'s.
    """

    __slots__ = ()

    def _end_moves(self) -> list[Move]:
        if self.length == 0 or self.termination is not None:
            return []
        out = []
        ends = (self.head,) if self.head == self.tail else (self.head, self.tail)
        for e in ends:
            fx, fy = self.xy(e)
            for t in self.empty_neighbours(e):
                tx, ty = self.xy(t)
                out.append(Move("MOVE", fx, fy, tx, ty))
        return out

    # -- the State protocol (turn-keeping: OnePlayerState's) ---------------------
    def legal_actions(self, player: int = 0) -> Sequence[Move]:
        """Every legal move, as a lazy sequence (see the module docstring)."""
        del player  # single player
        return _LegalMoves(self)

    def why_illegal(self, move: object) -> str | None:
        """Why ``move`` is illegal now (a sentence naming it), or None if it is legal."""
        if self.termination is not None:
            return "the game is over"
        if not isinstance(move, Move):
            return f"{move!r} is not a move (NEW x y, MOVE fx fy tx ty or EXIT)"
        kind = move.kind
        if kind == "EXIT":
            return None
        n, m, occ = self.n, self.m, self.occ
        if kind == "NEW":
            if not (1 <= move.x <= n and 1 <= move.y <= m):
                return f"{move}: ({move.x}, {move.y}) is off the {n}×{m} grid"
            c = (move.x - 1) * m + move.y - 1
            if occ[c]:
                return f"{move}: ({move.x}, {move.y}) is not empty ({_what(occ[c])})"
            return None
        if kind == "MOVE":
            if self.length == 0:
                return f"{move}: you have no snake yet; start one with NEW"
            if not (1 <= move.x <= n and 1 <= move.y <= m):
                return f"{move}: ({move.x}, {move.y}) is off the {n}×{m} grid"
            f = (move.x - 1) * m + move.y - 1
            if f not in (self.head, self.tail):
                hx, hy = self.xy(self.head)
                tx, ty = self.xy(self.tail)
                return (
                    f"{move}: ({move.x}, {move.y}) is not an end of your snake "
                    f"(its ends are ({hx}, {hy}) and ({tx}, {ty}))"
                )
            if not (1 <= move.tx <= n and 1 <= move.ty <= m):
                return f"{move}: ({move.tx}, {move.ty}) is off the {n}×{m} grid"
            if abs(move.tx - move.x) + abs(move.ty - move.y) != 1:
                return f"{move}: ({move.tx}, {move.ty}) is not adjacent to ({move.x}, {move.y})"
            t = (move.tx - 1) * m + move.ty - 1
            if occ[t]:
                return f"{move}: ({move.tx}, {move.ty}) is not empty ({_what(occ[t])})"
            return None
        if kind == "FREEZE":
            return f"{move}: FREEZE is Chef's move, not yours"
        return f"{move!r}: unknown move kind {kind!r}"

    def is_legal(self, player: int, action: object) -> bool:
        """Whether ``action`` may be applied now (exact)."""
        del player  # single player
        return self.why_illegal(action) is None

    def observe(self, player: int = 0) -> State:
        """The state itself (perfect information)."""
        del player  # single player
        return self

    def play_mine(self, move: Move) -> list[Event]:
        """Apply only your move (no Chef reply); used by the judge and the stdio client.

        Raises:
            IllegalActionError: naming the move and why (state unchanged).
        """
        if self.termination is not None:
            raise GameOverError(f"{move}: the game is over; no more moves")
        why = self.why_illegal(move)
        if why is not None:
            raise IllegalActionError(why)
        self.steps += 1
        kind = move.kind
        events: list[Event] = []
        if kind == "EXIT":
            self.termination = Termination.EXIT
            return [Event("exit", 0)]
        m = self.m
        if kind == "NEW":
            c = (move.x - 1) * m + move.y - 1
            if self.length:
                events.append(Event("snake_done", 0, {"length": self.length, "score": snake_score(self.length)}))
                self.done.append(self.length)
            self._take(c, MINE)
            self.head = self.tail = c
            self.length = 1
        else:
            f = (move.x - 1) * m + move.y - 1
            t = (move.tx - 1) * m + move.ty - 1
            self._take(t, MINE)
            if f == self.head:
                self.head = t
            else:
                self.tail = t
            self.length += 1
        if self.free == 0:
            self.termination = Termination.FULL
            events.append(Event("full"))
        return events

    def apply(self, actions: Sequence[Any]) -> Sequence[Event]:
        """Your move ``actions[0]``, then Chef's reply unless the game ended."""
        events = self.play_mine(actions[0])
        if self.termination is None:
            events += self.chef_reply()[1]
        return events

    def chef_reply(self, move: Move | None = None) -> tuple[Move, list[Event]]:
        """Chef's turn after yours, with its events (``chef``, then ``full`` if the grid filled).

        Args:
            move: A scripted Chef move to apply instead of Chef's own choice (checked
                with :meth:`play_chef`); None lets Chef choose.
        """
        if move is None:
            move = self.chef_turn()
        else:
            self.play_chef(move)
        events = [Event("chef", None, {"move": format_move(move)})]
        if self.termination is not None:
            events.append(Event("full"))
        return move, events

    # -- Chef (his policy is in chef.py; applying and checking his moves are rules) --
    def chef_turn(self) -> Move:
        """Play Chef's turn (the statement's order; see the module docstring) and return it."""
        if self.termination is not None:
            raise GameOverError("the game is over; Chef has no turn")
        move = chef_choice(self)
        self.chef_turns += 1
        self._chef_apply(move)
        return move

    def play_chef(self, move: Move) -> None:
        """Apply a Chef move read from a judge (the stdio client's mirror of the game).

        Raises:
            IllegalActionError: if the move is impossible here (the judge and this
                mirror disagree).
        """
        if self.termination is not None:
            raise GameOverError(f"Chef's {move}: the game is over")
        k = move.kind
        m, occ = self.m, self.occ
        if k == "FREEZE":
            if move.x < 1:
                raise IllegalActionError(f"Chef's {move}: the count must be ≥ 1")
        elif k == "NEW":
            if not (1 <= move.x <= self.n and 1 <= move.y <= m) or occ[(move.x - 1) * m + move.y - 1]:
                raise IllegalActionError(f"Chef's {move}: not an empty cell")
        elif k == "MOVE":
            f = (move.x - 1) * m + move.y - 1
            ok = (
                self.chef_len > 0
                and f in (self.chef_head, self.chef_tail)
                and 1 <= move.tx <= self.n
                and 1 <= move.ty <= m
                and abs(move.tx - move.x) + abs(move.ty - move.y) == 1
                and not occ[(move.tx - 1) * m + move.ty - 1]
            )
            if not ok:
                raise IllegalActionError(f"Chef's {move}: not a legal extension of his snake")
        else:
            raise IllegalActionError(f"Chef's {move}: not a Chef move")
        self.chef_turns += 1
        self._chef_apply(move)

    def _chef_apply(self, move: Move) -> None:
        self.last_chef = move
        k = move.kind
        if k == "FREEZE":
            self.chef_freeze = move.x
            self.chef_frozen += 1
            self.last_chef_cell = -1
            return
        self.chef_freeze = 0
        m = self.m
        if k == "NEW":
            c = (move.x - 1) * m + move.y - 1
            self.chef_head = self.chef_tail = c
            self.chef_len = 1
            self.chef_snakes += 1
        else:
            f = (move.x - 1) * m + move.y - 1
            c = (move.tx - 1) * m + move.ty - 1
            if f == self.chef_head:
                self.chef_head = c
            else:
                self.chef_tail = c
            self.chef_len += 1
        self._take(c, CHEF)
        self.last_chef_cell = c
        if self.free == 0:
            self.termination = Termination.FULL

    # -- results and copies ----------------------------------------------------
    def outcome(self) -> Outcome:
        """The result of a finished game."""
        if self.termination is None:
            raise IllegalActionError("the game is not over yet")
        lengths = [*self.done, self.length] if self.length else list(self.done)
        score = sum(snake_score(v) for v in lengths)
        mine = sum(lengths)
        return Outcome(
            termination=self.termination.name,
            scores=(float(score),),
            winner=None,
            details={
                "score": score,
                "snakes": len(lengths),
                "first": lengths[0] if lengths else 0,
                "longest": max(lengths, default=0),
                "mine": mine,
                "chef_cells": self.free_start - self.free - mine,
                "free_start": self.free_start,
                "chef_turns": self.chef_turns,
                "chef_frozen": self.chef_frozen,
                "rows": self.n,
                "cols": self.m,
            },
        )

    def clone(self) -> State:
        """An independent copy."""
        s = State.__new__(State)
        for name in Board.__slots__:
            setattr(s, name, getattr(self, name))
        s.occ = bytearray(self.occ)
        s.row_free = list(self.row_free)
        s.done = list(self.done)
        return s

    def to_json(self) -> dict[str, JSON]:
        """Complete JSON form.

        The grid is a list of row strings (``.`` empty, ``#`` blocked, ``o`` yours,
        ``x`` Chef's); cells are 1-based ``[x, y]`` or null.
        """
        m = self.m
        occ = self.occ
        table = bytes.maketrans(b"\x00\x01\x02\x03", CELL_CHARS.encode())
        text = bytes(occ).translate(table).decode()

        def xy(c: int) -> list[int] | None:
            return list(self.xy(c)) if c >= 0 else None

        return {
            "rows": self.n,
            "cols": m,
            "seed": self.seed,
            "grid": [text[i : i + m] for i in range(0, len(text), m)],
            "free_start": self.free_start,
            "head": xy(self.head),
            "tail": xy(self.tail),
            "length": self.length,
            "done": list(self.done),
            "chef_head": xy(self.chef_head),
            "chef_tail": xy(self.chef_tail),
            "chef_len": self.chef_len,
            "chef_freeze": self.chef_freeze,
            "chef_turns": self.chef_turns,
            "chef_frozen": self.chef_frozen,
            "chef_snakes": self.chef_snakes,
            "last_chef": format_move(self.last_chef) if self.last_chef is not None else None,
            "last_chef_cell": xy(self.last_chef_cell),
            "steps": self.steps,
            "termination": self.termination.name if self.termination else None,
        }

    def __repr__(self) -> str:
        return f"<snakgame.State {self.n}×{self.m} free={self.free} len={self.length} step={self.steps}>"


def _what(v: int) -> str:
    return {BLOCKED: "blocked", MINE: "your snake", CHEF: "Chef's snake"}.get(v, "occupied")


class Game:
    """A configured snakgame; see the module docstring for the rules."""

    def __init__(self, config: Config | None = None) -> None:
        self.config = config or Config()
        self.info = game_info(
            "snakgame", self.config, num_players=1, dynamics=Dynamics.SINGLE, rules_version=RULES_VERSION
        )

    def new_state(self, seed: int) -> State:
        """A fresh game: the grid and Chef's randomness derive from ``seed``."""
        n, m, blocked = generate_grid(self.config, seed)
        return State(self.config, n, m, blocked, seed)

    def state_with_grid(self, n: int, m: int, blocked: Sequence[tuple[int, int]], seed: int = 0) -> State:
        """A fresh game on a given grid (1-based blocked cells), e.g. one read from a judge.

        Raises:
            ConfigError: for an empty grid or an off-grid blocked cell.
        """
        if n < 1 or m < 1:
            raise ConfigError(f"a {n}×{m} grid has no cells")
        arr = np.zeros((n, m), dtype=bool)
        for x, y in blocked:
            if not (1 <= x <= n and 1 <= y <= m):
                raise ConfigError(f"blocked cell ({x}, {y}) is off the {n}×{m} grid")
            arr[x - 1, y - 1] = True
        return State(self.config, n, m, arr, seed)

    def state_from_json(self, data: dict[str, JSON]) -> State:
        """Restore a state written by :meth:`State.to_json`."""
        n, m = int(data["rows"]), int(data["cols"])
        rows = data["grid"]
        if len(rows) != n or any(len(r) != m for r in rows):
            raise ConfigError(f"state grid is not {n}×{m}")
        raw = "".join(rows).encode().translate(bytes.maketrans(CELL_CHARS.encode(), b"\x00\x01\x02\x03"))
        s = State(self.config, n, m, np.zeros((n, m), dtype=bool), int(data["seed"]))
        s.occ = bytearray(raw)
        arr = np.frombuffer(s.occ, dtype=np.uint8).reshape(n, m)
        s.row_free = [int(v) for v in (arr == EMPTY).sum(axis=1)]
        s.free = sum(s.row_free)
        s.free_start = int(data["free_start"])

        def cell(v: Any) -> int:
            return -1 if v is None else s.cell(int(v[0]), int(v[1]))

        s.head, s.tail, s.length = cell(data["head"]), cell(data["tail"]), int(data["length"])
        s.done = [int(v) for v in data["done"]]
        s.chef_head, s.chef_tail, s.chef_len = cell(data["chef_head"]), cell(data["chef_tail"]), int(data["chef_len"])
        s.chef_freeze = int(data["chef_freeze"])
        s.chef_turns = int(data["chef_turns"])
        s.chef_frozen = int(data["chef_frozen"])
        s.chef_snakes = int(data["chef_snakes"])
        s.last_chef = parse_move(data["last_chef"]) if data["last_chef"] else None
        s.last_chef_cell = cell(data["last_chef_cell"])
        s.steps = int(data["steps"])
        s.termination = Termination[data["termination"]] if data["termination"] else None
        return s

    def action_to_json(self, action: object) -> JSON:
        """Moves are written as protocol text (``"MOVE 1 1 2 1"``)."""
        if not isinstance(action, Move):
            raise CodecError(f"{action!r} is not a snakgame move")
        return format_move(action)

    def action_from_json(self, data: JSON) -> Move:
        """Inverse of :meth:`action_to_json`."""
        return parse_move(str(data))

    def candidate_actions(self, state: Any, player: int) -> list[object]:
        """A few legal and illegal moves of every kind, for conformance tests."""
        del player  # single player
        s: State = state
        out: list[object] = [EXIT, Move("FREEZE", 1), "NEW 1 1", Move("NEW", 0, 1), Move("NEW", s.n + 1, 1)]
        for c in (0, s.n * s.m - 1, (s.n * s.m) // 2):
            x, y = s.xy(c)
            out.append(Move("NEW", x, y))
        if s.length:
            hx, hy = s.xy(s.head)
            tx, ty = s.xy(s.tail)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (0, 2)):
                out.append(Move("MOVE", hx, hy, hx + dx, hy + dy))
                out.append(Move("MOVE", tx, ty, tx + dx, ty + dy))
            # From a cell that is not an end.
            out.append(Move("MOVE", 1, 1, 1, 2))
        else:
            out.append(Move("MOVE", 1, 1, 1, 2))
        return out


def make_game(**kwargs: object) -> Game:
    """Registry factory: ``make("snakgame(type=2)")`` or ``make("snakgame(type=0,rows=3,cols=4)")``."""
    return Game(config_from_kwargs(Config, "snakgame", kwargs))
