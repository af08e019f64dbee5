"""The ``table`` strategy's data file: where it is, its shape, and loading it for the kernels.

Kept apart from :mod:`wizsim.training.bid_table` (training, which runs simulations) so
that a run's set-up (:mod:`wizsim.run.spec`) can load the table without an
import circle.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from ..errors import WizsimError

# players - 3, cards, position, estimate bin, earlier-bids bin, Wizards held (0, 1, 2+), step + 2
SHAPE = (4, 21, 6, 81, 3, 3, 5)
DATA = Path(__file__).resolve().parents[1] / "data" / "bid_table.npz"


@functools.lru_cache(maxsize=2)
def kernel_table(needed: bool = True) -> np.ndarray:
    """The float64 table the kernels read (a 1x..x1 NaN placeholder when no seat needs it)."""
    if not needed:
        return np.full((1,) * len(SHAPE), np.nan)
    if not DATA.is_file():
        raise WizsimError(f"the table strategy's data file {DATA} is missing: run scripts/train_bid_table.py")
    with np.load(DATA) as z:
        value = z["value"].astype(np.float64)
    if value.shape != SHAPE:
        raise WizsimError(f"{DATA} has shape {value.shape}, expected {SHAPE}: retrain it")
    return value
