"""The table player's bids: the best learned mean score around the heuristic's bid (wizsim.training.bid_table).

It plays like the heuristic with the refinements in ``params[seat, TP_REFINE]``
(:func:`.heuristic.heuristic_play`).
"""

from __future__ import annotations

import numpy as np

from ..jit.bits import ONE, U64, ZERO
from ..jit.config import jit
from .heuristic import heuristic_estimate


@jit
def table_bid(est, base, n, k, pos, earlier, hidden, forbidden, wizards, tab):
    """The bid with the best learned mean score among ``base - 2 .. base + 2`` (see wizsim.training.bid_table).

    ``tab[n - 3, k, pos, est_bin, earlier_bin, wizards, step]``: mean score of bidding
    ``base + step - 2``, NaN where the training saw too few rounds; the
    heuristic's ``base`` stands when nothing is known.
    """
    ni = n - 3
    if ni >= tab.shape[0] or k >= tab.shape[1] or pos >= tab.shape[2]:
        return base
    eb = min(max(np.int64(est * 4.0), 0), tab.shape[3] - 1)
    xb = 1
    if not hidden and pos > 0:
        excess = earlier - pos * k / n
        if excess < -0.75:
            xb = 0
        elif excess > 0.75:
            xb = 2
    best = base
    best_v = -np.inf
    for step in range(5):
        b = base + step - 2
        if b < 0 or b > k or b == forbidden:
            continue
        v = tab[ni, k, pos, eb, xb, min(wizards, tab.shape[5] - 1), step]
        if v == v and v > best_v:  # NaN: unknown
            best_v = v
            best = b
    return best


@jit
def heuristic_estimates(rec_hands, ks, trumps, n, prm):
    """The heuristic's bid estimate of every recorded hand (rows x seats), for training the bid table."""
    rows = rec_hands.shape[0]
    out = np.zeros((rows, n), dtype=np.float64)
    cnt = np.zeros(64, dtype=np.int64)
    for r in range(rows):
        k = ks[r]
        for p in range(n):
            hand = ZERO
            for j in range(k):
                c = np.int64(rec_hands[r, p, j])
                hand |= ONE << U64(c)
                cnt[c] += 1
            out[r, p] = heuristic_estimate(hand, cnt, trumps[r], n, k, prm)
            for j in range(k):
                cnt[np.int64(rec_hands[r, p, j])] = 0
    return out
