"""The rule-variants analysis at quick size: files, columns, intervals, and facts that fail on a bug."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import load_analysis

import wizsim
from wizsim.run.simulate import make_spec

SEED = 11


def _load():
    return load_analysis("variant_balance")


@pytest.fixture(scope="module")
def mod():
    return _load()


@pytest.fixture(scope="module")
def result(mod, tmp_path_factory):
    out = tmp_path_factory.mktemp("variant_balance")
    info = mod.run("quick", seed=SEED, outdir=out)
    return info, out, pd.read_csv(out / f"{mod.NAME}.csv"), pd.read_csv(out / "variant_seats.csv")


def test_files_columns_intervals(mod, result):
    info, out, table, seats = result
    assert info["files"][0] == f"{mod.NAME}.csv"
    for name in info["files"]:
        assert (out / name).stat().st_size > 0
    assert list(table.columns) == mod.COLUMNS
    assert list(seats.columns) == mod.SEAT_COLUMNS
    for t in (table, seats):
        assert t[["estimate", "lo", "hi"]].notna().all().all()
        assert (t.lo <= t.estimate + 1e-12).all() and (t.estimate <= t.hi + 1e-12).all()
    d = table.dropna(subset=["diff"])
    assert (d.diff_lo <= d["diff"] + 1e-12).all() and (d["diff"] <= d.diff_hi + 1e-12).all()
    assert table[table.variant == "standard"]["diff"].isna().all()
    assert set(table.metric) == set(mod.METRICS)
    # rejected combinations are skipped and reported, the others all run
    assert "canadian + hidden, 4 players" in info["skipped"] and "elimination, 3 players" in info["skipped"]
    assert len(info["skipped"]) == 5
    assert set(table[table.players == 4].variant) == set(mod.VARIANTS) - {"canadian + hidden"}
    assert "elimination" not in set(table[table.players == 3].variant)


def test_hidden_bids_change_nothing_for_players_who_never_read_bids(mod):
    """heuristic and random never read the others' bids: hidden bids reproduce the standard game exactly."""
    for strategy in ("heuristic", "heuristic,random,heuristic,random"):
        specs = {
            v: make_spec(4, games=512, seed=SEED, strategy=strategy, rules=mod.VARIANTS[v])
            for v in ("standard", "hidden simultaneous", "hidden secret")
        }
        c = mod.chunk_counts(specs, jobs=1)
        for v in ("hidden simultaneous", "hidden secret"):
            for key in ("count", "aux", "game", "joint"):
                np.testing.assert_array_equal(c[v][key], c["standard"][key], err_msg=f"{strategy}, {v}, {key}")


def test_hidden_bids_change_the_learned_players_game(mod, result):
    """learned reads the earlier bids when bidding (not under hidden bids) and everyone's bids when playing
    (not under secret bids): each hidden mode changes its game, and the two modes differ from each other."""
    assert mod.STRATEGY == "learned"  # the facts below are the learned player's
    _, _, table, _ = result
    for n, t in table.groupby("players"):
        std = t[t.variant == "standard"].set_index("metric")
        sim = t[t.variant == "hidden simultaneous"].set_index("metric")
        sec = t[t.variant == "hidden secret"].set_index("metric")
        for other in (sim, sec):
            assert other.loc["hit_rate", "estimate"] != std.loc["hit_rate", "estimate"], n
            assert other.loc["points_mean", "estimate"] != std.loc["points_mean", "estimate"], n
        assert sim.loc["hit_rate", "estimate"] != sec.loc["hit_rate", "estimate"], n


def test_hidden_bids_change_the_table_players_bids_only(mod):
    """table reads the earlier bids (bids only, its play ignores them): both hidden modes hide the same."""
    specs = {
        v: make_spec(4, games=512, seed=SEED, strategy="table", rules=mod.VARIANTS[v])
        for v in ("standard", "hidden simultaneous", "hidden secret")
    }
    c = mod.chunk_counts(specs, jobs=1)
    for key in ("count", "aux", "game", "joint"):
        np.testing.assert_array_equal(c["hidden secret"][key], c["hidden simultaneous"][key], err_msg=key)
    assert not np.array_equal(c["hidden simultaneous"]["joint"], c["standard"]["joint"])


def test_progressive_scoring_changes_scores(mod, result):
    """Progressive scoring pays more; the Canadian rule changes the hit rate. For a player that ignores the
    scoring rule (table), progressive scoring changes the scores only: same seed, same bids and tricks."""
    _, _, table, _ = result
    t = table.set_index(["players", "variant", "metric"]).estimate
    for n in (3, 4, 5, 6):
        assert t[(n, "progressive", "points_mean")] > t[(n, "standard", "points_mean")] + 10
        assert t[(n, "canadian", "hit_rate")] != t[(n, "standard", "hit_rate")]
    specs = {
        v: make_spec(4, games=512, seed=SEED, strategy="table", rules=mod.VARIANTS[v])
        for v in ("standard", "progressive")
    }
    c = mod.chunk_counts(specs, jobs=1)
    np.testing.assert_array_equal(c["progressive"]["joint"], c["standard"]["joint"])  # bids and tricks
    assert not np.array_equal(c["progressive"]["game"], c["standard"]["game"])  # the totals


def test_seat_win_rates_sum_to_one(result):
    _, _, _, seats = result
    w = seats[seats.kind == "seat_win_rate"].groupby(["players", "variant"]).estimate.sum()
    np.testing.assert_allclose(w.to_numpy(), 1.0, rtol=0, atol=1e-12)
    pos = seats[seats.kind == "position_mean_points"].groupby(["players", "variant"])["index"].max()
    assert (pos == pos.index.get_level_values("players")).all()


def test_chunk_counts_add_up_to_the_simulation(mod, result):
    """The per-chunk counts behind every interval sum to simulate_result's counts (same seed, same chunks)."""
    info, _, table, seats = result
    games = mod.SIZES["quick"]
    t = table[table.players == 4].set_index(["variant", "metric"])
    res = wizsim.simulate_result(4, games=games, seed=SEED, strategy=mod.STRATEGY, rules=["canadian=true"])
    s = res.summary().iloc[0]
    assert t.loc[("canadian", "hit_rate"), "estimate"] == pytest.approx(s.hit_rate, rel=1e-12)
    assert t.loc[("canadian", "points_mean"), "estimate"] == pytest.approx(s.mean_score, rel=1e-12)
    g = res.games_table()
    mine = seats[(seats.players == 4) & (seats.variant == "canadian") & (seats.kind == "seat_win_rate")]
    np.testing.assert_allclose(mine.estimate.to_numpy(), g.win_rate.to_numpy(), rtol=1e-12)
    # skill gap: the two seatings pooled, strong minus weak mean points per round
    strong, weak = mod.STRATEGY, mod.WEAK
    sums = {strong: [0.0, 0], weak: [0.0, 0]}
    seats4 = mod.seatings(4)
    assert (
        seats4["mixed"] == f"{strong},{weak},{strong},{weak}" and seats4["mirror"] == f"{weak},{strong},{weak},{strong}"
    )
    for strategy in (seats4["mixed"], seats4["mirror"]):
        for _, row in wizsim.simulate_result(4, games=games, seed=SEED, strategy=strategy).summary().iterrows():
            sums[row.strategy][0] += row.mean_score * row.rounds
            sums[row.strategy][1] += row.rounds
    gap = sums[strong][0] / sums[strong][1] - sums[weak][0] / sums[weak][1]
    assert t.loc[("standard", "skill_gap_points"), "estimate"] == pytest.approx(gap, rel=1e-9)


def test_dealer_is_the_last_position_of_the_players_left(mod):
    """In elimination the rounds after the first elimination have 3 players: their dealer is position 3."""
    spec = make_spec(4, games=256, seed=SEED, strategy=mod.STRATEGY, rules=["variant=elimination"])
    c = mod.chunk_counts({"e": spec}, jobs=1)["e"]
    mask = mod.dealer_mask(c["count"])
    for k in range(1, 21):
        assert mask[k].tolist() == [p == (3 if k <= 15 else 2) for p in range(4)]
    assert not mask[0].any()


def test_delta_method_standard_errors(mod):
    """Mean and SD with their per-chunk delta-method errors against the exact values on synthetic data."""
    rng = np.random.default_rng(3)
    chunks, per = 400, 50
    x = rng.integers(-40, 80, size=(chunks, per)).astype(np.int64)  # uniform: sd 34.6, kurtosis 1.8
    den = np.full(chunks, per)
    m = mod.ratio(x.sum(axis=1), den)
    s = mod.std_dev(x.sum(axis=1), (x * x).sum(axis=1), den)
    assert m.value == pytest.approx(x.mean(), rel=1e-12)
    assert s.value == pytest.approx(x.std(ddof=1), rel=1e-12)
    n = x.size
    se_mean = 34.64 / np.sqrt(n)
    se_sd = 34.64 * np.sqrt((1.8 - 1) / (4 * n))  # sd * sqrt((kurtosis - 1) / 4n)
    for est, se in ((m, se_mean), (s, se_sd)):
        _, lo, hi = est.interval()
        assert (hi - lo) / (2 * 1.96) == pytest.approx(se, rel=0.15)
