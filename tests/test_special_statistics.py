"""Statistical sanity of the special cards against exact values (fixed seeds, stated tolerances).

* Every card of the deck is equally likely to be turned up: each special is
  the indicator with probability 1/d (d = 67 with all seven) in rounds that
  leave a card to turn up.
* With the Bomb (``bomb=void_trick``) exactly one trick of a round is bombed
  when the Bomb is dealt, none otherwise: the share of bombed tricks is
  P(dealt) / k = n / d.
Tolerance: 4.5 standard errors of a binomial count, and a chi-square bound at
about the 1-in-10^5 level.
"""

from __future__ import annotations

import math

import numpy as np
from conftest import record_arrays

from wizsim.game import cards as C
from wizsim.run.simulate import make_spec


def test_each_special_is_the_indicator_one_time_in_d():
    spec = make_spec(4, cards=5, hands=120_000, seed=21, specials="all")
    rec = record_arrays(spec)
    indicator = rec.indicator
    assert (indicator >= 0).all()
    d = len(spec.deck)
    assert d == 67
    counts = np.bincount(indicator, minlength=C.N_TYPES)
    expected = spec.items / d
    for code in range(C.FIRST_SPECIAL, C.N_TYPES):
        z = (counts[code] - expected) / math.sqrt(expected * (1 - 1 / d))
        assert abs(z) < 4.5, (C.card_name(code), counts[code], expected)
    mult = np.bincount(spec.deck, minlength=C.N_TYPES).astype(float)
    exp_all = spec.items * mult / d
    keep = exp_all > 0
    chi2 = ((counts[keep] - exp_all[keep]) ** 2 / exp_all[keep]).sum()
    df = int(keep.sum()) - 1
    assert chi2 < df * (1 - 2 / (9 * df) + 4.26 * math.sqrt(2 / (9 * df))) ** 3


def test_share_of_bombed_tricks_is_players_over_deck_size():
    n, k = 4, 10
    spec = make_spec(n, cards=k, hands=60_000, seed=22, specials="bomb", strategy="heuristic,random,random,random")
    rec = record_arrays(spec)
    winners = rec.winners
    bombed = int((winners == -1).sum())
    d = len(spec.deck)
    p_dealt = n * k / d  # the Bomb is in some hand: exactly one of the round's tricks is bombed
    rounds = spec.items
    se = math.sqrt(rounds * p_dealt * (1 - p_dealt))
    assert abs(bombed - rounds * p_dealt) < 4.5 * se
    share = bombed / (rounds * k)
    assert abs(share - n / d) < 4.5 * se / (rounds * k)
    # and never more than one bombed trick in a round
    assert ((winners == -1).sum(axis=1) <= 1).all()
