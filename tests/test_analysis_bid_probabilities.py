"""Tests of ``analyses/bid_probabilities.py`` and ``wizsim.exact`` (one-card rounds counted exactly).

* Exact values derived by hand: a Wizard wins unless a Wizard was played
  before it; a Jester wins only when it leads and every other player holds a
  Jester; exactly one position wins each trick; the counts cover every deal.
* The falling-factorial count equals a brute-force visit of every deal through
  the engine's own rule functions (3 players with the full deck; 3-5 players
  on reduced decks, with and without a card to turn up), and, with a random
  dealer naming trump, the pure-Python reference enumeration
  (``reference.enumerate_round_distribution``) on tiny decks.
* The analysis's player (``table``) names trump like the heuristic
  (``_kernels.decider``), so the exact count of a heuristic dealer applies
  to it; :func:`dealer_rule` follows the kernel's rule for every player.
* Simulation (the analysis's player) against exact values (3 and 4 players, fixed seed): every cell
  within 4.5 standard errors (cells expecting fewer than 5 wins or losses:
  not in the Poisson tail beyond 1e-5), the chi-square sum below its
  1-in-10^5 bound, and cells of probability 0 or 1 reproduced exactly.
* The quick run: files, columns, ``lo <= estimate <= hi`` everywhere,
  internal consistency of the best-bid table, and the one-card cells of the
  hand-feature table (built from a different pipeline: trump counts from the
  recorded hands) against the exact values.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
import reference as R
from conftest import load_analysis

from wizsim import cards as C
from wizsim import exact as X

SEED = 31337


def _load():
    return load_analysis("bid_probabilities")


B = _load()


def _ff(x: int, k: int) -> int:
    return math.prod(range(x - k + 1, x + 1)) if k <= x else 0


def _chi2_bound(df: int) -> float:
    # Wilson-Hilferty: the chi-square quantile at z = 4.26 (upper tail about 1e-5)
    z = 4.26
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _poisson_tail(k: int, lam: float) -> float:
    """P(X >= k) for X ~ Poisson(lam)."""
    return 1.0 - sum(math.exp(-lam) * lam**i / math.factorial(i) for i in range(k))


def _z_or_rare(m: int, w: int, p: float) -> float | None:
    """The z-score of ``w`` wins in ``m`` hands against P(win) = ``p``; None for a rare outcome.

    Where fewer than 5 wins (or losses) are expected the normal approximation fails:
    then the count must instead not be in the Poisson tail beyond 1e-5.
    """
    lam = min(m * p, m * (1 - p))
    if lam >= 5:
        return (w - m * p) / math.sqrt(m * p * (1 - p))
    observed = w if m * p <= m * (1 - p) else m - w
    assert _poisson_tail(observed, lam) > 1e-5, f"{observed} rare outcomes where {lam:.3f} are expected"
    return None


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_exact_values_derived_by_hand(n):
    counts = X.one_card_counts(n)
    assert counts.shape == (n, X.N_CLASSES, 2)
    total = 4 * _ff(60, n + 1)
    assert all(int(counts[q, :, 0].sum()) == total for q in range(n))
    # exactly one player takes the trick
    assert sum(Fraction(int(counts[q, :, 1].sum()), total) for q in range(n)) == 1
    for q in range(n):
        wiz = Fraction(int(counts[q, 0, 1]), int(counts[q, 0, 0]))
        # no Wizard among the q players before me (3 other Wizards in the 59 other cards)
        assert wiz == Fraction(_ff(56, q), _ff(59, q))
        jester = Fraction(int(counts[q, 1, 1]), int(counts[q, 1, 0]))
        # I lead and the n - 1 others hold the other 3 Jesters' copies
        assert jester == (Fraction(_ff(3, n - 1), _ff(59, n - 1)) if q == 0 else 0)
        # class shares are the same for every position but the dealer's (who names trump after a Wizard)
        same = slice(None) if q < n - 1 else slice(0, 2)
        assert (counts[q, same, 0] == counts[0, same, 0]).all()
    assert Fraction(int(counts[0, 0, 1]), int(counts[0, 0, 0])) == 1


def test_exact_count_equals_brute_force_full_deck_three_players():
    assert (X.brute_force_one_card(3) == X.one_card_counts(3)).all()


SMALL_DECKS = [
    ["B1", "B5", "B9", "R3", "R13", "G7", "Y2", "W", "W", "J", "J", "Y12"],
    ["B2", "B3", "R2", "R9", "G13", "W", "W", "W", "J", "J", "J"],
    ["B4", "R4", "G4", "W", "J"],  # 5 players: no card left to turn up
]


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("deck", range(len(SMALL_DECKS)))
def test_exact_count_equals_brute_force_small_decks(n, deck):
    codes = [C.card_code(c) for c in SMALL_DECKS[deck]]
    if len(codes) < n:
        pytest.skip("deck too small")
    assert (X.brute_force_one_card(n, codes) == X.one_card_counts(n, codes)).all()


@pytest.mark.parametrize(
    "n, deck",
    [(3, ["B1", "B2", "R1", "R2", "W", "J", "B3", "W"]), (4, ["B1", "R1", "W", "J", "B2", "W"]), (3, ["B1", "W", "J"])],
)
def test_random_dealer_matches_reference_enumeration(n, deck):
    """A random dealer names trump: P(position takes the trick) equals the reference's exact value."""
    exact = R.enumerate_round_distribution(n, 1, 0, {}, deck)
    counts = X.one_card_counts(n, [C.card_code(c) for c in deck], dealer_rule="random")
    for q in range(n):
        ref = sum(v for (pos, _bid, tricks), v in exact.items() if pos == q and tricks == 1)
        assert Fraction(int(counts[q, :, 1].sum()), int(counts[q, :, 0].sum())) == ref


@pytest.mark.parametrize(
    "strategy, rule",
    [("table", "heuristic"), ("heuristic", "heuristic"), ("pimc", "heuristic"), ("random", "random"),
     ("table(trump=random)", "random"), ("random(trump=heuristic)", "heuristic")],
)  # fmt: skip
def test_dealer_rule_follows_the_kernel(strategy, rule):
    assert B.dealer_rule(strategy) == rule


@pytest.mark.parametrize("n", [3, 4])
def test_simulation_matches_exact(n):
    hands = 12 * 16_384
    counts = X.one_card_counts(n, dealer_rule=B.dealer_rule())
    sim = np.zeros((n, X.N_CLASSES, 5), dtype=np.int64)
    bid_one = np.zeros((n, X.N_CLASSES), dtype=np.int64)
    for chunk in range(12):
        sim += B._one_card_task(n, hands, SEED + n, chunk, bid_one)[1]
    assert int(sim[:, :, 0].sum()) == n * hands
    chi2, df = 0.0, 0
    for q in range(n):
        for c in range(X.N_CLASSES):
            p = Fraction(int(counts[q, c, 1]), int(counts[q, c, 0]))
            m, w = int(sim[q, c, 0]), int(sim[q, c, 1])
            assert m > 0
            if p in (0, 1):
                assert w == p * m, f"position {q + 1}, {X.class_names()[c]}: impossible outcome simulated"
                continue
            z = _z_or_rare(m, w, float(p))
            if z is None:
                continue
            assert abs(z) < 4.5, f"position {q + 1}, {X.class_names()[c]}: z = {z:.2f}"
            chi2 += z * z
            df += 1
    assert chi2 < _chi2_bound(df), f"chi2 {chi2:.1f} over {df} cells"


def test_simulation_check_has_power():
    """The same comparison rejects the exact values of a dealer who names a random suit after a Wizard."""
    n = 3
    wrong = X.one_card_counts(n, dealer_rule="random")
    sim = np.zeros((n, X.N_CLASSES, 5), dtype=np.int64)
    bid_one = np.zeros((n, X.N_CLASSES), dtype=np.int64)
    for chunk in range(12):
        sim += B._one_card_task(n, 12 * 16_384, SEED, chunk, bid_one)[1]
    p = wrong[:, :, 1] / wrong[:, :, 0]
    ok = (p > 0) & (p < 1)
    z = (sim[:, :, 1] - sim[:, :, 0] * p)[ok] / np.sqrt(sim[:, :, 0] * p * (1 - p))[ok]
    assert np.abs(z).max() > 4.5 or np.sum(z * z) > _chi2_bound(int(ok.sum()))


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("bid_probabilities")
    result = B.run("quick", seed=SEED, outdir=out)
    return result, out


def _bounds(df: pd.DataFrame) -> None:
    for col in df.columns:
        if f"{col}_lo" in df.columns:
            assert (df[f"{col}_lo"] <= df[col] + 1e-12).all(), col
            assert (df[col] <= df[f"{col}_hi"] + 1e-12).all(), col
    if "p" in df.columns:
        assert ((df.p_lo <= df.p + 1e-12) & (df.p <= df.p_hi + 1e-12)).all()


def test_quick_run_files_and_columns(quick):
    result, out = quick
    assert result["name"] == B.NAME and result["question"] == B.QUESTION and result["seed"] == SEED
    assert result["files"][0].endswith(".csv")
    for name in result["files"]:
        assert (out / name).is_file() and (out / name).stat().st_size > 0, name
    probs = pd.read_csv(out / "bid_probabilities.csv")
    bids = pd.read_csv(out / "bid_probabilities_optimal.csv")
    one = pd.read_csv(out / "one_card_breakeven.csv", keep_default_na=False)
    assert {"players", "cards", "wizards", "trumps", "aces", "hands", "tricks", "p", "p_lo", "p_hi"} <= set(probs)
    assert {"best_bid", "best_exp_score", "second_bid", "second_exp_score", "intervals_overlap"} <= set(bids)
    assert {"players", "position", "card_class", "p_win_exact", "p_win_sim", "z_win", "recommended_bid"} <= set(one)
    for df in (probs, bids, one):
        _bounds(df)
    assert (probs.hands >= B.MIN_HANDS).all() and (bids.hands >= B.MIN_HANDS).all()
    assert sorted(probs.players.unique()) == [3, 4, 5, 6]
    # every cell's probabilities add up to 1
    sums = probs.groupby(["players", "cards", "wizards", "trumps", "aces"]).p.sum()
    assert np.allclose(sums, 1.0)
    assert set(one.groupby("players").position.max()) == {3, 4, 5, 6}


def test_quick_run_best_bid_table_is_consistent(quick):
    _, out = quick
    probs = pd.read_csv(out / "bid_probabilities.csv", keep_default_na=False)
    bids = pd.read_csv(out / "bid_probabilities_optimal.csv", keep_default_na=False)
    keys = ["players", "cards", "wizards", "trumps", "aces"]
    p = probs.set_index(keys)
    for _, row in bids.iterrows():
        d = p.loc[tuple(row[k] for k in keys)]
        t = d.tricks.to_numpy()
        exp = [float(np.sum(d.p.to_numpy() * B.score(b, t))) for b in range(int(row.cards) + 1)]
        assert math.isclose(max(exp), row.best_exp_score, abs_tol=1e-9)
        assert int(np.argmax(exp)) == row.best_bid
        assert row.best_exp_score >= row.second_exp_score
        assert math.isclose(float(np.sum(d.p.to_numpy() * t)), row.mean_tricks, abs_tol=1e-9)
        assert 0 <= row.heuristic_mean_bid <= row.cards  # the name is kept; the values are STRATEGY's
        assert row.strategy == B.STRATEGY


def test_quick_run_one_card_rows_agree_with_exact(quick):
    _, out = quick
    one = pd.read_csv(out / "one_card_breakeven.csv", keep_default_na=False)
    names = X.class_names()
    for n in B.PLAYERS:
        counts = X.one_card_counts(n, dealer_rule=B.dealer_rule())
        d = one[one.players == n]
        for q in range(n):
            e = d[d.position == q + 1].set_index("card_class")
            for c in range(X.N_CLASSES):
                p = Fraction(int(counts[q, c, 1]), int(counts[q, c, 0]))
                assert e.loc[names[c], "p_win_exact_fraction"] == f"{p.numerator}/{p.denominator}"
                assert e.loc[names[c], "recommended_bid"] == int(p > Fraction(3, 7))
            assert math.isclose(e.loc["any card", "share_exact"], 1.0)
        for _, r in d.iterrows():
            z = _z_or_rare(int(r.hands_sim), round(r.p_win_sim * r.hands_sim), r.p_win_exact)
            if z is not None:
                assert abs(z) < 4.5, (n, r.position, r.card_class, z)
                assert math.isclose(r.z_win, z, abs_tol=1e-6)  # the CSV's z-score is this one


def test_quick_run_feature_cells_agree_with_exact(quick):
    """One-card rounds in the hand-feature table (trumps counted from the recorded hands) vs exact values."""
    _, out = quick
    probs = pd.read_csv(out / "bid_probabilities.csv", keep_default_na=False)
    classes = {("0", "1"): range(2, 15), ("0", "0"): range(15, 28), ("0", "none"): range(28, 41)}
    checked = 0
    for n in B.PLAYERS:
        counts = X.one_card_counts(n, dealer_rule=B.dealer_rule()).sum(0)  # positions pooled: all equally likely
        for (wz, tr), cls in classes.items():
            row = probs[(probs.players == n) & (probs.cards == 1) & (probs.wizards == wz) & (probs.trumps == tr)
                        & (probs.aces == "any") & (probs.tricks == 1)]  # fmt: skip
            if row.empty:
                continue
            r = row.iloc[0]
            p = sum(int(counts[c, 1]) for c in cls) / sum(int(counts[c, 0]) for c in cls)
            se = math.sqrt(p * (1 - p) / r.hands * r.design_effect)
            assert abs(r.p - p) < 4.5 * se, (n, wz, tr, r.p, p)
            checked += 1
    assert checked >= 10
