"""The vector row sum and relu-dot (wizsim.engine.jit.simd.add_rows, relu_dot) give the scalar results bit for bit."""

from __future__ import annotations

import numpy as np
from numba import njit

from wizsim.engine.jit.simd import add_rows, relu_dot


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


@njit(cache=False)
def _relu_dot_vector(h, w):
    return relu_dot(h, w)


@njit(cache=False)
def _relu_dot_scalar(acc, w2):
    """The scalar code relu_dot replaced (learned_model.output until this change), term for term."""
    s0 = max(acc[0], 0.0) * w2[0] + max(acc[8], 0.0) * w2[8]
    s1 = max(acc[1], 0.0) * w2[1] + max(acc[9], 0.0) * w2[9]
    s2 = max(acc[2], 0.0) * w2[2] + max(acc[10], 0.0) * w2[10]
    s3 = max(acc[3], 0.0) * w2[3] + max(acc[11], 0.0) * w2[11]
    s4 = max(acc[4], 0.0) * w2[4] + max(acc[12], 0.0) * w2[12]
    s5 = max(acc[5], 0.0) * w2[5] + max(acc[13], 0.0) * w2[13]
    s6 = max(acc[6], 0.0) * w2[6] + max(acc[14], 0.0) * w2[14]
    s7 = max(acc[7], 0.0) * w2[7] + max(acc[15], 0.0) * w2[15]
    return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))


def test_relu_dot_equals_the_scalar_code_bit_for_bit():
    rng = np.random.default_rng(11)
    special = np.array([0.0, -0.0, 1e-300, -1e-300, 3.5, -2.25])
    for trial in range(2000):
        h = rng.normal(size=16) * 10.0 ** rng.integers(-6, 6, size=16)
        w = rng.normal(size=16) * 10.0 ** rng.integers(-6, 6, size=16)
        if trial % 4 == 0:  # exact zeros, signed zeros and ties
            h[rng.integers(0, 16, size=5)] = rng.choice(special, size=5)
        got, want = _relu_dot_vector(h, w), _relu_dot_scalar(h, w)
        assert np.float64(got).tobytes() == np.float64(want).tobytes(), trial
    # a different order of the 16 products would show here: terms of very different sizes
    h = np.abs(rng.normal(size=16)) * 10.0 ** np.arange(-8, 8)
    w = np.ones(16)
    assert np.float64(_relu_dot_vector(h, w)).tobytes() == np.float64(_relu_dot_scalar(h, w)).tobytes()
    assert _relu_dot_vector(-np.ones(16), np.ones(16)) == 0.0
