"""Precision-sized runs: fixed, seeded chunks in chunk order until an estimate's 95% interval is narrow enough.

A run of ``spec`` is cut into chunks of a fixed size, each seeded by its index
(:meth:`wizsim.run.spec.RunSpec.chunk_range`). :func:`run_to_precision` runs
them in order, a batch of as many as there are workers at a time, and after
each chunk, in chunk order, asks ``half_width(counts of chunks 0 .. i)``. The
first ``i`` at which it is at most the target ends the run: chunks past ``i``
that a batch computed are dropped. The stopping rule reads only finished
chunks, in chunk order, so the stopping chunk and the counts are the same for
every ``jobs`` and backend, and equal to a fixed-size run of the same seed over
chunks ``0 .. i`` (``spec`` with ``items`` cut there, which is what is
returned). ``spec.items`` is the cap: when even all its chunks leave the
interval wider than the target, the run ends with a one-line error that says
the width reached and the cap.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..errors import WizsimError
from .parallel import Progress, RunOptions, block_items, chunks_done, workers
from .spec import Counts, RunSpec, run_block

#: the cap on a precision-sized run of independent rounds when none is given (``--hands``): 256 chunks
DEFAULT_CAP_HANDS = 256 * (1 << 14)


def capped_hands(cards: int | None, hands: int | None, games: int | None) -> int | None:
    """``hands`` of a precision-sized run: :data:`DEFAULT_CAP_HANDS` for independent rounds (``cards``) given no
    cap; otherwise as given (``make_spec`` then checks the selection as for any run)."""
    return DEFAULT_CAP_HANDS if hands is None and games is None and cards is not None else hands


def check_precision(value: Any, what: str = "--precision") -> float:
    """``value`` as a target half-width (a positive finite number), else a one-line WizsimError."""
    try:
        if isinstance(value, bool):
            raise TypeError
        target = float(value)
    except (TypeError, ValueError):
        raise WizsimError(f"{what} must be a number such as 0.002 (a half-width), got {value!r}") from None
    if not math.isfinite(target) or target <= 0:
        raise WizsimError(f"{what} must be a positive half-width such as 0.002, got {value!r}")
    return target


def run_to_precision(
    spec: RunSpec,
    target: float,
    half_width: Callable[[RunSpec, Counts], float],
    options: RunOptions | None = None,
    *,
    what: str = "--precision",
) -> tuple[RunSpec, Counts]:
    """Run chunks of ``spec`` in order until ``half_width`` of the counts so far is at most ``target``.

    Parameters
    ----------
    spec : RunSpec
        The run; its ``items`` are the cap.
    target : float
        The half-width wanted (checked by :func:`check_precision`).
    half_width : callable
        ``half_width(spec of the chunks so far, their counts)``: the 95% interval's half-width of the estimate.
    options : RunOptions, optional
        Workers and backend (a checkpoint is refused: the run is short by design and stops on its own).
    what : str
        How the caller names the target in an error message.

    Returns
    -------
    (RunSpec, Counts)
        ``spec`` with ``items`` cut at the stopping chunk, and the counts of chunks ``0 .. stop``: identical to
        ``run_counts`` of that spec, for every ``jobs`` and backend.

    Raises
    ------
    WizsimError
        For a target that is not a positive number, a checkpoint, or a cap reached with the interval still wider
        than the target.
    """
    target = check_precision(target, what)
    options = options or RunOptions()
    if options.checkpoint is not None:
        raise WizsimError(f"{what} stops on its own once precise enough; drop --checkpoint")
    n_chunks = spec.n_chunks
    total = Counts.zeros(spec.players, max(spec.schedule))
    reached = math.inf
    unit = "games" if spec.games_mode else "hands"
    with workers(options) as pool, Progress(spec.rounds, " hands", options.progress) as bar:
        batch = max(1, pool.count)
        for start in range(0, n_chunks, batch):
            tasks = [(spec, i, i + 1) for i in range(start, min(start + batch, n_chunks))]
            stop: tuple[RunSpec, Counts] | None = None
            for (_, lo, hi), part in pool.map(run_block, tasks, ordered=True):
                if stop is not None:
                    continue  # the batch's later chunks are dropped, but read: closing joblib's generator early
                    # would cancel them with a warning and shut the workers down
                total += part
                done = replace(spec, items=block_items(spec, 0, hi))
                reached = half_width(done, total)
                bar.update(block_items(spec, lo, hi) * len(spec.schedule), desc=chunks_done(hi, n_chunks))
                if reached <= target:
                    stop = done, total
            if stop is not None:
                return stop
    raise WizsimError(
        f"{what} {target:g} not reached: the 95% interval's half-width is {reached:.4g} after the cap of "
        f"{spec.items:,} {unit}; raise the cap (--{unit}) or ask for less precision"
    )
