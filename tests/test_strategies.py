"""Players: names and parameters, and the heuristic's margin over random play (fixed seeds)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import card_mask

import wizsim
from wizsim.engine import layout as L
from wizsim.errors import WizsimError
from wizsim.players.strategies import HEURISTIC_DEFAULTS, make_strategy, seat_strategies


def test_strategy_names_and_parameters():
    assert make_strategy("Heuristic").name == "heuristic"
    s = make_strategy("heuristic(ruff=0.5,wizard=0.8)")
    row = s.param_row()
    assert 0.5 in row and 0.8 in row
    assert len(seat_strategies("heuristic,random,random", 3)) == 3
    assert [x.name for x in seat_strategies("random", 5)] == ["random"] * 5
    with pytest.raises(WizsimError, match="unknown strategy"):
        make_strategy("minimax")
    with pytest.raises(WizsimError, match="unknown heuristic parameter"):
        make_strategy("heuristic(foo=1)")
    with pytest.raises(WizsimError, match="strategies given for 4 players"):
        seat_strategies("random,random", 4)
    assert set(HEURISTIC_DEFAULTS) == {
        "wizard", "trump_top", "trump_slope", "trump_floor", "side_ace", "side_drop", "player_decay",
        "length_decay", "ruff", "bid_shift", "nt_ace", "side_second",
        "dragon", "fairy", "bomb", "werewolf", "juggler", "cloud", "shapeshifter",
    }  # fmt: skip
    # decision overrides take a decider name, on every strategy
    row = make_strategy("heuristic(pass=random,form=heuristic)").param_row()
    assert row[[L.D_FORM, L.D_PASS]].tolist() == [L.DECIDE_HEURISTIC, L.DECIDE_RANDOM]
    assert make_strategy("random(trump=heuristic)").param_row()[L.D_TRUMP] == L.DECIDE_HEURISTIC
    with pytest.raises(WizsimError, match="decision pass"):
        make_strategy("heuristic(pass=maybe)")
    with pytest.raises(WizsimError, match="unknown parameter"):
        make_strategy("random(x=1)")


@pytest.mark.parametrize("players, cards", [(3, 20), (4, 10), (6, 10), (4, 1)])
def test_heuristic_beats_random_on_the_same_table(players, cards):
    """One heuristic seat among random ones: 25 points per round and 25 points of hit rate better (1 card: 7 and 15)."""
    strategy = ",".join(["heuristic"] + ["random"] * (players - 1))
    res = wizsim.simulate_result(players, cards=cards, hands=20_000, seed=17, strategy=strategy)
    s = res.summary().set_index("strategy")
    h, r = s.loc["heuristic"], s.loc["random"]
    assert h.mean_score_lo - r.mean_score_hi > (7 if cards == 1 else 25)
    assert h.hit_rate_lo - r.hit_rate_hi > (0.15 if cards == 1 else 0.25)


def test_heuristic_self_play_hit_rate_is_sensible():
    res = wizsim.simulate_result(4, cards=10, hands=20_000, seed=3, strategy="heuristic")
    s = res.summary().iloc[0]
    assert 0.40 < s.hit_rate < 0.95
    assert s.mean_score > 5


def test_parameters_change_play():
    a = wizsim.simulate(4, cards=8, hands=5_000, seed=1, strategy="heuristic")
    b = wizsim.simulate(4, cards=8, hands=5_000, seed=1, strategy="heuristic(bid_shift=1.0)")
    assert b.mean_bid.mean() > a.mean_bid.mean() + 0.5
    assert not np.allclose(a.mean_score, b.mean_score)


@pytest.mark.parametrize("selection", [{"cards": 7, "hands": 300}, {"games": 3}])
def test_same_seed_same_deals_whatever_the_players(selection):
    """Common random numbers: dealing has its own stream, so strategies and rules see the same cards."""
    from wizsim.run.history import history

    runs = [
        history(players=4, seed=8, strategy="random", **selection),
        history(players=4, seed=8, strategy="heuristic", rules={"canadian": True}, **selection),
        history(players=4, seed=8, strategy="heuristic,random,random,heuristic", **selection),
    ]
    deals = [[(r["hands"], r["indicator"], r["dealer"]) for r in run] for run in runs]
    assert deals[0] == deals[1] == deals[2]
    assert [r["bids"] for r in runs[0]] != [r["bids"] for r in runs[1]]


def _estimate(cards, trump, n, k):
    from wizsim.engine.players.heuristic import heuristic_estimate
    from wizsim.game import cards as C

    cnt = np.zeros(64, dtype=np.int64)
    for c in cards:
        cnt[C.card_code(c)] += 1
    row = make_strategy("heuristic").param_row()
    return heuristic_estimate(card_mask(cards), cnt, trump, n, k, row)


def test_heuristic_bids_at_least_the_tricks_it_controls():
    assert _estimate(["W", "W", "W", "W"], -1, 4, 4) >= 4
    trumps = [f"B{r}" for r in range(1, 14)]
    assert _estimate(trumps + ["W", "W"], 0, 4, 15) >= 15
    assert _estimate([f"Y{r}" for r in range(1, 14)] + [f"G{r}" for r in range(7, 14)], -1, 3, 20) >= 20


def test_heuristic_does_not_lead_a_sure_winner_when_it_wants_no_more_tricks():
    from wizsim.engine.players.heuristic import heuristic_play
    from wizsim.game import cards as C

    hand = card_mask(["R13", "J"])
    f = heuristic_play(hand, hand, 0, -1, -1, 0, 4, -1, np.uint64(0), 0, False, 0)
    assert C.card_name(f) == "J"
    # with a side card that unseen cards can beat, that card is the cheaper way to lose
    hand = card_mask(["R5", "J"])
    f = heuristic_play(hand, hand, 0, -1, -1, 0, 4, -1, np.uint64(0), 0, False, 0)
    assert C.card_name(f) == "R5"  # and the Jester is kept for later


def test_every_registered_player_has_a_strategy_class_with_its_registry_id():
    """engine/layout.py's PLAYERS gives the ids; strategies.STRATEGIES names a class for each, with that id."""
    from wizsim.engine import layout as L
    from wizsim.players.strategies import STRATEGIES, make_strategy

    assert list(STRATEGIES) == list(L.PLAYERS)
    for i, name in enumerate(L.PLAYERS):
        assert make_strategy(name).strategy_id == i
