"""Dealing is uniform, and random and heuristic play keep every invariant of a round.

Statistical tests use fixed seeds, so they are deterministic; bounds are
stated at roughly the 1-in-10^5 level of the test statistic.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import record_arrays

from wizsim.game import cards as C
from wizsim.run.simulate import make_spec


def _chi2_bound(df: int, z: float = 4.26) -> float:
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _fields(rec, n, kmax):
    assert (rec.players, rec.kmax) == (n, kmax)
    return {
        "dealer": rec.dealer,
        "k": rec.cards,
        "indicator": rec.indicator,
        "trump": rec.trump,
        "leaders": rec.leaders,
        "winners": rec.winners,
        "next_leaders": rec.next_leaders,
        "bids": rec.bids,
        "won": rec.tricks_won,
        "scores": rec.scores,
        "final_bids": rec.final_bids,
    }


@pytest.fixture(scope="module")
def deal_4x3():
    spec = make_spec(4, cards=3, hands=40_000, seed=99)
    return spec, record_arrays(spec)


def test_each_card_equally_likely_in_each_position(deal_4x3):
    spec, rec = deal_4x3
    n, k, rounds = 4, 3, spec.items
    f = _fields(rec, n, k)
    mult = np.bincount(spec.deck, minlength=C.N_TYPES)[: C.JESTER + 1].astype(float)
    chi2, df = 0.0, 0
    for pos in range(n):
        seat = (f["dealer"] + 1 + pos) % n
        cards = rec.hands[np.arange(rounds), seat].ravel()
        counts = np.bincount(cards, minlength=C.N_TYPES)[: C.JESTER + 1]
        expected = rounds * k * mult / 60
        chi2 += ((counts - expected) ** 2 / expected).sum()
        df += len(expected) - 1
    assert chi2 < _chi2_bound(df), (chi2, df)


def test_indicator_is_uniform(deal_4x3):
    spec, rec = deal_4x3
    f = _fields(rec, 4, 3)
    assert (f["indicator"] >= 0).all()
    mult = np.bincount(spec.deck, minlength=C.N_TYPES)[: C.JESTER + 1].astype(float)
    counts = np.bincount(f["indicator"], minlength=C.N_TYPES)[: C.JESTER + 1]
    expected = spec.items * mult / 60
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < _chi2_bound(len(expected) - 1), chi2


def test_wizards_per_hand_are_hypergeometric():
    """Joint structure: the number of Wizards in a 10-card hand follows Hypergeometric(60, 4, 10)."""
    spec = make_spec(4, cards=10, hands=20_000, seed=5)
    rec = record_arrays(spec)
    w = (rec.hands == C.WIZARD).sum(axis=2).ravel()
    counts = np.bincount(w, minlength=5)
    total = len(w)
    expected = np.array([math.comb(4, i) * math.comb(56, 10 - i) / math.comb(60, 10) for i in range(5)]) * total
    keep = expected > 5
    chi2 = ((counts[keep] - expected[keep]) ** 2 / expected[keep]).sum()
    assert chi2 < _chi2_bound(int(keep.sum()) - 1), (counts, expected)


@pytest.mark.parametrize(
    "players, cards, strategy, rules",
    [
        (3, 20, "heuristic", {}),
        (4, 10, "random", {"canadian": "true"}),
        (4, 10, "heuristic,random,heuristic,random", {"canadian": "true"}),
        (5, 12, "heuristic", {"wizard_indicator": "no_trump"}),
        (6, 10, "random,heuristic,random,heuristic,random,heuristic", {"scoring": "progressive"}),
        (6, 1, "heuristic", {"canadian": "true"}),
    ],
)
def test_round_invariants(players, cards, strategy, rules):
    """Each card dealt once and played once by its holder; legal play; tricks add up; leaders chain."""
    n, k = players, cards
    spec = make_spec(n, cards=k, hands=20_000, seed=3, strategy=strategy, rules=rules)
    rec = record_arrays(spec)
    f = _fields(rec, n, k)
    rows = spec.items
    hands = rec.hands.astype(np.int64)
    # the deal: at most the deck's copies of each card, indicator included
    allc = np.concatenate([hands.reshape(rows, -1), np.where(f["indicator"] >= 0, f["indicator"], 63)[:, None]], axis=1)
    per_round = np.zeros((rows, 64), dtype=np.int64)
    np.add.at(per_round, (np.repeat(np.arange(rows), allc.shape[1]), allc.ravel()), 1)
    limit = np.bincount(spec.deck, minlength=64)
    limit[63] = 10**6
    assert (per_round <= limit).all()
    # each seat plays exactly its dealt cards
    seat_of = (f["leaders"][:, :, None] + np.arange(n)) % n
    for p in range(n):
        played = np.sort(rec.plays[seat_of == p].reshape(rows, k), axis=1)
        assert (played == np.sort(hands[:, p, :k], axis=1)).all()
    # every played card was legal
    assert ((rec.legal >> rec.plays.astype(np.uint64)) & np.uint64(1)).all()
    # tricks add up, winners are counted, leaders chain, first leader left of the dealer
    assert (f["won"].sum(axis=1) == k).all()
    for p in range(n):
        assert ((f["winners"] == p).sum(axis=1) == f["won"][:, p]).all()
    assert (f["leaders"][:, 0] == (f["dealer"] + 1) % n).all()
    assert (f["leaders"][:, 1:] == f["winners"][:, :-1]).all()
    # bids in range; Canadian rule keeps the sum off k
    assert ((f["bids"] >= 0) & (f["bids"] <= k)).all()
    if rules.get("canadian") == "true":
        assert (f["bids"].sum(axis=1) != k).all()
    # trump is a suit or none, and matches a suit-card indicator
    suit_ind = (f["indicator"] >= 0) & (f["indicator"] < 52)
    assert (f["trump"][suit_ind] == f["indicator"][suit_ind] // 13).all()
