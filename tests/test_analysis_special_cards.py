"""The special-cards analysis at quick size: files, columns, intervals, and facts that fail if a deck is wrong."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import load_analysis

import wizsim

SEED = 7


def _load():
    return load_analysis("special_cards")


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    mod = _load()
    out = tmp_path_factory.mktemp("special_cards")
    info = mod.run("quick", seed=SEED, outdir=out)
    table = pd.read_csv(out / f"{mod.NAME}.csv", dtype={"cards": str})
    return mod, info, out, table


def test_files_and_columns(result):
    mod, info, out, table = result
    assert info["files"][0].endswith(".csv")
    for name in info["files"]:
        assert (out / name).stat().st_size > 0
    assert list(table.columns) == mod.COLUMNS
    assert set(table.deck) == set(mod.DECKS)
    assert set(table.players) == set(mod.PLAYERS)
    assert set(table.metric) == set(mod.METRICS)
    assert "95% CI" in info["headline"] and f"{mod.SIZES['quick']:,}" in info["headline"]
    assert f"{mod.STRATEGY} self-play" in info["headline"] and f"{mod.STRATEGY} self-play" in info["sample"]


def test_intervals_contain_estimates(result):
    *_, table = result
    assert table[["estimate", "lo", "hi"]].notna().all().all()
    assert (table.lo <= table.estimate + 1e-12).all() and (table.estimate <= table.hi + 1e-12).all()
    d = table.dropna(subset=["diff"])
    assert len(d) > 0
    assert (d.diff_lo <= d["diff"] + 1e-12).all() and (d["diff"] <= d.diff_hi + 1e-12).all()
    # differences exist for every non-standard deck, never for the standard deck itself
    assert table[table.deck == "standard"]["diff"].isna().all()
    assert d.deck.nunique() == len(table.deck.unique()) - 1


def test_differences_are_deck_minus_standard(result):
    *_, table = result
    key = ["players", "cards", "metric"]
    std = table[table.deck == "standard"].set_index(key).estimate
    d = table.dropna(subset=["diff"])
    expected = d.estimate.to_numpy() - std.loc[list(d[key].itertuples(index=False, name=None))].to_numpy()
    np.testing.assert_allclose(d["diff"].to_numpy(), expected, rtol=0, atol=1e-12)


def test_decks_really_differ_but_play_the_same_rounds(result):
    """Deck sizes follow from the deck; every deck plays the standard table's 60 // n rounds (RULES.md 2)."""
    mod, info, _, table = result
    games = mod.SIZES["quick"]
    sizes = {"standard": 60, "Dragon+Fairy": 62, "all seven": 67}
    for (n, deck), t in table.groupby(["players", "deck"]):
        size = sizes.get(deck, 61)
        assert (t.deck_size == size).all()
        assert (t.game_rounds == 60 // n).all()
        per_k = t[t.cards.str.isdigit()]
        assert sorted(set(per_k.cards.astype(int))) == list(range(1, 60 // n + 1))
        assert (per_k.rounds == games * n).all()  # one round of each size per game, n players each
        assert set(t.cards) == {*per_k.cards, "game"}  # one pooled row set per deck, no other split
        assert (t[t.cards == "game"].rounds == games * n * (60 // n)).all()
    # every non-standard row has a difference: the standard deck has every round size too
    assert table[table.deck != "standard"]["diff"].notna().all()
    assert "same 15 rounds" in info["headline"]


def test_bomb_is_the_only_card_that_loses_tricks(result):
    """Mean tricks per player is exactly k / n unless the Bomb is in the deck: a bombed trick goes to nobody."""
    *_, table = result
    tricks = table[(table.metric == "mean_tricks") & table.cards.str.isdigit()]
    k = tricks.cards.astype(int)
    bomb = tricks.deck.isin(["Bomb", "all seven"])
    np.testing.assert_allclose(tricks[~bomb].estimate, k[~bomb] / tricks[~bomb].players, rtol=0, atol=1e-12)
    # in the largest round the Bomb is dealt in (nearly) every game: tricks are lost
    big = tricks[bomb & (k == 60 // tricks.players)]
    assert len(big) == 8
    assert (big.estimate < big.cards.astype(int) / big.players - 0.05).all()


def test_per_round_estimates_match_the_simulation_table(result):
    """The analysis's per-round-size numbers agree with SimulationResult.table (an independent summary)."""
    mod, _, _, table = result
    res = wizsim.simulate_result(4, games=mod.SIZES["quick"], seed=SEED, strategy=mod.STRATEGY, specials="dragon,fairy")
    ref = res.table(by_position=False).set_index("cards")
    mine = table[(table.players == 4) & (table.deck == "Dragon+Fairy") & table.cards.str.isdigit()]
    for metric in ("hit_rate", "mean_abs_diff", "mean_score", "mean_bid", "mean_tricks"):
        m = mine[mine.metric == metric].set_index(mine[mine.metric == metric].cards.astype(int))
        for col, rcol in (("estimate", metric), ("lo", f"{metric}_lo"), ("hi", f"{metric}_hi")):
            np.testing.assert_allclose(m[col].to_numpy(), ref.loc[m.index, rcol].to_numpy(), rtol=1e-12)
