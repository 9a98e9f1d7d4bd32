"""``arena.mcts``: decoupled UCT over the snakes' simultaneous moves, Voronoi leaf values.

Tree. Each node is a position after some simultaneous steps. The *tree players*
are the agent and the opponents whose head is within ``radius`` (Manhattan, 6) of
ours at the root (at most four snakes in all); each keeps its own statistics for its
three moves (straight and the two turns) at every node, and picks by UCB1 on them
alone — *decoupled UCT*, the standard treatment of simultaneous moves. The joint
choice of the tree players selects the child; snakes outside the tree play the
greedy filler's move, which is deterministic, so a child is one position. Steps
are played by the compiled simulator (:mod:`.sim`): zombies, kills, head-ons and
growth are exact along every line.

Leaf value. A new leaf is followed by a short playout (``rollout``, 2 steps) in which
every snake plays a cheap guided policy: among its moves that do not run into a wall
or an occupied cell (vacating tails excepted), with probability ``greed`` (0.9) the
one nearest an apple (Manhattan), else a uniform one; zombies keep chasing exactly.
Then each tree player's position is scored by the evaluation of :mod:`.evaluation`
(territory by a breadth-first race from every snake and zombie head, length, the
apple it reaches first, traps, zombie heads near it), and the change from the root's
value becomes a reward in [0, 1]: ``0.5 + 0.5 tanh(Δ / scale)``, so a death or a trap
is about 0 and an apple eaten about 1. Long random playouts measured worse: their
noise swamps the few hundred iterations a 10 ms move allows, and they cannot see an
apple race beyond their horizon, which the Voronoi race does.

The move played is the agent's most visited root move (ties to the higher mean).

Simplifications (as :mod:`.sim`): apples do not reappear, dead snakes stay dead;
pending growth is inferred as a bot would. The tree is rebuilt every step.

Budget: a *node* is one iteration (one descent, its playout and evaluation).
``Budget(nodes=N)`` runs exactly ``N`` iterations (whatever ``time_s`` says, as with
``--nodes``) with a generator seeded from the agent's seed and the step number, so the
same seed, position and node budget give the same move. ``Budget(time_s=T)`` iterates
until ``time_fraction × T`` (0.4) has passed; the clock is read before every iteration
(one iteration costs tens of microseconds), so the search overruns that point by at most
one iteration and the rest of the budget is left to the harness and a busy machine. The
first three iterations run whatever the clock says, so each root move has been looked
at. Time-budgeted play depends on the machine's speed and load and is not reproducible.
With no budget the agent uses ``Budget(nodes=default_nodes)``.

Why one module over 400 lines: the tree search is one compiled kernel with its playout
policy, and the agent that sizes its tree and reads its root; apart, neither is usable.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

import numpy as np
import numpy.typing as npt

from snakelab.core.errors import ConfigError
from snakelab.core.game import BaseAgent, Budget, GameInfo
from snakelab.core.jit import monotonic
from snakelab.core.registry import config_from_kwargs
from snakelab.core.rng import derive_seed
from snakelab.games.arena import sim
from snakelab.games.arena.clock import interruptible
from snakelab.games.arena.evaluation import evaluate
from snakelab.games.arena.rules import STRAIGHT, State
from snakelab.games.arena.search import SearchOptions
from snakelab.games.arena.sim import (
    F_ALIVE,
    F_GROWTH,
    F_HEADING,
    L_APPLE,
    L_N,
    L_NA,
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
    tail_of,
)

I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]
U64 = npt.NDArray[np.uint64]

MAX_TP = 4
JOINT = 81  # 3 ** MAX_TP


@_jit
def _rand(rng: U64) -> int:  # pragma: no cover - jitted
    """xorshift64*: a 31-bit non-negative integer; the state lives in ``rng[0]``."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return int((x * np.uint64(2685821657736338717)) >> np.uint64(33))


@_jit
def _dirs(heading: int, k: int) -> int:  # pragma: no cover - jitted
    """The k-th of the three moves from ``heading``: straight, then the two turns."""
    if k == 0:
        return heading
    return (2 if heading < 2 else 0) + k - 1


@_jit
def _free(st: I32, lay: I32, c: int) -> bool:  # pragma: no cover - jitted
    """Whether a head may enter ``c`` without a certain death (ignoring head-ons and zombies' moves)."""
    if c < 0:
        return False
    v = st[lay[L_OCC] + c]
    if v == 0:
        return True
    if v < 0:
        return False
    j = v - 1
    return c == tail_of(st, lay, j) and st[lay[L_SNK] + NF * j + F_GROWTH] == 0


@_jit
def _rollout_move(st: I32, lay: I32, nbr: I32, i: int, greed: float, rng: U64) -> int:  # pragma: no cover - jitted
    h = head_of(st, lay, i)
    heading = st[lay[L_SNK] + NF * i + F_HEADING]
    w = lay[L_W]
    safe = np.empty(3, np.int32)
    ns = 0
    for k in range(3):
        d = _dirs(heading, k)
        if _free(st, lay, nbr[4 * h + d]):
            safe[ns] = d
            ns += 1
    if ns == 0:
        return heading
    if _rand(rng) % 1000 < greed * 1000:
        best = 1 << 30
        pick = safe[0]
        a0 = lay[L_APPLE]
        for k in range(ns):
            c = nbr[4 * h + safe[k]]
            for q in range(lay[L_NA]):
                a = st[a0 + q]
                if a >= 0:
                    d = abs(a % w - c % w) + abs(a // w - c // w)
                    if d < best:
                        best = d
                        pick = safe[k]
        return pick
    return safe[_rand(rng) % ns]


@_jit
def _squash(v: float, v0: float, scale: float) -> float:  # pragma: no cover - jitted
    """A value change as a reward in [0, 1]: 0.5 for no change, about 0 for a death or a trap."""
    return 0.5 + 0.5 * np.tanh((v - v0) / scale)


class Params(NamedTuple):
    """The tree search's parameters (:class:`MctsOptions`' that the compiled kernel reads)."""

    rollout: int
    greed: float
    c: float
    scale: float


class Tree(NamedTuple):
    """The tree and the search's scratch (a named tuple, so the compiled kernel takes it whole).

    Attributes:
        child: Per node, the child of each joint choice of the tree players (-1: none).
        nvis: Per node, tree player and move: visits.
        wsum: Per node, tree player and move: the sum of rewards.
        rng: The xorshift generator's state (one ``uint64``).
        buf: A position's scratch.
        moves: One move per snake.
        work: The evaluation's scratch (``4 * size + 1`` ints).
    """

    child: I32
    nvis: I32
    wsum: F64
    rng: U64
    buf: I32
    moves: I32
    work: I32


@_jit
def search(
    root: I32, lay: I32, nbr: I32, tp: I32, iterations: int, deadline: float, prm: Params, t: Tree
) -> int:  # pragma: no cover - jitted
    """Run up to ``iterations`` iterations (stopping at ``deadline``); return how many ran.

    ``tp`` lists the tree players (the agent first); ``prm`` the search's parameters; ``t``
    the tree (node 0 is the root, already cleared) and its scratch. The first three iterations always
    run, so each of the agent's root moves is tried at least once whatever the clock
    says (a starved process would otherwise play the one move it happened to try);
    after them the clock is read before every iteration, so a search overruns its
    deadline by at most one iteration (tens of microseconds) plus whatever time the
    machine takes from us.
    """
    child, nvis, wsum, rng, buf, moves, work = t.child, t.nvis, t.wsum, t.rng, t.buf, t.moves, t.work
    rollout, greed, c_ucb, scale = prm.rollout, prm.greed, prm.c, prm.scale
    n = lay[L_N]
    snk = lay[L_SNK]
    ntp = tp.shape[0]
    max_nodes = child.shape[0]
    v0 = evaluate(root, lay, nbr, tp[0], 0, work)
    in_tree = np.zeros(n, np.bool_)
    for p in range(ntp):
        in_tree[tp[p]] = True
    path_node = np.empty(256, np.int32)
    path_choice = np.empty((256, MAX_TP), np.int32)
    rewards = np.empty(ntp, np.float64)
    nodes_used = 1
    max_steps = lay[L_STEPS]
    for it in range(iterations):
        if deadline < 1.0e300 and it >= 3 and monotonic() > deadline:
            return it
        buf[:] = root
        node = 0
        depth = 0
        # selection and expansion
        while True:
            if buf[snk + NF * tp[0] + F_ALIVE] == 0 or buf[lay[L_STEP]] >= max_steps or depth >= 255:
                break
            joint = 0
            mult = 1
            for p in range(ntp):
                i = tp[p]
                k_pick = 1  # a dead tree player's move does not matter
                if buf[snk + NF * i + F_ALIVE] != 0:
                    total = 0
                    for k in range(3):
                        total += nvis[node, p, k]
                    k_pick = -1
                    best = -1.0
                    start = _rand(rng) % 3
                    for kk in range(3):
                        k = (start + kk) % 3
                        nv = nvis[node, p, k]
                        if nv == 0:
                            k_pick = k
                            break
                        u = wsum[node, p, k] / nv + c_ucb * np.sqrt(np.log(total) / nv)
                        if u > best:
                            best = u
                            k_pick = k
                    moves[i] = _dirs(buf[snk + NF * i + F_HEADING], k_pick)
                path_choice[depth, p] = k_pick
                joint += k_pick * mult
                mult *= 3
            for i in range(n):
                if not in_tree[i]:
                    moves[i] = greedy_dir(buf, lay, nbr, i) if buf[snk + NF * i + F_ALIVE] != 0 else 5
            path_node[depth] = node
            depth += 1
            step(buf, lay, nbr, moves)
            nxt = child[node, joint]
            if nxt < 0:
                if nodes_used < max_nodes:
                    nxt = nodes_used
                    nodes_used += 1
                    child[node, joint] = nxt
                    for p in range(ntp):
                        for k in range(3):
                            nvis[nxt, p, k] = 0
                            wsum[nxt, p, k] = 0.0
                    for jj in range(JOINT):
                        child[nxt, jj] = -1
                break
            node = nxt
        # a short guided playout, then the Voronoi evaluation for each tree player
        for _t in range(rollout):
            if buf[lay[L_STEP]] >= max_steps or buf[snk + NF * tp[0] + F_ALIVE] == 0:
                break
            for i in range(n):
                if buf[snk + NF * i + F_ALIVE] != 0:
                    moves[i] = _rollout_move(buf, lay, nbr, i, greed, rng)
                else:
                    moves[i] = 5
            step(buf, lay, nbr, moves)
        ply = buf[lay[L_STEP]] - root[lay[L_STEP]]
        # Paranoid: the opponents in the tree play against us (one evaluation, ours).
        rewards[0] = _squash(evaluate(buf, lay, nbr, tp[0], ply, work), v0, scale)
        for p in range(1, ntp):
            rewards[p] = 1.0 - rewards[0]
        # backpropagation
        for dd in range(depth):
            nd = path_node[dd]
            for p in range(ntp):
                k = path_choice[dd, p]
                nvis[nd, p, k] += 1
                wsum[nd, p, k] += rewards[p]
    return iterations


@dataclass(frozen=True)
class MctsOptions(SearchOptions):
    """``arena.mcts``'s options (``arena.mcts(rollout=4)``), checked when made.

    Attributes:
        rollout: Guided playout steps after each new leaf, before it is evaluated.
        greed: Probability that a playout move heads for the nearest apple.
        c: UCB1 exploration constant.
        scale: Value change (in the evaluation's units) that moves a reward from
            0.5 to about 0.88; an apple eaten is worth about 2,700.
        radius: Opponents whose head is this close (Manhattan) join the tree.
        max_nodes: Tree size; iterations beyond it only add playouts.
        time_fraction: Share of ``Budget.time_s`` the search may use.
        default_nodes: Iterations when the agent is given no budget at all.
    """

    agent: ClassVar[str] = "arena.mcts"
    rollout: int = 2
    greed: float = 0.9
    c: float = 0.3
    scale: float = 600.0
    radius: int = 6
    max_nodes: int = 20_000
    time_fraction: float = 0.4
    default_nodes: int = 400

    def __post_init__(self) -> None:
        checks = (
            ("rollout", self.rollout, 0 <= self.rollout <= 1000, "between 0 and 1000"),
            ("greed", self.greed, 0.0 <= self.greed <= 1.0, "in [0, 1]"),
            ("c", self.c, self.c >= 0.0, "≥ 0"),
            ("scale", self.scale, self.scale > 0.0, "> 0"),
            ("radius", self.radius, self.radius >= 0, "≥ 0"),
            ("max_nodes", self.max_nodes, 1 <= self.max_nodes <= 1_000_000, "between 1 and 10^6"),
        )
        for key, value, ok, what in checks:
            if not ok:
                raise ConfigError(f"{self.agent}: {key} {value} must be {what}")
        super().__post_init__()


class MctsAgent(BaseAgent):
    """Decoupled UCT over simultaneous moves with Voronoi leaf values (see the module docstring).

    ``options``: :class:`MctsOptions` (the defaults when None).
    """

    def __init__(self, options: MctsOptions | None = None) -> None:
        opts = options if options is not None else MctsOptions()
        self.options = opts
        self.rollout = opts.rollout
        self.greed = opts.greed
        self.c = opts.c
        self.scale = opts.scale
        self.radius = opts.radius
        self.max_nodes = opts.max_nodes
        self.time_fraction = opts.time_fraction
        self.default_nodes = opts.default_nodes
        self.last_iterations = 0
        """Iterations of the last decision (for tests and benchmarks)."""

    @classmethod
    def from_params(cls, **params: Any) -> MctsAgent:
        """The agent of an agent string's parameters (``arena.mcts(rollout=4)``), checked."""
        return cls(config_from_kwargs(MctsOptions, MctsOptions.agent, params))

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Allocate the tree for this game."""
        super().reset(info, player, seed)
        cfg = info.config
        self._seed = seed
        self._growth = sim.GrowthTracker(cfg.num_snakes, cfg.apple_growth)
        self._child = np.full((self.max_nodes, JOINT), -1, np.int32)
        self._nvis = np.zeros((self.max_nodes, MAX_TP, 3), np.int32)
        self._wsum = np.zeros((self.max_nodes, MAX_TP, 3), np.float64)
        self._moves = np.zeros(cfg.num_snakes, np.int32)
        self._work = np.empty(4 * cfg.game_width * cfg.game_height + 1, np.int32)
        self._nbr: I32 | None = None

    def act(self, observation: Any, budget: Budget | None) -> int:
        """One move: an absolute direction."""
        t0 = time.perf_counter()
        s: State = observation
        growth = self._growth.update(s)
        me = self.player
        if not s.alive[me]:
            return STRAIGHT
        if self._nbr is None:
            self._nbr = sim.grid_nbr(s)
        longest = max((len(b) + growth[i] for i, b in enumerate(s.bodies)), default=0)
        lay = sim.layout(s, cap=longest + self.rollout + 260)
        root = sim.encode(s, lay, growth)
        g = s.grid
        hx, hy = g.xy(s.bodies[me][-1])
        near = sorted(
            (abs(g.xy(b[-1])[0] - hx) + abs(g.xy(b[-1])[1] - hy), j) for j, b in enumerate(s.bodies) if b and j != me
        )
        tp = np.asarray([me, *[j for d, j in near if d <= self.radius][: MAX_TP - 1]], dtype=np.int32)
        plan = self.options.plan(t0, budget)
        iterations = max(1, plan.nodes) if plan.nodes is not None else 1 << 40
        deadline = plan.deadline
        self._child[0, :] = -1
        self._nvis[0] = 0
        self._wsum[0] = 0.0
        rng = np.asarray([derive_seed(self._seed, "mcts", s.steps) | 1], dtype=np.uint64)
        with interruptible():
            self.last_iterations = search(
                root,
                lay,
                self._nbr,
                tp,
                iterations,
                deadline,
                Params(self.rollout, self.greed, self.c, self.scale),
                Tree(self._child, self._nvis, self._wsum, rng, np.empty_like(root), self._moves, self._work),
            )
        # The most visited root move, ties to the higher mean.
        heading = s.heading[me]
        best_k, best_key = 0, (-1, -1.0)
        for k in range(3):
            nv = int(self._nvis[0, 0, k])
            key = (nv, float(self._wsum[0, 0, k]) / nv if nv else -1.0)
            if key > best_key:
                best_k, best_key = k, key
        return heading if best_k == 0 else (2 if heading < 2 else 0) + best_k - 1


__all__ = ["MctsAgent", "MctsOptions", "Params", "Tree", "search"]
