"""The vector row sum (wizsim.engine.jit.simd.add_rows) gives the scalar sums bit for bit."""

from __future__ import annotations

import numpy as np
from numba import njit

from wizsim.engine.jit.simd import add_rows


# Not cached on disk: it inlines the engine's add_rows, and Numba keys a cached function by its own
# file only, so an edit to wizsim/engine/jit/simd.py would load stale code (the engine's cache fingerprint
# covers wizsim/engine only; tests/test_cache_coverage.py). Compiling it costs about 0.6 s a session.
@njit(cache=False)
def _vector(w, start, idx, lo, m):
    acc = np.empty(16, dtype=w.dtype)
    add_rows(w, start, idx, lo, m, acc)
    return acc


def _scalar(w, start, idx, lo, m):
    acc = start[:16].copy()
    for i in range(lo, m):
        acc += w[idx[i]]  # numpy adds lane by lane, row by row, as the scalar kernel code did
    return acc


def test_add_rows_equals_the_scalar_sums_bit_for_bit():
    rng = np.random.default_rng(7)
    for dtype in (np.float64, np.float32):
        w = (rng.normal(size=(300, 16)) * 10.0 ** rng.integers(-4, 4, size=(300, 1))).astype(dtype)
        for trial in range(200):
            start = rng.normal(size=16).astype(dtype)
            idx = rng.integers(0, 300, size=40).astype(np.int16 if trial % 2 else np.int64)
            lo, m = sorted(int(x) for x in rng.integers(0, 41, size=2))
            got = _vector(w, start, idx, lo, m)
            want = _scalar(w, start, idx, lo, m)
            assert got.tobytes() == want.tobytes(), (dtype, trial)


def test_add_rows_with_no_rows_is_the_start():
    w = np.ones((4, 16))
    start = np.arange(16.0)
    assert _vector(w, start, np.zeros(3, dtype=np.int64), 2, 2).tobytes() == start.tobytes()
