"""Duplicate tournaments (``wizsim.tools.tournament``, ``wizsim tournament``, ``analyses/players_compared.py``).

* seatings are balanced (every strategy in every seat equally often);
* every seating is dealt the very same cards (compared on the recorded hands);
* the numbers do not depend on ``jobs``;
* a strategy against an identical copy differs by exactly 0 (an identical player makes the
  same choices from the same decision stream in every seating, so every seating plays the same
  round; this holds for ``heuristic`` too, although it draws from the decision stream);
* heuristic beats random in 4 x 10 by a wide margin;
* every number of small tournaments recomputed independently from ``wizsim.run.history`` records;
* the command-line contract (``--json`` keys, one-line errors with exit status 2);
* the analysis at quick size.
"""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from collections import defaultdict

import numpy as np
import pandas as pd
import pytest
from conftest import load_analysis

from wizsim.cli import main
from wizsim.errors import WizsimError
from wizsim.run.history import history, record_chunk_arrays
from wizsim.run.simulate import make_spec
from wizsim.run.stats import Z95
from wizsim.tools.tournament import MAX_FULL_SEATINGS, N_Q, seatings, tournament

WIZSIM = [sys.executable, "-m", "wizsim.cli"]
METRICS_HANDS = ["points_per_round", "hit_rate", "mean_abs_diff", "win_rate"]
METRICS_GAMES = ["points_per_round", "points_per_game", "hit_rate", "mean_abs_diff", "win_rate"]


# --------------------------------------------------------------------------- seatings


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_seatings_are_balanced(n):
    for m in range(1, n + 1):
        seats = seatings(m, n)
        assert len(set(seats)) == len(seats)
        counts = np.zeros((m, n), dtype=int)
        for s in seats:
            assert len(s) == n
            q, r = divmod(n, m)
            per = np.bincount(s, minlength=m)
            assert sorted(per) == sorted([q + 1] * r + [q] * (m - r))  # as even as possible
            counts[list(s), range(n)] += 1
        assert (counts == counts[0, 0]).all(), (m, n)
        assert len(seats) <= max(MAX_FULL_SEATINGS, 2 * m * n)
    with pytest.raises(WizsimError):
        seatings(n + 1, n)


def test_two_strategies_at_four_seats_are_the_six_arrangements():
    assert seatings(2, 4) == sorted(set(itertools.permutations([0, 0, 1, 1])))
    assert len(seatings(3, 4)) == 36  # 3 choices of the doubled strategy x 12 arrangements
    assert len(seatings(4, 4)) == 24


# --------------------------------------------------------------------------- same deals


@pytest.mark.parametrize(
    "selection",
    [
        {"cards": 10, "hands": 300},
        {"cards": 4, "hands": 200, "specials": "all"},
        {"games": 4},
    ],
    ids=["4x10", "4x4-specials", "games"],
)
def test_every_seating_gets_the_same_deals(selection):
    names = ["heuristic", "random", "heuristic(bid_shift=0.5)"]
    recorded = []
    for seating in seatings(3, 4)[::5]:
        spec = make_spec(4, seed=11, strategy=[names[s] for s in seating], **selection)
        _, rec = record_chunk_arrays(spec, 0)
        recorded.append(rec)
    for rec in recorded[1:]:
        np.testing.assert_array_equal(rec.hands, recorded[0].hands)
        for name in ("dealer", "cards", "indicator"):
            np.testing.assert_array_equal(getattr(rec, name), getattr(recorded[0], name))
    # and the strategies did play differently
    assert any((a.info != recorded[0].info).any() for a in recorded[1:])


# --------------------------------------------------------------------------- jobs, self-play, strength


def _assert_same(r1, r2):
    pd.testing.assert_frame_equal(r1.table(), r2.table())
    pd.testing.assert_frame_equal(r1.pairwise(), r2.pairwise())
    assert list(r1.sums) == list(r2.sums)
    assert (r1.gram == r2.gram).all()


def test_same_results_for_any_jobs():
    # two chunks of deals (16,384 per chunk), and two chunks of games (256 per chunk)
    kw = {"players": 4, "strategies": "heuristic,random", "cards": 2, "deals": 20_000, "seed": 5}
    _assert_same(tournament(**kw, jobs=1), tournament(**kw, jobs=2))
    kw = {"players": 4, "strategies": "heuristic,random,heuristic(ruff=0)", "games": 300, "schedule": "1,2"}
    _assert_same(tournament(**kw, seed=6, jobs=1), tournament(**kw, seed=6, jobs=2))


@pytest.mark.parametrize("pair", ["random,random", "heuristic,heuristic", "heuristic,heuristic(pass=random)"])
def test_identical_players_differ_by_exactly_zero(pair):
    # heuristic(pass=random) only differs in the Juggler pass: without special cards it plays as heuristic
    res = tournament(4, pair, cards=6, deals=500, seed=3)
    p = res.pairwise().iloc[0]
    for metric in METRICS_HANDS:
        assert p[f"{metric}_diff"] == 0.0
        assert p[f"{metric}_diff_lo"] == 0.0 and p[f"{metric}_diff_hi"] == 0.0
    t = res.table()
    assert t.win_rate.tolist() == [0.25, 0.25]
    assert res.strategies[1].endswith("#2") == (pair.split(",")[0] == pair.split(",")[1])


def test_a_real_difference_between_near_copies_is_found():
    # the Juggler pass does matter when the Juggler is in the deck; the interval is honest either way
    res = tournament(4, "heuristic,heuristic(pass=random)", cards=8, deals=3000, seed=4, specials="juggler")
    p = res.pairwise().iloc[0]
    assert p.points_per_round_diff_lo <= p.points_per_round_diff <= p.points_per_round_diff_hi
    assert p.points_per_round_diff_hi - p.points_per_round_diff_lo > 0


def test_heuristic_beats_random_by_far_in_4x10():
    res = tournament(4, "heuristic,random", cards=10, deals=2000, seed=20261129)
    p = res.pairwise().iloc[0]
    assert p.strategy_a == "heuristic" and p.strategy_b == "random"
    assert p.points_per_round_diff_lo > 30  # about 49 points per round
    assert p.hit_rate_diff_lo > 0.3
    assert p.win_rate_diff_lo > 0.25
    t = res.table().set_index("strategy")
    # with two seats each, the four seats' round-win shares add up to 1
    assert math.isclose(2 * t.win_rate.sum(), 1.0)


# --------------------------------------------------------------------------- independent recomputation


def _expected(per_deal: dict[str, np.ndarray], bounds: dict[str, tuple[float, float]]) -> dict[str, list[float]]:
    """Mean ± 1.96 SE of per-deal values; for rates clipped to their bounds, as documented in
    ``TournamentResult._interval`` (including the rule for a zero SE at a bound)."""
    out = {}
    for metric, x in per_deal.items():
        n = len(x)
        mean = x.mean()
        sd = x.std(ddof=1)
        lo, hi = mean - Z95 * sd / math.sqrt(n), mean + Z95 * sd / math.sqrt(n)
        if metric in bounds:
            b0, b1 = bounds[metric]
            if x.max() == x.min() and min(abs(mean - b0), abs(mean - b1)) < 1e-12:
                u = Z95**2 / (n + Z95**2)
                lo, hi = mean - u * (mean - b0), mean + u * (b1 - mean)
            lo, hi = max(lo, b0), min(hi, b1)
        out[metric] = [mean, lo, hi]
    return out


def _per_deal_from_history(players, names, seats, games_mode, seed, **selection):
    """Per deal, per strategy, from history records: sums and seat counts over every seating."""
    m = len(names)
    acc: dict[tuple[int, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for seating in seats:
        recs = history(players=players, seed=seed, **selection, strategy=[names[s] for s in seating])
        by_deal = defaultdict(list)
        for r in recs:
            by_deal[r["game"] if games_mode else r["round"]].append(r)
        for deal, rounds in by_deal.items():
            totals = np.zeros(players)
            for r in rounds:
                for seat in range(players):
                    a = acc[(deal, seating[seat])]
                    a["points"] += r["scores"][seat]
                    a["hits"] += r["final_bids"][seat] == r["tricks_won"][seat]
                    a["miss"] += abs(r["final_bids"][seat] - r["tricks_won"][seat])
                    a["rounds"] += 1
                    totals[seat] += r["scores"][seat]
            top = totals.max()
            winners = np.flatnonzero(totals == top)
            for seat in range(players):
                a = acc[(deal, seating[seat])]
                a["seats"] += 1
                a["wins"] += (1.0 / len(winners)) if seat in winners else 0.0
    deals = sorted({d for d, _ in acc})
    per = {}
    for s in range(m):
        rows = [acc[(d, s)] for d in deals]
        per[s] = {
            "points_per_round": np.array([a["points"] / a["rounds"] for a in rows]),
            "points_per_game": np.array([a["points"] / a["seats"] for a in rows]),
            "hit_rate": np.array([a["hits"] / a["rounds"] for a in rows]),
            "mean_abs_diff": np.array([a["miss"] / a["rounds"] for a in rows]),
            "win_rate": np.array([a["wins"] / a["seats"] for a in rows]),
        }
    return per


@pytest.mark.parametrize("mode", ["hands", "games"])
def test_numbers_recomputed_from_history_records(mode):
    players, names, seed = 4, ["heuristic", "random", "heuristic(bid_shift=0.4)"], 17
    if mode == "hands":
        selection = {"cards": 3, "hands": 60}
        res = tournament(players, names, cards=3, deals=60, seed=seed)
        metrics = METRICS_HANDS
    else:
        selection = {"games": 12, "schedule": "1,3,2"}
        res = tournament(players, names, games=12, schedule="1,3,2", seed=seed)
        metrics = METRICS_GAMES
    seats = seatings(len(names), players)
    assert res.seatings == seats
    per = _per_deal_from_history(players, names, seats, mode == "games", seed, **selection)
    upper = {"hit_rate": 1.0, "win_rate": len(names) / players}  # win shares per seat held: at most m / n
    table = res.table().set_index("strategy")
    for s, name in enumerate(res.strategies):
        want = _expected({k: per[s][k] for k in metrics}, {k: (0.0, u) for k, u in upper.items()})
        for metric in metrics:
            got = table.loc[name, [metric, f"{metric}_lo", f"{metric}_hi"]].to_numpy(dtype=float)
            np.testing.assert_allclose(got, want[metric], rtol=1e-9, atol=1e-12, err_msg=f"{name} {metric}")
    pairs = res.pairwise()
    assert len(pairs) == 3
    for row in pairs.itertuples():
        a, b = res.strategies.index(row.strategy_a), res.strategies.index(row.strategy_b)
        diffs = {k: per[a][k] - per[b][k] for k in metrics}
        want = _expected(diffs, {k: (-u, u) for k, u in upper.items()})
        for metric in metrics:
            got = [getattr(row, f"{metric}_diff{x}") for x in ("", "_lo", "_hi")]
            np.testing.assert_allclose(got, want[metric], rtol=1e-9, atol=1e-12, err_msg=f"{row} {metric}")


def test_sums_add_up_in_elimination_games():
    # variant elimination: rounds played differ by seat; every table still has one winner
    res = tournament(5, "heuristic,random", games=20, seed=2, rules=["variant=elimination"])
    k = len(res.seatings)
    win60 = sum(int(res.sums[s * N_Q + 3]) for s in range(2))
    assert win60 == 60 * 20 * k
    t = res.table()
    for metric in METRICS_GAMES:
        assert (t[f"{metric}_lo"] <= t[metric]).all() and (t[metric] <= t[f"{metric}_hi"]).all()


# --------------------------------------------------------------------------- command line


def _keys_ok(rec: dict, games: bool) -> None:
    for metric in METRICS_GAMES if games else METRICS_HANDS:
        lo, hi = rec[f"{metric}_ci"]
        assert lo <= rec[metric] <= hi
    assert {"strategy", "points_per_round", "points_per_round_ci", "hit_rate", "deals", "vs"} <= set(rec)


def test_cli_json():
    out = subprocess.run(
        [*WIZSIM, "tournament", "--players", "4", "--strategies", "heuristic(pass=random),random", "--cards", "5",
         "--deals", "200", "--seed", "1", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["run"]["deck"] == "standard" and doc["run"]["players"] == 4
    recs = doc["strategies"]
    assert isinstance(recs, list) and [r["strategy"] for r in recs] == ["heuristic(pass=random)", "random"]
    for rec in recs:
        _keys_ok(rec, games=False)
        assert rec["deals"] == 200 and rec["seatings"] == 6
    a, b = recs
    vs_a, vs_b = a["vs"]["random"], b["vs"]["heuristic(pass=random)"]
    assert math.isclose(vs_a["diff"], -vs_b["diff"]) and math.isclose(vs_a["ci"][0], -vs_b["ci"][1])
    assert math.isclose(vs_a["diff"], a["points_per_round"] - b["points_per_round"])
    assert vs_a["ci"][0] <= vs_a["diff"] <= vs_a["ci"][1]
    assert "win_rate_diff_ci" in vs_a


def test_cli_json_games_and_text(capsys):
    assert main(["tournament", "--players", "3", "--strategies", "heuristic,random", "--games", "5", "--json"]) == 0
    recs = json.loads(capsys.readouterr().out)["strategies"]
    for rec in recs:
        _keys_ok(rec, games=True)
        assert rec["deals"] == 5
    assert (
        main(["tournament", "--players", "3", "--strategies", "heuristic,random", "--cards", "2", "--deals", "50"]) == 0
    )
    text = capsys.readouterr().out
    assert "heuristic - random" in text and "points/round" in text


def test_json_has_no_nan_with_one_deal():
    res = tournament(4, "heuristic,random", cards=3, deals=1, seed=0)
    recs = json.loads(res.to_json())["strategies"]  # strict JSON: null, not NaN
    assert recs[0]["points_per_round_ci"] == [None, None]


BAD = {
    "unknown strategy": (["--strategies", "heuristic,nosuchbot", "--cards", "3", "--deals", "10"], "nosuchbot"),
    "more strategies than players": (
        ["--strategies", "random,heuristic,random,heuristic,random", "--cards", "3", "--deals", "10"],
        "5 strategies",
    ),  # fmt: skip
    "one strategy": (["--strategies", "heuristic", "--cards", "3", "--deals", "10"], "two strategies"),
    "cards and games": (["--strategies", "heuristic,random", "--cards", "3", "--games", "10"], "not both"),
    "deals and games": (["--strategies", "heuristic,random", "--deals", "3", "--games", "10"], "not both"),
    "missing deals": (["--strategies", "heuristic,random", "--cards", "3"], "--deals"),
    "zero deals": (["--strategies", "heuristic,random", "--cards", "3", "--deals", "0"], "deals"),
    "cards beyond deck": (["--strategies", "heuristic,random", "--cards", "16", "--deals", "3"], "16 cards"),
    "bad rule": (["--strategies", "heuristic,random", "--cards", "3", "--deals", "3", "--rule", "nosuch=1"], "nosuch"),
    "jobs 0": (["--strategies", "heuristic,random", "--cards", "3", "--deals", "3", "--jobs", "0"], "jobs"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_cli_bad_input(name, capsys):
    args, fragment = BAD[name]
    assert main(["tournament", "--players", "4", *args]) == 2
    cap = capsys.readouterr()
    lines = cap.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("wizsim: error:") and fragment in lines[0], cap.err
    assert cap.out == ""


@pytest.mark.parametrize("players", ["2", "7"])
def test_cli_bad_players_subprocess(players):
    out = subprocess.run(
        [*WIZSIM, "tournament", "--players", players, "--strategies", "heuristic,random", "--cards", "1", "--deals", "5"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("wizsim: error:") and f"{players} players" in lines[0]


# --------------------------------------------------------------------------- the analysis


def _load_analysis():
    return load_analysis("players_compared")


def test_analysis_quick(tmp_path):
    """players_compared (the main job's pairs) and pimc_compared (the pairs with pimc, wizsim report --full)
    together: every pair of the built-in players once."""
    mod = _load_analysis()
    info = mod.run("quick", seed=123, outdir=tmp_path)
    info_pimc = load_analysis("pimc_compared").run("quick", seed=123, outdir=tmp_path)
    assert info["name"] == "players_compared" and info["files"][0].endswith(".csv")
    assert info_pimc["name"] == "pimc_compared" and info_pimc["files"][0] == "pimc_compared.csv"
    for f in info["files"] + info_pimc["files"]:
        assert (tmp_path / f).stat().st_size > 0
    main_pairs = pd.read_csv(tmp_path / "players_compared.csv")
    assert not (main_pairs.strategy_a.isin(mod.SLOW) | main_pairs.strategy_b.isin(mod.SLOW)).any()
    assert "pimc" not in info["headline"] and "pimc" not in info["sample"]
    pairs = pd.concat([main_pairs, pd.read_csv(tmp_path / "pimc_compared.csv")], ignore_index=True)
    strats = pd.concat([pd.read_csv(tmp_path / f"{name}_strategies.csv") for name in ("players_compared", "pimc_compared")],
                       ignore_index=True)  # fmt: skip
    n_pairs = math.comb(len(mod.STRATEGIES), 2)
    assert len(pairs.drop_duplicates(["strategy_a", "strategy_b"])) == n_pairs
    # the sample of every pair and format: pairs with pimc play fewer deals (and no full games)
    expected = {
        (a, b, fmt): n
        for b, a in itertools.combinations(mod.STRATEGIES, 2)
        for fmt, n in mod.sample(a, b, "quick").items()
        if n > 0
    }
    assert {(r.strategy_a, r.strategy_b, r.format): r.deals for r in pairs.itertuples()} == expected
    assert (
        len(strats) == 2 * len(pairs) and (strats.groupby(["format", "strategy", "opponent"]).deals.first() > 0).all()
    )
    slow = pairs.strategy_a.isin(mod.SLOW) | pairs.strategy_b.isin(mod.SLOW)
    q = mod.SIZES["quick"]
    for fmt, fast_n, slow_n in (("4x10", q["deals"], q["slow_deals"]), ("games", q["games"], q["slow_games"])):
        f = pairs.format == fmt
        assert (pairs[f & slow].deals == slow_n).all() and (pairs[f & ~slow].deals == fast_n).all()
        n_slow = sum(1 for a, b in itertools.combinations(mod.STRATEGIES, 2) if a in mod.SLOW or b in mod.SLOW)
        assert (f & slow).sum() == (n_slow if slow_n else 0) and (f & ~slow).sum() == n_pairs - n_slow
    with_pimc = (pairs.strategy_a == "pimc") | (pairs.strategy_b == "pimc")
    assert (pairs[with_pimc].pimc_samples == mod.PIMC_SAMPLES).all() and pairs[~with_pimc].pimc_samples.isna().all()
    assert f"{mod.SIZES['quick']['slow_deals']:,} deals per pair; pimc at" in info_pimc["headline"]
    for metric in mod.DIFF_METRICS:
        cols = [f"{metric}_diff", f"{metric}_diff_lo", f"{metric}_diff_hi"]
        assert set(cols) <= set(pairs.columns)
        x = pairs[cols].dropna()
        assert (x.iloc[:, 1] <= x.iloc[:, 0]).all() and (x.iloc[:, 0] <= x.iloc[:, 2]).all()
    for metric in METRICS_GAMES:
        x = strats[[metric, f"{metric}_lo", f"{metric}_hi"]].dropna()
        assert (x.iloc[:, 1] <= x.iloc[:, 0]).all() and (x.iloc[:, 0] <= x.iloc[:, 2]).all()
    assert pairs.points_per_game_diff.isna().tolist() == [f == "4x10" for f in pairs.format]
    # substantive: heuristic beats random by tens of points per round in both formats
    hr = pairs[(pairs.strategy_a == "heuristic") & (pairs.strategy_b == "random")]
    assert len(hr) == 2 and (hr.points_per_round_diff_lo > 30).all()
    # table bids better than heuristic on the same cards (+2 points per round), pimc beats random by far
    th = pairs[(pairs.strategy_a == "table") & (pairs.strategy_b == "heuristic")]
    assert len(th) == 2 and (th.points_per_round_diff_lo > 0).all()
    pr = pairs[(pairs.strategy_a == "pimc") & (pairs.strategy_b == "random")]
    assert len(pr) == 2 and (pr[pr.format == "4x10"].points_per_round_diff_lo > 30).all()
    # learned beats table on the same deals (about +7 points per round in 4x10)
    lt = pairs[(pairs.strategy_a == "learned") & (pairs.strategy_b == "table") & (pairs.format == "4x10")]
    assert len(lt) == 1 and (lt.points_per_round_diff_lo > 2).all()
    # the pair difference is the difference of the two strategies' own numbers in the match
    for row in hr.itertuples():
        match = strats[(strats.format == row.format) & (strats.strategy + " vs " + strats.opponent).isin(
            ["heuristic vs random", "random vs heuristic"])]  # fmt: skip
        s = match.set_index("strategy")
        assert math.isclose(
            row.points_per_round_diff, s.loc["heuristic", "points_per_round"] - s.loc["random", "points_per_round"]
        )
    # reproducible byte for byte
    again = tmp_path / "again"
    mod.run("quick", seed=123, outdir=again)
    for f in info["files"]:
        if f.endswith(".csv"):
            assert (again / f).read_bytes() == (tmp_path / f).read_bytes()


def test_interval_of_a_rate_that_never_varies():
    # random never wins a full game against two heuristic players here: the SE is 0, and the interval
    # is that of the documented rule (Wilson's upper bound for 0 of n deals), not a zero-width one
    res = tournament(4, "heuristic,random", games=30, seed=1)
    t = res.table().set_index("strategy")
    u = Z95**2 / (30 + Z95**2)
    assert t.loc["random", "win_rate"] == 0.0 and t.loc["heuristic", "win_rate"] == 0.5  # precondition (fixed seed)
    assert t.loc["random", "win_rate_lo"] == 0.0
    assert math.isclose(t.loc["random", "win_rate_hi"], 0.5 * u)
    assert math.isclose(t.loc["heuristic", "win_rate_lo"], 0.5 - 0.5 * u) and t.loc["heuristic", "win_rate_hi"] == 0.5
    p = res.pairwise().iloc[0]
    assert p.win_rate_diff == 0.5 and math.isclose(p.win_rate_diff_lo, 0.5 - u) and p.win_rate_diff_hi == 0.5
