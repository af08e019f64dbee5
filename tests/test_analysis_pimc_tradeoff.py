"""analyses/pimc_tradeoff.py at quick size: one row per setting, intervals around the estimates, a chart."""

from __future__ import annotations

import pandas as pd
from conftest import load_analysis


def test_pimc_tradeoff_quick(tmp_path):
    mod = load_analysis("pimc_tradeoff")
    info = mod.run("quick", seed=3, outdir=tmp_path)
    t = pd.read_csv(tmp_path / "pimc_tradeoff.csv")
    want = [(r.split()[0], k) for r, ks in ((mod.ROLLOUTS[p], ks) for p, ks in mod.SIZES["quick"]["samples"].items())
            for k in ks]  # fmt: skip
    assert list(zip(t.rollout, t.samples, strict=True)) == want
    assert (t.deals == mod.SIZES["quick"]["deals"]).all()
    assert (t.points_per_round_diff_lo <= t.points_per_round_diff).all()
    assert (t.points_per_round_diff <= t.points_per_round_diff_hi).all()
    assert (t.points_per_round_diff_hi > t.points_per_round_diff_lo).all()
    for f in info["files"]:
        assert (tmp_path / f).stat().st_size > 0
    assert "(rollout=4, the default) K=4" in info["headline"]
