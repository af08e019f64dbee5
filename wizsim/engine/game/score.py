"""Scoring a round (RULES.md 8) and the Cloud's bid change (RULES.md 7)."""

from __future__ import annotations

from ..jit.config import hot, jit


@hot
def round_score(bid, tricks, k, scoring):
    """Points for one round (RULES.md section 8)."""
    if scoring == 0:
        if bid == tricks:
            return 20 + 10 * tricks
        return -10 * abs(tricks - bid)
    if bid == tricks:
        return 10 * bid + 10 * k
    d = abs(tricks - bid)
    return 10 * min(bid, tricks) - 5 * d * (d + 1)


@hot
def cloud_bid(bid, tricks, k, scoring, cancelled):
    """The bid after a Cloud change: +1 or -1 (0 only goes up), whichever scores more; +1 on a tie."""
    if bid == 0 or cancelled:
        return bid + 1  # cancelled bids score 10 x tricks either way: a tie
    if round_score(bid - 1, tricks, k, scoring) > round_score(bid + 1, tricks, k, scoring):
        return bid - 1
    return bid + 1


@jit
def cloud_bid_checked(bid, tricks, k, scoring, cancelled):
    """Python-callable :func:`cloud_bid` (for tests)."""
    return cloud_bid(bid, tricks, k, scoring, cancelled)


@jit
def round_score_checked(bid, tricks, k, scoring):
    """Python-callable :func:`round_score` (for tests)."""
    return round_score(bid, tricks, k, scoring)
