"""The player-robustness analysis at quick size: files, columns, paired differences, and the same deals for both players."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import load_analysis

SEED = 7


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    mod = load_analysis("player_robustness")
    out = tmp_path_factory.mktemp("player_robustness")
    info = mod.run("quick", seed=SEED, outdir=out)
    table = pd.read_csv(out / f"{mod.NAME}.csv")
    ladder = pd.read_csv(out / f"{mod.NAME}_ladder.csv")
    return mod, info, out, table, ladder


def test_files_columns_and_headlines(result):
    mod, info, out, table, ladder = result
    for name in info["files"]:
        assert (out / name).stat().st_size > 0
    assert list(table.columns) == mod.COLUMNS
    effects = [c for c in mod.CONFIGS if c != "standard"]
    want = {f"{c} effect on the {w}" for c in effects for w in ("hit rate", "points")}
    want |= {f"{card} value" for card in mod.CARDS} | {"dealer's advantage (dealer minus other positions)"}
    assert want <= set(table.headline)
    assert table.headline.str.startswith("example hand").sum() == 2
    assert len(table) == len(want) + len(mod.CARDS) + 2  # card values in tricks and in points
    assert f"{len(table)} headlines" in info["headline"]
    # each headline names the analysis whose section of results/README.md flags it: the one that publishes it
    by = table.groupby("analysis").headline.apply(set).to_dict()
    assert set(by) == {"bid_probabilities", "expected_tricks", "special_cards", "variant_balance"}
    assert by["expected_tricks"] == {f"{card} value" for card in mod.CARDS}
    assert by["special_cards"] == {f"{c} effect on the {w}" for c in ("Dragon+Fairy", "all seven")
                                   for w in ("hit rate", "points")}  # fmt: skip
    assert all((Path(mod.__file__).parent / f"{a}.py").is_file() for a in by)
    assert info["trust"] == mod.TRUST


def test_differences_intervals_and_agree(result):
    *_, table, _ = result
    num = table[table.unit != "bid"]
    np.testing.assert_allclose(num["diff"], num.pimc - num.learned, rtol=0, atol=1e-9)
    for p in ("learned", "pimc", "diff"):
        lo, hi = (num[f"{p}_lo"], num[f"{p}_hi"]) if p != "diff" else (num.diff_lo, num.diff_hi)
        assert (lo <= num[p] + 1e-9).all() and (num[p] <= hi + 1e-9).all()
    covers = (num.diff_lo <= 0) & (num.diff_hi >= 0)
    assert (num.agree == covers).all()
    bid = table[table.unit == "bid"].iloc[0]
    assert bid.agree == (bid.learned == bid.pimc)


def test_both_players_play_the_same_deals(result):
    mod, *_ = result
    sizes = {"games": 2, "hands": 300}
    data = mod.measure([("hands", "example", "learned"), ("hands", "example", "pimc(samples=4,bid_samples=4)")],
                       sizes, SEED, 1)  # fmt: skip
    a, b = (data[("hands", "example", p)]["counts"] for p in ("learned", "pimc(samples=4,bid_samples=4)"))
    # which hands are in the cell depends on the deal only: the same rounds hold the same number of them
    np.testing.assert_array_equal(a.sum(1), b.sum(1))
    assert a.sum() > 0 and not np.array_equal(a, b)


def test_ladder_only_for_disagreements(result):
    mod, _, _, table, ladder = result
    disagree = set(zip(table.headline[~table.agree], table.unit[~table.agree], strict=True))
    assert set(zip(ladder.headline, ladder.unit, strict=True)) == disagree
    for _, g in ladder.groupby(["headline", "unit"]):
        assert list(g.player) == list(mod.LADDER)
    # the learned and pimc rungs are the table's own values
    for (h, u), g in ladder.groupby(["headline", "unit"]):
        row = table[(table.headline == h) & (table.unit == u)].iloc[0]
        for p in ("learned", "pimc"):
            assert abs(g[g.player == p].value.iloc[0] - row[p]) < 1e-6


def test_every_ladder_headline_can_be_measured(result):
    """The ladder reads every kind of headline (a disagreement at quick size is chance, so all are tried here)."""
    mod, _, _, table, _ = result
    sizes = mod.SIZES["quick"]
    jobs = sorted({j for h in table.headline for j in mod._jobs_for(h, "learned")})
    data = mod.measure(jobs, sizes, SEED, 1)
    for h, u in zip(table.headline, table.unit, strict=True):
        v, lo, hi = mod.ladder_values(data, h, u, "learned")
        row = table[(table.headline == h) & (table.unit == u)].iloc[0]
        assert abs(v - row.learned) < 1e-6, (h, u)
        assert lo <= v <= hi or np.isnan(lo)
