"""analyses/play_habits.py at a tiny size: every habit in every format, intervals, situations, a chart."""

from __future__ import annotations

import pandas as pd
from conftest import load_analysis

from wizsim.players.play_habits import HABITS


def test_play_habits_tiny(tmp_path, monkeypatch):
    mod = load_analysis("play_habits")
    monkeypatch.setitem(mod.SIZES, "quick", {"deals": 200, "games": 2})
    info = mod.run("quick", seed=3, outdir=tmp_path)
    t = pd.read_csv(tmp_path / "play_habits.csv")
    assert len(HABITS) >= 6
    assert list(t.format.unique()) == ["4x10", "3-player games", "4-player games", "5-player games", "6-player games"]
    assert (t.groupby("format").habit.count() == len(HABITS)).all()
    for metric in ("gain", "hit_rate_change"):
        assert (t[f"{metric}_lo"] <= t[metric]).all() and (t[metric] <= t[f"{metric}_hi"]).all()
    assert (t[t.format == "4x10"].rounds == 200).all()
    # every habit applies somewhere, and none everywhere (it changes learned's card only where it applies)
    hands = t[t.format == "4x10"].set_index("habit")
    assert (hands.changed_share > 0).all() and (hands.changed_share < 1).all()
    cells = pd.read_csv(tmp_path / "play_habits_situations.csv")
    assert set(cells.by) == {"need", "position", "trump length"}
    per = cells.groupby(["habit", "by"]).rounds_changed.sum().unstack()
    changed = (hands.changed_share * 200).round().astype(int)
    for by in ("need", "position", "trump length"):
        assert (per[by].loc[changed.index] == changed).all()
    for f in info["files"]:
        assert (tmp_path / f).stat().st_size > 0
    assert "Points per round gained over learned" in info["headline"]
