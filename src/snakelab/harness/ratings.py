"""Win rates with confidence intervals, and OpenSkill ratings across stored runs.

:func:`wilson_interval` is the score interval of Wilson (1927) for a binomial
proportion; unlike the normal ("Wald") interval it stays inside [0, 1] and behaves
at 0 and n wins, which is where short tournaments live.
"""

from __future__ import annotations

import math

from snakelab.core.errors import ConfigError


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate.

    Args:
        wins: Number of wins (a draw may count as half a win, so floats are allowed).
        n: Number of games.
        z: Standard-normal quantile; 1.96 gives a 95 % interval.

    Returns:
        ``(low, high)`` bounds of the win probability; ``(0.0, 1.0)`` when ``n == 0``.

    Raises:
        ConfigError: if ``wins`` is outside ``0..n`` or ``n`` or ``z`` is negative.
    """
    if n < 0 or z < 0:
        raise ConfigError(f"wilson_interval needs n ≥ 0 and z ≥ 0, got n={n}, z={z}")
    if not 0 <= wins <= n:
        raise ConfigError(f"wilson_interval: wins={wins} is outside 0..{n}")
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
