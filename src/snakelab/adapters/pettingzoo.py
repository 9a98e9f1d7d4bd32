"""PettingZoo environments for the multi-player games.

Following PettingZoo's habit, every observation is a dict
``{"observation": planes, "action_mask": mask}`` (``mask`` is ``np.int8``, 1 for a
legal action). The environments sit on the game engines only, so an episode is the
same game the harness would play with the same seed and actions; ``reset(seed=s)``
draws the game seed from ``s``, and ``options={"game_seed": n}`` plays the harness's
game seed ``n`` directly.

:func:`arena_parallel_env` / :class:`ArenaParallelEnv` (``ParallelEnv``)
    Agents ``snake_0`` … ``snake_{n-1}`` move simultaneously. Actions: ``Discrete(7)``,
    the arena moves 0–6 (up, down, left, right, turn left, straight, turn right; a
    reversal goes straight, as in the rules), all always legal. Observation:
    ``uint8`` planes ``(7, height, width)`` from the agent's own point of view: own
    body, own head, other snakes' bodies, their heads, zombies, apples, obstacles.
    Reward: the growth of the agent's score (the longest length it has reached, the
    game's ranking key). The episode ends for everyone when the game does.

:func:`snakgame_env` / :class:`SnakgameAECEnv` (``AECEnv``)
    Agents ``player_0`` and ``chef_0`` alternate, player first, as in SNAKGAME; here Chef
    is a second agent instead of the judge's random policy. Actions: ``Discrete(9 +
    rows·cols)``: 0 is EXIT for the player and a one-turn FREEZE (a pass) for Chef;
    1–4 extend your current snake's head and 5–8 its tail, up/down/left/right
    (row −1, row +1, column −1, column +1); ``9 + k`` starts a new snake on cell k
    (row-major). Observation: ``uint8`` planes ``(4, rows, cols)``: blocked cells,
    own cells, the other agent's cells, the ends of own current snake. Reward: the
    player gets the change of its score (every snake scores (L−1)·⌊√L⌋, the current
    one counted as if finished), Chef its negative. The grid must have a fixed size
    (``type=0``); default an 8 × 8 custom grid with random blocked cells.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import AgentSelector

from snakelab.core.errors import ConfigError, IllegalActionError
from snakelab.core.registry import format_spec, make
from snakelab.games.arena import render as arena_render
from snakelab.games.arena.rules import OBSTACLE
from snakelab.games.arena.rules import State as ArenaState
from snakelab.games.snakgame import render as snakgame_render
from snakelab.games.snakgame.rules import BLOCKED, CHEF, EMPTY, MINE, Move
from snakelab.games.snakgame.rules import State as SnakgameState

Obs = dict[str, np.ndarray]


def _game_seed(seed: int | None, options: dict[str, Any] | None, rng: np.random.Generator) -> tuple[int, Any]:
    """The game seed for a reset, and the generator later resets without a seed use."""
    if seed is not None:
        rng = np.random.default_rng(seed)
    if options and options.get("game_seed") is not None:
        return int(options["game_seed"]), rng
    return int(rng.integers(0, 2**63 - 1)), rng


def _check_render_mode(render_mode: str | None) -> None:
    if render_mode not in (None, "ansi"):
        raise ConfigError(f"render_mode {render_mode!r} is not supported: use 'ansi' or None")


# -- arena --------------------------------------------------------------------------


class ArenaParallelEnv(ParallelEnv[str, Obs, int]):  # type: ignore[misc]  # untyped base
    """The snAIke arena as a PettingZoo ``ParallelEnv``; see the module docstring.

    Args:
        render_mode: ``"ansi"`` or None.
        **params: Arena game parameters, as in ``arena(...)`` game strings
            (``game_width``, ``game_height``, ``num_snakes``, ``num_zombies``,
            ``duration``, ``speed``, ...).
    """

    metadata: dict[str, Any] = {"name": "snakelab_arena_v0", "render_modes": ["ansi"], "is_parallelizable": True}  # noqa: RUF012

    def __init__(self, render_mode: str | None = None, **params: Any) -> None:
        _check_render_mode(render_mode)
        self.render_mode = render_mode
        self.game = make(format_spec("arena", params))
        cfg = self.game.info.config
        self.width, self.height = cfg.game_width, cfg.game_height
        self.possible_agents = [f"snake_{i}" for i in range(cfg.num_snakes)]
        self.agents: list[str] = []
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, shape=(7, self.height, self.width), dtype=np.uint8),
                "action_mask": spaces.Box(0, 1, shape=(7,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(7)
        self._rng = np.random.default_rng()
        self.state_: ArenaState | None = None

    def observation_space(self, agent: str) -> gymnasium.Space[Any]:
        """The same dict space for every agent."""
        del agent  # every seat sees the same kind of picture
        return self._obs_space

    def action_space(self, agent: str) -> gymnasium.Space[Any]:
        """``Discrete(7)`` for every agent."""
        del agent  # every seat has the same moves
        return self._act_space

    def _occ(self) -> np.ndarray:
        """The engine's owner codes as an array, shared by every agent's observation."""
        s = self.state_
        assert s is not None
        return np.asarray(s.occ, dtype=np.int32)

    def _observe(self, i: int, occ: np.ndarray) -> Obs:
        s = self.state_
        assert s is not None
        planes = np.zeros((7, self.height * self.width), dtype=np.uint8)
        planes[0] = occ == i + 1
        planes[2] = (occ > 0) & (occ != i + 1)
        for j, body in enumerate(s.bodies):
            if body:
                planes[1 if j == i else 3, body[-1]] = 1
        planes[4] = occ <= -2
        for c in s.apples:
            if c >= 0:
                planes[5, c] = 1
        planes[6] = occ == OBSTACLE
        mask = np.ones(7, dtype=np.int8) if s.running[i] and not s.is_over() else np.zeros(7, dtype=np.int8)
        return {"observation": planes.reshape(7, self.height, self.width), "action_mask": mask}

    def _all_obs(self) -> dict[str, Obs]:
        occ = self._occ()
        return {a: self._observe(i, occ) for i, a in enumerate(self.possible_agents) if a in self.agents}

    def _infos(self) -> dict[str, dict[str, Any]]:
        s = self.state_
        assert s is not None
        return {
            a: {"alive": s.alive[i], "length": len(s.bodies[i]), "kills": s.kills[i], "longest": s.longest[i]}
            for i, a in enumerate(self.possible_agents)
            if a in self.agents
        }

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        """Start a new game."""
        game_seed, self._rng = _game_seed(seed, options, self._rng)
        state = self.game.new_state(game_seed)
        assert isinstance(state, ArenaState)
        self.state_ = state
        self.agents = list(self.possible_agents)
        return self._all_obs(), self._infos()

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """One simultaneous step; agents missing from ``actions`` go straight."""
        s = self.state_
        if s is None or not self.agents:
            raise IllegalActionError("call reset() before step(), and again after the episode ended")
        before = list(s.longest)
        moves = []
        for a in self.possible_agents:
            act = int(actions.get(a, 5))
            if not 0 <= act <= 6:
                raise IllegalActionError(f"{act} is not an arena move for {a} (0-6)")
            moves.append(act)
        s.apply(moves)
        rewards = {a: float(s.longest[i] - before[i]) for i, a in enumerate(self.possible_agents) if a in self.agents}
        over = s.is_over()
        terminations = {a: over or not s.running[i] for i, a in enumerate(self.possible_agents) if a in self.agents}
        truncations = {a: False for a in self.agents}
        obs, infos = self._all_obs(), self._infos()
        self.agents = [a for a in self.agents if not terminations[a]]
        return obs, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The board as text when ``render_mode == "ansi"``."""
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        return arena_render.to_text(self.state_)

    def state(self) -> np.ndarray:
        """The whole board: the engine's owner codes (0 empty, i+1 snake i, -1 obstacle, ≤ -2 zombie)."""
        if self.state_ is None:
            raise IllegalActionError("call reset() first")
        return np.asarray(self.state_.occ, dtype=np.int32).reshape(self.height, self.width)

    def close(self) -> None:
        """Nothing to release."""


def arena_parallel_env(**kwargs: Any) -> ArenaParallelEnv:
    """Make the arena ``ParallelEnv`` (keyword arguments as :class:`ArenaParallelEnv`)."""
    return ArenaParallelEnv(**kwargs)


# -- snakgame -----------------------------------------------------------------------

# (row, column) steps of the directions up, down, left, right.
_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


class SnakgameAECEnv(AECEnv[str, Obs, int]):  # type: ignore[misc]  # untyped base
    """CodeChef SNAKGAME as a two-agent PettingZoo ``AECEnv``; see the module docstring.

    Args:
        render_mode: ``"ansi"`` or None.
        **params: snakgame parameters as in ``snakgame(...)`` game strings; the grid
            must be custom (``type=0``). Defaults: ``type=0, rows=8, cols=8,
            freeze=false``.
    """

    metadata: dict[str, Any] = {"name": "snakelab_snakgame_v0", "render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, render_mode: str | None = None, **params: Any) -> None:
        _check_render_mode(render_mode)
        merged = {"type": 0, "rows": 8, "cols": 8, "freeze": False, **params}
        if merged["type"] != 0:
            raise ConfigError("the snakgame env needs a fixed grid size: use type=0 with rows and cols")
        self.render_mode = render_mode
        self.game = make(format_spec("snakgame", merged))
        cfg = self.game.info.config
        self.rows, self.cols = cfg.rows, cfg.cols
        self.possible_agents = ["player_0", "chef_0"]
        self.agents: list[str] = []
        self.num_actions = 9 + self.rows * self.cols
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, shape=(4, self.rows, self.cols), dtype=np.uint8),
                "action_mask": spaces.Box(0, 1, shape=(self.num_actions,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(self.num_actions)
        self._rng = np.random.default_rng()
        self.state_: SnakgameState | None = None
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self._selector = AgentSelector(self.possible_agents)
        self.agent_selection = "player_0"

    def observation_space(self, agent: str) -> gymnasium.Space[Any]:
        """The same dict space for both agents."""
        del agent  # both see the same kind of picture
        return self._obs_space

    def action_space(self, agent: str) -> gymnasium.Space[Any]:
        """``Discrete(9 + rows·cols)`` for both agents."""
        del agent  # one encoding for both
        return self._act_space

    # -- encoding ----------------------------------------------------------------
    def _ends(self, agent: str) -> tuple[int, int, int]:
        s = self.state_
        assert s is not None
        if agent == "player_0":
            return s.head, s.tail, s.length
        return s.chef_head, s.chef_tail, s.chef_len

    def _target(self, cell: int, d: int) -> int:
        r, c = divmod(cell, self.cols)
        dr, dc = _STEPS[d]
        r, c = r + dr, c + dc
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return r * self.cols + c
        return -1

    def action_mask(self, agent: str) -> np.ndarray:
        """1 for each legal action of ``agent`` now (all 0 once the game is over)."""
        s = self.state_
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if s is None or s.is_over():
            return mask
        occ = np.frombuffer(bytes(s.occ), dtype=np.uint8)
        mask[0] = 1
        head, tail, length = self._ends(agent)
        if length:
            for k, end in enumerate((head, tail) if head != tail else (head,)):
                for d in range(4):
                    t = self._target(end, d)
                    if t >= 0 and occ[t] == EMPTY:
                        mask[1 + 4 * k + d] = 1
        mask[9:] = occ == EMPTY
        return mask

    def decode(self, agent: str, action: int) -> Move:
        """The :class:`Move` an action number stands for (legal or not)."""
        if action == 0:
            return Move("EXIT") if agent == "player_0" else Move("FREEZE", 1)
        if action >= 9:
            r, c = divmod(action - 9, self.cols)
            return Move("NEW", r + 1, c + 1)
        head, tail, _ = self._ends(agent)
        end = head if action <= 4 else tail
        d = (action - 1) % 4
        r, c = divmod(end, self.cols)
        dr, dc = _STEPS[d]
        return Move("MOVE", r + 1, c + 1, r + 1 + dr, c + 1 + dc)

    def observe(self, agent: str) -> Obs:
        """The planes and the action mask of ``agent``."""
        s = self.state_
        assert s is not None
        occ = np.frombuffer(bytes(s.occ), dtype=np.uint8)
        own, other = (MINE, CHEF) if agent == "player_0" else (CHEF, MINE)
        planes = np.zeros((4, self.rows * self.cols), dtype=np.uint8)
        planes[0] = occ == BLOCKED
        planes[1] = occ == own
        planes[2] = occ == other
        head, tail, length = self._ends(agent)
        if length:
            planes[3, head] = planes[3, tail] = 1
        mask = self.action_mask(agent) if agent == self.agent_selection else np.zeros(self.num_actions, np.int8)
        return {"observation": planes.reshape(4, self.rows, self.cols), "action_mask": mask}

    # -- the AEC protocol ----------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; the player moves first."""
        game_seed, self._rng = _game_seed(seed, options, self._rng)
        state = self.game.new_state(game_seed)
        assert isinstance(state, SnakgameState)
        self.state_ = state
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()

    def step(self, action: int | None) -> None:
        """Play the selected agent's action.

        Raises:
            IllegalActionError: for an action the mask forbids, naming the move and why.
        """
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        s = self.state_
        if s is None:
            raise IllegalActionError("call reset() before step()")
        a = int(action) if action is not None else -1
        if not 0 <= a < self.num_actions or not self.action_mask(agent)[a]:
            move = self.decode(agent, a) if 0 <= a < self.num_actions else a
            raise IllegalActionError(f"{agent}: action {a} ({move}) is not legal now")
        self._cumulative_rewards[agent] = 0.0
        before = s.score
        move = self.decode(agent, a)
        if agent == "player_0":
            s.play_mine(move)
        else:
            s.play_chef(move)
        gain = float(s.score - before)
        self.rewards = {"player_0": gain, "chef_0": -gain}
        if s.is_over():
            self.terminations = {a2: True for a2 in self.agents}
            self.infos = {a2: {"score": s.score} for a2 in self.agents}
        self._accumulate_rewards()
        self.agent_selection = self._selector.next()

    def render(self) -> str | None:
        """The grid as text when ``render_mode == "ansi"``."""
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        return snakgame_render.to_text(self.state_)

    def state(self) -> np.ndarray:
        """The whole grid: ``occ`` codes (0 empty, 1 blocked, 2 player, 3 Chef), rows × cols."""
        if self.state_ is None:
            raise IllegalActionError("call reset() first")
        return np.frombuffer(bytes(self.state_.occ), dtype=np.uint8).reshape(self.rows, self.cols).copy()

    def close(self) -> None:
        """Nothing to release."""


def snakgame_env(**kwargs: Any) -> SnakgameAECEnv:
    """Make the snakgame ``AECEnv`` (keyword arguments as :class:`SnakgameAECEnv`)."""
    return SnakgameAECEnv(**kwargs)
