"""``arena.champion``: best-reply search that reads its opponents and the clock.

The search is :class:`~snakelab.games.arena.voronoi.VoronoiAgent`'s — paranoid
best-reply alpha-beta over simultaneous steps on the compiled simulator, iterative
deepening within the budget, zombies exact, one compiled kernel (:func:`.voronoi._ab`)
— with what it assumes and values set by its weights and timid flags
(:meth:`ChampionAgent._model`):

* **claimed apples** (``claim``, on): once a move, every snake and zombie head races
  alone to every apple (:func:`.voronoi.apple_races`), and each opponent's target is
  predicted as the references choose theirs: the nearest apple it reaches strictly
  first, else the nearest by Manhattan distance. An apple that every snake reaching it
  no later than we do is heading away from is ours to claim: it earns the bonus of an
  apple we reach first. The nearest snake to an apple is often bound for the other
  one; the references, which count only apples they reach first, leave those to it;
* **timid opponents** (``timid``, on): :class:`ContactModel` watches every opponent
  next to a cell another head could also enter (a head-on there kills both). The
  greedy filler steps in whenever its apple lies that way; a paranoid searcher — both
  references — never does. An opponent seen to swerve is modelled as swerving: its
  default move avoids contested cells and it never deviates into a cell next to our
  head. The champion then takes the apple both heads are one step from, and the
  cells that shoulder an opponent off its path, which a paranoid search leaves to
  nobody; against the greedy filler (never seen to swerve) it stays as careful as
  the references.
* **the clock** (``late_c0``, ``late_rate``): the ranking counts the longest length
  reached, so a death costs only the growth still to come. It is valued
  ``late_c0 + late_rate × steps left`` below the length reached (early in a
  1,200-step game far worse than any apple; in the last few dozen steps a few
  apples' worth), apples further than the steps left are worth nothing, the last
  step is valued by the longest length alone, and a trap (a room smaller than the
  body) costs at most 0.9 of a death, which late in a game it would otherwise exceed;
* **a near territory race** (``horizon``, 16): the race from every snake and zombie
  head stops at 16 steps, so a leaf costs about 4 µs instead of 6–9 µs; a region
  still open at the horizon is no trap (the references' test, territory smaller than
  the body, counted within 16 steps would call every long snake trapped and make it
  hoard space instead of eating). At the 10 ms budget this wins; at 50 ms over 3,000
  steps, with snakes of 100–200 cells, it won 3, 5 and 3 of 10 in three checks
  against the references (1 of 10 before the trap cap above), dying 0.2–0.9 times a
  game, mostly walled into a pocket by the long bodies around it after step 1,500
  (``docs/arena.md``; the traces in ``research/arena/champion.md``);
* **no fear of zombies** (``zombie``, 0): the references take up to 1.6 cells' worth
  off a leaf for each zombie head within four cells of theirs; the champion's search
  plays the zombies' chase exactly and adds nothing for their nearness. Without the
  penalty it died 5 and 8 times in two 100-game line-ups against three ``voronoi``
  where with it it had died 20 and 18 times on the same run seeds, grew more (mean
  longest 83.2 against 78.1, 84.2 against 77.8) and won 41 and 46 games against 34
  and 22. The penalty prices a danger the search already sees exactly a few plies
  deep, and keeps the snake from apples a zombie stands near (how it cost lives was
  not traced);
* **the rival** (``rival``, 2): the ranking is a race against the longest opponent, so
  its growth since the root (pending growth counted as ours is) costs us twice what a
  cell of ours is worth, and an apple it reaches strictly first at a leaf twice what
  that apple would be worth to us. The search then takes, blocks or contests the
  apples the leader is bound for instead of leaving them to it. On run seeds 4, 6 and
  7 against three ``voronoi`` it won 47, 47 and 50 of 100 where the champion without
  it had won 41, 46 and 40: its own growth stayed where it was and the longest of the
  three others fell by about two cells, at the price of dying twice as often (0.2
  times a game against 0.1);
* **where to wait for the next apple** (``spawn``, 15): with no apple race of its own,
  the references walk toward the nearest apple anyway and stand next to its eater when
  the new apple appears. Once a move :func:`.voronoi.spawn_spot` predicts that moment
  (the first apple any snake reaches) and where each opponent will then stand, and the
  evaluation pulls toward the cell reachable by then that is nearer than any opponent
  to the most free cells, 15 a step, instead of toward the nearest apple. Against three
  ``voronoi`` it grew about one apple more a game (mean longest 86.1 and 87.0 against
  83.4 before) and died a third as often (0.07 times a game against 0.20). The cells
  are counted by Manhattan distance, which sees through bodies; the eight best by that
  count are counted again by path distance over the board as it will be then
  (``spawn_paths``, 8; about 0.1 ms a move), which moved the spot in 11 of 117 positions
  sampled from a game of ``greedy`` snakes. With it the champion won 45 and 55 of 100
  (100 of 200) against three ``voronoi`` where it had won 194 of 400 (``docs/arena.md``);
* **the way round** (``paths``, 1): beyond the race's horizon the pull toward a claimed
  apple, the nearest apple or the spawn spot counts the steps the head needs round the
  bodies still in the way when it gets there (:func:`.voronoi.pull_maps`, once a move),
  not the Manhattan distance, which pulls a long snake against its own coil while
  another snake takes the way round. At 10 ms against three ``voronoi`` it won 200 of
  400 games where the champion without it won 134 of 300, and at the contest's budget 22
  of 42 where that one won 22 of 50 (both with the bitboard race; ``docs/arena.md``);
* **no walk into its own coil** (``doom``, 5,000 nodes): after the search, the ranked
  root moves are checked in turn by :func:`.survival.alone_moves`, a depth-first proof
  of whether the snake alone can still make a body's length of moves after it, and
  the first move not proved doomed is played. A long snake idling in its region
  coils, and once its head is inside a ring of its own body it dies 40 or more steps
  later whatever it does; no search a few plies deep sees that, and the room test
  (cells reached in a race) counts cells it cannot walk. At the contest's budget
  these were the deaths of long snakes well before the end (three of 17 deaths in
  20 traced games, each proved doomed 40 steps before it came). With the proof the
  champion won 29 of 90 contest games, without it 28 of 90, dying 0.41 and 0.70 times
  a game: no difference in wins those games can show, but a move it passes over is a proved
  death. At 10 ms, with shorter snakes, it changes about one move in a thousand.
  The proof leaves other heads out, so a walk it finds can be closed by them: in six
  of eleven deaths traced at the contest's budget a walk existed one step and none the
  next. So a snake of at least ``doom_ahead_len`` (100) cells first asks for a walk
  that keeps strictly ahead of every other snake's head for ``doom_ahead`` (8) steps
  (:func:`.survival.opponent_reach`) while the zombies move along the whole walk as
  the rules move them (``doom_zombies=2``: each toward the nearest head, the walking
  one or another snake's held where it stands; ``chase`` in
  :func:`.survival.alone_moves`), and plays the best-ranked move with one. A walk down
  a corridor a zombie is coming up is then no walk, and one a zombie only runs beside
  is. Replayed from 40 steps before, the eleven traced deaths came back in 14 of 22
  replays with the walk instead of 20. Asked at every length, the walk costs wins at
  10 ms, where the 2 to 5 moves a game it changes are next to the contested apples; at
  10 ms the champion reaches 100 cells in about a quarter of its games, late. With the
  zombies raced as heads that can go anywhere for those 8 steps (``doom_zombies=1``)
  the champion won 58 of 130 games at the contest's budget; with the chase, 77 of 150
  on run seeds 45 to 59 (``research/arena/champion.md``, rounds 15 to 23);
* **all of its budget** (``time_fraction``, 0.8 instead of the references' 0.4;
  ``partial``, ``killers``): the references stop before a depth their measured
  branching says will not finish, which left a third of the champion's planned time
  unused. The champion searches on to its deadline and keeps what the cut-off depth
  decided (:func:`.voronoi._partial_order`), and below the root tries each ply's
  killer moves first (:func:`.voronoi._ab`), which changes how much is searched in the
  time, never a finished depth's value. Twice the time (16 ms, over the budget) won 104
  of 200 games against three ``voronoi``, a few points over its rate at 8 ms
  (``docs/arena.md``); its p99 stays near 8 ms of a 10 ms budget.

The evaluation's other weights — ``share`` (our fraction of the cells the snakes reach
first), ``second`` (the second-best apple), ``terr``, ``terr_cap``, ``apple_step``,
``apple_own``, ``ties`` — are parameters too, so a variant can be screened
from the command line (``arena.champion(timid=0)``); ``docs/arena.md`` records the
measured ones. Budgets are as :class:`~.voronoi.VoronoiAgent`'s; with no budget at all
the champion searches 300 nodes, about what a 10 ms move searches.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from snakelab.core.errors import ConfigError
from snakelab.core.game import GameInfo
from snakelab.games.arena.agents import greedy_move
from snakelab.games.arena.rules import State
from snakelab.games.arena.sim import F_GROWTH, F_LEN, L_NZ, L_SNK, L_ZCAP, NF
from snakelab.games.arena.survival import SHUT_NEVER, alone_moves, opponent_reach, work_size
from snakelab.games.arena.voronoi import (
    SPAWN_SAMPLES,
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
    VoronoiAgent,
    apple_races,
    claims,
    interruptible,
    pull_maps,
    race_table,
    rival_of,
    spawn_spot,
)


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


class ChampionAgent(VoronoiAgent):
    """Best-reply search with a clock-aware value and timid opponents (see the module docstring).

    Args:
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
            :func:`.voronoi.spawn_spot`, where the next apple is likeliest to be ours (0:
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
            (1; :func:`.voronoi.pull_maps`), or by Manhattan distance (0).
        partial: Search on to the deadline and keep what the cut-off depth decided (1),
            or stop, as the references do, before a depth that will not finish (0).
        killers: Try each ply's killer moves first (1; see :func:`.voronoi._ab`), or
            search in the references' fixed order (0).
        max_depth: Deepest iteration.
        time_fraction: Share of ``Budget.time_s`` the search may plan to use.
        default_nodes: Node budget when given no budget (300: about what a 10 ms move
            searches, and what the golden playthrough records).
    """

    def __init__(
        self,
        share: float = 0.0,
        second: float = 0.0,
        terr: float = 0.5,
        terr_cap: int = 400,
        apple_step: float = 15.0,
        apple_own: float = 2000.0,
        zombie: float = 0.0,
        horizon: int = 16,
        late_c0: float = 5000.0,
        late_rate: float = 200.0,
        timid: int = 1,
        trust: float = 1000.0,
        ties: int = 0,
        claim: int = 1,
        rival: float = 2.0,
        doom: int = 5000,
        doom_ahead: int = 8,
        doom_ahead_len: int = 100,
        doom_zombies: int = 2,
        spawn: float = 15.0,
        spawn_paths: int = 8,
        paths: int = 1,
        partial: int = 1,
        killers: int = 1,
        max_depth: int = 24,
        time_fraction: float = 0.8,
        default_nodes: int = 300,
    ) -> None:
        super().__init__(max_depth=max_depth, time_fraction=time_fraction, default_nodes=default_nodes)
        checks = (
            ("share", share, share >= 0.0),
            ("second", second, 0.0 <= second <= 1.0),
            ("terr", terr, terr >= 0.0),
            ("terr_cap", terr_cap, terr_cap >= 0),
            ("apple_step", apple_step, apple_step >= 0.0),
            ("apple_own", apple_own, apple_own >= 0.0),
            ("zombie", zombie, zombie >= 0.0),
            ("horizon", horizon, horizon >= 1),
            ("late_c0", late_c0, late_c0 >= 0.0),
            ("late_rate", late_rate, late_rate >= 0.0),
            ("timid", timid, timid in (0, 1)),
            ("trust", trust, trust >= 0.0),
            ("ties", ties, ties in (0, 1)),
            ("claim", claim, claim in (0, 1)),
            ("rival", rival, rival >= 0.0),
            ("doom", doom, doom >= 0),
            ("doom_ahead", doom_ahead, doom_ahead >= 0),
            ("doom_ahead_len", doom_ahead_len, doom_ahead_len >= 0),
            ("doom_zombies", doom_zombies, doom_zombies in (0, 1, 2)),
            ("spawn", spawn, spawn >= 0.0),
            ("spawn_paths", spawn_paths, 0 <= spawn_paths <= SPAWN_SAMPLES),
            ("paths", paths, paths in (0, 1)),
            ("partial", partial, partial in (0, 1)),
            ("killers", killers, killers in (0, 1)),
        )
        for key, value, ok in checks:
            if not ok:
                what = {
                    "second": "in [0, 1]",
                    "horizon": "≥ 1",
                    "timid": "0 or 1",
                    "ties": "0 or 1",
                    "claim": "0 or 1",
                    "partial": "0 or 1",
                    "paths": "0 or 1",
                    "killers": "0 or 1",
                    "doom_zombies": "0, 1 or 2",
                    "spawn_paths": f"between 0 and {SPAWN_SAMPLES}",
                }.get(key, "≥ 0")
                raise ConfigError(f"arena.champion: {key} {value} must be {what}")
        w = WEIGHTS.copy()
        w[W_SHARE], w[W_APPLE_SECOND], w[W_TERR], w[W_TERR_CAP] = share, second, terr, terr_cap
        w[W_APPLE_STEP], w[W_APPLE_OWN], w[W_ZOMBIE], w[W_HORIZON] = apple_step, apple_own, zombie, horizon
        w[W_LATE_C0], w[W_LATE_RATE], w[W_TIES], w[W_CLOCK] = late_c0, late_rate, ties, 1.0
        w[W_RIVAL], w[W_SPAWN], w[W_KILLERS], w[W_PATHS] = rival, spawn, killers, paths
        self.weights = w
        self.timid = timid
        self.trust = trust
        self.claim = claim
        self.doom = doom
        self.doom_ahead = doom_ahead
        self.doom_ahead_len = doom_ahead_len
        self.doom_zombies = doom_zombies
        self.spawn_paths = spawn_paths
        self.partial = bool(partial)
        self.last_doomed: list[int] = []
        """The root moves the last move proved doomed and passed over (for tests)."""
        self.last_timid: list[int] = []
        """Per snake, 1 where the last move modelled the opponent as timid (for tests)."""

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
        """Set the rival (:func:`.voronoi.rival_of`), the claimed apples and the spawn spot.

        The claimed apples (``claim``) are those no snake reaching them first heads for
        (:func:`.voronoi.claims`); the spawn spot (``spawn``), where to wait for the next
        apple when no apple race is ours (:func:`.voronoi.spawn_spot`). Both read one
        table of every head's race to every apple (:func:`.voronoi.apple_races`).
        """
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
                        root, lay, nbr, me, d, need, self.doom, self._doom_work, until, self._shut, chase
                    )
                if ahead == 1:
                    return d
        for d in order:
            with interruptible():
                doomed = alone_moves(root, lay, nbr, me, d, need, self.doom, self._doom_work, until, self._never) == 0
            if not doomed:
                return d
            self.last_doomed.append(d)
        self.last_doomed = []
        return order[0]


__all__ = ["ChampionAgent", "ContactModel"]
