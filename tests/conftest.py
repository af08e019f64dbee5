"""Shared helpers for the wizsim tests.

Kernels are compiled once per machine (``cache=True``) and reused by every
test session; helpers here run them on small inputs.
"""

from __future__ import annotations

import numpy as np
import pytest

from wizsim.history import record_chunk_arrays
from wizsim.simulate import RunSpec, kernel_tables, make_spec


def record_arrays(spec: RunSpec) -> dict[str, np.ndarray]:
    """Run every chunk of ``spec`` through the recording kernel; the raw per-round arrays, concatenated.

    Keys as for :func:`wizsim.history.record_chunk_arrays`.
    """
    parts = [record_chunk_arrays(spec, chunk)[1] for chunk in range(spec.n_chunks)]
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


@pytest.fixture(scope="session")
def tables():
    """The kernel's card table and masks."""
    return kernel_tables()


__all__ = ["make_spec", "record_arrays"]
