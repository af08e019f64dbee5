"""Shared helpers for the wizsim tests.

Kernels are compiled once per machine (``cache=True``) and reused by every
test session; helpers here run them on small inputs.
"""

from __future__ import annotations

import numpy as np
import pytest

from wizsim import _kernels as K
from wizsim.simulate import RunSpec, kernel_tables, make_spec
from wizsim.strategies import strategy_arrays


def record_arrays(spec: RunSpec) -> dict[str, np.ndarray]:
    """Run ``spec`` through the recording kernel; return the raw per-round arrays.

    Keys: ``hands`` [rows, n, kmax] dealt cards by seat, ``info`` [rows, ...]
    (dealer, k, indicator, trump, leaders, winners, bids, won, scores; see
    ``_kernels.record_chunk``), ``plays`` [rows, kmax, n] cards in play order,
    ``legal`` [rows, kmax, n] legal masks.
    """
    n, kmax = spec.players, max(spec.schedule)
    table, masks = kernel_tables()
    ids, params = strategy_arrays(spec.strategies)
    first, count, state = spec.chunks()
    parts: dict[str, list] = {"hands": [], "info": [], "plays": [], "legal": []}
    for c in range(len(first)):
        rows = int(count[c]) * len(spec.schedule)
        h = np.zeros((rows, n, kmax), dtype=np.uint8)
        i = np.zeros((rows, 8 + 2 * kmax + 3 * n), dtype=np.int64)
        p = np.zeros((rows, kmax, n), dtype=np.int64)
        lg = np.zeros((rows, kmax, n), dtype=np.uint64)
        K.record_chunk(
            n, np.asarray(spec.schedule, dtype=np.int64), int(spec.games_mode), int(first[c]), int(count[c]),
            state[c], spec.deck, table, masks, spec.rules.to_array(), ids, params, h, i, p, lg,
        )  # fmt: skip
        for key, arr in zip(("hands", "info", "plays", "legal"), (h, i, p, lg), strict=True):
            parts[key].append(arr)
    return {key: np.concatenate(v) for key, v in parts.items()}


@pytest.fixture(scope="session")
def tables():
    """The kernel's card table and masks."""
    return kernel_tables()


__all__ = ["make_spec", "record_arrays"]
