"""The hextris solvers: placement search, then phrase embedding along each unit's path.

Both solvers work in two stages, as the strong contest teams did:

1. **Placements.** The whole unit sequence is known (the LCG is public), so a beam search
   runs over it (:mod:`.search`): each beam board is expanded to every lock placement
   reachable from the spawn (a BFS over placements in :mod:`.kernels`), each child is
   scored by the move points it earns plus a board evaluation, and the best ``width``
   distinct boards go on.
   The ``seed`` solver is the width-1 case with the seed team's features and weights.
2. **Phrases** (:mod:`.embedding`). For each chosen placement a command string is
   spelled from the spawn to that placement: phrases of power are tried greedily (unused ones first, for their 300
   bonus, then by points per row descended), each kept only if the target stays reachable
   under the repeat rule; otherwise one step of a shortest allowed path is taken.

The ``champion`` is anytime: it solves with widths 1, 2, 4, ... while the time budget
lasts (on small boards then with randomly scaled weights) and keeps the best string by the
official scorer. Given pass counts instead of a clock (``random_count=`` and an unbounded
``time_limit``) it is exactly reproducible; :mod:`.solver_spec` names such runs, and
:mod:`.solver_opening` adds a phrase opening in front of one.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from snakelab.games.hextris.codec import Problem
from snakelab.games.hextris.embedding import MIN_CONTINUATION_RATE, Tokens, embed, phrase_tables
from snakelab.games.hextris.scoring import PHRASES, score_seed
from snakelab.games.hextris.search import SURVIVAL_BONUS, Plan, Prepared, SearchTimeoutError, beam_plan, prepare

# The stages live in their own modules; their names stay importable from here, where the
# solvers have always been.
__all__ = [
    "BIG_VARIANTS",
    "CHAMPION_WEIGHTS",
    "CHAMPION_WEIGHTS_BIG",
    "EMBED_TRIES_MAX_CELLS",
    "FALL_GATE",
    "FALL_VALUE",
    "LOST_MAX_CELLS",
    "LOST_WEIGHT",
    "MIN_CONTINUATION_RATE",
    "RANDOM_SPREAD",
    "RANDOM_WIDTH",
    "SEED_PHRASES",
    "SEED_WEIGHTS",
    "SURVIVAL_BONUS",
    "ChampionSearch",
    "Plan",
    "Prepared",
    "SearchTimeoutError",
    "Solution",
    "Tokens",
    "beam_plan",
    "embed",
    "phrase_tables",
    "prepare",
    "solve_champion",
    "solve_seed_method",
    "warm_up",
]

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
#: Power points a row fallen is worth when random passes on big boards decide which plans
#: to spell (measured on problem 24: 5.07 power points per row descended).
FALL_GATE = 5.0
#: Beam width of the random-weight passes.
RANDOM_WIDTH = 8
#: Each weight (and the lost-cell weight) of a random pass is the default times a factor
#: drawn log-uniformly from [1/RANDOM_SPREAD, RANDOM_SPREAD].
RANDOM_SPREAD = 5.0


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


def _score(problem: Problem, seed: int, solution: str, spelled: Sequence[str]) -> int:
    """The official score, less the bonus of phrases that earned it before this game began."""
    res = score_seed(problem, seed, solution)
    if not spelled or res.error:
        return res.score
    return res.score - 300 * sum(1 for p in spelled if res.reps.get(p, 0) > 0)


@dataclass(frozen=True)
class _RandomPasses:
    """What the random-weight passes search with (see :func:`_random_passes`)."""

    weights: np.ndarray
    lost_weight: float
    deadline: float
    phrases: Sequence[str]
    tries: int
    count: int | None = None
    rseed: int = 0
    width: int = RANDOM_WIDTH
    spread: float = RANDOM_SPREAD
    fall_value: float = 0.0
    spelled: Sequence[str] = ()
    guard_weight: float = 0.0


def _random_passes(
    prep: Prepared, seed: int, best: Solution, best_plan: tuple[int, int], rp: _RandomPasses
) -> Solution:
    """Passes with randomly scaled weights until ``rp.deadline`` (or ``rp.count`` passes); the best solution.

    The draws come from a generator seeded by the problem, the game and ``rp.rseed``
    (``rseed`` 0 is the generator the timed solver has always used), so a longer budget
    tries the same weights first and a pass count makes the search exactly reproducible.
    The lost-cell weight and the fall value (when not 0) are scaled by draws of their own.
    ``best_plan`` is (units locked, move score) of the best plan so far.
    """
    rng_key = [prep.problem.id, seed] if rp.rseed == 0 else [prep.problem.id, seed, rp.rseed]
    rng = np.random.default_rng(rng_key)
    log_spread = np.log(rp.spread)
    weights = rp.weights
    last = 0.0
    done = 0
    while rp.count is None or done < rp.count:
        if time.monotonic() + 1.1 * last > rp.deadline:
            break
        start = time.monotonic()
        factors = np.exp(rng.uniform(-log_spread, log_spread, weights.size + 1))
        fall = rp.fall_value * float(np.exp(rng.uniform(-log_spread, log_spread))) if rp.fall_value else 0.0
        done += 1
        try:
            plan = beam_plan(
                prep,
                seed,
                rp.width,
                weights * factors[:-1],
                rp.deadline,
                lost_weight=rp.lost_weight * factors[-1],
                fall_value=fall,
                guard_weight=rp.guard_weight * factors[-1],
            )
        except SearchTimeoutError:
            break
        # Spelling costs more than planning; only plans that look better are worth it. On
        # big boards every plan survives and the rows fallen decide the power score, so
        # they count there too.
        key = (len(plan.targets), plan.move_score + (int(FALL_GATE * plan.falls) if rp.fall_value else 0))
        if key > best_plan:
            best_plan = key
            sol = embed(prep, seed, plan, rp.phrases, rp.deadline, rp.tries, overlaps=True, spelled=rp.spelled)
            sc = _score(prep.problem, seed, sol, rp.spelled)
            if sc > best.score:
                best = Solution(sol, sc, rp.width, 0.0)
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


@dataclass(frozen=True)
class ChampionSearch:
    """How the champion searches, apart from the game, its clock and its phrases.

    Attributes:
        max_width: Largest beam width tried.
        weights: Evaluation weights (default :data:`CHAMPION_WEIGHTS`, or
            :data:`CHAMPION_WEIGHTS_BIG` on boards over :data:`LOST_MAX_CELLS` cells).
        random_passes: Spend the time the widening leaves on random-weight passes (small
            boards, default weights only); False stops once the widening is done.
        random_count: Run exactly this many random-weight passes (on any board, big ones
            with a randomly scaled fall value too) instead of filling the time: with an
            unbounded ``time_limit`` the search is then exactly reproducible.
        rseed: Seed of the random weights (0: the timed solver's draws).
        random_width: Beam width of the random-weight passes.
        tries: Phrase orders per unit in the embedding (default 3, or 1 on boards over
            :data:`EMBED_TRIES_MAX_CELLS` cells).
        spelled: Phrases that already earned their bonus (this game is the rest of one
            that began with a phrase opening).
        variants: On big boards, begin with the weight-variant passes of widths 1 and 2
            (False: widths 1, 2, 4, ... with the default weights only).
        guard_weight: ``beam_plan(guard_weight=)`` for every pass (random passes scale
            it with the lost-cell weight).
    """

    max_width: int = 256
    weights: np.ndarray | None = None
    random_passes: bool = True
    random_count: int | None = None
    rseed: int = 0
    random_width: int = RANDOM_WIDTH
    tries: int | None = None
    spelled: Sequence[str] = ()
    variants: bool = True
    guard_weight: float = 0.0


def solve_champion(
    problem: Problem,
    seed: int,
    time_limit: float = 10.0,
    phrases: Sequence[str] = PHRASES,
    search: ChampionSearch = ChampionSearch(),
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
        search: Widths, weights, pass counts and phrase orders (:class:`ChampionSearch`).
    """
    warm_up()  # before the clock starts: loading compiled kernels is start-up, not search
    weights, tries, spelled, guard_weight = search.weights, search.tries, search.spelled, search.guard_weight
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
    if tries is None:
        tries = 3 if problem.width * problem.height <= EMBED_TRIES_MAX_CELLS else 1
    # The schedule of passes (width, weights, fall value): widths 1, 2, 4, ... with the
    # default weights. On big boards the weights move the score by ±10% and a wide beam
    # only pays when it also counts the rows fallen (problem 24, width 2: 221–230k with
    # FALL_VALUE over four weight variants, 195–220k without; width 4: 223k against 191k),
    # so width 1, then width 2 with the fall value over the variants, then without.
    schedule: list[tuple[int, np.ndarray, float]] = []
    if weights is None and not small and search.variants:
        schedule.append((1, BIG_VARIANTS[0], 0.0))
        schedule.extend((2, v, FALL_VALUE) for v in BIG_VARIANTS)
        schedule.extend((1, v, 0.0) for v in BIG_VARIANTS[1:])
        schedule.extend((2, v, 0.0) for v in BIG_VARIANTS)
    min_width = 4 if schedule else 1
    for k in range(search.max_width.bit_length()):
        if min_width <= (1 << k) <= search.max_width:
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
                prep,
                seed,
                width,
                wv,
                first_deadline,
                partial_ok=best is None,
                lost_weight=lost_w,
                fall_value=fall,
                guard_weight=guard_weight,
            )
        except SearchTimeoutError:
            break
        sol = embed(prep, seed, plan, phrases, deadline, tries, overlaps=True, spelled=spelled)
        sc = _score(problem, seed, sol, spelled)
        if best is None or sc > best.score:
            best = Solution(sol, sc, width, 0.0)
        best_plan = max(best_plan, (len(plan.targets), plan.move_score + (0 if small else int(FALL_GATE * plan.falls))))
        last = time.monotonic() - start
        last_width = width
    assert best is not None
    rp = _RandomPasses(w, lost_w, deadline, phrases, tries, spelled=spelled, guard_weight=guard_weight)
    if search.random_count is not None and search.random_count > 0:
        rp = replace(
            rp,
            count=search.random_count,
            rseed=search.rseed,
            width=search.random_width,
            fall_value=0.0 if small else FALL_VALUE,
        )
        best = _random_passes(prep, seed, best, best_plan, rp)
    elif search.random_passes and search.random_count is None and small and weights is None:
        best = _random_passes(prep, seed, best, best_plan, rp)
    best.seconds = time.monotonic() - t0
    return best
