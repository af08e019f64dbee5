"""analyses/expected_tricks.py: files, intervals, the sum-to-k identity, an independent check of
the position mapping and of the regression algebra, and the expected order of card values."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import load_analysis

import wizsim
from wizsim.run.history import record_chunk_arrays
from wizsim.run.simulate import make_spec

SEED = 20261129


def _load():
    return load_analysis("expected_tricks")


ET = _load()


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("expected_tricks")
    info = ET.run("quick", seed=SEED, outdir=out)
    return out, info


def test_files_columns_and_intervals(quick):
    out, info = quick
    assert info["name"] == ET.NAME and info["files"][0] == "expected_tricks.csv"
    assert f"{ET.STRATEGY} self-play" in info["headline"] and f"{ET.STRATEGY} self-play" in info["sample"]
    for name in info["files"]:
        assert (out / name).stat().st_size > 0, name
    tricks = pd.read_csv(out / "expected_tricks.csv")
    assert list(tricks.columns) == [
        "deck", "players", "cards", "position", "measure", "tricks", "estimate", "lo", "hi", "rounds",
    ]  # fmt: skip
    values = pd.read_csv(out / "card_values.csv")
    for col in ("deck", "players", "round_sizes", "card", "kind", "rank", "value", "value_se", "value_lo",
                "value_hi", "hands_holding", "hands", "rounds"):  # fmt: skip
        assert col in values.columns, col
    assert tricks[["estimate", "lo", "hi"]].notna().all().all()
    assert (tricks.lo <= tricks.estimate).all() and (tricks.estimate <= tricks.hi).all()
    assert (values.value_lo <= values.value).all() and (values.value <= values.value_hi).all()
    assert (values.value_se > 0).all()
    # every legal round size, every position, both decks
    for n in ET.PLAYERS:
        std = tricks[(tricks.deck == "standard") & (tricks.players == n)]
        assert sorted(std.cards.unique()) == list(range(1, 60 // n + 1))
        assert sorted(std.position.unique()) == list(range(n + 1))
        sp = tricks[(tricks.deck == "all specials") & (tricks.players == n)]
        assert sorted(sp.cards.unique()) == list(range(1, 60 // n + 1))  # the standard table with specials too
    # P(tricks = t) sums to 1 over t, for every deck, size and position
    p = tricks[tricks.measure == "p_tricks"].groupby(["deck", "players", "cards", "position"]).estimate.sum()
    assert np.allclose(p, 1.0, atol=1e-5)


def test_tricks_sum_to_k_on_the_records():
    """Standard deck: every round's tricks add up to k exactly; with the Bomb, to k minus the bombed tricks."""
    for n in (3, 6):
        spec = make_spec(n, games=64, seed=SEED, strategy=ET.STRATEGY)
        _, rec = record_chunk_arrays(spec, 0)
        assert np.array_equal(rec.tricks_won.sum(1), rec.cards)
        d = ET.chunk_data(make_spec(n, games=64, seed=SEED, strategy=ET.STRATEGY, specials="all"), 0)
        total = d["won"].astype(int).sum(1)
        assert np.array_equal(total, d["k"].astype(int) - d["bombed"])
        assert d["bombed"].sum() > 0


def test_mean_tricks_is_k_over_n(quick):
    out, _ = quick
    t = pd.read_csv(out / "expected_tricks.csv")
    pooled = t[(t.measure == "mean_tricks") & (t.position == 0)]
    std = pooled[pooled.deck == "standard"]
    fair = std.cards / std.players
    assert np.allclose(std.estimate, fair, atol=1e-6) and np.allclose(std.lo, std.hi, atol=1e-9)
    sp = pooled[pooled.deck == "all specials"]
    assert (sp.estimate <= sp.cards / sp.players + 1e-9).all()
    assert (sp.hi < sp.cards / sp.players).mean() > 0.8  # the Bomb voids tricks: clearly below k/n
    # 1-card rounds, standard deck: exactly one seat takes the trick
    one = t[(t.deck == "standard") & (t.measure == "p_tricks") & (t.position == 0) & (t.cards == 1) & (t.tricks == 1)]
    assert np.allclose(one.estimate, 1 / one.players, atol=1e-6) and np.allclose(one.lo, one.hi)


def test_positions_agree_with_the_counting_kernel(quick):
    """Per-position means from the records equal simulate_result's table (same seed: the same rounds)."""
    out, _ = quick
    t = pd.read_csv(out / "expected_tricks.csv")
    mine = t[(t.deck == "standard") & (t.players == 4) & (t.measure == "mean_tricks") & (t.position > 0)]
    res = wizsim.simulate_result(4, games=ET.SIZES["quick"], seed=SEED, strategy=ET.STRATEGY)
    ref = res.table(by_position=True)
    both = mine.merge(ref, on=["cards", "position"])
    assert len(both) == 15 * 4
    assert np.allclose(both.estimate, both.mean_tricks, atol=1e-6)
    assert np.allclose(both.lo, both.mean_tricks_lo, atol=1e-6)
    assert (both.rounds_x == both.rounds_y).all()


@pytest.mark.parametrize("target", ["won", "score"])
def test_regression_matches_a_dense_fit(target):
    """The sufficient-statistic fit and its cluster sandwich equal a direct dense computation (tricks and points)."""
    spec = make_spec(4, games=128, seed=3, strategy=ET.STRATEGY, specials="all")
    d = ET.collect(spec)
    st = ET.cell_stats(d)
    cells = np.arange(len(st["k"]))
    got = ET.card_values(d, st, cells, target=target).set_index("card")
    # dense design: features without the Jester, one dummy per (round size, no-trump) cell
    n = 4
    rounds = len(d["k"])
    cell = 2 * (d["k"].astype(int) - 1) + d["no_trump"]
    _, cell_ix = np.unique(cell, return_inverse=True)
    F = d["feats"].reshape(rounds * n, -1).astype(float)
    present = [f for f in range(ET.N_FEAT) if F[:, f].any()]
    fc = [f for f in present if f != ET.JESTER_F]
    D = np.zeros((rounds * n, cell_ix.max() + 1))
    D[np.arange(rounds * n), np.repeat(cell_ix, n)] = 1
    X = np.hstack([F[:, fc], D])
    y = d[target].reshape(-1).astype(float)
    theta = np.linalg.lstsq(X, y, rcond=None)[0]
    e = y - X @ theta
    scores = np.zeros((rounds, X.shape[1]))
    np.add.at(scores, np.repeat(np.arange(rounds), n), X * e[:, None])
    bread = np.linalg.inv(X.T @ X)
    obs, p = X.shape
    cov = bread @ scores.T @ scores @ bread * rounds / (rounds - 1) * (obs - 1) / (obs - p)
    kc = np.array([st["k"][j] for j in range(D.shape[1])], dtype=float)
    w = D.sum(0)
    a = np.zeros((len(present), p))
    for r, f in enumerate(present):
        if f != ET.JESTER_F:
            a[r, fc.index(f)] = 1
        a[r, len(fc) :] += w / (w @ kc)
    value = a @ theta
    se = np.sqrt(np.diag(a @ cov @ a.T))
    names = [ET.FEATURES[f][2] for f in present]
    assert np.allclose(got.loc[names, "value"], value, atol=1e-8)
    assert np.allclose(got.loc[names, "value_se"], se, rtol=1e-6)
    # the level: values of the dealt cards add up to the tricks taken (the score), on average over the hands
    assert np.isclose((F[:, present] @ value).mean(), y.mean())


def test_card_values_are_ordered(quick):
    """Wizard > trump 2, trump ace > off-suit ace > off-suit 2, Jester < 0.2 (disjoint 95% intervals)."""
    out, _ = quick
    v = pd.read_csv(out / "card_values.csv")
    for (deck, n), g in v[v.round_sizes == "all"].groupby(["deck", "players"]):
        lo, hi = g.set_index("card").value_lo, g.set_index("card").value_hi
        assert lo["Wizard"] > hi["trump 2"], (deck, n)
        assert lo["trump 13"] > hi["off-suit 13"], (deck, n)
        assert lo["off-suit 13"] > hi["off-suit 2"], (deck, n)
        assert hi["Jester"] < 0.2, (deck, n)
        if deck == "all specials":
            assert lo["Dragon"] > hi["Fairy"], n  # the Dragon takes tricks, the Fairy almost never
    # in points too (the default player): the trump ace adds more to the score than a trump 2
    pts = v[(v.round_sizes == "all") & (v.deck == "standard")]
    for n, g in pts.groupby("players"):
        g = g.set_index("card")
        assert (g.points_lo <= g.points).all() and (g.points <= g.points_hi).all()
        assert g.points["trump 13"] > g.points["trump 2"], n
