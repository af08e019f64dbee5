"""Train the ``table`` strategy's bid values (wizsim/data/bid_table.npz), reproducibly.

    python scripts/train_bid_table.py --games 100000 --seed 2026 --jobs 2
    python scripts/train_bid_table.py --games 100000 --backend dask --scheduler tcp://host:8786

Plays ``--games`` full standard games per player count (3-6) with every seat
bidding the heuristic's bid plus a random step of -2..+2 and playing like the
heuristic, and stores the mean score of every (players, round size,
position, estimate, earlier bids, step) cell seen at least ``--min-count``
times. The same arguments give the same file for any ``--jobs`` and ``--backend``
(the run options of ``wizsim simulate``, without ``--checkpoint``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from wizsim import __version__
from wizsim.errors import WizsimError
from wizsim.run.parallel import RunOptions, add_run_arguments
from wizsim.training import bid_table as T


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300_000, help="training games per player count")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--players", default="3,4,5,6")
    ap.add_argument("--min-count", type=int, default=T.MIN_COUNT)
    ap.add_argument("--out", default=str(T.DATA))
    ap.add_argument("--sums", help="also keep the raw integer sums here (.npz), e.g. to study smoothing")
    add_run_arguments(ap)
    a = ap.parse_args()
    players = [int(x) for x in a.players.split(",")]
    t0 = time.perf_counter()
    try:
        sums = T.train(players, a.games, a.seed, **RunOptions.from_args(a).kwargs())
    except WizsimError as exc:
        ap.error(str(exc))
    if a.sums:
        np.savez_compressed(a.sums, allow_pickle=False, **sums)
    value = T.values(sums, a.min_count)
    meta = {
        "games_per_player_count": a.games,
        "seed": a.seed,
        "players": players,
        "min_count": a.min_count,
        "wizsim_version": __version__,
        "command": f"python scripts/train_bid_table.py --games {a.games} --seed {a.seed}"
        f" --players {a.players} --min-count {a.min_count}",
    }
    T.save(value, meta, T.Path(a.out))
    known = np.isfinite(value).sum()
    print(f"{known:,} cells known of {int((sums['count'] > 0).sum()):,} seen; {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
