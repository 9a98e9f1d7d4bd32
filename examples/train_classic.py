"""Tabular Q-learning on classic Snake through the Gymnasium adapter, in a few seconds.

The agent sees a tiny summary of the board (which of the four neighbours of the
head are deadly, and on which side the apple is) and learns a Q-table over those
144 situations with epsilon-greedy exploration restricted to the action mask.

Run it::

    python examples/train_classic.py --episodes 1500

It prints the mean apples per episode as it learns, then evaluates the greedy
policy against a uniformly random one on fresh seeds.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import snakelab.adapters.gymnasium  # noqa: F401 - registers snakelab/Classic-v0

# (row, column) step of each action: UP, DOWN, LEFT, RIGHT.
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def features(obs: np.ndarray) -> int:
    """Index of the situation: 4 danger bits times 9 apple directions (144 in all)."""
    body, head, apple = obs[0], obs[1], obs[3]
    h, w = body.shape
    hy, hx = np.argwhere(head)[0]
    danger = 0
    for a, (dy, dx) in enumerate(STEPS):
        y, x = hy + dy, hx + dx
        if not (0 <= y < h and 0 <= x < w) or body[y, x]:
            danger |= 1 << a
    where = np.argwhere(apple)
    ay, ax = where[0] if len(where) else (hy, hx)
    side = 3 * (int(np.sign(ay - hy)) + 1) + int(np.sign(ax - hx)) + 1
    return danger * 9 + side


def choose(q: np.ndarray, s: int, mask: np.ndarray, eps: float, rng: np.random.Generator) -> int:
    """Epsilon-greedy over the legal actions only."""
    legal = np.flatnonzero(mask)
    if rng.random() < eps:
        return int(rng.choice(legal))
    return int(legal[np.argmax(q[s, legal])])


def run_episode(env, q, eps, rng, seed, *, learn=True, alpha=0.2, gamma=0.95):
    """Play one episode (learning from it if asked); return the apples eaten."""
    obs, info = env.reset(seed=seed)
    s, apples, done = features(obs), 0, False
    while not done:
        a = choose(q, s, info["action_mask"], eps, rng)
        obs, reward, terminated, truncated, info = env.step(a)
        done = terminated or truncated
        apples += reward > 0
        s2 = features(obs)
        if learn:
            target = reward if done else reward + gamma * q[s2].max()
            q[s, a] += alpha * (target - q[s, a])
        s = s2
    return apples


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=1500, help="training episodes")
    parser.add_argument("--size", type=int, default=6, help="board width and height")
    parser.add_argument("--eval", type=int, default=100, help="evaluation episodes")
    parser.add_argument("--seed", type=int, default=0, help="random seed")
    args = parser.parse_args(argv)

    env = gym.make("snakelab/Classic-v0", width=args.size, height=args.size, stall_limit=4 * args.size**2)
    rng = np.random.default_rng(args.seed)
    q = np.zeros((16 * 9, 4))
    t0 = time.perf_counter()
    report = max(1, args.episodes // 10)
    recent: list[int] = []
    for ep in range(1, args.episodes + 1):
        eps = max(0.02, 1.0 - ep / (0.6 * args.episodes))
        recent.append(run_episode(env, q, eps, rng, seed=args.seed * 1_000_003 + ep))
        if ep % report == 0:
            print(f"episode {ep:6d}  epsilon {eps:.2f}  mean apples (last {len(recent)}) {np.mean(recent):6.2f}")
            recent = []
    eval_seeds = [10**9 + args.seed * 10_007 + i for i in range(args.eval)]
    learned = np.mean([run_episode(env, q, 0.0, rng, s, learn=False) for s in eval_seeds])
    random_ = np.mean([run_episode(env, q, 1.0, rng, s, learn=False) for s in eval_seeds])
    print(f"greedy policy: {learned:.2f} apples per game; random policy: {random_:.2f} ({args.eval} games)")
    print(f"trained {args.episodes} episodes in {time.perf_counter() - t0:.1f} s")
    return {"learned": float(learned), "random": float(random_)}


if __name__ == "__main__":
    main()
