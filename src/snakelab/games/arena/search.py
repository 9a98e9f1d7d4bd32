"""The arena's best-reply alpha-beta: the compiled kernel and the iterative deepening that drives it.

One ply is one simultaneous step, played by the compiled simulator (:mod:`.sim`), so the
zombies' sequential chase, bites, kills and head-ons are exact along every line. At each
ply the agent picks one of its three moves (max), then the opponents reply (min) in the
manner of *best-reply search*: every opponent plays its default move (the greedy filler's,
what most simple bots do), or exactly one opponent whose head is within ``2 × remaining
plies`` of ours deviates to another of its non-suicidal moves. This is paranoid — the
replies minimise our value — but keeps the reply count at ``1 + 2k`` for ``k`` nearby
opponents instead of ``3^k``, and far opponents cost nothing. Alpha-beta prunes both
levels. Iterative deepening (:func:`deepen`) orders the root moves by the last depth's
values. The leaves are valued by :func:`.evaluation.evaluate_w` with the weights given.

Simplifications: apples eaten during the search do not reappear (their new place is
random), dead snakes stay dead.

Limits: a node cap over all iterations together makes the search deterministic (the same
position and cap give the same moves on any machine); a deadline searches deeper while
the predicted cost of the next depth fits (``foresee``, the references' way), or on to the
deadline keeping what the cut-off depth decided (``partial``, the champion's;
:func:`partial_order`), with each ply's killer moves tried first (``W_KILLERS``).
Depth 1 always completes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

import numpy as np
import numpy.typing as npt

from snakelab.core.errors import ConfigError
from snakelab.core.game import Budget
from snakelab.core.jit import monotonic
from snakelab.games.arena import sim
from snakelab.games.arena.clock import interruptible
from snakelab.games.arena.evaluation import (
    DEAD,
    N_WEIGHTS,
    OPP,
    W_KILLERS,
    W_PREDICT,
    dead_value,
    evaluate_w,
    timid_dir,
)
from snakelab.games.arena.sim import (
    F_ALIVE,
    F_HEADING,
    L_N,
    L_OCC,
    L_SNK,
    L_STEP,
    L_STEPS,
    L_W,
    NF,
    _jit,
    greedy_dir,
    head_of,
    step,
)

I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]

# Counter slots: nodes used, node cap, aborted flag.
C_NODES, C_CAP, C_ABORT = 0, 1, 2


@dataclass(frozen=True)
class Plan:
    """What a move's budget allows a search: nodes (None: no cap), and the times to stop by.

    Attributes:
        nodes: The node or iteration budget, or None when the clock alone stops the search.
        deadline: ``time.perf_counter()`` at which the search stops (1e308: none).
        until: By when the move must be back, bar a twentieth of the budget for the harness.
        timed: Whether the clock stops the search.
    """

    nodes: int | None
    deadline: float
    until: float
    timed: bool


@dataclass(frozen=True)
class SearchOptions:
    """The options every searching agent of the arena shares: how much of a budget it uses.

    :class:`.voronoi.VoronoiOptions`, :class:`.champion.ChampionOptions` and
    :class:`.mcts.MctsOptions` extend it (with their own defaults); an agent string's
    parameters become one through :func:`snakelab.core.registry.config_from_kwargs`.

    Attributes:
        time_fraction: Share of ``Budget.time_s`` the search may plan to use.
        default_nodes: Node budget when the agent is given no budget at all.
    """

    agent: ClassVar[str] = "arena search"
    time_fraction: float = 0.4
    default_nodes: int = 20_000

    def __post_init__(self) -> None:
        if not 0.0 < self.time_fraction <= 1.0:
            raise ConfigError(f"{self.agent}: time_fraction {self.time_fraction} must be in (0, 1]")
        if self.default_nodes < 1:
            raise ConfigError(f"{self.agent}: default_nodes {self.default_nodes} must be ≥ 1")

    def plan(self, t0: float, budget: Budget | None) -> Plan:
        """The search's limits for a move that started at ``t0`` (``time.perf_counter()``).

        No budget means ``Budget(nodes=default_nodes)``. A node budget wins over the clock
        when both are given (``--nodes``): the search must then not depend on the machine.
        """
        if budget is None or (budget.time_s is None and budget.nodes is None):
            budget = Budget(nodes=self.default_nodes)
        time_s = budget.time_s
        if budget.nodes is None and time_s is not None:
            return Plan(None, t0 + self.time_fraction * time_s, t0 + 0.95 * time_s, True)
        return Plan(budget.nodes, 1.0e308, 1.0e308, False)


class Frame(NamedTuple):
    """What every node of one alpha-beta iteration shares (a named tuple, so the compiled kernel takes it whole).

    Attributes:
        bufs: One encoded position a ply (``bufs[0]`` the root; the search leaves it as it is).
        lay: The encoding's layout (:func:`.sim.layout`).
        nbr: The board's neighbour table (:func:`.sim.grid_nbr`).
        me: The searching snake.
        work: The evaluation's scratch.
        moves: One row of moves a ply.
        counter: Nodes used, node cap, aborted flag (``C_*``).
        root_order: The root's three moves in the order to search them.
        root_vals: Filled with each root move's value (-1e18: not finished).
        deadline: ``time.perf_counter()`` to stop at (above 1e300: none).
        wts: The evaluation's weights (``W_*``).
        timid: Per snake, 1 where the opponent is modelled as timid.
        killer: Three ints a ply: the killer moves (-2 to start).
    """

    bufs: I32
    lay: I32
    nbr: I32
    me: int
    work: I32
    moves: I32
    counter: I64
    root_order: I32
    root_vals: F64
    deadline: float
    wts: F64
    timid: I32
    killer: I32


@dataclass(frozen=True)
class Limits:
    """When :func:`deepen` stops.

    Attributes:
        max_depth: Deepest iteration.
        node_cap: Nodes over all iterations (depth 1 always completes).
        deadline: ``time.perf_counter()`` to stop at (1e308: none).
        foresee: Also stop before a depth that the measured branching says will not finish.
        partial: Keep what an iteration cut off part-way decided (:func:`partial_order`).
    """

    max_depth: int
    node_cap: int
    deadline: float = 1.0e308
    foresee: bool = False
    partial: bool = False


@_jit
def alphabeta(f: Frame, ply: int, depth: int, alpha: float, beta: float) -> float:  # pragma: no cover - jitted
    """Best-reply alpha-beta to ``depth`` plies from ``f.bufs[ply]``; the root fills ``f.root_vals``.

    ``f.timid[j]`` marks opponents modelled as timid (the champion's; :data:`NO_TIMID`
    for the references): their default move is :func:`timid_dir` and they never
    deviate into a cell next to our head. With ``wts[W_KILLERS]`` set, ``f.killer``
    (three ints a ply, -2 to start) holds each ply's killer moves: below the root, the
    move last found best at that ply is tried first, and everywhere the reply that last
    refuted a move. The order changes what is searched in a given time, never the value
    of a finished depth.
    """
    bufs, lay, nbr, me = f.bufs, f.lay, f.nbr, f.me
    wts, timid, killer, counter, deadline = f.wts, f.timid, f.killer, f.counter, f.deadline
    st = bufs[ply]
    n = lay[L_N]
    snk = lay[L_SNK]
    fm = snk + NF * me
    if st[fm + F_ALIVE] == 0:
        return dead_value(st, lay, me, ply, wts)
    if depth == 0 or st[lay[L_STEP]] >= lay[L_STEPS]:
        return evaluate_w(st, lay, nbr, me, ply, f.work, wts, timid)
    w = lay[L_W]
    mh = head_of(st, lay, me)
    mx, my = mh % w, mh // w
    mv = f.moves[ply]
    # Default replies (greedy filler, or at the root a predicted move) as absolute
    # directions; who may deviate.
    predict = ply == 0 and wts[W_PREDICT] != 0.0
    for j in range(n):
        mv[j] = 5
        if j != me and st[snk + NF * j + F_ALIVE] != 0:
            if predict and wts[N_WEIGHTS + j] >= 0.0:
                mv[j] = int(wts[N_WEIGHTS + j])
                continue
            d = timid_dir(st, lay, nbr, j) if timid[j] != 0 else greedy_dir(st, lay, nbr, j)
            mv[j] = st[snk + NF * j + F_HEADING] if d == 5 else d
    my_heading = st[fm + F_HEADING]
    best = -1.0e18
    child = bufs[ply + 1]
    side = 2 if my_heading < 2 else 0  # the two perpendicular directions: side, side + 1
    # The replies: -1 (everyone plays the default), then one opponent deviating at a time
    # (rj, rd). They do not depend on our move, so they are listed once per node.
    rj = np.empty(1 + 3 * n, np.int32)
    rd = np.empty(1 + 3 * n, np.int32)
    rj[0], rd[0] = -1, 0
    nr = 1
    for j in range(n):
        if j == me or st[snk + NF * j + F_ALIVE] == 0:
            continue
        hj = head_of(st, lay, j)
        if abs(hj % w - mx) + abs(hj // w - my) > 2 * depth:
            continue
        for dj in range(4):
            if dj == mv[j] or dj == OPP[st[snk + NF * j + F_HEADING]]:
                continue
            c = nbr[4 * hj + dj]
            if c < 0:
                continue
            v0 = st[lay[L_OCC] + c]
            if v0 < 0 or (v0 > 0 and c != sim.tail_of(st, lay, v0 - 1)):
                continue  # a suicidal deviation never hurts us more than the default
            if timid[j] != 0 and abs(c % w - mx) + abs(c // w - my) == 1:
                continue  # a timid opponent never steps where our head could meet it
            rj[nr], rd[nr] = j, dj
            nr += 1
    # Our moves: at the root in the order given; below it straight first (usually the
    # safest guess), then the two sides.
    om = np.empty(3, np.int32)
    for oi in range(3):
        if ply == 0:
            om[oi] = f.root_order[oi]
        elif oi == 0:
            om[oi] = my_heading
        else:
            om[oi] = side + oi - 1
    killers = wts[W_KILLERS] != 0.0
    ko = ply * 3  # this ply's killers in ``killer``: our move, the reply's opponent and direction
    if killers:
        # Killer moves: the move that was best, and the reply that refuted a move, at the
        # last node searched at this ply are likely so here too; trying them first makes
        # alpha-beta cut sooner. Below the root only: the root keeps its given order.
        if ply > 0:
            for oi in range(1, 3):
                if om[oi] == killer[ko]:
                    om[0], om[oi] = om[oi], om[0]
                    break
        for r in range(1, nr):
            if rj[r] == killer[ko + 1] and rd[r] == killer[ko + 2]:
                rj[0], rd[0], rj[r], rd[r] = rj[r], rd[r], rj[0], rd[0]
                break
    for oi in range(3):
        dme = om[oi]
        a = max(alpha, best)
        worst = 1.0e18
        for r in range(nr):
            j = rj[r]
            counter[C_NODES] += 1
            if counter[C_NODES] > counter[C_CAP] or (
                deadline < 1.0e300 and (counter[C_NODES] & 3) == 0 and monotonic() > deadline
            ):
                counter[C_ABORT] = 1
                return 0.0
            child[:] = st
            save = mv[j] if j >= 0 else 0
            if j >= 0:
                mv[j] = rd[r]
            mv[me] = dme
            step(child, lay, nbr, mv)
            if j >= 0:
                mv[j] = save
            val = alphabeta(f, ply + 1, depth - 1, a, min(beta, worst))
            if counter[C_ABORT] != 0:
                return 0.0
            worst = min(worst, val)
            if worst <= a:
                if killers:
                    killer[ko + 1], killer[ko + 2] = j, rd[r]
                break
        if ply == 0:
            f.root_vals[oi] = worst
        if worst > best:
            best = worst
            if killers:
                killer[ko] = dme
            if best >= beta:
                break
    return best


def root_order(heading: int) -> list[int]:
    """The three moves from ``heading``: straight first, then the two turns."""
    return [heading, *(d for d in range(4) if d not in (heading, int(OPP[heading])))]


def partial_order(order: list[int], vals: F64) -> list[int]:
    """The root order after an iteration cut off part-way: a finished move that beat the first leads.

    The root searches its moves in ``order`` (the last finished iteration's best first)
    and writes each one's value to ``vals`` once its subtree is done (-1e18: not
    finished). The first move's value is exact; a later one is exact where it beat every
    move before it and an upper bound otherwise, so the finished move of highest value is
    the best of those finished at the deeper depth. Unless the first move itself was
    finished and beaten, the order stands.
    """
    done = [k for k in range(3) if vals[k] > -1.0e18]
    if 0 not in done:
        return order
    best = max(done, key=lambda k: vals[k])
    if vals[best] <= vals[0]:
        return order
    return [order[best]] + [d for k, d in enumerate(order) if k != best]


def deepen(
    bufs: I32, lay: I32, nbr: I32, me: int, wts: F64, timid: I32, work: I32, moves: I32, limits: Limits
) -> tuple[list[int], int]:
    """Iterative deepening from ``bufs[0]`` for ``me``: its three moves ranked best first, the last depth completed.

    ``work`` is the evaluation's scratch and ``moves`` one row of moves a ply
    (``limits.max_depth + 2`` rows); ``limits`` says when to stop.
    """
    st = bufs[0]
    heading = int(st[lay[L_SNK] + NF * me + F_HEADING])
    counter = np.zeros(3, np.int64)
    kil = np.full(3 * (limits.max_depth + 2), -2, np.int32)  # killer moves, kept from one depth to the next
    order = root_order(heading)
    last_depth = 0
    prev_s = 0.0
    bf = 3.0
    for depth in range(1, limits.max_depth + 1):
        if limits.foresee:
            now_s = time.perf_counter()
            if depth > 1 and now_s + prev_s * bf > limits.deadline:
                break  # the next depth would not finish in time
        vals = np.full(3, -1.0e18)
        ro = np.asarray(order, dtype=np.int32)
        ts = time.perf_counter()
        # Depth 1 always completes (at most 3 × (1 + 2k) nodes): never play a move unexamined.
        counter[C_CAP] = limits.node_cap if depth > 1 else 1 << 60
        limit = limits.deadline if depth > 1 else 1.0e308
        frame = Frame(bufs, lay, nbr, me, work, moves, counter, ro, vals, limit, wts, timid, kil)
        with interruptible():
            alphabeta(frame, 0, depth, -1.0e18, 1.0e18)
        spent = time.perf_counter() - ts
        if counter[C_ABORT]:
            if limits.partial:
                order = partial_order(order, vals)
            break
        ranked = sorted(range(3), key=lambda k: -vals[k])
        order = [order[k] for k in ranked]
        last_depth = depth
        if prev_s > 0:
            bf = max(1.5, min(12.0, spent / prev_s))
        prev_s = spent
        if vals[ranked[0]] <= DEAD + 1000.0 * (limits.max_depth + 1):
            break  # every line loses the snake: deeper cannot change the choice
    return order, last_depth


__all__ = [
    "C_ABORT",
    "C_CAP",
    "C_NODES",
    "Frame",
    "Limits",
    "Plan",
    "SearchOptions",
    "alphabeta",
    "deepen",
    "partial_order",
    "root_order",
]
