"""The ``table`` strategy: the kernel's table lookup agrees with the training code, and it beats the heuristic."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import card_mask, record_arrays

from wizsim.engine import layout as L
from wizsim.engine.game.trick import open_trick, trick_step
from wizsim.engine.players.heuristic import heuristic_play
from wizsim.engine.players.table import heuristic_estimates, table_bid
from wizsim.errors import WizsimError
from wizsim.game.cards import card_code, card_name, kernel_tables
from wizsim.players import bid_data
from wizsim.players.strategies import HeuristicStrategy, make_strategy
from wizsim.run.simulate import make_spec
from wizsim.tools.tournament import tournament
from wizsim.training import bid_table as T


def _small_table(value: float = np.nan) -> np.ndarray:
    return np.full(T.SHAPE, value)


def test_table_bid_picks_the_best_known_step():
    tab = _small_table()
    # 4 players, 5 cards, position 1 (index 0), estimate 2.1 (bin 8), normal earlier bids, one Wizard
    cell = (1, 5, 0, 8, 1, 1)
    tab[cell + (1,)] = 3.0  # bid 1
    tab[cell + (3,)] = 7.0  # bid 3
    tab[cell + (4,)] = 9.0  # bid 4 (best)
    assert table_bid(2.1, 2, 4, 5, 0, 0, False, -1, 1, tab) == 4
    assert table_bid(2.1, 2, 4, 5, 0, 0, False, 4, 1, tab) == 3  # 4 is forbidden (Canadian rule)
    assert table_bid(2.1, 2, 4, 5, 0, 0, False, -1, 0, tab) == 2  # no Wizard: nothing known, base
    assert table_bid(2.1, 2, 4, 20, 0, 0, False, -1, 1, tab) == 2  # nothing known for 20 cards
    # earlier bids: position 3 (index 2) expects 2 * 5 / 4 = 2.5; a sum of 5 is "high"
    tab[(1, 5, 2, 8, 2, 1, 0)] = 1.0
    assert table_bid(2.1, 2, 4, 5, 2, 5, False, -1, 1, tab) == 0
    assert table_bid(2.1, 2, 4, 5, 2, 5, True, -1, 1, tab) == 2  # hidden bids: "normal", unknown
    tiny = np.full((1,) * len(T.SHAPE), np.nan)
    assert table_bid(2.1, 2, 4, 5, 0, 0, False, -1, 1, tiny) == 2  # the placeholder: base


def test_kernel_lookup_matches_the_training_features(monkeypatch):
    """A table with one known step per cell makes every bid predictable from the recorded deal.

    The expected bid is computed in Python from the recorded hands and bids
    with the training code (heuristic estimates, positions, earlier-bid bins,
    Wizards); any mismatch in features between kernel and training shows up.
    """
    rng = np.random.default_rng(3)
    steps = rng.integers(0, 5, size=T.SHAPE[:-1])
    tab = _small_table()
    np.put_along_axis(tab, steps[..., None], 1.0, axis=-1)
    monkeypatch.setattr(bid_data, "kernel_table", lambda needed=True: tab if needed else np.full((1,) * 7, np.nan))
    for n in (3, 4, 6):
        spec = make_spec(n, games=60, seed=n, strategy="table")
        rec = record_arrays(spec)
        hands, bids, ks = rec.hands, rec.bids, rec.cards
        kmax = max(spec.schedule)
        est = heuristic_estimates(hands, ks, rec.trump, n, HeuristicStrategy().param_row())
        held = np.arange(kmax)[None, None, :] < ks[:, None, None]
        wizards = ((hands == L.WIZARD) & held).sum(axis=2)
        (k, pos, eb, xb, wz, _), _ = T.cell_indices(est, bids, rec.dealer, ks, wizards, n)
        base = np.clip(np.floor(est + 0.5), 0, k).astype(np.int64)
        want = base + steps[n - 3, k, pos, eb, xb, wz] - 2
        want = np.where((want < 0) | (want > k), base, want)  # an impossible bid is never chosen
        assert (bids == want).all(), f"{int((bids != want).sum())} bids differ for {n} players"


def test_training_sums_do_not_depend_on_jobs():
    one = T.train([3], games=300, seed=4, jobs=1)
    two = T.train([3], games=300, seed=4, jobs=2)
    for key in one:
        assert (one[key] == two[key]).all()
    assert one["count"].sum() == 300 * 20 * 3  # every round of every seat is an example (steps within -2..2)


def test_the_packaged_table_is_documented_and_loads():
    meta = T.metadata()
    assert {"seed", "games_per_player_count", "players", "command"} <= set(meta)
    tab = T.kernel_table(True)
    assert tab.shape == T.SHAPE and np.isfinite(tab).sum() > 10_000


def test_table_parameters_are_checked():
    assert make_strategy("table(explore=1)").param_row()[L.TP_EXPLORE] == 1.0
    both = L.REFINE_LEAD_TRUMP | L.REFINE_KEEP_JESTER
    assert make_strategy("table").param_row()[L.TP_REFINE] == both
    assert make_strategy("table(lead_trump=0)").param_row()[L.TP_REFINE] == L.REFINE_KEEP_JESTER
    assert make_strategy("table(lead_trump=0,keep_jester=0)").param_row()[L.TP_REFINE] == 0
    with pytest.raises(WizsimError, match="lead_trump"):
        make_strategy("table(lead_trump=2)")
    with pytest.raises(WizsimError, match="keep_jester"):
        make_strategy("table(keep_jester=0.5)")
    with pytest.raises(WizsimError, match="explore"):
        make_strategy("table(explore=0.5)")
    with pytest.raises(WizsimError, match="unknown heuristic parameter"):
        make_strategy("table(nope=1)")


def test_table_beats_heuristic_on_the_same_deals():
    res = tournament(4, "table,heuristic", cards=10, deals=20_000, seed=8).pairwise()
    row = res.iloc[0]
    assert (row.strategy_a, row.strategy_b) == ("table", "heuristic")  # differences are a - b
    assert row.points_per_round_diff_lo > 3.0, row  # the target: 3 points per round, interval clear


def _lead(hand: list[str], need: int, lead_trump: bool, seen: list[str] = ()) -> str:
    """The heuristic's lead from ``hand`` (Blue trump, 4 players, nothing in the trick yet)."""
    m = card_mask(hand)
    refine = L.REFINE_LEAD_TRUMP if lead_trump else 0
    return card_name(heuristic_play(m, m, need, -1, -1, 0, 4, 0, card_mask(list(seen)), 0, False, refine))


def _follow(hand: list[str], need: int, refine: int, trick: list[str]) -> str:
    """The card played from ``hand`` after ``trick`` (Blue trump, 4 players); every card is legal here."""
    m = card_mask(hand)
    state = open_trick(0, -1)
    table = kernel_tables()[0]
    for j, name in enumerate(trick):
        state = trick_step(card_code(name), j, state, 0, table)
    seen = card_mask(trick)
    return card_name(heuristic_play(m, m, need, state.led, state.best, len(trick), 4, 0, seen, state.flags, False,
                                    refine))  # fmt: skip


def test_lead_trump_leads_the_lowest_trump_that_can_still_lose_once_the_bid_is_made():
    assert _lead(["B3", "B7", "R5"], 0, False) == "R5"  # the heuristic sheds its lowest side card
    assert _lead(["B3", "B7", "R5"], 0, True) == "B3"
    # a trump nothing unseen beats would win: it is not led to lose
    assert _lead(["B13", "R5"], 0, True) == "R5"
    assert _lead(["B11", "R5"], 0, True, seen=["B12", "B13"]) == "R5"
    assert _lead(["B11", "B12", "R5"], 0, True, seen=["B13"]) == "R5"  # B11 is covered by the own B12
    # while tricks are still needed, nothing changes
    for hand in (["B3", "B7", "R5"], ["B3", "R13", "W"], ["B13", "R5"]):
        assert _lead(hand, 1, True) == _lead(hand, 1, False)


def test_keep_jester_sheds_a_side_card_when_the_trick_is_lost_anyway():
    trick = ["W"]  # nothing beats a Wizard led
    hand = ["J", "R4", "G9", "B2"]
    assert _follow(hand, 1, 0, trick) == "J"  # the heuristic sheds its Jester
    assert _follow(hand, 1, L.REFINE_KEEP_JESTER, trick) == "R4"  # the lowest side card; the trump is kept
    assert _follow(["J", "B2"], 1, L.REFINE_KEEP_JESTER, trick) == "J"  # no side card: as before
    assert _follow(hand, 0, L.REFINE_KEEP_JESTER, trick) == _follow(hand, 0, 0, trick)  # bid made: unchanged


@pytest.mark.parametrize("refinement", ["lead_trump", "keep_jester"])
def test_each_refinement_makes_table_play_better(refinement):
    res = tournament(4, f"table,table({refinement}=0)", cards=10, deals=20_000, seed=8).pairwise()
    row = res.iloc[0]
    assert row.points_per_round_diff_lo > 1.0, row
