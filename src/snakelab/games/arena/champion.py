"""``arena.champion``: best-reply search that reads its opponents and the clock.

The search is :class:`~snakelab.games.arena.voronoi.VoronoiAgent`'s — paranoid
best-reply alpha-beta over simultaneous steps on the compiled simulator, iterative
deepening within the budget, zombies exact, one compiled kernel (:func:`.search.alphabeta`)
— with what it assumes and values set by its weights and timid flags
(:meth:`ChampionAgent._model`), all carried by :class:`ChampionOptions`. Each part, and
why it is there (``research/arena/guide_history.md`` has the figure each was adopted on;
``research/arena/components.md`` the full record):

* **a near territory race** (``horizon``, 16): the race from every head stops at 16
  steps, so a leaf is cheap and the search deeper; a region still open at the horizon
  is no trap, since counted within 16 steps a long snake owns fewer cells than its
  length almost everywhere and the references' test would make it hoard space;
* **claimed apples** (``claim``): once a move every head races alone to every apple
  (:func:`.targets.apple_races`) and each opponent's target is predicted as the
  references pick theirs; an apple whose nearer snakes are all bound for the other one
  earns the bonus of an apple we reach first;
* **timid opponents** (``timid``): :class:`ContactModel` watches opponents next to a
  cell another head could also enter (a head-on there kills both); one seen to swerve
  is modelled as swerving, so the champion takes the apple both heads are one step
  from, which a paranoid search leaves to nobody; an unseen one is modelled as
  reckless, the safe guess;
* **what the others will do next** (``predict``, 30 nodes): the search's default reply
  elsewhere, the greedy filler's move, is what a reference plays only about 61 % of the
  time; at the root each opponent's reply is instead the move the references' own
  search picks from its seat after 30 nodes (:meth:`ChampionAgent._predict`), right
  about 85 % of the time, and the paranoid deviations from it still count;
* **the clock** (``late_c0``, ``late_rate``): the ranking counts the longest length
  reached, so a death costs only the growth still to come (``late_c0 + late_rate ×
  steps left`` below the length reached); apples further than the steps left are
  worth nothing, the last step is valued by the longest length alone, and a trap costs
  at most 0.9 of a death, which late in a game it would otherwise exceed;
* **no fear of zombies** (``zombie``, 0): the search plays the zombies' chase exactly,
  so the references' penalty for a zombie head nearby prices a danger already seen and
  keeps the snake from apples a zombie stands near;
* **the rival** (``rival``, 2): a game is a race against the longest opponent, so its
  growth since the root, and an apple it reaches first at a leaf, cost twice what they
  would be worth to us (:func:`.evaluation.rival_loss`);
* **where to wait for the next apple** (``spawn``, 15; ``spawn_paths``, 8): with no
  apple race of its own, :func:`.targets.spawn_spot` predicts when the next apple
  appears and where every opponent will stand then, and the evaluation pulls toward
  the reachable cell nearest to the most free cells (Manhattan, the best eight again by
  path);
* **the way round** (``paths``, 1): beyond the race's horizon the pull toward a claimed
  apple, the nearest apple or the spawn spot counts the steps round the bodies still in
  the way (:func:`.targets.pull_maps`, once a move), not the Manhattan distance, which
  pulls a long snake against its own coil;
* **no walk into its own coil** (``doom``, 5,000 nodes): the ranked root moves are
  checked in turn by :func:`.survival.alone_moves`, a depth-first proof that the snake
  alone can still make a body's length of moves, and the first not proved doomed is
  played: a head inside a ring of its own body dies 40 or more steps later, beyond any
  search. From ``doom_ahead_len`` (100) cells it first asks for a walk that keeps ahead
  of every other head for ``doom_ahead`` (8) steps (:func:`.survival.opponent_reach`)
  while the zombies chase along it as the rules move them (``doom_zombies=2``), since
  the proof alone leaves other heads out and another head can close a pocket's mouth;
  asked at every length, that walk costs wins at 10 ms next to contested apples;
* **all of its budget** (``time_fraction``, 0.8 instead of 0.4; ``partial``,
  ``killers``): it searches on to its deadline and keeps what the cut-off depth decided
  (:func:`.search.partial_order`), and below the root tries each ply's killer moves
  first, which changes how much is searched in the time, never a finished depth's value.

The evaluation's other weights — ``share``, ``second``, ``terr``, ``terr_cap``,
``apple_step``, ``apple_own``, ``ties`` — are parameters too, so a variant can be tried
from the command line (``arena.champion(timid=0)``). Budgets are as
:class:`~.voronoi.VoronoiAgent`'s; with no budget at all the champion searches 300
nodes, about what a 10 ms move searches.

Why one module over 400 lines: it is one agent — its options, the opponent model it
reads (:class:`ContactModel`) and the hooks by which it sets the shared search's weights
at the root and checks its choice; the kernels it drives live in :mod:`.search`,
:mod:`.evaluation`, :mod:`.targets` and :mod:`.survival`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from snakelab.core.errors import ConfigError
from snakelab.core.game import GameInfo
from snakelab.core.registry import config_from_kwargs
from snakelab.games.arena.agents import greedy_move
from snakelab.games.arena.clock import interruptible
from snakelab.games.arena.evaluation import (
    NO_TIMID,
    W_APPLE_OWN,
    W_APPLE_SECOND,
    W_APPLE_STEP,
    W_CLAIM,
    W_CLOCK,
    W_HORIZON,
    W_KILLERS,
    W_LATE_C0,
    W_LATE_RATE,
    W_PATHS,
    W_PREDICT,
    W_RIVAL,
    W_RIVAL_IDX,
    W_RIVAL_ROOT,
    W_ROOT_LEN,
    W_SHARE,
    W_SPAWN,
    W_SPAWN_CELL,
    W_TERR,
    W_TERR_CAP,
    W_TIES,
    W_ZOMBIE,
    WEIGHTS,
    rival_of,
)
from snakelab.games.arena.rules import State
from snakelab.games.arena.search import Limits
from snakelab.games.arena.sim import F_ALIVE, F_GROWTH, F_LEN, L_N, L_NZ, L_SNK, L_ZCAP, NF
from snakelab.games.arena.survival import SHUT_NEVER, Ask, alone_moves, opponent_reach, work_size
from snakelab.games.arena.targets import SPAWN_SAMPLES, apple_races, claims, pull_maps, race_table, spawn_spot
from snakelab.games.arena.voronoi import VoronoiAgent, VoronoiOptions


class ContactModel:
    """Which opponents swerve from contested cells, judged from what a bot sees.

    A *contested* cell is a free cell next to an opponent's head that another live
    head is next to as well: if both step there, both die. Each step the model notes,
    for every opponent with a contested neighbour, the greedy filler's move and where
    the opponent's head could go; on the next step it sees where the head went. An
    opponent that steps into a contested cell shows it is *reckless* (the greedy filler
    does, whenever its apple lies that way); one whose greedy move was contested and
    that went elsewhere shows it is *timid* (a paranoid searcher never steps where it
    could meet a head). An opponent counts as timid once its timid observations
    outnumber ``trust`` times its reckless ones — a reckless opponent never gets there,
    and an unseen one is treated as reckless, which is the safe guess. The champion's
    ``trust`` is 1,000: one step into a contested cell outweighs every swerve a game
    shows, because a sampling searcher (``arena.mcts``) swerves mostly but not always,
    and a head-on it does not avoid costs the rest of the game.
    """

    def __init__(self, num_snakes: int, trust: float = 1000.0) -> None:
        self.trust = trust
        self.timid_seen = [0] * num_snakes
        self.reckless_seen = [0] * num_snakes
        self._pending: dict[int, tuple[int, int, frozenset[int]]] = {}

    def update(self, s: State, me: int) -> list[int]:
        """Take in this step's position; return 1 per timid opponent, else 0."""
        nbr = s._nbr
        for j, (old_head, greedy_cell, contested) in self._pending.items():
            body = s.bodies[j]
            if not s.alive[j] or not body:
                continue
            head = body[-1]
            if head not in (nbr[4 * old_head + d] for d in range(4)):
                continue  # respawned, not a move
            if head in contested:
                self.reckless_seen[j] += 1
            elif greedy_cell in contested:
                self.timid_seen[j] += 1
        self._pending = {}
        xs, ys, occ = s._xs, s._ys, s.occ
        heads = {i: b[-1] for i, b in enumerate(s.bodies) if s.alive[i] and b}
        for j, h in heads.items():
            if j == me:
                continue
            cells: set[int] = set()
            for d in range(4):
                c = nbr[4 * h + d]
                if c < 0 or occ[c]:
                    continue
                if any(k != j and abs(xs[c] - xs[o]) + abs(ys[c] - ys[o]) == 1 for k, o in heads.items()):
                    cells.add(c)
            if cells:
                g = greedy_move(s, j)
                self._pending[j] = (h, nbr[4 * h + g] if g < 4 else -1, frozenset(cells))
        return [int(j != me and self.timid_seen[j] > self.trust * self.reckless_seen[j]) for j in range(len(s.bodies))]


def _nonneg(v: float) -> bool:
    return v >= 0.0


def _flag(v: int) -> bool:
    return v in (0, 1)


_CHECKS: tuple[tuple[str, Callable[[Any], bool], str], ...] = (
    ("share", _nonneg, "≥ 0"),
    ("second", lambda v: 0.0 <= v <= 1.0, "in [0, 1]"),
    ("terr", _nonneg, "≥ 0"),
    ("terr_cap", _nonneg, "≥ 0"),
    ("apple_step", _nonneg, "≥ 0"),
    ("apple_own", _nonneg, "≥ 0"),
    ("zombie", _nonneg, "≥ 0"),
    ("horizon", lambda v: v >= 1, "≥ 1"),
    ("late_c0", _nonneg, "≥ 0"),
    ("late_rate", _nonneg, "≥ 0"),
    ("timid", _flag, "0 or 1"),
    ("trust", _nonneg, "≥ 0"),
    ("ties", _flag, "0 or 1"),
    ("claim", _flag, "0 or 1"),
    ("rival", _nonneg, "≥ 0"),
    ("doom", _nonneg, "≥ 0"),
    ("doom_ahead", _nonneg, "≥ 0"),
    ("doom_ahead_len", _nonneg, "≥ 0"),
    ("doom_zombies", lambda v: v in (0, 1, 2), "0, 1 or 2"),
    ("spawn", _nonneg, "≥ 0"),
    ("spawn_paths", lambda v: 0 <= v <= SPAWN_SAMPLES, f"between 0 and {SPAWN_SAMPLES}"),
    ("paths", _flag, "0 or 1"),
    ("partial", _flag, "0 or 1"),
    ("killers", _flag, "0 or 1"),
    ("predict", _nonneg, "≥ 0"),
)
"""Each option's test and, for the error, what it must be (in the order they are checked)."""


@dataclass(frozen=True)
class ChampionOptions(VoronoiOptions):
    """``arena.champion``'s weights and options (``arena.champion(timid=0)``), checked when made.

    Attributes:
        share: Weight of our share of the snakes' territory (0..1).
        second: Weight of the second-best apple relative to the best.
        terr: Weight of a territory cell (counted up to ``terr_cap`` cells).
        terr_cap: Territory cells that count per cell.
        apple_step: Value of a step nearer the best apple.
        apple_own: Bonus for an apple we reach strictly first.
        zombie: Penalty scale for a zombie head within four cells (0: none; the
            references' is 100).
        horizon: The territory race stops at this distance (a cheaper evaluation,
            so a deeper search in the same time).
        late_c0: A death's fixed cost (a cell of length is 1,000).
        late_rate: A death's cost per step left in the game.
        timid: Model opponents seen to swerve from contested cells as doing so (1) or
            every opponent as the references do (0).
        trust: An opponent is timid once its swerves outnumber ``trust`` times its
            steps into contested cells (1,000: one such step makes it reckless for good).
        ties: Count a cell we reach as soon as a timid opponent as ours (1) or as
            nobody's (0) in the territory race, apples included.
        claim: Value an apple as ours when every snake reaching it no later than we do
            is predicted to head for another (1), or only apples we reach strictly
            first (0).
        rival: How much the longest opponent's growth, or an apple it reaches strictly
            first, costs us relative to ours (0: nothing, the references' value).
        spawn: With no apple race ours, the value of a step nearer
            :func:`.targets.spawn_spot`, where the next apple is likeliest to be ours (0:
            a step nearer the nearest apple is worth ``apple_step``, as for the references).
        spawn_paths: How many of the best spawn spots by Manhattan distance are ranked
            again by path distance (0: none).
        doom: Nodes of the lone-snake survival proof (:mod:`.survival`) per root move:
            the best-ranked move it does not prove doomed is played (0: the search's
            choice always stands).
        doom_ahead: With ``doom``, first play the best-ranked move with a walk of a
            body's length that keeps strictly ahead of every other head for this many
            steps (:func:`.survival.opponent_reach`), and only when none has one the
            first not proved doomed (8; 0: none is asked for).
        doom_ahead_len: Ask for the walk ahead (``doom_ahead``) only while the snake,
            growth included, is at least this long (100; 0: at every length).
        doom_zombies: In the walk ahead, move the zombies along the whole walk as the
            rules do (2, the default; ``chase`` in :func:`.survival.alone_moves`), race
            their heads as the other snakes' for ``doom_ahead`` steps (1; see
            :func:`.survival.opponent_reach`), or leave them out (0).
        paths: Pull toward a claimed apple, the nearest apple or the spawn spot beyond the
            race's horizon by the steps the head needs round the bodies still in the way
            (1; :func:`.targets.pull_maps`), or by Manhattan distance (0).
        partial: Search on to the deadline and keep what the cut-off depth decided (1),
            or stop, as the references do, before a depth that will not finish (0).
        killers: Try each ply's killer moves first (1; see :func:`.search.alphabeta`), or
            search in the references' fixed order (0).
        predict: Search nodes per opponent for its reply at the root: each opponent's
            move is predicted by the references' own search from its seat, stopped after
            this many nodes, and is its default reply at the root, from which it may
            still deviate (0: the greedy filler's move, as at every other ply).
        max_depth: Deepest iteration.
        time_fraction: Share of ``Budget.time_s`` the search may plan to use.
        default_nodes: Node budget when given no budget (300: about what a 10 ms move
            searches, and what the golden playthrough records).
    """

    agent: ClassVar[str] = "arena.champion"
    share: float = 0.0
    second: float = 0.0
    terr: float = 0.5
    terr_cap: int = 400
    apple_step: float = 15.0
    apple_own: float = 2000.0
    zombie: float = 0.0
    horizon: int = 16
    late_c0: float = 5000.0
    late_rate: float = 200.0
    timid: int = 1
    trust: float = 1000.0
    ties: int = 0
    claim: int = 1
    rival: float = 2.0
    doom: int = 5000
    doom_ahead: int = 8
    doom_ahead_len: int = 100
    doom_zombies: int = 2
    spawn: float = 15.0
    spawn_paths: int = 8
    paths: int = 1
    partial: int = 1
    killers: int = 1
    predict: int = 30
    max_depth: int = 24
    time_fraction: float = 0.8
    default_nodes: int = 300

    def __post_init__(self) -> None:
        super().__post_init__()
        for key, ok, what in _CHECKS:
            value = getattr(self, key)
            if not ok(value):
                raise ConfigError(f"{self.agent}: {key} {value} must be {what}")

    def weights(self) -> npt.NDArray[np.float64]:
        """The evaluation's weight array (:data:`.evaluation.WEIGHTS` with the champion's entries set)."""
        w = WEIGHTS.copy()
        w[W_SHARE], w[W_APPLE_SECOND], w[W_TERR], w[W_TERR_CAP] = self.share, self.second, self.terr, self.terr_cap
        w[W_APPLE_STEP], w[W_APPLE_OWN], w[W_ZOMBIE] = self.apple_step, self.apple_own, self.zombie
        w[W_HORIZON], w[W_LATE_C0], w[W_LATE_RATE] = self.horizon, self.late_c0, self.late_rate
        w[W_TIES], w[W_CLOCK], w[W_RIVAL], w[W_SPAWN] = self.ties, 1.0, self.rival, self.spawn
        w[W_KILLERS], w[W_PATHS], w[W_PREDICT] = self.killers, self.paths, float(self.predict > 0)
        return w


class ChampionAgent(VoronoiAgent):
    """Best-reply search with a clock-aware value and timid opponents (see the module docstring).

    ``options`` are its weights and options (:class:`ChampionOptions`; the defaults when None).
    """

    options: ChampionOptions

    def __init__(self, options: ChampionOptions | None = None) -> None:
        opts = options if options is not None else ChampionOptions()
        super().__init__(opts)
        self.options = opts
        self.predict = opts.predict
        self.weights = opts.weights()
        self.timid = opts.timid
        self.trust = opts.trust
        self.claim = opts.claim
        self.doom = opts.doom
        self.doom_ahead = opts.doom_ahead
        self.doom_ahead_len = opts.doom_ahead_len
        self.doom_zombies = opts.doom_zombies
        self.spawn_paths = opts.spawn_paths
        self.partial = bool(opts.partial)
        self.last_doomed: list[int] = []
        """The root moves the last move proved doomed and passed over (for tests)."""
        self.last_predicted: list[int] = []
        """Per snake, the root reply ``predict`` expected the last move (-1: none; for tests)."""
        self.last_timid: list[int] = []
        """Per snake, 1 where the last move modelled the opponent as timid (for tests)."""

    @classmethod
    def from_params(cls, **params: Any) -> ChampionAgent:
        """The agent of an agent string's parameters (``arena.champion(timid=0)``), checked."""
        return cls(config_from_kwargs(ChampionOptions, ChampionOptions.agent, params))

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Prepare scratch space and forget what was seen of the opponents."""
        super().reset(info, player, seed)
        self._contact = ContactModel(info.config.num_snakes, self.trust)
        if self.weights[W_PATHS]:
            # The pulls' distance maps follow the evaluation's scratch (pull_maps).
            self._work = np.empty((5 + info.config.num_apples) * self._size + 1, np.int32)
        self._doom_work = np.zeros(work_size(self._size, self._size), np.int32)
        self._never = np.full(self._size, SHUT_NEVER, np.int32)
        self._shut = np.full(self._size, SHUT_NEVER, np.int32)

    def _model(self, s: State, growth: list[int]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int32]]:
        """This move's weights (the root length set) and timid flags, after watching the opponents."""
        timid = self._contact.update(s, self.player)
        if not self.timid:
            timid = [0] * len(timid)
        self.last_timid = timid
        wts = self.weights.copy()
        wts[W_ROOT_LEN] = len(s.bodies[self.player]) + growth[self.player]
        return wts, np.asarray(timid, dtype=np.int32)

    def _at_root(
        self,
        wts: npt.NDArray[np.float64],
        root: npt.NDArray[np.int32],
        lay: npt.NDArray[np.int32],
        nbr: npt.NDArray[np.int32],
    ) -> npt.NDArray[np.float64]:
        """Set the rival (:func:`.evaluation.rival_of`), the claimed apples and the spawn spot.

        The claimed apples (``claim``) are those no snake reaching them first heads for
        (:func:`.targets.claims`); the spawn spot (``spawn``), where to wait for the next
        apple when no apple race is ours (:func:`.targets.spawn_spot`). Both read one
        table of every head's race to every apple (:func:`.targets.apple_races`).
        """
        if self.predict:
            wts = np.concatenate((wts, self._predict(root, lay, nbr)))
        if wts[W_RIVAL] != 0.0:
            wts[W_RIVAL_IDX], wts[W_RIVAL_ROOT] = rival_of(root, lay, self.player)
        if self.claim or wts[W_SPAWN] != 0.0:
            ad = race_table(lay)
            apple_races(root, lay, nbr, self.player, self._work, ad)  # once for both
            if self.claim:
                wts[W_CLAIM] = float(claims(root, lay, self.player, ad))
            if wts[W_SPAWN] != 0.0:
                wts[W_SPAWN_CELL] = float(spawn_spot(root, lay, nbr, self.player, ad, self._work, self.spawn_paths))
        if wts[W_PATHS]:
            pull_maps(root, lay, nbr, self.player, self._work, int(wts[W_SPAWN_CELL]) if wts[W_SPAWN] != 0.0 else -1)
        return wts

    def _predict(
        self, root: npt.NDArray[np.int32], lay: npt.NDArray[np.int32], nbr: npt.NDArray[np.int32]
    ) -> npt.NDArray[np.float64]:
        """Each live opponent's move as a reference would choose it after ``predict`` nodes (-1: none).

        The greedy filler's move, the search's default reply elsewhere, is what a
        reference plays about 61 % of the time; its own search stopped after 30 nodes
        agrees with it about 85 % of the time, after 300 nodes 93 %
        (``research/arena/predict.py``: 3,600 moves of two games). The search leaves
        ``bufs[0]``, the root, as it is, so one copy serves every opponent.
        """
        n = int(lay[L_N])
        out = np.full(n, -1.0)
        bufs = np.empty((self.max_depth + 2, root.shape[0]), np.int32)
        bufs[0] = root
        for j in range(n):
            if j == self.player or root[lay[L_SNK] + NF * j + F_ALIVE] == 0:
                continue
            out[j] = self._deepen(bufs, lay, nbr, j, WEIGHTS, NO_TIMID, Limits(self.max_depth, self.predict))[0]
        self.last_predicted = [int(d) for d in out]
        return out

    def _settle(
        self,
        order: list[int],
        root: npt.NDArray[np.int32],
        lay: npt.NDArray[np.int32],
        nbr: npt.NDArray[np.int32],
        until: float,
    ) -> int:
        """The best-ranked root move the snake alone can survive a body's length after (``doom``).

        A move :func:`.survival.alone_moves` proves doomed is passed over for the next
        one it does not; when every move is doomed (or ``doom`` is 0) the search's choice
        stands. A proof still running at ``until`` counts as undecided.
        """
        self.last_doomed = []
        if not self.doom:
            return order[0]
        me = self.player
        f = lay[L_SNK] + NF * me
        need = min(int(root[f + F_LEN] + root[f + F_GROWTH]), self._size)
        if self.doom_ahead and need >= self.doom_ahead_len:
            chase = int(self.doom_zombies == 2)
            if chase and self._doom_work.size < (wanted := work_size(self._size, need, int(lay[L_NZ] * lay[L_ZCAP]))):
                self._doom_work = np.zeros(wanted, np.int32)
            with interruptible():
                opponent_reach(
                    root, lay, nbr, me, self.doom_ahead, self._doom_work, self._shut, int(self.doom_zombies == 1)
                )
            for d in order:
                with interruptible():
                    ahead = alone_moves(
                        root, lay, nbr, me, Ask(d, need, self._shut, chase), self.doom, self._doom_work, until
                    )
                if ahead == 1:
                    return d
        for d in order:
            with interruptible():
                doomed = (
                    alone_moves(root, lay, nbr, me, Ask(d, need, self._never), self.doom, self._doom_work, until) == 0
                )
            if not doomed:
                return d
            self.last_doomed.append(d)
        self.last_doomed = []
        return order[0]


__all__ = ["ChampionAgent", "ChampionOptions", "ContactModel"]
