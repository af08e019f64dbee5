"""The ``pimc`` player: legal under every rule, blind to hidden cards, stronger than the heuristic."""

from __future__ import annotations

import numpy as np
import pytest
import reference as R

from wizsim import _kernels as K
from wizsim import cards as C
from wizsim.errors import WizsimError
from wizsim.history import iter_history
from wizsim.simulate import kernel_tables, make_spec
from wizsim.strategies import make_strategy
from wizsim.tournament import tournament

FAST = "pimc(samples=4,bid_samples=4)"


@pytest.mark.parametrize(
    "sel",
    [
        {"players": 4, "cards": 7, "hands": 40},
        {"players": 3, "cards": 12, "hands": 20, "rules": {"canadian": "true"}},
        {"players": 5, "cards": 6, "hands": 30, "specials": "all"},
        {"players": 4, "cards": 8, "hands": 40, "specials": "all", "rules": {"bomb": "cancel_bids"}},
        {"players": 4, "cards": 9, "hands": 30, "specials": "werewolf,juggler,cloud"},
        {"players": 4, "games": 1, "rules": {"variant": "mono"}},
        {"players": 4, "games": 1, "rules": {"variant": "maximus"}},
    ],
)
def test_pimc_rounds_replay_cleanly(sel):
    """Every PIMC round, special cards and variants included, obeys the rules (reference replay)."""
    seats = [FAST, "heuristic", FAST, "random", "heuristic", "heuristic"][: sel["players"]]
    spec = make_spec(**sel, seed=3, strategy=",".join(seats))
    rounds = 0
    for rec in iter_history(spec, include_legal=True):
        rounds += 1
        problems = R.replay(rec)
        assert not problems, problems[:3]
    assert rounds > 0


def test_pimc_does_not_look_at_hidden_cards():
    """Two deals that differ only in the other players' cards give PIMC the same decision."""
    table, masks = kernel_tables()
    rules = np.zeros(K.N_RULE_SLOTS, dtype=np.int64)
    n, k = 4, 6
    params = np.stack([make_strategy("pimc(samples=16)").param_row()] * n)
    deck = np.asarray(C.build_deck(), dtype=np.uint8)
    full = np.bincount(deck.astype(np.int64), minlength=64).astype(np.int64)
    rng = np.random.default_rng(0)
    decisions = []
    mine = [C.card_code(c) for c in ("B13", "B2", "R7", "G4", "Y11", "W")]
    others = [c for c in deck.tolist() if c not in mine or c == C.WIZARD][: 3 * k + 10]
    for _ in range(2):
        pool = list(others)
        rng.shuffle(pool)
        hands = np.zeros(n, dtype=np.uint64)
        cnt = np.zeros((n, 64), dtype=np.int64)
        for q in range(n):
            cards = mine if q == 0 else pool[(q - 1) * k : q * k]
            for c in cards:
                hands[q] |= np.uint64(1) << np.uint64(c)
                cnt[q, c] += 1
        bids = np.array([2, 1, 1, 2], dtype=np.int64)
        won = np.zeros(n, dtype=np.int64)
        played = np.zeros(64, dtype=np.int64)
        void = np.zeros(n, dtype=np.int64)
        f, _ = K._pimc_play(
            0, 0, 0, n, k, 0, -1, -1, 0, 0, -1, 1, hands, cnt, bids, won, np.uint64(0), False, -1, full, played,
            void, C.card_code("R5"), -1, -1, table, masks, rules, params, False, np.uint64(12345),
        )  # fmt: skip
        decisions.append(int(f))
    assert decisions[0] == decisions[1]


def test_pimc_parameters_are_checked():
    row = make_strategy("pimc(samples=8,bid_samples=0,rollout=1)").param_row()
    assert (row[K.P_SAMPLES], row[K.P_BID_SAMPLES], row[K.P_ROLLOUT]) == (8, 0, 1)
    for bad in ("pimc(samples=0)", "pimc(samples=2.5)", "pimc(rollout=2)"):
        with pytest.raises(WizsimError):
            make_strategy(bad)


def test_pimc_is_deterministic_for_any_jobs():
    a = tournament(4, f"{FAST},heuristic", cards=5, deals=300, seed=2, jobs=1).table()
    b = tournament(4, f"{FAST},heuristic", cards=5, deals=300, seed=2, jobs=2).table()
    assert a.equals(b)


def test_pimc_beats_the_heuristic_on_the_same_deals():
    res = tournament(4, "pimc(samples=16,bid_samples=0),heuristic", cards=10, deals=300, seed=4).pairwise()
    row = res.iloc[0]
    assert row.strategy_a.startswith("pimc") and row.points_per_round_diff_lo > 3.0, row


def test_advise_with_pimc_players():
    """The advisor's deck holds only the unseen cards; PIMC seats still reason about the whole deck."""
    from wizsim.advise import advise

    adv = advise(3, 1, "W,B13", indicator="R4", strategy="pimc(samples=4,bid_samples=4)", samples=300, seed=1)
    assert adv.samples == 300 and abs(sum(adv.p_tricks) - 1) < 1e-12
    assert adv.p_tricks[2] > 0.3  # the Wizard and often the ace of a side suit
    one = advise(3, 1, "W", indicator="R4", strategy="pimc(samples=4,bid_samples=4)", samples=200, seed=1)
    assert one.p_tricks == [0.0, 1.0]  # a Wizard led always takes the trick
