"""Shared helpers for the wizsim tests.

Kernels are compiled once per machine (``cache=True``) and reused by every
test session; helpers here run them on small inputs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from wizsim.engine.bundles import Snapshots, Tables, View
from wizsim.game.records import RoundRecords
from wizsim.report.report import load_analysis as _load_analysis_file
from wizsim.run.history import record_chunk_arrays
from wizsim.run.simulate import RunSpec, kernel_tables, make_spec


def record_arrays(spec: RunSpec) -> RoundRecords:
    """Run every chunk of ``spec`` through the recording kernel; every round's record, in order."""
    return RoundRecords.concat([record_chunk_arrays(spec, chunk)[1] for chunk in range(spec.n_chunks)])


def card_mask(names) -> np.uint64:
    """The 64-bit hand mask of the named cards (``["B13", "W"]``)."""
    from wizsim.game.cards import card_code

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


def no_snapshots() -> Snapshots:
    """pimc rollout's snapshots when it takes none (``hi = 0``)."""
    return Snapshots(
        np.zeros((1, 1), np.uint64),
        np.zeros((1, 1, 1), np.int64),
        np.zeros((1, 1), np.int64),
        np.zeros(1, np.uint64),
        0,
        0,
    )


def bare_tables(table: np.ndarray, masks: np.ndarray, rules: np.ndarray, n: int = 4) -> Tables:
    """The :class:`Tables` pimc reads (card table, masks, rules) around placeholder decks."""
    return Tables(np.zeros(1, dtype=np.uint8), np.zeros((n, 1), dtype=np.uint8), table, masks, rules)


def pimc_view(n: int, full: np.ndarray, played: np.ndarray | None = None, void: np.ndarray | None = None) -> View:
    """A :class:`View` for a direct call of ``pimc_play``: nothing played by anyone unless given."""
    played = np.zeros(64, dtype=np.int64) if played is None else played
    void = np.zeros(n, dtype=np.int64) if void is None else void
    return View(played, void, full, np.zeros((1, 1, 1), dtype=np.int64), np.zeros(n, dtype=np.uint64),
                np.zeros(n, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(1))  # fmt: skip
