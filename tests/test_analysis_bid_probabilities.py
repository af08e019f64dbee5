"""Tests of ``analyses/bid_probabilities.py`` and ``wizsim.tools.exact`` (one-card rounds counted exactly).

* Exact values derived by hand: a Wizard wins unless a Wizard was played
  before it (one fewer to fear when a Wizard is turned up); a Jester wins
  only when it leads and every other player holds a Jester; exactly one
  position wins each trick; the counts cover every deal. By what the bidder
  sees: with a suit card of another suit turned up, an off-suit 10 on lead at
  3 players wins with P = 1482/3306 > 3/7 (bid 1; the indicators pooled give
  1022/2439 < 3/7, bid 0), and closed forms for every off-suit card on lead
  and every trump with a suit card turned up.
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
* The quick run (written as ``wizsim report`` writes it: floats at 8
  significant digits, checked; the headline is the same as at full
  precision): files, columns, ``lo <= estimate <= hi`` everywhere, internal
  consistency of the best-bid table, the one-card table against the exact
  counts (by indicator and pooled), the headline's rule reproducing every
  cell's recommended bid, and the one-card cells of the hand-feature table
  (built from a different pipeline: trump counts from the recorded hands)
  against the exact values.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
import reference as R
from conftest import load_analysis

from wizsim.game import cards as C
from wizsim.run.io import RESULTS_FLOAT_FORMAT, csv_float_format
from wizsim.tools import exact as X

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


def _p(counts: np.ndarray, q: int, ind: int | slice, name: str) -> Fraction:
    """P(win) of position ``q + 1`` holding class ``name`` with indicator class ``ind`` (a slice pools them)."""
    c = X.class_names().index(name)
    cell = counts[q, ind, c].reshape(-1, 2).sum(0)
    return Fraction(int(cell[1]), int(cell[0]))


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_exact_values_derived_by_hand(n):
    counts = X.one_card_counts(n)
    assert counts.shape == (n, X.N_INDICATORS, X.N_CLASSES, 2)
    total = 4 * _ff(60, n + 1)
    assert all(int(counts[q, ..., 0].sum()) == total for q in range(n))
    assert not counts[:, X.IND_NONE].any()  # 60 cards, at most 6 dealt: a card is always turned up
    # indicator shares: 52, 4 and 4 of the 60 cards
    shares = counts[0, :, :, 0].sum(1)
    assert [Fraction(int(x), total) for x in shares[:3]] == [Fraction(52, 60), Fraction(4, 60), Fraction(4, 60)]
    # exactly one player takes the trick
    assert sum(Fraction(int(counts[q, ..., 1].sum()), total) for q in range(n)) == 1
    for q in range(n):
        wiz = _p(counts, q, slice(None), "Wizard")
        # no Wizard among the q players before me (3 other Wizards in the 59 other cards)
        assert wiz == Fraction(_ff(56, q), _ff(59, q))
        # ... by indicator: 3 other Wizards in 58 cards, or 2 when a Wizard is turned up
        for ind in (X.IND_SUIT, X.IND_JESTER):
            assert _p(counts, q, ind, "Wizard") == Fraction(_ff(55, q), _ff(58, q))
        assert _p(counts, q, X.IND_WIZARD, "Wizard") == Fraction(_ff(56, q), _ff(58, q))
        jester = _p(counts, q, slice(None), "Jester")
        # I lead and the n - 1 others hold the other 3 Jesters' copies
        assert jester == (Fraction(_ff(3, n - 1), _ff(59, n - 1)) if q == 0 else 0)
        # class shares are the same for every position but the dealer's (who names trump after a Wizard)
        pooled = counts.sum(1)
        same = slice(None) if q < n - 1 else slice(0, 2)
        assert (pooled[q, same, 0] == pooled[0, same, 0]).all()
        # with a suit card turned up nobody chooses: every position sees the same classes
        assert (counts[q, X.IND_SUIT, :, 0] == counts[0, X.IND_SUIT, :, 0]).all()
    assert _p(counts, 0, slice(None), "Wizard") == 1


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_exact_values_by_indicator_closed_forms(n):
    """With a suit card turned up: closed forms over the 58 cards neither mine nor turned up."""
    counts = X.one_card_counts(n)
    for r in range(1, 14):
        # an off-suit r on lead: nobody may hold a Wizard (4), a trump (12 left) or a higher card of my suit
        good = 58 - 4 - 12 - (13 - r)
        assert _p(counts, 0, X.IND_SUIT, f"off-suit {r}") == Fraction(_ff(good, n - 1), _ff(58, n - 1))
        # a trump r anywhere: nobody may hold a Wizard or a higher trump; the turned-up card (another of the
        # 12 other trumps, each equally likely) may be one of the higher ones
        p = sum(
            Fraction(1, 12) * Fraction(_ff(58 - 4 - (13 - r) + (s > r), n - 1), _ff(58, n - 1))
            for s in range(1, 14)
            if s != r
        )
        for q in range(n):
            assert _p(counts, q, X.IND_SUIT, f"trump {r}") == p


def test_off_suit_ten_on_lead_at_three_players():
    """Issue 11: a suit card of another suit turned up makes an off-suit 10 on lead worth a bid of 1."""
    counts = X.one_card_counts(3)
    seen = _p(counts, 0, X.IND_SUIT, "off-suit 10")
    assert seen == Fraction(1482, 3306) and seen > B.BREAKEVEN
    assert _p(counts, 0, slice(None), "off-suit 10") == Fraction(1022, 2439) < B.BREAKEVEN  # pooled: misleading


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
        assert Fraction(int(counts[q, ..., 1].sum()), int(counts[q, ..., 0].sum())) == ref


@pytest.mark.parametrize(
    "strategy, rule",
    [("table", "heuristic"), ("heuristic", "heuristic"), ("pimc", "heuristic"), ("random", "random"),
     ("table(trump=random)", "random"), ("random(trump=heuristic)", "heuristic")],
)  # fmt: skip
def test_dealer_rule_follows_the_kernel(strategy, rule):
    assert B.dealer_rule(strategy) == rule


def _simulate_one_card(n: int, seed: int) -> np.ndarray:
    sim = np.zeros((n, X.N_INDICATORS, X.N_CLASSES, 5), dtype=np.int64)
    bid_one = np.zeros((n, X.N_INDICATORS, X.N_CLASSES), dtype=np.int64)
    for chunk in range(12):
        sim += B._one_card_task(n, 12 * 16_384, seed, chunk, bid_one)[1]
    return sim


@pytest.mark.parametrize("n", [3, 4])
def test_simulation_matches_exact(n):
    hands = 12 * 16_384
    counts = X.one_card_counts(n, dealer_rule=B.dealer_rule())
    sim = _simulate_one_card(n, SEED + n)
    assert int(sim[..., 0].sum()) == n * hands
    assert not sim[..., 0][counts[..., 0] == 0].any()  # nothing simulated where nothing can happen
    chi2, df = 0.0, 0
    for q, i, c in zip(*np.nonzero(counts[..., 0]), strict=True):
        where = f"position {q + 1}, indicator {X.INDICATORS[i]}, {X.class_names()[c]}"
        p = Fraction(int(counts[q, i, c, 1]), int(counts[q, i, c, 0]))
        m, w = int(sim[q, i, c, 0]), int(sim[q, i, c, 1])
        assert m > 0, where
        if p in (0, 1):
            assert w == p * m, f"{where}: impossible outcome simulated"
            continue
        z = _z_or_rare(m, w, float(p))
        if z is None:
            continue
        assert abs(z) < 4.5, f"{where}: z = {z:.2f}"
        chi2 += z * z
        df += 1
    assert chi2 < _chi2_bound(df), f"chi2 {chi2:.1f} over {df} cells"


def test_one_card_table_leaves_cells_the_simulation_missed_without_an_estimate():
    """A tiny simulation deals some cells once or never: their simulated score is NaN (no estimate, no
    interval), not a division by zero; the exact columns are whole."""
    exact = {3: X.one_card_counts(3, dealer_rule=B.dealer_rule())}
    sim = np.zeros((3, X.N_INDICATORS, X.N_CLASSES, 5), dtype=np.int64)
    sim[0, 0, 0] = (1, 1, 1, 30, 900)  # one cell dealt once
    table = B.one_card_table(exact, {3: sim})
    never = table["hands_sim"] == 0
    assert never.any() and (table["hands_sim"] == 1).any()
    assert table.loc[table["hands_sim"] < 2, ["exp_score_sim_lo", "exp_score_sim_hi", "z_win"]].isna().all().all()
    assert table.loc[never, "exp_score_sim"].isna().all()
    assert table["p_win_exact"].notna().all()


def test_simulation_check_has_power():
    """The same comparison rejects the exact values of a dealer who names a random suit after a Wizard."""
    n = 3
    wrong = X.one_card_counts(n, dealer_rule="random")
    sim = _simulate_one_card(n, SEED)
    # (cells the heuristic dealer never reaches, e.g. the dealer's off-suit card after a Wizard, are left out)
    ok = (wrong[..., 1] > 0) & (wrong[..., 1] < wrong[..., 0]) & (sim[..., 0] > 0)
    p = wrong[..., 1][ok] / wrong[..., 0][ok]
    m, w = sim[..., 0][ok], sim[..., 1][ok]
    z = (w - m * p) / np.sqrt(m * p * (1 - p))
    assert np.abs(z).max() > 4.5 or np.sum(z * z) > _chi2_bound(int(ok.sum()))


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """The quick run, written the way ``wizsim report`` writes results (floats at 8 significant digits)."""
    out = tmp_path_factory.mktemp("bid_probabilities")
    with csv_float_format(RESULTS_FLOAT_FORMAT):
        result = B.run("quick", seed=SEED, outdir=out)
    return result, out


def _significant_digits(field: str) -> int:
    """Significant digits of a number as written (``"0.0012345678"``: 8, ``"1.25e-05"``: 3)."""
    return len(field.lstrip("+-").lower().split("e")[0].replace(".", "").strip("0"))


def test_quick_run_csv_floats_have_at_most_8_significant_digits(quick, tmp_path):
    result, out = quick
    for name in result["files"]:
        if not name.endswith(".csv"):
            continue
        floats = 0
        for line in (out / name).read_text().splitlines()[1:]:
            for field in line.split(","):
                if "." in field or "e" in field.lower():
                    try:
                        float(field)
                    except ValueError:
                        continue
                    assert _significant_digits(field) <= 8, (name, field)
                    floats += 1
        assert floats > 0, name
    # the headline is computed before writing: the same at full precision
    assert B.run("quick", seed=SEED, outdir=tmp_path)["headline"] == result["headline"]


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
        # the CSV holds 8 significant digits: sums of a dozen rounded terms agree to about 1e-6
        assert math.isclose(max(exp), row.best_exp_score, abs_tol=1e-5)
        assert exp[int(row.best_bid)] >= max(exp) - 1e-5
        assert row.best_exp_score >= row.second_exp_score
        assert math.isclose(float(np.sum(d.p.to_numpy() * t)), row.mean_tricks, abs_tol=1e-6)
        assert 0 <= row.heuristic_mean_bid <= row.cards  # the name is kept; the values are STRATEGY's
        assert row.strategy == B.STRATEGY


def test_quick_run_one_card_rows_agree_with_exact(quick):
    _, out = quick
    one = pd.read_csv(out / "one_card_breakeven.csv", keep_default_na=False)
    assert set(one.indicator) == {"suit card", "Jester", "Wizard", "any"}  # "none" never happens with 60 cards
    wizard_rule = one[one.indicator == "Wizard"].trump_rule
    assert (wizard_rule == B.DEALER_POLICY[B.dealer_rule()]).all() and "suit of their card" in wizard_rule.iloc[0]
    names = X.class_names()
    for n in B.PLAYERS:
        counts = X.one_card_counts(n, dealer_rule=B.dealer_rule())
        pooled = counts.sum(1)
        d = one[one.players == n]
        for q in range(n):
            e = d[d.position == q + 1].set_index(["indicator", "card_class"])
            rows = 0
            for i, ind in enumerate(X.INDICATORS):
                for c in np.flatnonzero(counts[q, i, :, 0]):
                    p = Fraction(int(counts[q, i, c, 1]), int(counts[q, i, c, 0]))
                    r = e.loc[(ind, names[c])]
                    assert r.p_win_exact_fraction == f"{p.numerator}/{p.denominator}"
                    assert r.recommended_bid == int(p > Fraction(3, 7))
                    pp = Fraction(int(pooled[q, c, 1]), int(pooled[q, c, 0]))
                    assert r.recommended_bid_pooled == int(pp > Fraction(3, 7))
                    assert math.isclose(r.p_win_pooled_exact, float(pp), rel_tol=1e-7)
                    rows += 1
                if counts[q, i, :, 0].any():
                    share = Fraction(int(counts[q, i, :, 0].sum()), int(counts[q, ..., 0].sum()))
                    assert math.isclose(e.loc[(ind, "any card"), "share_exact"], float(share), rel_tol=1e-7)
            assert len(e) == rows + 3 + 1  # the cells, an "any card" row per indicator seen, one for all
            a = e.loc[("any", "any card")]
            assert math.isclose(a.share_exact, 1.0)
            # the rule by what the bidder sees scores at least as much as the rule that pools the indicators
            assert a.exp_score_exact >= a.exp_score_pooled_exact - 1e-6
        for _, r in d.iterrows():
            z = _z_or_rare(int(r.hands_sim), round(r.p_win_sim * r.hands_sim), r.p_win_exact)
            if z is not None:
                assert abs(z) < 4.5, (n, r.position, r.indicator, r.card_class, z)
                assert math.isclose(r.z_win, z, abs_tol=1e-4)  # the CSV's z-score is this one (8 digits written)


def test_quick_run_rule_reproduces_every_cell_and_headline(quick):
    """The headline's rule (thresholds by what the bidder sees) gives every cell's recommended bid."""
    result, out = quick
    one = pd.read_csv(out / "one_card_breakeven.csv", keep_default_na=False)
    rule = B.one_card_rule(one)
    cells = one[one.card_class != "any card"]
    assert len(cells) > 0
    for r in cells.itertuples():
        assert B.rule_bid(rule, r.players, r.position, r.indicator, r.kind, r.rank) == r.recommended_bid, r
    assert rule["wizard"] == 1 and rule["jester"] == 0
    # the thresholds the headline states (exact values, checked by hand above)
    assert {n: rule[(n, "suit card", "trump")][1] for n in B.PLAYERS} == {3: 1, 4: 3, 5: 6, 6: 8}
    assert rule[(3, "suit card", "off-suit")] == {1: 10, 2: None, 3: None}
    head = result["headline"]
    assert "a card of its suit of rank >= 1/3/6/8" in head
    assert "of another suit of rank >= 10 when leading at 3 players" in head
    assert B.DEALER_POLICY[B.dealer_rule()] in head and "95% CI" in head
    # the refined rule's exact hit rate and score in the headline come from the table
    acc = one[(one.indicator == "any") & (one.card_class == "any card")].groupby("players").exp_score_exact.mean()
    assert "/".join(f"{v:.2f}" for v in acc) in head


def test_rule_text_compresses_positions():
    rule = {(n, "Wizard", "trump"): {q: (1 if q == n else 7) for q in range(1, n + 1)} for n in B.PLAYERS}
    assert B._threshold_text(rule, "Wizard", "trump") == "7/7/7/7 (1/1/1/1 when dealing)"
    rule = {(n, "Jester", "no-trump"): {q: (n if q == 1 else None) for q in range(1, n + 1)} for n in B.PLAYERS}
    assert B._threshold_text(rule, "Jester", "no-trump") == "3/4/5/6 when leading"
    rule = {(n, "suit card", "off-suit"): {q: None for q in range(1, n + 1)} for n in B.PLAYERS}
    assert B._threshold_text(rule, "suit card", "off-suit") == ""
    bad = pd.DataFrame({"players": 3, "position": 1, "indicator": "suit card", "kind": "trump",
                        "card_class": ["trump 1", "trump 2"], "rank": [1, 2], "recommended_bid": [1, 0]})  # fmt: skip
    with pytest.raises(ValueError, match="not a threshold"):
        B.one_card_rule(bad)


def test_quick_run_feature_cells_agree_with_exact(quick):
    """One-card rounds in the hand-feature table (trumps counted from the recorded hands) vs exact values."""
    _, out = quick
    probs = pd.read_csv(out / "bid_probabilities.csv", keep_default_na=False)
    classes = {("0", "1"): range(2, 15), ("0", "0"): range(15, 28), ("0", "none"): range(28, 41)}
    checked = 0
    for n in B.PLAYERS:
        counts = X.one_card_counts(n, dealer_rule=B.dealer_rule()).sum((0, 1))  # positions, indicators pooled
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
