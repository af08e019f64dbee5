"""Exact probabilities by full enumeration on reduced decks against the Numba simulation.

``reference.enumerate_round_distribution`` computes, with fractions, the exact
distribution of (seat position, bid, tricks) for uniformly random dealing,
bidding and card play on a tiny deck. The engine plays the same deck with
the ``random`` strategy; every cell must agree within 4.5 standard errors
and the chi-square statistic per position must stay below a 1-in-10^5 bound.
Fixed seeds make the test deterministic; a final check shows it rejects a
distribution that is only slightly wrong (the other rule option's).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import reference as R

import wizsim

N_SIM = 300_000

CASES = [
    # players, cards, deck, options
    (3, 2, ["B1", "B2", "R1", "R2", "W", "J", "B3", "W"], {}),
    (3, 2, ["B1", "B2", "R1", "R2", "W", "J", "B3", "W"], {"canadian": True}),
    (3, 2, ["B1", "B2", "R1", "R2", "W", "J", "B3", "W"], {"wizard_indicator": "no_trump"}),
    (3, 2, ["B1", "B2", "R1", "W", "J", "B3"], {}),  # no card left to turn up
    (4, 1, ["B1", "R1", "W", "J", "B2", "W"], {"canadian": True}),
]


def _simulated(players, cards, deck, options, seed):
    res = wizsim.simulate_result(
        players, cards=cards, hands=N_SIM, seed=seed, strategy="random", rules=options, deck=deck
    )
    jc = res.joint_counts(by="position")
    return {(int(r.position) - 1, int(r.bid), int(r.tricks)): int(r["count"]) for _, r in jc.iterrows()}


def _chi2_bound(df: int) -> float:
    # Wilson-Hilferty: chi2_df quantile at z = 4.26 (upper tail ~1e-5)
    z = 4.26
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _compare(exact, sim, players):
    worst = 0.0
    for pos in range(players):
        cells = {key: p for key, p in exact.items() if key[0] == pos and p > 0}
        assert sum(v for key, v in sim.items() if key[0] == pos) == N_SIM
        # nothing outside the support
        assert all(key in cells for key in sim if key[0] == pos), "simulated an impossible (bid, tricks)"
        chi2 = 0.0
        for key, p in cells.items():
            expected = N_SIM * float(p)
            got = sim.get(key, 0)
            z = (got - expected) / math.sqrt(expected * (1 - float(p)))
            worst = max(worst, abs(z))
            chi2 += (got - expected) ** 2 / expected
        if len(cells) > 1:
            assert chi2 < _chi2_bound(len(cells) - 1), f"position {pos}: chi2 {chi2:.1f} over {len(cells) - 1} df"
    return worst


@pytest.mark.parametrize("case", range(len(CASES)))
def test_simulation_matches_exact_enumeration(case):
    players, cards, deck, options = CASES[case]
    exact = R.enumerate_round_distribution(players, cards, 0, options, deck)
    sim = _simulated(players, cards, deck, options, seed=2024 + case)
    worst = _compare(exact, sim, players)
    assert worst < 4.5


def test_comparison_rejects_a_slightly_wrong_distribution():
    """Power check: the Canadian-rule simulation does not pass against the plain exact distribution."""
    players, cards, deck, _ = CASES[0]
    exact_plain = R.enumerate_round_distribution(players, cards, 0, {}, deck)
    sim_canadian = _simulated(players, cards, deck, {"canadian": True}, seed=7)
    with pytest.raises(AssertionError):
        worst = _compare(exact_plain, sim_canadian, players)
        assert worst < 4.5


def test_one_card_round_exact_hit_rate():
    """One card each, 3 players, tiny deck: P(hit) per position equals the enumerated value."""
    deck = ["B1", "B2", "B3", "R1", "W", "J"]
    exact = R.enumerate_round_distribution(3, 1, 0, {}, deck)
    res = wizsim.simulate_result(3, cards=1, hands=N_SIM, seed=11, deck=deck).table()
    for pos in range(3):
        p = float(sum(v for (q, b, t), v in exact.items() if q == pos and b == t))
        row = res[res.position == pos + 1].iloc[0]
        se = math.sqrt(p * (1 - p) / N_SIM)
        assert abs(row.hit_rate - p) < 4.5 * se
    assert np.isclose(res.rounds.sum(), 3 * N_SIM)
