"""Given my hand, how many tricks will I take, and what should I bid?

Two parts, both for 3-6 players and the 60-card base deck, standard scoring
(exact bid: 20 + 10 x tricks; otherwise -10 per trick off).

1. Hand features (``bid_probabilities.csv``, ``bid_probabilities_optimal.csv``).
   Independent rounds of 1, 3, 5, 10 and the largest round size (60 / n
   cards: the standard table's last round, played without trump, RULES.md
   2; every card is dealt) in :data:`STRATEGY`
   self-play (``learned``: the strongest player, its bids and card play
   fitted to pimc's values; a switch is the one line of the constant, every
   text follows it), recorded round by round with
   :func:`wizsim.run.history.record_chunk_arrays`. Every seat's hand is described
   by three counts players make at the table: Wizards (the sure tricks of
   the base game: 0, 1, 2, 3+), trumps (no trump, 0, 1, 2, 3, 4+) and aces
   (13s of any suit, trump included: 0, 1, 2+); rows with ``aces = any``
   pool the aces. For each cell: P(tricks = t) for every t up to the
   largest observed, mean tricks, the player's own mean bid and score
   (columns ``heuristic_mean_bid`` and ``heuristic_mean_score``: the names are
   kept for stable files, the values are :data:`STRATEGY`'s, named in the
   ``strategy`` column),
   and the bid that maximises the expected score sum_t P(t) score(bid, t),
   with the expected score of the best and the second-best bid, their
   difference and a flag when the two intervals overlap. Seat positions are
   pooled. Cells with fewer than :data:`MIN_HANDS` hands are dropped (the
   run's ``sample`` says how many, and what share of hands they held; at
   ``default`` size they are rare combinations such as 3+ Wizards in three
   cards). Sample: ``SIZES[size]["hands"]`` rounds per (players, round
   size), i.e. n times as many hands.

   Intervals: the seats of one round are not independent (their tricks add
   up to the round size), so every interval treats the round as a cluster:
   integer sums of the per-round cell totals and their cross products give
   the cluster-robust (ratio-estimator) variance. P(t) carries a Wilson
   interval on the effective sample size hands / design effect (floored at
   1, so never narrower than the plain Wilson interval); means carry normal
   intervals with the cluster variance.

   Caveat: the trick distribution is that of a :data:`STRATEGY` player who
   bid its own choice and played to make it, at a table of the same players.
   A player who bids otherwise also plays otherwise (``learned`` plays to
   make its bid), so "best bid" reads: the bid that would score most against
   this distribution of tricks, not a proven best strategy. The player's own
   bid sees more than the three counts (``learned``: the whole hand, the
   heuristic's estimate of it, its position and the earlier bids), so its
   mean score in a cell is often higher than the best single bid's.

2. One-card rounds (``one_card_breakeven.csv``). Play is forced, so whether
   a card takes the trick is fixed by the deal (and by the dealer's choice of
   trump after a Wizard is turned up). A one-card round is never the last
   round of the standard table (60 cards, at most 6 dealt), so a card is
   always turned up, and every bidder sees it: the table is kept by what the
   bidder sees. For every player count, position (1 leads, n deals),
   indicator class and card class: indicator ``suit card`` (its suit is
   trump; my card is a ``trump`` when the indicator is of my card's suit, an
   ``off-suit`` card when it is of another suit), ``Jester`` (no trump: my
   card is a ``no-trump`` card) or ``Wizard`` (the dealer names trump before
   the bids, after looking at their card); card class Wizard, Jester, or
   trump / off-suit / no-trump card by rank 1-13. Dealer's policy after a
   Wizard is turned up (column ``trump_rule``): every player but ``random``
   names trump like the heuristic (``engine.players.decisions.decider`` with
   ``engine.players.heuristic.suit_strength``), i.e. the suit of its card, or Blue when it
   holds a Wizard or Jester; a ``random`` dealer names a random suit;
   :func:`dealer_rule` picks the matching exact count for :data:`STRATEGY`.
   Cells after a Wizard pool the four suits the dealer may name. P(win) is
   computed EXACTLY by :func:`wizsim.tools.exact.one_card_counts` (every deal
   counted by falling factorials; cross-checked against a brute-force visit
   of every deal through the engine's rule functions), with the share of
   the position's hands in the cell and the recommended bid: 1 iff P(win) >
   3/7 (bid 1 scores 30 p - 10 (1 - p), bid 0 scores 20 (1 - p) - 10 p).
   Columns ``p_win_pooled_exact`` and ``recommended_bid_pooled`` give the
   same card class with the indicators pooled (the table before the split),
   which misleads where the two bids differ (e.g. an off-suit 10 on lead at
   3 players: 13/29 = 1482/3306 > 3/7 with a suit card turned up, bid 1;
   pooled 1022/2439 < 3/7). The same cells are simulated (same strategy,
   ``SIZES[size]["one_card"]`` rounds per player count, Wilson intervals,
   one hand per cell per round, so independent) and compared with the exact
   value by a z-score (``z_win``; a normal approximation, not meaningful
   where fewer than about 5 wins or losses are expected, e.g. Jesters).
   Rows ``any card`` summarise a position and indicator (indicator ``any``:
   all of them): P(win) = P(a blind bid of 1 is right), and the probability
   that the recommended bid is right with its expected score. The headline
   states the recommended bids as a rule by what the bidder sees (card,
   indicator, position), checked to reproduce every cell, with how often it
   is right and its expected score, beside the rule that pools the
   indicators.

Sizes: quick 2,000 rounds per (players, round size) and 20,000 one-card
rounds per player count; default 196,608 and 524,288; full ten times that.
"""

from __future__ import annotations

import functools
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from wizsim.plotting import save
from wizsim.plotting.bid_probabilities import draw as draw_bids
from wizsim.plotting.one_card_breakeven import draw as draw_one_card
from wizsim.run.history import record_chunk_arrays
from wizsim.run.io import write_table
from wizsim.run.parallel import map_tasks
from wizsim.run.simulate import make_spec
from wizsim.run.stats import Z95, wilson_ci
from wizsim.tools import exact as X

NAME = "bid_probabilities"
QUESTION = "Given my hand, how many tricks will I take, and what should I bid?"
SIZES = {  # rounds per (players, round size) for the hand features; one-card rounds per player count
    "quick": {"hands": 2_000, "one_card": 20_000},
    "default": {"hands": 12 * 16_384, "one_card": 32 * 16_384},
    "full": {"hands": 120 * 16_384, "one_card": 320 * 16_384},
}
STRATEGY = "learned"  # the strongest player fast enough for this many rounds
PLAYERS = (3, 4, 5, 6)
MIN_HANDS = 200  # cells with fewer hands are dropped
BREAKEVEN = Fraction(3, 7)  # bid 1 in a one-card round iff P(win) > 3/7

# hand-feature cells: Wizards 0..3+, trumps (none, 0..4+), aces 0..2+ and "any"
W_LABELS = ("0", "1", "2", "3+")
T_LABELS = ("none", "0", "1", "2", "3", "4+")
A_LABELS = ("0", "1", "2+", "any")
N_CELLS = len(W_LABELS) * len(T_LABELS) * len(A_LABELS)
ANY_ACES = 3


def dealer_rule(strategy: str = STRATEGY) -> str:
    """How ``strategy`` names trump after a Wizard is turned up: ``"heuristic"`` or ``"random"``.

    The rule of ``engine.players.decisions.decider`` for the ``trump`` decision: the player's
    own rule (``random`` for the random player, the heuristic's for every
    other one) unless the strategy overrides it (``trump=random``).
    """
    from wizsim.players.strategies import DECIDERS, DECISIONS, RandomStrategy, make_strategy

    s = make_strategy(strategy)
    kind = int(s.param_row()[DECISIONS["trump"]])
    if kind == DECIDERS["own"]:
        return "random" if isinstance(s, RandomStrategy) else "heuristic"
    return "random" if kind == DECIDERS["random"] else "heuristic"


def round_sizes(players: int) -> list[int]:
    """The representative round sizes: 1, 3, 5, 10 and the largest (60 / players)."""
    return sorted({1, 3, 5, 10, 60 // players})


def score(bid: int | np.ndarray, tricks: int | np.ndarray) -> np.ndarray:
    """Standard scoring (RULES.md 8)."""
    bid, tricks = np.asarray(bid), np.asarray(tricks)
    return np.where(bid == tricks, 20 + 10 * tricks, -10 * np.abs(tricks - bid))


# --------------------------------------------------------------------------- simulation tasks (one chunk each)


def _feature_task(players: int, cards: int, hands: int, seed: int, chunk: int, strategy: str = STRATEGY) -> tuple:
    """Integer sums of one chunk, per cell: sums and cross products of per-round cell totals.

    Per round and cell the vector is (hands taking t tricks for t = 0..cards,
    sum of bids, sum of scores, hands); returns (players, cards, sums [cells, cards + 4],
    cross products [cells, cards + 4, cards + 4], rounds with the cell [cells]).
    """
    n, k = players, cards
    spec = make_spec(n, cards=k, hands=hands, seed=seed, strategy=strategy)
    _, rec = record_chunk_arrays(spec, chunk)
    h = rec.hands.astype(np.int64)
    rows = len(rec)
    trump = rec.trump
    bids, won, scores = rec.bids, rec.tricks_won, rec.scores
    suit = np.where(h < 52, h // 13, -9)
    wiz = np.minimum((h == 52).sum(2), len(W_LABELS) - 1)
    n_trump = (suit == trump[:, None, None]).sum(2)
    t_idx = np.where(trump[:, None] < 0, 0, 1 + np.minimum(n_trump, len(T_LABELS) - 2))
    aces = np.minimum(((h < 52) & (h % 13 == 12)).sum(2), ANY_ACES - 1)
    cell = (wiz * len(T_LABELS) + t_idx) * len(A_LABELS)
    r = np.arange(rows, dtype=np.int64)[:, None] * N_CELLS
    keys = np.concatenate([(r + cell + aces).ravel(), (r + cell + ANY_ACES).ravel()])
    tricks, bid, sc = (np.tile(x.ravel(), 2) for x in (won, bids, scores))
    # (round, cell) groups present, numbered in key order (no sorting needed: keys are small)
    present = np.bincount(keys, minlength=rows * N_CELLS) > 0
    number = np.cumsum(present) - 1
    inv = number[keys]
    uk = np.flatnonzero(present)
    u, k1 = uk.shape[0], k + 1
    vec = np.empty((u, k1 + 3), dtype=np.int64)
    vec[:, :k1] = np.bincount(inv * k1 + tricks, minlength=u * k1).reshape(u, k1)
    for j, x in ((k1, bid), (k1 + 1, sc)):  # float sums of small integers: exact
        vec[:, j] = np.rint(np.bincount(inv, weights=x, minlength=u)).astype(np.int64)
    vec[:, k1 + 2] = np.bincount(inv, minlength=u)
    ucell = uk % N_CELLS
    order = np.argsort(ucell, kind="stable")
    sums = np.zeros((N_CELLS, k1 + 3), dtype=np.int64)
    cross = np.zeros((N_CELLS, k1 + 3, k1 + 3), dtype=np.int64)
    count = np.bincount(ucell, minlength=N_CELLS).astype(np.int64)
    starts = np.concatenate([[0], np.cumsum(count)])
    for c in np.flatnonzero(count):
        v = vec[order[starts[c] : starts[c + 1]]]
        sums[c] = v.sum(0)
        cross[c] = np.einsum("ij,ik->jk", v, v)  # integer loops: exact, no BLAS threads
    return n, k, sums, cross, count


def _one_card_task(
    players: int, hands: int, seed: int, chunk: int, bid_one: np.ndarray, strategy: str = STRATEGY
) -> tuple:
    """Counts of one chunk of one-card rounds: [position, indicator, class, (hands, wins, right, score, score^2)].

    ``bid_one[position, indicator, class]`` is the recommended bid (1 or 0) the right/score columns use.
    """
    n = players
    spec = make_spec(n, cards=1, hands=hands, seed=seed, strategy=strategy)
    _, rec = record_chunk_arrays(spec, chunk)
    card = rec.hands[:, :, 0].astype(np.int64)
    dealer, indicator, trump = rec.dealer[:, None], rec.indicator[:, None], rec.trump[:, None]
    won = rec.tricks_won
    pos = (np.arange(n)[None, :] - dealer - 1) % n
    rank = card % 13
    cls = np.where(
        card == X.W,
        0,
        np.where(card == X.J, 1, np.where(trump < 0, 28 + rank, np.where(card // 13 == trump, 2 + rank, 15 + rank))),
    )
    ind = np.where(
        indicator < 0,
        X.IND_NONE,
        np.where(indicator == X.W, X.IND_WIZARD, np.where(indicator == X.J, X.IND_JESTER, X.IND_SUIT)),
    )
    ind = np.broadcast_to(ind, card.shape)
    bid = bid_one[pos, ind, cls]
    right = (bid == won).astype(np.int64)
    sc = np.where(bid == 1, np.where(won == 1, 30, -10), np.where(won == 1, -10, 20))
    idx = ((pos * X.N_INDICATORS + ind) * X.N_CLASSES + cls).ravel()
    size = n * X.N_INDICATORS * X.N_CLASSES
    out = np.stack(
        [np.bincount(idx, weights=w.ravel(), minlength=size) for w in (np.ones_like(won), won, right, sc, sc * sc)],
        axis=-1,
    )
    return n, np.rint(out).astype(np.int64).reshape(n, X.N_INDICATORS, X.N_CLASSES, 5)


def _call(f, *args):
    """One task in a worker: a task is its function and that function's arguments."""
    return f(*args)


def _run_tasks(tasks: list[tuple], jobs: int) -> list:
    """Each task's result, in task order, from ``jobs`` workers of the run layer (``wizsim.run.parallel.map_tasks``)."""
    if jobs > 1:
        try:
            import cloudpickle
        except ImportError:  # joblib with its own copy
            from joblib.externals import cloudpickle

        # the task functions travel by value: this file is not an importable module in the workers
        module = sys.modules.get(__name__)
        if module is not None and __name__ != "__main__":  # else cloudpickle sends them by value anyway
            cloudpickle.register_pickle_by_value(module)
    return map_tasks(_call, tasks, jobs)


def feature_tasks(players: int, cards: int, hands: int, seed: int, strategy: str = STRATEGY) -> list[tuple]:
    """The hand-feature tasks of ``hands`` rounds of (players, round size) in ``strategy`` self-play, a chunk each."""
    spec = make_spec(players, cards=cards, hands=hands, seed=seed, strategy=strategy)
    return [(_feature_task, players, cards, hands, seed, ch, strategy) for ch in range(spec.n_chunks)]


def one_card_bids(exact: np.ndarray) -> np.ndarray:
    """The recommended bid of every one-card cell ``[position, indicator, class]`` (1 iff exact P(win) > 3/7).

    ``exact`` is :func:`wizsim.tools.exact.one_card_counts` of one player count.
    """
    bid_one = np.zeros(exact.shape[:3], dtype=np.int64)
    for q, i, c in zip(*np.nonzero(exact[..., 0]), strict=True):
        bid_one[q, i, c] = int(Fraction(int(exact[q, i, c, 1]), int(exact[q, i, c, 0])) > BREAKEVEN)
    return bid_one


def one_card_tasks(players: int, hands: int, seed: int, bid_one: np.ndarray, strategy: str = STRATEGY) -> list[tuple]:
    """The tasks of ``hands`` one-card rounds in ``strategy`` self-play, a chunk each (``bid_one``: :func:`one_card_bids`)."""
    spec = make_spec(players, cards=1, hands=hands, seed=seed, strategy=strategy)
    return [(_one_card_task, players, hands, seed, ch, bid_one, strategy) for ch in range(spec.n_chunks)]


def collect_tasks(tasks: list[tuple], jobs: int = 1) -> tuple[dict, dict]:
    """Run the tasks and sum their integer counts.

    Returns ``(acc, sim)``: ``acc[(players, cards)] = (sums, cross, rounds)``, the input of
    :func:`feature_tables`, and ``sim[players]``, the one-card counts :func:`one_card_table` reads.
    """
    acc: dict = {}
    sim: dict = {}
    for res in _run_tasks(tasks, jobs):
        if len(res) == 2:
            sim[res[0]] = sim[res[0]] + res[1] if res[0] in sim else res[1]
            continue
        n, k, s, x, c = res
        if (n, k) in acc:
            a = acc[(n, k)]
            acc[(n, k)] = (a[0] + s, a[1] + x, a[2] + c)
        else:
            acc[(n, k)] = (s, x, c)
    return acc, sim


# --------------------------------------------------------------------------- estimates


def _cluster_estimate(sums: np.ndarray, cross: np.ndarray, rounds: int, weights: np.ndarray) -> tuple[float, float]:
    """Ratio estimate sum(w . v) / sum(hands) and its cluster-robust standard error (clusters = rounds)."""
    m = sums[-1]
    theta = float(weights @ sums[:-1]) / m
    u = np.append(weights, -theta)
    var = float(u @ cross.astype(np.float64) @ u) / (m * m)
    var *= rounds / (rounds - 1) if rounds > 1 else np.nan
    return theta, float(np.sqrt(max(var, 0.0)))


def _put_mean(row: dict, name: str, w: np.ndarray, sums: np.ndarray, cross: np.ndarray, rounds: int) -> tuple:
    """Store a cell mean ``name`` with its normal 95% interval (cluster-robust) in ``row``; return the three."""
    est, se = _cluster_estimate(sums, cross, rounds, w)
    row[name], row[f"{name}_lo"], row[f"{name}_hi"] = est, est - Z95 * se, est + Z95 * se
    return est, est - Z95 * se, est + Z95 * se


def feature_tables(acc: dict, strategy: str = STRATEGY) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """Turn the summed integer sums into the P(tricks) table, the best-bid table and drop statistics.

    ``acc``: :func:`collect_tasks`' sums of ``strategy`` self-play (the ``strategy`` column).
    """
    prob_rows, bid_rows = [], []
    dropped = {"cells": 0, "hands": 0, "all_hands": 0}
    for (n, k), (sums, cross, count) in sorted(acc.items()):
        k1 = k + 1
        t = np.arange(k1)
        for c in np.flatnonzero(sums[:, -1]):
            hands = int(sums[c, -1])
            wi, rest = divmod(int(c), len(T_LABELS) * len(A_LABELS))
            ti, ai = divmod(rest, len(A_LABELS))
            if ai != ANY_ACES:
                dropped["all_hands"] += hands
            if hands < MIN_HANDS:
                if ai != ANY_ACES:
                    dropped["cells"] += 1
                    dropped["hands"] += hands
                continue
            s, x, rounds = sums[c], cross[c], int(count[c])
            key = {"players": n, "cards": k, "wizards": W_LABELS[wi], "trumps": T_LABELS[ti], "aces": A_LABELS[ai]}
            top = int(np.flatnonzero(s[:k1])[-1])
            for tt in range(top + 1):
                w = np.zeros(k1 + 2)
                w[tt] = 1.0
                p, se = _cluster_estimate(s, x, rounds, w)
                deff = max(1.0, se * se / (p * (1 - p) / hands)) if 0 < p < 1 else 1.0
                n_eff = hands / deff
                _, lo, hi = wilson_ci(np.array(p * n_eff), np.array(n_eff))
                prob_rows.append({**key, "hands": hands, "rounds": rounds, "tricks": tt, "p": p,
                                  "p_lo": float(lo), "p_hi": float(hi), "design_effect": deff})  # fmt: skip
            row = {**key, "strategy": strategy, "hands": hands, "rounds": rounds}
            put = functools.partial(_put_mean, row, sums=s, cross=x, rounds=rounds)

            put("mean_tricks", np.append(t, [0.0, 0.0]).astype(np.float64))
            put("heuristic_mean_bid", np.append(np.zeros(k1), [1.0, 0.0]))
            put("heuristic_mean_score", np.append(np.zeros(k1), [0.0, 1.0]))
            score_w = [np.append(score(b, t), [0.0, 0.0]).astype(np.float64) for b in range(k1)]
            exp = np.array([float(w[:k1] @ s[:k1]) / hands for w in score_w])
            order = np.argsort(-exp, kind="stable")
            best, second = int(order[0]), int(order[1]) if k1 > 1 else int(order[0])
            row["best_bid"] = best
            b_est = put("best_exp_score", score_w[best])
            row["second_bid"] = second
            s_est = put("second_exp_score", score_w[second])
            put("best_minus_second", score_w[best] - score_w[second])
            row["intervals_overlap"] = bool(b_est[1] <= s_est[2])
            bid_rows.append(row)
    return pd.DataFrame(prob_rows), pd.DataFrame(bid_rows), dropped


TRUMP_RULES = {  # how the trump arises, by indicator class (column ``trump_rule``)
    "suit card": "the indicator's suit",
    "Jester": "no trump",
    "none": "no trump",
    "any": "any",
}
DEALER_POLICY = {  # how the dealer names trump after a Wizard is turned up, by dealer_rule()
    "heuristic": "the dealer names the suit of their card, Blue if they hold a Wizard or Jester",
    "random": "the dealer names a random suit",
}


def _bid_outcome(bid: int, wins: int, total: int) -> tuple[int, int]:
    """(hands where ``bid`` is right, total score) in a cell of ``total`` hands with ``wins`` tricks taken."""
    if bid:
        return wins, 40 * wins - 10 * total
    return total - wins, 20 * total - 30 * wins


def _kind_rank(name: str) -> tuple[str, int]:
    """Kind and rank of a card class name: ``"off-suit 10"`` -> ("off-suit", 10), ``"Wizard"`` -> ("wizard", 0)."""
    if name == "any card":
        return "any", 0
    kind, _, rank = name.rpartition(" ")
    return (kind, int(rank)) if rank.isdigit() else (name.lower(), 0)


def one_card_table(exact: dict[int, np.ndarray], sim: dict[int, np.ndarray], rule: str | None = None) -> pd.DataFrame:
    """The one-card table by what the bidder sees: exact and simulated P(win), recommended bid, hit rate, score.

    ``exact[n]`` is :func:`wizsim.tools.exact.one_card_counts` ``[n, 4, 41, 2]`` for each player count n,
    ``sim[n]`` the summed :func:`_one_card_task` counts ``[n, 4, 41, 5]``,
    ``rule`` the dealer's rule after a Wizard is turned up (default
    :func:`dealer_rule`). One row per (players, position, indicator, card
    class), an ``any card`` row per (players, position, indicator) and one
    per (players, position) with indicator ``any``. ``*_pooled_exact``
    columns: the bid chosen with the indicators pooled, and how it fares.
    """
    names = X.class_names()
    trump_rule = {**TRUMP_RULES, "Wizard": DEALER_POLICY[rule or dealer_rule()]}
    rows = []

    def add(n, q, ind, name, total, tot_all, wins, bid, outcome, p_pooled, bid_pooled, simc) -> None:
        """Append a row; ``outcome`` = (right, score) of ``bid`` and of ``bid_pooled``, summed over the cell."""
        p = Fraction(wins, total)
        right, score, right_pooled, score_pooled = outcome
        kind, rank = _kind_rank(name)
        hands_sim, wins_sim, right_sim, sc_sum, sc_sq = (int(v) for v in simc)
        pw, pw_lo, pw_hi = wilson_ci(np.array(wins_sim), np.array(hands_sim))
        pr, pr_lo, pr_hi = wilson_ci(np.array(right_sim), np.array(hands_sim))
        pf = float(p)
        if hands_sim >= 2:
            mean = sc_sum / hands_sim
            sd = np.sqrt(max(sc_sq - hands_sim * mean * mean, 0.0) / (hands_sim - 1))
            half = Z95 * sd / np.sqrt(hands_sim)
            se = np.sqrt(pf * (1 - pf) / hands_sim)
            z = (float(pw) - pf) / se if se > 0 else (0.0 if float(pw) == pf else np.inf)
        else:  # a cell the simulation dealt fewer than twice (tiny samples): no estimate, no interval
            mean = sc_sum / hands_sim if hands_sim else np.nan
            half = z = np.nan
        rows.append({
            "players": n, "position": q + 1, "indicator": ind, "trump_rule": trump_rule[ind], "card_class": name,
            "kind": kind, "rank": rank, "share_exact": total / tot_all, "p_win_exact": pf,
            "p_win_exact_fraction": f"{p.numerator}/{p.denominator}",
            "exp_score_bid1_exact": float(40 * p - 10), "exp_score_bid0_exact": float(20 - 30 * p),
            "recommended_bid": bid, "p_right_exact": float(Fraction(right, total)),
            "exp_score_exact": float(Fraction(score, total)),
            "p_win_pooled_exact": float(p_pooled), "recommended_bid_pooled": bid_pooled,
            "p_right_pooled_exact": float(Fraction(right_pooled, total)),
            "exp_score_pooled_exact": float(Fraction(score_pooled, total)),
            "hands_sim": hands_sim, "p_win_sim": float(pw), "p_win_sim_lo": float(pw_lo),
            "p_win_sim_hi": float(pw_hi), "z_win": z, "p_right_sim": float(pr), "p_right_sim_lo": float(pr_lo),
            "p_right_sim_hi": float(pr_hi), "exp_score_sim": mean, "exp_score_sim_lo": mean - half,
            "exp_score_sim_hi": mean + half,
        })  # fmt: skip

    for n in sorted(exact):
        ex, sm = exact[n], sim[n]
        pooled = ex.sum(1)
        for q in range(n):
            tot_all = int(ex[q, ..., 0].sum())
            wins_all = int(ex[q, ..., 1].sum())
            pos_sums = [0, 0, 0, 0]  # right, score; right, score of the pooled bids
            for i, ind in enumerate(X.INDICATORS):
                tot_ind = int(ex[q, i, :, 0].sum())
                if tot_ind == 0:
                    continue
                sums = [0, 0, 0, 0]
                for c in np.flatnonzero(ex[q, i, :, 0]):
                    total, wins = int(ex[q, i, c, 0]), int(ex[q, i, c, 1])
                    bid = int(Fraction(wins, total) > BREAKEVEN)
                    p_pooled = Fraction(int(pooled[q, c, 1]), int(pooled[q, c, 0]))
                    bid_pooled = int(p_pooled > BREAKEVEN)
                    outcome = (*_bid_outcome(bid, wins, total), *_bid_outcome(bid_pooled, wins, total))
                    sums = [a + b for a, b in zip(sums, outcome, strict=True)]
                    add(n, q, ind, names[c], total, tot_all, wins, bid, outcome, p_pooled, bid_pooled, sm[q, i, c])
                # a blind bid of 1 (P(win) of the position, indicators pooled)
                add(n, q, ind, "any card", tot_ind, tot_all, int(ex[q, i, :, 1].sum()), -1, sums,
                    Fraction(wins_all, tot_all), -1, sm[q, i].sum(0))  # fmt: skip
                pos_sums = [a + b for a, b in zip(pos_sums, sums, strict=True)]
            add(n, q, "any", "any card", tot_all, tot_all, wins_all, -1, pos_sums, Fraction(wins_all, tot_all), -1,
                sm[q].sum((0, 1)))  # fmt: skip
    return pd.DataFrame(rows)


def one_card_rule(one: pd.DataFrame) -> dict:
    """The recommended one-card bids of ``one`` as thresholds: the lowest rank worth a bid of 1.

    Returns ``{(players, indicator, kind): {position: rank or None}}`` for
    suit-card kinds (None: never bid 1), plus ``"wizard"`` and ``"jester"``:
    the bids with a Wizard and a Jester if the same in every cell (else None).
    Raises ValueError if a cell's bid is not the threshold's (bid 1 at some
    rank but 0 at a higher one), so the rule stated reproduces every cell.
    """
    cells = one[one.card_class != "any card"]
    rule: dict = {}
    for key, g in cells[cells["rank"] > 0].groupby(["players", "indicator", "kind"], sort=False):
        rule[key] = {}
        for q, e in g.groupby("position"):
            yes = e[e.recommended_bid == 1]["rank"]
            low = int(yes.min()) if len(yes) else None
            if low is not None and not (e.recommended_bid == (e["rank"] >= low)).all():
                raise ValueError(f"one-card bids not a threshold in rank: {key}, position {q}")
            rule[key][int(q)] = low
    for kind in ("wizard", "jester"):
        bids = set(cells[cells.kind == kind].recommended_bid)
        rule[kind] = bids.pop() if len(bids) == 1 else None
    return rule


def rule_bid(rule: dict, players: int, position: int, indicator: str, kind: str, rank: int) -> int:
    """The bid :func:`one_card_rule`'s thresholds give a card (``kind``, ``rank``) seen with ``indicator``."""
    if kind in ("wizard", "jester"):
        return int(rule[kind])
    low = rule[(players, indicator, kind)][position]
    return int(low is not None and rank >= low)


def _where(n: int, positions: list[int]) -> str:
    """Positions in words: when leading (1), when dealing (n), at position q."""
    if positions == [1]:
        return "when leading"
    if positions == [n]:
        return "when dealing"
    return "at position " + " or ".join(str(q) for q in positions)


def _thresholds(rule: dict, indicator: str, kind: str, n: int) -> tuple | None:
    """(main rank, where it holds or '' for every other position, [(rank, where), ...]); None: never bid 1."""
    by_q = rule.get((n, indicator, kind), {})
    groups: dict = {}
    for q, low in sorted(by_q.items()):
        if low is not None:
            groups.setdefault(low, []).append(q)
    if not groups:
        return None
    main = max(groups, key=lambda r: (len(groups[r]), -r))
    everywhere = sum(len(qs) for qs in groups.values()) == len(by_q)
    others = [(r, _where(n, qs)) for r, qs in sorted(groups.items()) if r != main]
    return main, "" if everywhere else _where(n, groups[main]), others


def _threshold_text(rule: dict, indicator: str, kind: str) -> str:
    """The lowest rank worth a bid of 1 per player count, e.g. '7/8/9/10 (1/2/6/8 when dealing)'; '' if none."""
    per = {n: _thresholds(rule, indicator, kind, n) for n in PLAYERS}
    present = [n for n in PLAYERS if per[n] is not None]
    if not present:
        return ""
    if len({(per[n][1], tuple(w for _, w in per[n][2])) for n in present}) > 1:  # no common shape: one by one
        return "; ".join(
            f"{n} players: {t[0]}{' ' + t[1] if t[1] else ''}" + "".join(f" ({r} {w})" for r, w in t[2])
            for n, t in per.items()
            if t is not None
        )
    first = per[present[0]]
    text = "/".join(str(per[n][0]) for n in present) + (f" {first[1]}" if first[1] else "")
    for j, (_, where) in enumerate(first[2]):
        text += f" ({'/'.join(str(per[n][2][j][0]) for n in present)} {where})"
    return text + (f" at {'/'.join(map(str, present))} players" if len(present) < len(PLAYERS) else "")


def _headline(one: pd.DataFrame, bids: pd.DataFrame, sim: dict[int, np.ndarray]) -> str:
    """The one-card rule by what the bidder sees, how often it is right and what it scores; one feature cell."""
    rule = one_card_rule(one)
    clauses = []
    for indicator, seen, kinds in (
        ("suit card", "a suit card turned up", (("trump", "a card of its suit"), ("off-suit", "of another suit"))),
        ("Jester", "a Jester turned up (no trump)", (("no-trump", "a suit card"),)),
        ("Wizard", "a Wizard turned up", (("trump", "a card of the suit named"), ("off-suit", "of another suit"))),
    ):
        parts = [f"{what} of rank >= {t}" for kind, what in kinds if (t := _threshold_text(rule, indicator, kind))]
        clauses.append(f"with {seen}, {' or '.join(parts) if parts else 'nothing else'}")
    anys = one[(one.indicator == "any") & (one.card_class == "any card")]
    acc = anys.groupby("players")[["p_right_exact", "exp_score_exact", "p_right_pooled_exact",
                                    "exp_score_pooled_exact"]].mean()  # fmt: skip
    fmt = {c: "/".join(f"{(100 if 'right' in c else 1) * v:.{1 if 'right' in c else 2}f}" for v in acc[c])
           for c in acc}  # fmt: skip
    s4 = sim[4]
    r_sim, r_lo, r_hi = (100 * float(v) for v in wilson_ci(s4[..., 2].sum(), s4[..., 0].sum()))
    wizard = "with a Wizard; " if rule["wizard"] == 1 else ""
    text = (
        f"One-card rounds (exact; 3/4/5/6 players; after a Wizard is turned up {DEALER_POLICY[dealer_rule()]}): "
        f"bid 1 (worth it where P(win) > 3/7) {wizard}{'; '.join(clauses)}; else bid 0. "
        f"This rule by what the bidder sees is right in {fmt['p_right_exact']}% of hands and scores "
        f"{fmt['exp_score_exact']} points per hand (one rule for all indicators: {fmt['p_right_pooled_exact']}% and "
        f"{fmt['exp_score_pooled_exact']}); 4 players simulated: right in {r_sim:.1f}% (95% CI {r_lo:.1f}-{r_hi:.1f})"
    )
    b = bids[(bids.players == 4) & (bids.cards == 5) & (bids.aces == "any") & (bids.wizards == "1")]
    b = b[b.trumps == "2"]
    if len(b):
        r = b.iloc[0]
        text += (
            f". 4 players x 5 cards, 1 Wizard + 2 trumps ({STRATEGY} self-play): {r.mean_tricks:.2f} tricks "
            f"(95% CI {r.mean_tricks_lo:.2f}-{r.mean_tricks_hi:.2f}), best bid {int(r.best_bid)} "
            f"({r.best_exp_score:.1f} points, CI {r.best_exp_score_lo:.1f}-{r.best_exp_score_hi:.1f})"
        )
    return text + "."


# --------------------------------------------------------------------------- run


def run(size: str = "default", seed: int = 20261129, outdir: Path = Path("results"), jobs: int = 1) -> dict:
    """Run the analysis; return its headline numbers and provenance."""
    cfg = SIZES[size]
    hands, one_hands = cfg["hands"], cfg["one_card"]
    exact = {n: X.one_card_counts(n, dealer_rule=dealer_rule()) for n in PLAYERS}
    tasks: list[tuple] = []
    for n in PLAYERS:
        for k in round_sizes(n):
            tasks += feature_tasks(n, k, hands, seed)
        tasks += one_card_tasks(n, one_hands, seed, one_card_bids(exact[n]))
    # largest rounds first: better load balance
    tasks.sort(key=lambda t: -(t[1] * t[2]) if t[0] is _feature_task else 0)
    acc, sim = collect_tasks(tasks, jobs)
    probs, bids, dropped = feature_tables(acc)
    one = one_card_table(exact, sim)
    headline = _headline(one, bids, sim)  # from the full-precision tables, before they are written

    outdir.mkdir(parents=True, exist_ok=True)
    write_table(probs, outdir / f"{NAME}.csv")
    write_table(bids, outdir / f"{NAME}_optimal.csv")
    write_table(one, outdir / "one_card_breakeven.csv")
    # drawn from the files as written: the gallery (wizsim.plotting.chart) redraws them
    save(draw_bids(pd.read_csv(outdir / f"{NAME}_optimal.csv"), pd.read_csv(outdir / "one_card_breakeven.csv")),
         outdir / NAME)  # fmt: skip
    save(draw_one_card(pd.read_csv(outdir / "one_card_breakeven.csv")), outdir / "one_card_breakeven")

    share = dropped["hands"] / max(dropped["all_hands"], 1)
    n_rounds = sum(len(round_sizes(n)) for n in PLAYERS)
    return {
        "name": NAME,
        "question": QUESTION,
        "headline": headline,
        "sample": (
            f"{hands:,} {STRATEGY} self-play rounds per (players, round size), {n_rounds} combinations; "
            f"{dropped['cells']} feature cells with < {MIN_HANDS} hands dropped ({100 * share:.2f}% of hands); "
            f"{one_hands:,} one-card rounds per player count (3-6) plus exact enumeration"
        ),
        "seed": seed,
        "files": [
            f"{NAME}.csv",
            f"{NAME}_optimal.csv",
            "one_card_breakeven.csv",
            f"{NAME}.png",
            f"{NAME}.svg",
            "one_card_breakeven.png",
            "one_card_breakeven.svg",
        ],
        "command": f"python analyses/{NAME}.py --size {size} --seed {seed}",
    }


if __name__ == "__main__":
    from wizsim.report.report import analysis_main

    analysis_main(run, QUESTION, SIZES)
