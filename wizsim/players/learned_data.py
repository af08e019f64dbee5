"""The ``learned`` strategy's network file: where it is, and loading it for the kernels.

The file (``wizsim/data/learned.npz``) holds two networks written by
``scripts/train_learned.py``: card play (``w1``, ``b1``, ``w2``) and bids
(``bw1``, ``bb1``, ``bw2``), read by :mod:`wizsim.engine.players.learned`
inside the kernels.
"""

from __future__ import annotations

import functools
import zipfile
from pathlib import Path

import numpy as np

from ..engine.bundles import Net, new_net
from ..engine.layout import (
    HIDDEN,
    LOG_B_WIDTH,
    LOG_WIDTH,
    N_BID_FEATURES,
    N_CARD_FEATURES,
    WORK_F,
    WORK_I,
)
from ..errors import WizsimError

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
#: the shipped network generations, by number: generation g+1 is fitted to the decisions of the default pimc whose
#: rollouts play generation g (``scripts/train_learned.py --teacher``); ``learned(gen=N)``/``pimc(gen=N)`` pick one
GENERATIONS = {
    1: DATA_DIR / "learned.npz",
    2: DATA_DIR / "learned_gen2.npz",
    3: DATA_DIR / "learned_gen3.npz",
    4: DATA_DIR / "learned_gen4.npz",
}
#: what ``learned`` and pimc's learned rollouts play unless told: a newer generation becomes the default only
#: together with the results and golden games it changes
DEFAULT_GEN = 3
DATA = GENERATIONS[DEFAULT_GEN]
NAMES = ("w1", "b1", "w2", "bw1", "bb1", "bw2")


def check_generation(value: object, who: str) -> int:
    """The generation ``value`` names (``who``'s parameter ``gen``), or a one-line WizsimError naming those that exist."""
    number = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    if not number or value != int(value) or int(value) not in GENERATIONS:  # type: ignore[call-overload]
        have = ", ".join(str(g) for g in GENERATIONS)
        raise WizsimError(f"{who} parameter gen={value!r}: the network generations are {have} (default {DEFAULT_GEN})")
    return int(value)  # type: ignore[call-overload]


def kernel_models(needed: bool = True, path: str | None = None) -> tuple[np.ndarray, ...]:
    """Every generation's (w1, b1, w2, bw1, bb1, bw2) stacked on a first axis (generation g at g - 1) for the kernels.

    With ``path`` (another network file) that file alone, at index 0; placeholders (float32, one generation) when
    no seat needs a network.
    """
    if not needed or path:
        return tuple(a[None] for a in kernel_model(needed, path))
    parts = [kernel_model(True, str(GENERATIONS[g])) for g in sorted(GENERATIONS)]
    return tuple(np.ascontiguousarray(np.stack([p[i] for p in parts])) for i in range(len(NAMES)))


@functools.lru_cache(maxsize=4)
def kernel_model(needed: bool = True, path: str | None = None) -> tuple[np.ndarray, ...]:
    """(w1, b1, w2, bw1, bb1, bw2) as float64 arrays for the kernels (placeholders when no seat needs them).

    The placeholders are float32: pimc compiles its learned rollouts (policies 3, 4) only for float64 weights.
    """
    if not needed:
        return tuple(np.zeros(shape, dtype=np.float32) for shape in ((1, 1), (1,), (1,)) * 2)
    file = Path(path) if path else DATA
    if not file.is_file():
        raise WizsimError(f"the learned strategy's network {file} is missing: run scripts/train_learned.py")
    try:
        with np.load(file) as z:
            if any(name not in z for name in NAMES):
                raise WizsimError(f"{file} lacks one of {', '.join(NAMES)}: retrain it (scripts/train_learned.py)")
            w1, b1, w2, bw1, bb1, bw2 = (z[name].astype(np.float64) for name in NAMES)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise WizsimError(f"{file} is not a readable network file ({e}): restore it or retrain it") from None
    for a1, a2, a3, features, what in ((w1, b1, w2, N_CARD_FEATURES, "card"), (bw1, bb1, bw2, N_BID_FEATURES, "bid")):
        bad_hidden = a2.shape[0] != HIDDEN
        if a1.shape[0] != features or a1.shape[1] != a2.shape[0] or a2.shape != a3.shape or bad_hidden:
            raise WizsimError(
                f"{file}: the {what} network has shapes {a1.shape}, {a2.shape}, {a3.shape} for {features} features"
                f" ({HIDDEN} hidden units): retrain it (scripts/train_learned.py)"
            )
    return w1, b1, w2, bw1, bb1, bw2


def available(path: str | None = None) -> bool:
    """Whether the network file (``path``, else the shipped one) is there."""
    return (Path(path) if path else DATA).is_file()


def rollout_net(n: int, full: np.ndarray, learned: bool, path: str | None = None) -> Net:
    """What pimc's rollouts read of the learned player, for a direct call of ``pimc_play``/``pimc_bid``.

    A :class:`wizsim.engine.bundles.Net` built by the engine's own
    :func:`~wizsim.engine.bundles.new_net`: the card network when ``learned``
    (the learned rollouts), else float32 placeholders that keep it out of the
    compiled code, fresh scratch, and ``full`` the deck in play by card type.
    """
    w1, b1, w2 = kernel_model(learned, path)[:3]
    work_i, work_f = np.zeros(WORK_I, dtype=np.int64), np.zeros(WORK_F, dtype=np.float64)
    return new_net.py_func(w1, b1, w2, work_i, work_f, np.asarray(full, dtype=np.int64), n)


def no_log() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Empty training logs (card decisions, counter, bid decisions, counter): nothing is logged."""
    return (
        np.zeros((0, LOG_WIDTH), dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros((0, LOG_B_WIDTH), dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )
