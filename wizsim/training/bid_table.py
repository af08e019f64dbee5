"""The ``table`` strategy's learned bid values: how they are trained, stored and loaded.

Training (``scripts/train_bid_table.py``) plays full games in which every
seat is ``table(explore=1)``: it plays like ``table`` but bids the
heuristic's bid plus a uniformly random step of -2..+2. Each round of each
seat is then a labelled example: the cell

    (players, round size, position, heuristic estimate in quarter tricks,
     earlier bids low / normal / high, Wizards held 0 / 1 / 2+, step)

gets the round's score. The table stores, per cell, the mean score where at
least ``min_count`` rounds were seen (NaN elsewhere), and the ``table``
strategy bids the step with the best mean. Sums are integers, chunks are
seeded as everywhere in wizsim, so the file is the same for any ``jobs``.

"Earlier bids low / high": their sum is more than 0.75 tricks below / above
``position * k / players`` (what an average bidder would have said); the
first bidder and hidden bids are "normal". The same rule is in
``engine.players.table.table_bid``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.layout import WIZARD
from ..engine.players.table import heuristic_estimates
from ..players.bid_data import DATA, SHAPE, kernel_table
from ..players.strategies import HeuristicStrategy
from ..run.history import record_chunk_arrays
from ..run.parallel import Progress, RunOptions, block_items, workers
from ..run.spec import RunSpec, make_spec

MIN_COUNT = 50


def metadata() -> dict:
    """How the packaged table was trained (seed, games, players, wizsim version)."""
    with np.load(DATA) as z:
        return json.loads(str(z["meta"]))


def cell_indices(est: np.ndarray, bids: np.ndarray, dealer: np.ndarray, ks: np.ndarray, wizards: np.ndarray, n: int):
    """Index arrays (k, position, estimate bin, earlier bin, Wizards, step) of every (round, seat).

    ``est`` and ``bids`` are [rows, seats]; returns a tuple of [rows, seats]
    int arrays and a boolean mask of the usable entries.
    """
    rows = est.shape[0]
    seat = np.arange(n)[None, :]
    pos = (seat - dealer[:, None] - 1) % n
    k = np.broadcast_to(ks[:, None], (rows, n))
    base = np.clip(np.floor(est + 0.5), 0, k).astype(np.int64)
    step = bids - base + 2
    eb = np.clip(np.trunc(est * 4.0), 0, SHAPE[3] - 1).astype(np.int64)
    # earlier bids: the sum over seats at smaller positions
    by_pos = np.zeros_like(bids)
    np.put_along_axis(by_pos, pos, bids, axis=1)
    before = np.cumsum(by_pos, axis=1) - by_pos  # exclusive prefix sums by position
    earlier = np.take_along_axis(before, pos, axis=1)
    excess = earlier - pos * k / n
    xb = np.where(excess < -0.75, 0, np.where(excess > 0.75, 2, 1))
    xb = np.where(pos == 0, 1, xb)
    ok = (step >= 0) & (step <= 4) & (k < SHAPE[1])
    return (k, pos, eb, xb, np.minimum(wizards, SHAPE[5] - 1), step), ok


def chunk_sums(spec: RunSpec, chunk: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Integer (count, sum of scores, sum of squared scores) per cell from one recorded chunk of ``spec``."""
    n = spec.players
    _, rec = record_chunk_arrays(spec, chunk)
    rec = rec.select(rec.cards > 0)
    bids, scores, ks = rec.bids, rec.scores, rec.cards
    prm = HeuristicStrategy().param_row()
    est = heuristic_estimates(rec.hands, ks, rec.trump, n, prm)
    held = np.arange(rec.hands.shape[2])[None, None, :] < ks[:, None, None]  # cards beyond k are padding
    wizards = ((rec.hands == WIZARD) & held).sum(axis=2)
    cells, ok = cell_indices(est, bids, rec.dealer, ks, wizards, n)
    shape = SHAPE[1:]
    flat = np.ravel_multi_index(tuple(c[ok] for c in cells), shape)
    size = int(np.prod(shape))
    s = scores[ok].astype(np.int64)
    count = np.bincount(flat, minlength=size)
    total = np.bincount(flat, weights=s, minlength=size)  # float sums of integers below 2**53: exact
    total_sq = np.bincount(flat, weights=s * s, minlength=size)
    return count, total.astype(np.int64), total_sq.astype(np.int64)


def train(players: list[int], games: int, seed: int, jobs: int = 1, **run_options: Any) -> dict[str, np.ndarray]:
    """Play ``games`` training games per player count; return count, sum and sum of squares per cell.

    Parameters
    ----------
    players : list of int
        Player counts to train (3 to 6).
    games : int
        Training games per player count.
    seed : int
        Seed; player count ``n`` plays the run of seed ``seed + n``.
    jobs : int
        Worker processes; the sums are the same for every value.
    **run_options
        ``backend``, ``scheduler``, ``progress`` and ``numba_cache`` as for
        :class:`wizsim.run.parallel.RunOptions` (no ``checkpoint``).

    Returns
    -------
    dict of str to numpy.ndarray
        ``count``, ``sum`` and ``sum_sq`` (int64, shape :data:`SHAPE`).
    """
    options = RunOptions(jobs=jobs, **run_options)
    options.refuse_checkpoint("training the bid table", "rerun it: the same seed gives the same table")
    size = int(np.prod(SHAPE[1:]))
    out = {key: np.zeros((SHAPE[0], size), dtype=np.int64) for key in ("count", "sum", "sum_sq")}
    specs = {n: make_spec(n, games=games, seed=seed + n, strategy="table(explore=1)") for n in players}
    tasks = [(spec, c) for spec in specs.values() for c in range(spec.n_chunks)]
    total_games = sum(spec.items for spec in specs.values())
    with workers(options, resumable=False) as pool, Progress(total_games, " games", options.progress) as bar:
        # each chunk's sums are added as they come (integers: the order does not matter)
        for (spec, c), (count, total, total_sq) in pool.map(chunk_sums, tasks, ordered=False):
            out["count"][spec.players - 3] += count
            out["sum"][spec.players - 3] += total
            out["sum_sq"][spec.players - 3] += total_sq
            bar.update(block_items(spec, c, c + 1))
    return {key: v.reshape(SHAPE) for key, v in out.items()}


def values(sums: dict[str, np.ndarray], min_count: int = MIN_COUNT) -> np.ndarray:
    """Mean score per cell where at least ``min_count`` rounds were seen, NaN elsewhere."""
    count = sums["count"]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sums["sum"] / count
    return np.where(count >= min_count, mean, np.nan)


def save(value: np.ndarray, meta: dict, path: Path = DATA) -> None:
    """Write the table (float32, compressed) with its training metadata."""
    from ..run.io import atomic_path

    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        np.savez_compressed(fh, value=value.astype(np.float32), meta=np.array(json.dumps(meta, sort_keys=True)))
    kernel_table.cache_clear()
