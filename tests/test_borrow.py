"""The engine's Numba tools in ``wizsim.engine.jit.borrow``: borrowed views, ``hold`` and stack streams.

``borrow`` must give the same data (writes through the view land in the
owner), ``stack_stream`` must behave exactly like the one-element heap array
it replaces (the same draws, the same final state), and a kernel that borrows
and holds must not be disturbed by the owner being freed early (the use-after-free
that the golden games caught while ``hold`` was missing).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from wizsim.engine.jit.borrow import borrow, hold, stack_stream
from wizsim.engine.jit.rng import below


@njit
def _write_through(a, t):
    v = borrow(a)
    w = borrow(t)
    for i in range(v.shape[0]):
        v[i] = 2 * v[i]
    w[1][0, 1] = 7
    return v.sum()


def test_borrowed_views_share_the_owners_data():
    a = np.arange(5, dtype=np.int64)
    t = (np.zeros(3, dtype=np.uint64), np.zeros((2, 2), dtype=np.int64))
    assert _write_through(a, t) == 20
    assert a.tolist() == [0, 2, 4, 6, 8]
    assert t[1][0, 1] == 7


@njit
def _draws_stack(state, count, bound):
    st = stack_stream(state)
    out = np.empty(count, dtype=np.int64)
    for i in range(count):
        out[i] = below(st, bound)
    return out, st[0]


@njit
def _draws_heap(state, count, bound):
    st = np.full(1, state, dtype=np.uint64)
    out = np.empty(count, dtype=np.int64)
    for i in range(count):
        out[i] = below(st, bound)
    return out, st[0]


def test_stack_stream_draws_like_a_heap_stream():
    for state in (np.uint64(0), np.uint64(12345), np.uint64(2**64 - 1)):
        a, sa = _draws_stack(state, 1000, 7)
        b, sb = _draws_heap(state, 1000, 7)
        assert np.array_equal(a, b) and sa == sb


@njit
def _many_chunks(n_chunks, size):
    total = 0
    for c in range(n_chunks):
        owner = np.full(size, c, dtype=np.int64)
        view = borrow(owner)
        for _ in range(3):
            other = np.zeros(size, dtype=np.int64)  # allocations that would reuse freed memory
            other[:] = -1
            total += other[0]
        for i in range(size):
            total += view[i]
        hold(owner)
    return total


def test_hold_keeps_the_owner_alive():
    n, size = 50, 64
    expect = sum(c * size for c in range(n)) - 3 * n
    assert _many_chunks(n, size) == expect
