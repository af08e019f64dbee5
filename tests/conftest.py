"""Shared helpers for the wizsim tests.

Kernels are compiled once per machine (``cache=True``) and reused by every
test session; helpers here run them on small inputs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from wizsim.history import record_chunk_arrays
from wizsim.records import RoundRecords
from wizsim.report import load_analysis as _load_analysis_file
from wizsim.simulate import RunSpec, kernel_tables, make_spec


def record_arrays(spec: RunSpec) -> RoundRecords:
    """Run every chunk of ``spec`` through the recording kernel; every round's record, in order."""
    return RoundRecords.concat([record_chunk_arrays(spec, chunk)[1] for chunk in range(spec.n_chunks)])


def card_mask(names) -> np.uint64:
    """The 64-bit hand mask of the named cards (``["B13", "W"]``)."""
    from wizsim.cards import card_code

    m = 0
    for name in names:
        m |= 1 << card_code(name)
    return np.uint64(m)


def load_analysis(name: str):
    """The analysis script ``analyses/<name>.py`` as a module, loaded the way ``wizsim report`` loads it."""
    return _load_analysis_file(Path(__file__).resolve().parents[1] / "analyses" / f"{name}.py")


@pytest.fixture(scope="session")
def tables():
    """The kernel's card table and masks."""
    return kernel_tables()


__all__ = ["load_analysis", "make_spec", "record_arrays"]


def no_snapshots() -> tuple[np.ndarray, ...]:
    """pimc rollout's snapshot arrays when it takes none (``snap_hi = 0``): (hands, counts, ints, seen)."""
    return (
        np.zeros((1, 1), np.uint64),
        np.zeros((1, 1, 1), np.int64),
        np.zeros((1, 1), np.int64),
        np.zeros(1, np.uint64),
    )
