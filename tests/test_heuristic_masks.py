"""The heuristic's bit-parallel plain-card path chooses exactly what the per-card scan chose.

:func:`heuristic_play` decides for all plain suit cards at once on masks
(lowest/highest valued card, the cards that beat the trick, the cards no
unseen card beats). The per-card scan it replaced is kept verbatim in
``tests/heuristic_scan.py``; both must return the same form in every position,
ties of equal ranks in different suits included.
"""

from __future__ import annotations

import numpy as np
import pytest
from heuristic_scan import heuristic_play_scan

from wizsim.engine.layout import DRAGON, FLAG_BOMB, FLAG_DRAGON, FLAG_FAIRY
from wizsim.engine.players.heuristic import heuristic_play


def _mask(cards) -> np.uint64:
    m = np.uint64(0)
    for c in cards:
        m |= np.uint64(1) << np.uint64(c)
    return m


@pytest.mark.parametrize("deck", [52, 60, 67], ids=["suit cards", "base deck", "all specials"])
def test_masks_choose_what_the_scan_chose(deck):
    rng = np.random.default_rng(20261201 + deck)
    checked = 0
    for _ in range(25_000):
        legal_cards = rng.choice(np.arange(deck), size=int(rng.integers(1, 14)), replace=False)
        if rng.integers(0, 3) == 0:  # a suit that must be followed: legal cards of one suit only
            s = int(rng.integers(0, 4))
            legal_cards = np.unique(13 * s + rng.integers(0, 13, size=int(rng.integers(1, 8))))
        hand = _mask(legal_cards) | _mask(rng.choice(np.arange(deck), size=int(rng.integers(0, 8)), replace=False))
        seen = _mask(rng.choice(np.arange(deck), size=int(rng.integers(0, 40)), replace=False)) & ~hand
        n = int(rng.integers(3, 7))
        n_played = int(rng.integers(0, n))
        led = int(rng.integers(-1, 5)) if n_played > 0 else -1
        # powers of plain cards are 4 * rank + 0/100/200/300; specials reach up to 5000
        best = int(rng.choice([rng.integers(-3, 320), rng.integers(-3, 3200)])) if n_played > 0 else -1
        tflags = (
            int(rng.choice([0, FLAG_BOMB, FLAG_DRAGON, FLAG_FAIRY, FLAG_DRAGON | FLAG_FAIRY])) if deck > DRAGON else 0
        )
        args = (
            hand, _mask(legal_cards), int(rng.integers(-3, 8)), led, best, n_played, n, int(rng.integers(-1, 4)),
            seen, tflags, bool(rng.integers(0, 5) == 0), int(rng.integers(0, 4)),
        )  # fmt: skip
        assert heuristic_play(*args) == heuristic_play_scan(*args), args
        checked += 1
    assert checked == 25_000
