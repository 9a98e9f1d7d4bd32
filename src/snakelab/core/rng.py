"""Seed derivation.

Randomness in snakelab is counter-based: a value needed for "the k-th apple of the
game with seed s" comes from a generator seeded by ``(s, "apple", k)``. States then
carry only integers (seed and counters), so ``clone()`` and JSON round-trips are exact
and cheap, and one draw never depends on how many draws came before it.
"""

from __future__ import annotations

import hashlib
import random

_MASK63 = (1 << 63) - 1


def derive_seed(seed: int, *keys: int | str) -> int:
    """Return a 63-bit seed derived from ``seed`` and a path of keys.

    The same arguments always give the same value, on every platform and Python
    version (BLAKE2b of a canonical text form), so per-match and per-agent seeds do
    not depend on scheduling or hash randomisation.

    Args:
        seed: The parent seed.
        *keys: Labels that name the child stream, e.g. ``("match", 17)``.

    Returns:
        A non-negative integer below 2**63.
    """
    text = repr((int(seed), *keys)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little") & _MASK63


def rng_for(seed: int, *keys: int | str) -> random.Random:
    """A fresh ``random.Random`` for the stream ``(seed, *keys)``; see :func:`derive_seed`."""
    return random.Random(derive_seed(seed, *keys))
