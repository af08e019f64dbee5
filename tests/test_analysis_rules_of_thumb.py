"""analyses/rules_of_thumb.py at a tiny size: every bidder in every format, intervals, cells, a chart."""

from __future__ import annotations

import pandas as pd
from conftest import load_analysis

from wizsim.players.rules_of_thumb import BUILT_IN, PUBLISHED


def test_rules_of_thumb_tiny(tmp_path, monkeypatch):
    mod = load_analysis("rules_of_thumb")
    monkeypatch.setitem(mod.SIZES, "quick", {"deals": 300, "games": 3})
    info = mod.run("quick", seed=3, outdir=tmp_path)
    t = pd.read_csv(tmp_path / "rules_of_thumb.csv")
    n_bidders = len(PUBLISHED) + len(BUILT_IN) + 1
    assert len(PUBLISHED) >= 5
    assert list(t.format.unique()) == ["4x10", "3-player games", "4-player games", "5-player games", "6-player games"]
    assert (t.groupby("format").bidder.count() == n_bidders).all()
    for metric in ("points_per_round", "loss", "hit_rate"):
        assert (t[f"{metric}_lo"] <= t[metric]).all() and (t[metric] <= t[f"{metric}_hi"]).all()
    # the best bidder loses nothing against itself; everyone else is measured on the same deals
    best = t[t.bidder == t.best_bidder]
    assert (best.loss == 0).all() and len(best) == 5
    assert (t[t.format == "4x10"].rounds == 300).all()
    # one_card_thresholds bids like the heuristic outside one-card rounds: identical in 4 x 10
    h = t[(t.format == "4x10")].set_index("bidder")
    assert h.loc["one_card_thresholds", "points_per_round"] == h.loc["heuristic (built-in bid)", "points_per_round"]
    cells = pd.read_csv(tmp_path / "rules_of_thumb_cells.csv")
    assert set(cells.by) == {"position", "hand_type", "cards"}
    assert set(cells[cells.by == "cards"].value.astype(int)) == set(range(1, 16))
    four = cells[(cells.by == "position")].groupby("bidder").rounds.sum()
    assert (four == 300).all()
    for f in info["files"]:
        assert (tmp_path / f).stat().st_size > 0
    assert "points per round lost against the best bidder" in info["headline"]


def test_clustered_standard_error_by_hand():
    """The ratio estimator: mean = sum / count; SE from each cluster's residual sum (G / (G - 1) correction)."""
    import numpy as np

    mod = load_analysis("rules_of_thumb")
    diff = np.array([1.0, 3.0, -2.0, 4.0, 0.0, 2.0])
    cluster = np.array([0, 0, 1, 2, 2, 2])
    mean, se = mod._paired(diff, cluster)
    assert mean == 8.0 / 6
    resid = np.array([4.0 - 2 * mean, -2.0 - mean, 6.0 - 3 * mean])
    assert np.isclose(se, np.sqrt(3 / 2 * (resid**2).sum()) / 6)
    # one round per cluster: the usual standard error of the mean
    x = np.array([1.0, 2.0, 4.0, 7.0])
    m, s = mod._paired(x, np.arange(4))
    assert m == x.mean() and np.isclose(s, x.std(ddof=1) / 2)
