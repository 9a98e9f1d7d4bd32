"""The hextris solvers: placement search, then phrase embedding along each unit's path.

Both solvers work in two stages, as the strong contest teams did:

1. **Placements.** The whole unit sequence is known (the LCG is public), so a beam search
   runs over it: each beam board is expanded to every lock placement reachable from the
   spawn (a BFS over placements in :mod:`.kernels`), each child is scored by the move
   points it earns plus a board evaluation, and the best ``width`` distinct boards go on.
   The ``seed`` solver is the width-1 case with the seed team's features and weights.
2. **Phrases.** For each chosen placement a command string is spelled from the spawn to
   that placement: phrases of power are tried greedily (unused ones first, for their 300
   bonus, then by points per row descended), each kept only if the target stays reachable
   under the repeat rule; otherwise one step of a shortest allowed path is taken.

The ``champion`` is anytime: it solves with widths 1, 2, 4, ... while the time budget
lasts (on small boards then with randomly scaled weights) and keeps the best string by the
official scorer.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from snakelab.games.hextris import kernels as kn
from snakelab.games.hextris.codec import Problem
from snakelab.games.hextris.rules import CANONICAL, CHAR_TO_COMMAND, UnitShape, compile_shapes, unit_sequence
from snakelab.games.hextris.scoring import PHRASES, score_seed

#: The five phrases the seed team knew.
SEED_PHRASES: tuple[str, ...] = ("Ei!", "Ia! Ia!", "R'lyeh", "Yuggoth", "Tsathoggua")

#: Champion evaluation weights (see kernels.W_*): hole, transitions, row fill, depth, top rows, clear, well.
CHAMPION_WEIGHTS = np.array([6.0, 1.0, 4.0, 8.0, 60.0, 20.0, 2.0])
#: On big boards (over :data:`LOST_MAX_CELLS` cells) a much stronger pull to keep the stack
#: low pays: the power score grows with the rows each unit falls (measured: problem 24
#: 175k -> 215k, problem 14 +9%; on small boards it cost 6%, problem 18 halved).
CHAMPION_WEIGHTS_BIG = np.array([6.0, 1.0, 4.0, 30.0, 60.0, 20.0, 2.0])
#: Weight variants tried in turn on big boards (hole weight 3 and a stronger depth pull
#: each scored within ±8% of the default on problem 24).
BIG_VARIANTS = (
    CHAMPION_WEIGHTS_BIG,
    np.array([3.0, 1.0, 4.0, 30.0, 60.0, 20.0, 2.0]),
    np.array([6.0, 1.0, 4.0, 60.0, 60.0, 20.0, 2.0]),
    np.array([3.0, 1.0, 4.0, 45.0, 60.0, 20.0, 2.0]),
)
#: Seed-style weights: strong gravity, holes, unfinished rows, smoothness, no lookahead.
SEED_WEIGHTS = np.array([3.0, 2.0, 1.0, 5.0, 30.0, 0.0, 1.0])
#: Penalty per empty cell the next unit can no longer reach (champion re-ranking).
LOST_WEIGHT = 20.0
#: Boards larger than this skip the lost-cell re-ranking: it floods every placement, which
#: costs more than it gains there (measured on problem 24: slower and no better).
LOST_MAX_CELLS = 1000
#: Boards larger than this spell each unit with one phrase order only.
EMBED_TRIES_MAX_CELLS = 3000
#: Value per row fallen in the big-board passes that count it (``beam_plan(fall_value=)``):
#: about half the power points a row earns (measured on problem 24 at width 2: 2–3 best,
#: 4–5 worse; on problems 14 and 18 it did not pay, hence passes with and without).
FALL_VALUE = 3.0
#: Value of one more unit survived when ranking finished games (phrases need moves).
SURVIVAL_BONUS = 60.0
#: Beam width of the random-weight passes.
RANDOM_WIDTH = 8
#: Each weight (and the lost-cell weight) of a random pass is the default times a factor
#: drawn log-uniformly from [1/RANDOM_SPREAD, RANDOM_SPREAD].
RANDOM_SPREAD = 5.0


@dataclass(frozen=True)
class Prepared:
    """A problem compiled for the kernels.

    Attributes:
        problem: The problem.
        shapes: Compiled unit types.
        dl: Deltas ``(U, 6, 2, K, 2)`` (unit, rotation, row parity, member, x/y).
        sizes: Members per unit type.
        canon: Canonical rotation per unit type ``(U, 6)``.
        e: Largest member offset from a pivot (placement code margin).
        board: The starting board ``(H, W)`` uint8.
    """

    problem: Problem
    shapes: tuple[UnitShape, ...]
    dl: np.ndarray
    sizes: np.ndarray
    canon: np.ndarray
    e: int
    board: np.ndarray

    def spawn_code(self, u: int) -> int:
        """Placement code of unit type ``u``'s spawn."""
        px, py, rot = self.shapes[u].spawn
        return int(kn.encode(px, py, int(self.canon[u, rot]), self.e, *self.dims))

    def spawn_cells(self, u: int) -> list[tuple[int, int]]:
        """Cells of unit type ``u`` at its spawn."""
        px, py, rot = self.shapes[u].spawn
        return [(px + dx, py + dy) for dx, dy in self.shapes[u].deltas[rot][py & 1]]

    @property
    def dims(self) -> tuple[int, int]:
        """``(NX, NY)`` of the placement code."""
        return (self.problem.width + 2 * self.e, self.problem.height + 2 * self.e)


def prepare(problem: Problem) -> Prepared:
    """Compile ``problem`` into kernel arrays."""
    shapes = compile_shapes(problem)
    kmax = max(s.size for s in shapes)
    dl = np.zeros((len(shapes), 6, 2, kmax, 2), np.int64)
    for u, s in enumerate(shapes):
        for r in range(6):
            for par in range(2):
                for k, (dx, dy) in enumerate(s.deltas[r][par]):
                    dl[u, r, par, k, 0] = dx
                    dl[u, r, par, k, 1] = dy
    sizes = np.array([s.size for s in shapes], np.int64)
    canon = np.array([s.canon for s in shapes], np.int64)
    e = max(s.extent for s in shapes) + 1
    board = np.zeros((problem.height, problem.width), np.uint8)
    for x, y in problem.filled:
        board[y, x] = 1
    return Prepared(problem, shapes, dl, sizes, canon, e, board)


@dataclass
class Plan:
    """Placements chosen for one game.

    Attributes:
        targets: Per locked unit, ``(placement code, lock command)``.
        move_score: The move score those placements earn.
    """

    targets: list[tuple[int, int]]
    move_score: int


class SearchTimeoutError(Exception):
    """The deadline passed during a search."""


def beam_plan(
    prep: Prepared,
    seed: int,
    width: int,
    weights: np.ndarray,
    deadline: float | None = None,
    *,
    partial_ok: bool = False,
    lost_weight: float = 0.0,
    fall_value: float = 0.0,
) -> Plan:
    """Beam search over the unit sequence (width 1 is the greedy one-unit search).

    Args:
        prep: The compiled problem.
        seed: The game's seed.
        width: Beam width.
        weights: Evaluation weights.
        deadline: A ``time.monotonic`` value to stop at, or None.
        partial_ok: At the deadline return the best plan so far (a prefix of the game,
            which scores what it locked) instead of raising.
        lost_weight: Penalty per empty cell the next unit cannot reach (0: not computed);
            applied to the best ``3·width`` children only.
        fall_value: Value per row a unit falls from its spawn to its lock, added up along
            each beam line like the move score: the phrases of power are spelled on the
            way down, so the rows fallen are the power score to come.

    Raises:
        SearchTimeoutError: if ``deadline`` passes and ``partial_ok`` is false.
    """
    seq = unit_sequence(prep.problem, seed)
    e = prep.e
    nx, ny = prep.dims
    boards = [prep.board.copy()]
    rows = [kn.board_rows(boards[0], weights)]
    moves = [0]
    gains = [0.0]  # fall_value times the rows fallen so far
    ls_olds = [0]
    history: list[list[tuple[int, int, int]]] = []  # per depth: (parent, code, lockcmd)
    finished: list[tuple[float, int, int, int]] = []  # (value, depth, node, move)
    for depth, u in enumerate(seq):
        if deadline is not None and time.monotonic() > deadline:
            if not partial_ok:
                raise SearchTimeoutError
            break
        dl = prep.dl[u]
        size = int(prep.sizes[u])
        canon = prep.canon[u]
        spx, spy, srot = prep.shapes[u].spawn
        if depth + 1 < len(seq):
            nu = seq[depth + 1]
            next_cells = np.array(prep.spawn_cells(nu), np.int64)
        else:
            next_cells = np.zeros((0, 2), np.int64)
        n_next = len(next_cells)
        cand_val: list[np.ndarray] = []
        cand_node: list[np.ndarray] = []
        cand_lock: list[np.ndarray] = []
        cand_cmd: list[np.ndarray] = []
        for ni, board in enumerate(boards):
            _parent, _pcmd, locks, lockcmd, nlocks = kn.bfs_locks(board, dl, size, canon, spx, spy, srot, e)
            if nlocks == 0:
                finished.append((moves[ni] + gains[ni] + SURVIVAL_BONUS * depth, depth, ni, moves[ni]))
                continue
            vals, lss = kn.evaluate_locks(board, rows[ni], dl, size, locks, nlocks, e, weights, next_cells, n_next)
            pts = size + 100 * (1 + lss) * lss // 2
            if ls_olds[ni] > 1:
                pts = pts + (ls_olds[ni] - 1) * pts // 10
            fall = fall_value * ((locks[:nlocks] // nx) % ny - e - spy) if fall_value else 0.0
            cand_val.append(moves[ni] + gains[ni] + pts + vals + fall)
            cand_node.append(np.full(nlocks, ni, np.int64))
            cand_lock.append(locks[:nlocks].copy())
            cand_cmd.append(lockcmd[:nlocks].copy())
        if not cand_val:
            history.append([])
            break
        val = np.concatenate(cand_val)
        node = np.concatenate(cand_node)
        lock = np.concatenate(cand_lock)
        cmd = np.concatenate(cand_cmd)
        order = np.argsort(-val, kind="stable")
        if lost_weight > 0 and depth + 1 < len(seq):
            # Re-rank the best few by the cells the next unit can no longer reach.
            nu = seq[depth + 1]
            nsp = prep.shapes[nu].spawn
            top = order[: max(3 * width, 6)]
            adj = np.empty(len(top))
            nxd, nyd = prep.dims
            for j, i in enumerate(top):
                ni = int(node[i])
                px, py, rot = kn.decode(int(lock[i]), e, nxd, nyd)
                nb, _ls = kn.lock_board(boards[ni], dl, size, px, py, rot)
                lost = kn.lost_cells(nb, prep.dl[nu], int(prep.sizes[nu]), prep.canon[nu], nsp[0], nsp[1], nsp[2], e)
                adj[j] = val[i] - lost_weight * lost
            order = np.concatenate([top[np.argsort(-adj, kind="stable")], order[len(top) :]])
        new_boards: list[np.ndarray] = []
        new_rows: list[np.ndarray] = []
        new_moves: list[int] = []
        new_gains: list[float] = []
        new_ls: list[int] = []
        level: list[tuple[int, int, int]] = []
        seen: set[bytes] = set()
        for i in order:
            ni = int(node[i])
            px, py, rot = kn.decode(int(lock[i]), e, nx, ny)
            nb, ls = kn.lock_board(boards[ni], dl, size, px, py, rot)
            key = nb.tobytes()
            if key in seen:
                continue
            seen.add(key)
            new_boards.append(nb)
            new_rows.append(kn.board_rows(nb, weights))
            new_moves.append(moves[ni] + int(kn.lock_points(size, int(ls), ls_olds[ni])))
            new_gains.append(gains[ni] + fall_value * (py - spy))
            new_ls.append(int(ls))
            level.append((ni, int(lock[i]), int(cmd[i])))
            if len(new_boards) >= width:
                break
        boards, rows, moves, gains, ls_olds = new_boards, new_rows, new_moves, new_gains, new_ls
        history.append(level)
    # Pick the best end: a full-length game or one that ended early.
    depth_done = len(history) if history and history[-1] else len(history) - 1
    ends: list[tuple[float, int, int, int]] = list(finished)
    if history and history[-1]:
        for ni, mv in enumerate(moves):
            ends.append((mv + gains[ni] + SURVIVAL_BONUS * depth_done, depth_done, ni, mv))
    if not ends:
        return Plan([], 0)
    _v, depth, ni, mv = max(ends, key=lambda t: (t[0], t[1]))
    targets: list[tuple[int, int]] = []
    for d in range(depth - 1, -1, -1):
        parent, code, lcmd = history[d][ni]
        targets.append((code, lcmd))
        ni = parent
    targets.reverse()
    return Plan(targets, mv)


def phrase_tables(phrases: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Command indices ``(n, max_len)`` and lengths of each phrase."""
    n = len(phrases)
    ml = max((len(p) for p in phrases), default=1)
    cmds = np.zeros((max(n, 1), ml), np.int64)
    lens = np.zeros(max(n, 1), np.int64)
    for i, p in enumerate(phrases):
        for j, ch in enumerate(p.lower()):
            cmds[i, j] = CHAR_TO_COMMAND[ch]
        lens[i] = len(p)
    return cmds, lens


def _downs(text: str) -> int:
    """Rows a command string descends (SW and SE moves)."""
    return sum(1 for ch in text.lower() if CHAR_TO_COMMAND[ch] in (2, 3))


#: Continuations below this many power points per row descended are not offered: each
#: one costs phrase trials at every placement, and the slow ones never win a row.
MIN_CONTINUATION_RATE = 4.0


@dataclass(frozen=True)
class Tokens:
    """What the embedder may spell: the phrases, then overlap continuations.

    The official scorer counts overlapping occurrences, so after ``"Ia! Ia!"`` the four
    letters ``" ia!"`` complete a second occurrence (14 points for 3 rows, where a fresh
    ``"Ia! Ia!"`` gives 14 for 5); after ``"Yoyodyne"`` the letters ``"i!"`` complete
    ``"Ei!"``. A continuation is the rest of phrase ``done`` after the longest proper
    overlap of its start with the end of phrase ``after``, offered only right after that
    phrase (or a continuation completing it).

    Attributes:
        texts: Letters of each entry.
        cmds: Command indices ``(n, max_len)``.
        lens: Letters per entry.
        values: Power points an entry's occurrence earns (twice the full phrase length).
        after: -1 for a phrase, else the phrase that must end just before.
        done: The phrase each entry completes.
    """

    texts: tuple[str, ...]
    cmds: np.ndarray
    lens: np.ndarray
    values: np.ndarray
    after: np.ndarray
    done: np.ndarray

    @cached_property
    def straight(self) -> set[int]:
        """The phrases a unit can spell without turning."""
        n = int((self.after < 0).sum())
        return {i for i in range(n) if int(self.cmds[i, : self.lens[i]].max(initial=0)) < 4}

    @cached_property
    def slot(self) -> np.ndarray:
        """Per phrase: 0, or its index among the phrases some continuation follows."""
        out = np.zeros(max(int((self.after < 0).sum()), 1), np.int64)
        for k, a in enumerate(sorted({int(a) for a in self.after if a >= 0})):
            out[a] = k + 1
        return out

    @cached_property
    def n_slots(self) -> int:
        """1 + the number of phrases some continuation follows."""
        return 1 + len({int(a) for a in self.after if a >= 0})

    @classmethod
    def build(cls, phrases: Sequence[str], overlaps: bool = True) -> Tokens:
        """Tokens for ``phrases`` (phrases only when ``overlaps`` is false)."""
        texts = list(phrases)
        after = [-1] * len(phrases)
        done = list(range(len(phrases)))
        if overlaps:
            low = [p.lower() for p in phrases]
            for i, a in enumerate(low):
                for j, b in enumerate(low):
                    o = next((o for o in range(min(len(a), len(b)) - 1, 0, -1) if a.endswith(b[:o])), 0)
                    rest = phrases[j][o:]
                    if o and 2 * len(b) / max(_downs(rest), 1) >= MIN_CONTINUATION_RATE:
                        texts.append(rest)
                        after.append(i)
                        done.append(j)
        cmds, lens = phrase_tables(texts)
        values = np.array([2 * len(phrases[d]) for d in done] or [0], np.int64)
        return cls(tuple(texts), cmds, lens, values, np.array(after or [-1], np.int64), np.array(done or [0], np.int64))


def _phrase_orders(tokens: Tokens, n_phrases: int, used: set[int], tries: int) -> list[np.ndarray]:
    """Entry orders to try for one unit.

    Unused phrases come first (their 300 bonus), then the rest by points per down move;
    with ``tries`` > 1 also by length, and by that rate with the 3-letter phrase last.
    """

    # Rows are what a unit spends on its way down, so a phrase repeated is worth its
    # points per down move (measured: the best single order).
    def rate(i: int) -> float:
        return float(tokens.values[i]) / max(_downs(tokens.texts[i]), 1)

    fresh = sorted((i for i in range(n_phrases) if i not in used), key=lambda i: -len(tokens.texts[i]))
    rest = [i for i in range(len(tokens.texts)) if i >= n_phrases or i in used]
    orders = [sorted(rest, key=lambda i: -rate(i))]
    if tries > 1:
        orders.append(sorted(rest, key=lambda i: -int(tokens.values[i])))
    if tries > 2:
        orders.append(sorted(rest, key=lambda i: (tokens.values[i] <= 6, -rate(i))))
    return [np.array(fresh + o, np.int64) for o in orders]


def _segment_value(out: np.ndarray, n: int, tokens: Tokens, used: set[int]) -> int:
    """Power points of one unit's commands (entry runs in ``out[:, 1]``)."""
    value = 0
    seen: set[int] = set()
    j = 0
    while j < n:
        p = int(out[j, 1])
        if p >= 0:
            d = int(tokens.done[p])
            value += int(tokens.values[p]) + (300 if d not in used and d not in seen else 0)
            seen.add(d)
            j += int(tokens.lens[p])
        else:
            j += 1
    return value


def embed(
    prep: Prepared,
    seed: int,
    plan: Plan,
    phrases: Sequence[str],
    deadline: float | None = None,
    tries: int = 1,
    overlaps: bool = False,
) -> str:
    """Spell the command string that realises ``plan``, packing in phrases of power.

    With ``tries`` > 1 each unit is spelled with that many phrase orders and the one with
    the most power points is kept (measured: +1.2% power for 1.7× the time at 3).
    With ``overlaps`` the continuations of :class:`Tokens` are spelled too, and units that
    cannot turn are spelled exactly by :func:`kernels.embed_unit_dp` once every phrase they
    can spell has earned its bonus (measured on problem 1: +15% power over the greedy).

    Past ``deadline`` the remaining units get plain paths, and a quarter second later the
    string stops (a prefix of a solution is a valid solution).
    """
    seq = unit_sequence(prep.problem, seed)
    board = prep.board.copy()
    usable = [p for p in phrases if p and all(ch.lower() in CHAR_TO_COMMAND for ch in p)]
    tokens = Tokens.build(usable, overlaps)
    used: set[int] = set()
    out = np.empty((200_000, 2), np.int64)
    best_out = np.empty_like(out)
    parts: list[str] = []
    e = prep.e
    nx, ny = prep.dims
    empty = np.zeros(0, np.int64)
    for i, (code, lcmd) in enumerate(plan.targets):
        now = time.monotonic()
        late = deadline is not None and now > deadline
        if deadline is not None and now > deadline + 0.25:
            break
        u = seq[i]
        dl = prep.dl[u]
        size = int(prep.sizes[u])
        canon = prep.canon[u]
        orders = _phrase_orders(tokens, len(usable), used, tries) if usable and not late else [empty]
        best_n, best_v = -1, -1
        if overlaps and not late and usable and tokens.straight <= used and int(canon.min()) == int(canon.max()):
            # A unit that cannot turn, and no bonus left to collect: the exact programme.
            best_n = kn.embed_unit_dp(
                board,
                dl,
                size,
                prep.spawn_code(u),
                code,
                lcmd,
                e,
                tokens.cmds,
                tokens.lens,
                tokens.values,
                tokens.after,
                tokens.done,
                tokens.slot,
                tokens.n_slots,
                best_out,
            )
            orders = [] if best_n >= 0 else orders
        for order in orders:
            n = kn.embed_unit(
                board,
                dl,
                size,
                canon,
                prep.spawn_code(u),
                code,
                lcmd,
                e,
                tokens.cmds,
                tokens.lens,
                order,
                tokens.after,
                tokens.done,
                out,
            )
            if n < 0:
                break  # never expected (the plan came from the same BFS); the prefix stays valid
            v = _segment_value(out, n, tokens, used)
            if v > best_v:
                best_n, best_v = n, v
                best_out[:n] = out[:n]
        if best_n < 0:
            break
        n = best_n
        out_sel = best_out
        j = 0
        chunk: list[str] = []
        while j < n:
            p = int(out_sel[j, 1])
            if p >= 0:
                chunk.append(tokens.texts[p])
                used.add(int(tokens.done[p]))
                j += len(tokens.texts[p])
            else:
                chunk.append(CANONICAL[int(out_sel[j, 0])])
                j += 1
        parts.append("".join(chunk))
        px, py, rot = kn.decode(code, e, nx, ny)
        board, _ls = kn.lock_board(board, dl, size, px, py, rot)
    return "".join(parts)


@dataclass
class Solution:
    """A solved game.

    Attributes:
        solution: The command string.
        score: Its official score.
        width: Beam width that produced it.
        seconds: Wall time spent.
    """

    solution: str
    score: int
    width: int
    seconds: float


_warm = False


def warm_up() -> float:
    """Load every kernel once (numba's cache makes this fast after the first run).

    Returns:
        Seconds spent; 0 if already warm in this process.
    """
    global _warm
    if _warm:
        return 0.0
    t0 = time.monotonic()
    from snakelab.games.hextris.codec import Unit

    # A two-cell and a one-cell unit type; with "Ei!" as the only phrase the one-cell units
    # go to the exact programme once it is used, so every kernel is loaded here and not
    # inside a timed search.
    units = (Unit(((0, 0), (1, 0)), (0, 0)), Unit(((0, 0),), (0, 0)))
    tiny = Problem(-1, 5, 8, units, ((0, 7),), 8, (0,))
    prep = prepare(tiny)
    plan = beam_plan(prep, 0, 2, CHAMPION_WEIGHTS, lost_weight=LOST_WEIGHT, fall_value=FALL_VALUE)
    embed(prep, 0, plan, PHRASES, overlaps=True)
    embed(prep, 0, plan, ("Ei!",), overlaps=True)
    _warm = True
    return time.monotonic() - t0


def _random_passes(
    prep: Prepared,
    seed: int,
    best: Solution,
    best_plan: tuple[int, int],
    weights: np.ndarray,
    lost_weight: float,
    deadline: float,
    phrases: Sequence[str],
    tries: int,
) -> Solution:
    """Passes with randomly scaled weights until ``deadline``; the best solution found.

    The draws come from a generator seeded by the problem and the game, so a longer budget
    tries the same weights first.
    """
    rng = np.random.default_rng([prep.problem.id, seed])
    spread = np.log(RANDOM_SPREAD)
    last = 0.0
    while time.monotonic() + 1.1 * last <= deadline:
        start = time.monotonic()
        factors = np.exp(rng.uniform(-spread, spread, weights.size + 1))
        try:
            plan = beam_plan(
                prep, seed, RANDOM_WIDTH, weights * factors[:-1], deadline, lost_weight=lost_weight * factors[-1]
            )
        except SearchTimeoutError:
            break
        # Spelling costs more than planning; only plans that look better are worth it.
        if (len(plan.targets), plan.move_score) > best_plan:
            best_plan = (len(plan.targets), plan.move_score)
            sol = embed(prep, seed, plan, phrases, deadline, tries, overlaps=True)
            sc = score_seed(prep.problem, seed, sol).score
            if sc > best.score:
                best = Solution(sol, sc, RANDOM_WIDTH, 0.0)
        last = time.monotonic() - start
    return best


def solve_seed_method(problem: Problem, seed: int, phrases: Sequence[str] = SEED_PHRASES) -> Solution:
    """The seed team's approach: greedy one-unit search, then a phrase-first path."""
    warm_up()
    t0 = time.monotonic()
    prep = prepare(problem)
    plan = beam_plan(prep, seed, 1, SEED_WEIGHTS)
    sol = embed(prep, seed, plan, phrases)
    return Solution(sol, score_seed(problem, seed, sol).score, 1, time.monotonic() - t0)


def solve_champion(
    problem: Problem,
    seed: int,
    time_limit: float = 10.0,
    phrases: Sequence[str] = PHRASES,
    max_width: int = 256,
    weights: np.ndarray | None = None,
    random_passes: bool = True,
) -> Solution:
    """Anytime beam search with phrase embedding; the best string by the official score.

    Passes run while time is left: widths 1, 2, 4, ... (on big boards first width 1 and 2
    over :data:`BIG_VARIANTS`, with and without :data:`FALL_VALUE`). On small boards the
    time the widening leaves (the widest beam done, or the next one too slow) goes to
    passes of width :data:`RANDOM_WIDTH` with randomly scaled weights: how long a game
    survives on the trap boards is chaotic in the weights (problem 18 at width 8 locks 226
    of 1000 units with the defaults and 939 with one random draw). A random plan is
    spelled only if it locks more units than every plan so far, or as many with a higher
    move score.

    Args:
        problem: The problem.
        seed: One of its seeds.
        time_limit: Seconds for this game; at the deadline the first (width-1) pass returns the
            prefix it has planned, so there is always a valid answer.
        phrases: Phrases of power to use.
        max_width: Largest beam width tried.
        weights: Evaluation weights (default :data:`CHAMPION_WEIGHTS`, or
            :data:`CHAMPION_WEIGHTS_BIG` on boards over :data:`LOST_MAX_CELLS` cells).
        random_passes: Spend the time the widening leaves on random-weight passes (small
            boards, default weights only); False stops once the widening is done.
    """
    warm_up()  # before the clock starts: loading compiled kernels is start-up, not search
    t0 = time.monotonic()
    deadline = t0 + time_limit
    small = problem.width * problem.height <= LOST_MAX_CELLS
    if weights is not None:
        w = weights
    else:
        w = CHAMPION_WEIGHTS if small else CHAMPION_WEIGHTS_BIG
    prep = prepare(problem)
    lost_w = LOST_WEIGHT if small else 0.0
    # Three phrase orders per unit cost 1.7x the embedding: worth it except on the biggest
    # board (problem 24), whose single pass already fills the time.
    tries = 3 if problem.width * problem.height <= EMBED_TRIES_MAX_CELLS else 1
    # The schedule of passes (width, weights, fall value): widths 1, 2, 4, ... with the
    # default weights. On big boards the weights move the score by ±10% and a wide beam
    # only pays when it also counts the rows fallen (problem 24, width 2: 221–230k with
    # FALL_VALUE over four weight variants, 195–220k without; width 4: 223k against 191k),
    # so width 1, then width 2 with the fall value over the variants, then without.
    schedule: list[tuple[int, np.ndarray, float]] = []
    if weights is None and not small:
        schedule.append((1, BIG_VARIANTS[0], 0.0))
        schedule.extend((2, v, FALL_VALUE) for v in BIG_VARIANTS)
        schedule.extend((1, v, 0.0) for v in BIG_VARIANTS[1:])
        schedule.extend((2, v, 0.0) for v in BIG_VARIANTS)
    min_width = 4 if schedule else 1
    for k in range(max_width.bit_length()):
        if min_width <= (1 << k) <= max_width:
            schedule.append((1 << k, w, 0.0))
            if not small:
                schedule.append((1 << k, w, FALL_VALUE))
    best: Solution | None = None
    best_plan = (-1, -1)  # (units locked, move score) of the best plan so far
    last = 0.0
    last_width = 1
    for width, wv, fall in schedule:
        now = time.monotonic()
        if best is not None and now + last * 1.1 * width / last_width > deadline:
            break
        start = now
        try:
            # The first pass keeps a prefix at the deadline so there is always an answer.
            first_deadline = t0 + 0.6 * time_limit if best is None else deadline
            plan = beam_plan(
                prep, seed, width, wv, first_deadline, partial_ok=best is None, lost_weight=lost_w, fall_value=fall
            )
        except SearchTimeoutError:
            break
        sol = embed(prep, seed, plan, phrases, deadline, tries, overlaps=True)
        sc = score_seed(problem, seed, sol).score
        if best is None or sc > best.score:
            best = Solution(sol, sc, width, 0.0)
        best_plan = max(best_plan, (len(plan.targets), plan.move_score))
        last = time.monotonic() - start
        last_width = width
    assert best is not None
    if random_passes and small and weights is None:
        best = _random_passes(prep, seed, best, best_plan, w, lost_w, deadline, phrases, tries)
    best.seconds = time.monotonic() - t0
    return best
