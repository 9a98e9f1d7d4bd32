"""The champion: ``ramp-zigzag``, a dynamic zig-zag whose growth k ramps up with scale.

The seed's dynamic zig-zag grows its segments by a fixed k: segments 1, 1+k, 1+2k, …
Exhaustive sweeps (``snakelab blind sweep``) show two failure modes that pull k in
opposite directions (``docs/blind.md``):

* squares (and near-squares) cost about k/2 + 1 times S, so they want a small k;
* grids with many long diagonal classes (g = gcd(A, B) classes of l = lcm(A, B) cells,
  l/g large) wait until a segment is as long as a class, about l/(2kg) times S, and
  resonate when k·g² ≈ 2l; they want a large k — and they only exist at large S.

So the best fixed k depends on the largest S in view: small k is best for small grids
and k ≈ 21 for S ≤ 10^6. ``ramp-zigzag`` lets k follow the scale: segment j grows by

    k_j = K0 + #{i : THRESHOLDS[i] ≤ j}

(k = 5 for the first segments, one more at each threshold, 25 from segment 3000 on;
the thresholds are ⌈3001^(i/20)⌉ − 1, i.e. k grows with the logarithm of the segment
index). Everything else is the seed's walk: alternate R and D, one extra R after each
segment, the alternation carrying on across extras.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from snakelab.games.blind.strategies import Moves, Strategy, register_strategy, zigzag_segments_array

K0 = 5
THRESHOLDS = (1, 2, 3, 4, 7, 11, 16, 24, 36, 54, 81, 121, 182, 271, 405, 605, 902, 1347, 2010, 3000)
"""Segment indices at which the growth k goes up by one (⌈3001^(i/20)⌉ − 1)."""


class RampZigzag(Strategy):
    """Dynamic zig-zag with a growth k that ramps from 5 to 25 (see the module docstring)."""

    name = "ramp-zigzag"

    def __init__(self) -> None:
        super().__init__()

    def moves(self) -> Iterator[str]:
        """The walk, lazily."""
        length = 1  # zig-zag moves in the current segment
        left = length
        j = 0  # index of the current segment
        nth = 0  # thresholds passed: the growth is K0 + nth
        zig = 0
        while True:
            yield "RD"[zig]
            zig ^= 1
            left -= 1
            if left == 0:
                yield "R"
                j += 1
                while nth < len(THRESHOLDS) and THRESHOLDS[nth] <= j:
                    nth += 1
                length += K0 + nth
                left = length

    def moves_array(self, n: int) -> Moves:
        """The first ``n`` moves (compiled)."""
        return zigzag_segments_array(n, K0, np.array(THRESHOLDS, np.int64))


register_strategy("ramp-zigzag", RampZigzag, "dynamic zig-zag whose growth k ramps from 5 to 25", aliases=("champion",))
