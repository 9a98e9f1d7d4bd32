"""Gymnasium environments for the single-player games.

Ids live under the ``snakelab/`` namespace and are registered when this module is
imported::

    import gymnasium as gym
    import snakelab.adapters.gymnasium  # registers the ids

    env = gym.make("snakelab/Classic-v0", width=8, height=8)
    obs, info = env.reset(seed=0)
    mask = info["action_mask"]          # 1 for each legal action

(``gym.make("snakelab.adapters.gymnasium:snakelab/Classic-v0")`` imports it for you.)

The environments sit on the game engines only: every step is one
``State.apply``, so an episode is the same game the harness would play with the
same seed and actions. Following Gymnasium's habit, the action mask is in ``info``
(``info["action_mask"]``, ``np.int8`` of the action-space size); the observation
itself stays a plain array.

``snakelab/Classic-v0`` (:class:`ClassicEnv`)
    Observation: ``uint8`` array of shape ``(4, height, width)``, planes body, head,
    tail, apple (1 where present). Actions: ``Discrete(4)``, the absolute directions
    UP, DOWN, LEFT, RIGHT (:class:`~snakelab.core.grid.Direction`). Reward: +1 per
    apple, -1 when the snake dies or stalls, 0 otherwise. ``terminated`` when the game
    ends by its rules, ``truncated`` when the game's own ``max_steps`` is reached.
    Reversing onto the neck is illegal in the game; here it ends the episode with
    reward -1 and ``info["illegal_action"] = True`` (``illegal="raise"`` raises
    instead), so agents that ignore the mask learn to avoid it.

``snakelab/Blind-v0`` (:class:`BlindEnv`)
    The blind snake on a ``width`` × ``height`` torus the agent does not know.
    Observation: the number of moves made so far, ``Discrete(max_steps + 1)``; the
    player knows it anyway and learns nothing else, as the rules say. Actions:
    ``Discrete(4)`` directions, always legal. Reward: 1 when the head reaches the
    apple, else 0. ``terminated`` when the apple is found or ``max_steps`` moves
    (default 35·A·B) are used up; a policy is in effect a fixed move sequence.
"""

from __future__ import annotations

from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces

from snakelab.core.errors import ConfigError, IllegalActionError
from snakelab.core.game import Event
from snakelab.core.registry import format_spec, make
from snakelab.games.classic.render import to_text
from snakelab.games.classic.rules import State as ClassicState
from snakelab.games.classic.rules import Termination

NAMESPACE = "snakelab"
"""The Gymnasium namespace of every snakelab id."""

ObsArray = np.ndarray[Any, np.dtype[np.uint8]]


def _seed_from(rng: np.random.Generator) -> int:
    """A game seed drawn from Gymnasium's per-env generator (so ``reset(seed=s)`` repeats)."""
    return int(rng.integers(0, 2**63 - 1))


class ClassicEnv(gymnasium.Env[ObsArray, np.int64]):
    """Classic Snake as a Gymnasium environment; see the module docstring.

    Args:
        width: Board columns.
        height: Rows.
        render_mode: ``"ansi"`` (text frames) or None.
        illegal: ``"lose"`` (an illegal move ends the episode, reward -1) or ``"raise"``.
        **params: Other classic game parameters (``tail_rule``, ``start_length``,
            ``stall_limit``, ``max_steps``), as in ``classic(...)`` game strings.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 10}  # noqa: RUF012 - Gymnasium's API

    def __init__(
        self,
        width: int = 8,
        height: int = 8,
        render_mode: str | None = None,
        illegal: Literal["lose", "raise"] = "lose",
        **params: Any,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode {render_mode!r} is not supported: use 'ansi' or None")
        if illegal not in ("lose", "raise"):
            raise ConfigError(f"illegal={illegal!r}: use 'lose' or 'raise'")
        self.game = make(format_spec("classic", {"width": width, "height": height, **params}))
        self.render_mode = render_mode
        self.illegal = illegal
        self.width, self.height = width, height
        self.observation_space = spaces.Box(0, 1, shape=(4, height, width), dtype=np.uint8)
        self.action_space = spaces.Discrete(4)
        self.state: ClassicState | None = None

    def _obs(self) -> ObsArray:
        s = self.state
        assert s is not None
        obs = np.zeros((4, self.height * self.width), dtype=np.uint8)
        obs[0] = np.frombuffer(bytes(s.occ), dtype=np.uint8)
        obs[1, s.head] = 1
        obs[2, s.tail] = 1
        if s.apple >= 0:
            obs[3, s.apple] = 1
        return obs.reshape(4, self.height, self.width)

    def _info(self, **extra: Any) -> dict[str, Any]:
        s = self.state
        assert s is not None
        mask = np.zeros(4, dtype=np.int8)
        for a in s.legal_actions(0):
            mask[int(a)] = 1
        return {"action_mask": mask, "length": s.length, "steps": s.steps, "seed": s.seed, **extra}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[ObsArray, dict]:
        """Start a new game; ``options={"game_seed": n}`` plays the harness's game seed ``n``."""
        super().reset(seed=seed)
        game_seed = (options or {}).get("game_seed")
        game_seed = _seed_from(self.np_random) if game_seed is None else int(game_seed)
        state = self.game.new_state(game_seed)
        assert isinstance(state, ClassicState)
        self.state = state
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[ObsArray, float, bool, bool, dict]:
        """Move one step; see the module docstring for rewards and episode ends."""
        s = self.state
        if s is None:
            raise IllegalActionError("call reset() before step()")
        a = int(action)
        if not s.is_legal(0, a):
            if self.illegal == "raise" or s.is_over():
                s.apply((a,))  # raises IllegalActionError naming the problem
            return self._obs(), -1.0, True, False, self._info(illegal_action=True)
        events: tuple[Event, ...] = tuple(s.apply((a,)))
        reward = 0.0
        for e in events:
            if e.kind == "apple":
                reward += 1.0
            elif e.kind in ("death", "stalled"):
                reward -= 1.0
        truncated = s.termination is Termination.MAX_STEPS
        terminated = s.is_over() and not truncated
        return self._obs(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        """The board as text when ``render_mode == "ansi"``."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        return to_text(self.state)


class BlindEnv(gymnasium.Env[np.int64, np.int64]):
    """The blind snake on a torus as a Gymnasium environment; see the module docstring.

    Args:
        width: Torus columns A (unknown to the agent).
        height: Torus rows B (unknown to the agent).
        render_mode: ``"ansi"`` (text frames) or None.
        **params: Other blind game parameters (``max_steps``, ``start_x`` ...), as in
            ``blind(...)`` game strings.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 10}  # noqa: RUF012 - Gymnasium's API

    def __init__(self, width: int = 10, height: int = 10, render_mode: str | None = None, **params: Any) -> None:
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode {render_mode!r} is not supported: use 'ansi' or None")
        self.game = make(format_spec("blind", {"width": width, "height": height, **params}))
        self.render_mode = render_mode
        self.max_steps: int = self.game.info.config.effective_max_steps
        self.observation_space = spaces.Discrete(self.max_steps + 1)
        self.action_space = spaces.Discrete(4)
        self.state: Any = None

    def _info(self) -> dict[str, Any]:
        mask = np.ones(4, dtype=np.int8) if not self.state.is_over() else np.zeros(4, dtype=np.int8)
        return {"action_mask": mask, "steps": self.state.steps}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.int64, dict]:
        """Start a new game; ``options={"game_seed": n}`` plays the harness's game seed ``n``."""
        super().reset(seed=seed)
        game_seed = (options or {}).get("game_seed")
        game_seed = _seed_from(self.np_random) if game_seed is None else int(game_seed)
        self.state = self.game.new_state(game_seed)
        return np.int64(0), self._info()

    def step(self, action: Any) -> tuple[np.int64, float, bool, bool, dict]:
        """Move one step: reward 1 when the apple is found; the step count is all the agent sees."""
        if self.state is None:
            raise IllegalActionError("call reset() before step()")
        events = self.state.apply((int(action),))
        found = any(e.kind == "found" for e in events)
        return np.int64(self.state.steps), 1.0 if found else 0.0, self.state.is_over(), False, self._info()

    def render(self) -> str | None:
        """Head and apple positions when ``render_mode == "ansi"`` (the agent never sees this)."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        from snakelab.core.registry import game_entry

        render = game_entry("blind").render
        if render is None:
            return repr(self.state)
        drawn = render(self.state)
        return drawn if isinstance(drawn, str) else str(getattr(drawn, "plain", drawn))


def register_envs() -> None:
    """Register every snakelab Gymnasium id (done on import; calling again is harmless)."""
    specs = {
        f"{NAMESPACE}/Classic-v0": "snakelab.adapters.gymnasium:ClassicEnv",
        f"{NAMESPACE}/Blind-v0": "snakelab.adapters.gymnasium:BlindEnv",
    }
    for env_id, entry in specs.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry)


register_envs()
