"""Shared helpers for the wizsim tests.

Kernels are compiled once per machine (``cache=True``) and reused by every
test session; helpers here run them on small inputs.
"""

from __future__ import annotations

import numpy as np
import pytest

from wizsim import _kernels as K
from wizsim.simulate import RunSpec, kernel_tables, make_spec


def record_arrays(spec: RunSpec) -> dict[str, np.ndarray]:
    """Run ``spec`` through the recording kernel; return the raw per-round arrays.

    Keys: ``hands`` [rows, n, kmax] dealt cards by seat, ``info`` [rows, ...]
    (see ``_kernels.record_chunk``), ``plays`` [rows, kmax, n] forms in play
    order, ``legal`` [rows, kmax, n] legal masks, ``passes`` [rows, kmax, n]
    cards passed after a Juggler trick (-1 none), ``seats`` [rows, n].
    """
    n, kmax = spec.players, max(spec.schedule)
    schedule, trumps = spec.schedule_arrays()
    args = spec.kernel_args()
    first, count, state = spec.chunks()
    parts: dict[str, list] = {"hands": [], "info": [], "plays": [], "legal": [], "passes": [], "seats": []}
    for c in range(len(first)):
        rows = int(count[c]) * len(spec.schedule)
        arrays = (
            np.zeros((rows, n, kmax), dtype=np.uint8),
            np.zeros((rows, 8 + 3 * kmax + 4 * n), dtype=np.int64),
            np.zeros((rows, kmax, n), dtype=np.int64),
            np.zeros((rows, kmax, n), dtype=np.uint64),
            np.full((rows, kmax, n), -1, dtype=np.int64),
            np.zeros((rows, n), dtype=np.int64),
        )
        K.record_chunk(
            n, schedule, trumps, int(spec.games_mode), int(first[c]), int(count[c]), state[c], *args, *arrays
        )
        for key, arr in zip(parts, arrays, strict=True):
            parts[key].append(arr)
    return {key: np.concatenate(v) for key, v in parts.items()}


@pytest.fixture(scope="session")
def tables():
    """The kernel's card table and masks."""
    return kernel_tables()


__all__ = ["make_spec", "record_arrays"]
