"""Random numbers inside the kernels: SplitMix64 streams and exactly uniform bounded draws.

A stream's state is a 1-element uint64 array; each chunk's streams are seeded
on the Python side from ``SeedSequence(seed, spawn_key=(chunk,))``.
"""

from __future__ import annotations

import numpy as np

from .bits import U64, nth_bit, popcount
from .config import hot

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(0x100000000)


@hot
def next_u64(st):
    """SplitMix64: advance the state in ``st[0]`` and return 64 random bits."""
    s = st[0] + _GOLDEN
    st[0] = s
    z = (s ^ (s >> U64(30))) * _MIX1
    z = (z ^ (z >> U64(27))) * _MIX2
    return z ^ (z >> U64(31))


@hot
def below(st, n):
    """Uniform integer in [0, n) for 1 <= n < 2**32 (Lemire, with rejection)."""
    nn = U64(n)
    m = (next_u64(st) >> U64(32)) * nn
    lo = m & _MASK32
    if lo < nn:
        threshold = (_TWO32 - nn) % nn
        while lo < threshold:
            m = (next_u64(st) >> U64(32)) * nn
            lo = m & _MASK32
    return np.int64(m >> U64(32))


@hot
def random_member(st, m):
    """A uniformly random set bit of the non-zero mask ``m``."""
    return nth_bit(m, below(st, popcount(m)))
