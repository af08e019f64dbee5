"""How much better is each built-in player than each other, on the very same deals?

Question
--------
By how many points per round (and per game, and in hit rate and win rate) does
each strategy in :data:`STRATEGIES` beat each other one when luck is taken out?

Method
------
Pairwise duplicate matches (:func:`wizsim.tournament.tournament`): for every pair
of strategies, every deal is played once under each of the 6 seatings of two
strategies at 4 seats (two seats each: AABB, ABAB, ...), so both strategies
hold the same cards from every seat and the luck of the cards cancels. Two
formats: independent deals of 4 players x 10 cards, and full 4-player games
(15 rounds of 1-15 cards; a deal is then a whole game). Every pair uses the
same seed, so every match is played on the same deals (common random numbers).
Intervals: mean ± 1.96 SE of the per-deal values (the deal, or the game, is
the independent unit); differences are paired by deal.

Sample sizes (per pair and format): ``quick`` 2,000 deals and 100 games,
``default`` 200,000 deals and 10,000 games, ``full`` 2,000,000 deals and 100,000
games; times 6 seatings each.

Outputs
-------
``players_compared.csv``: one row per pair and format, paired differences
``a - b`` of points per round, points per game (games only, else empty), hit
rate, mean |bid - tricks| and win rate, each with ``_lo``/``_hi``.
``players_compared_strategies.csv``: each strategy's own numbers in each match.
A chart (.png, .svg): points per round by strategy and match, and the pairwise
differences, with 95% interval bars.

Caveats
-------
A strategy's numbers depend on its opponent (points are relative to what the
table leaves), so they are reported per match, not pooled. Win rate counts the
share of round-table wins (4x10) or game wins, per seat held: with two seats
each, two equal strategies would have 25% each. Default rules, no special cards.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from wizsim.io import write_table
from wizsim.plotting import COLORS, figure, save
from wizsim.tournament import tournament

NAME = "players_compared"
QUESTION = "How much better is each built-in player than each other, on the same deals (duplicate format)?"
STRATEGIES = ("random", "heuristic")  # simplest first: each pair is reported as later minus earlier
PLAYERS = 4
CARDS = 10
SIZES = {"quick": (2_000, 100), "default": (200_000, 10_000), "full": (2_000_000, 100_000)}  # (deals, games) per pair
FORMATS = ("4x10", "games")
FORMAT_LABELS = {"4x10": f"{PLAYERS} players x {CARDS} cards", "games": f"{PLAYERS}-player full games"}
DIFF_METRICS = ("points_per_round", "points_per_game", "hit_rate", "mean_abs_diff", "win_rate")


def _ci(x: float, lo: float, hi: float, digits: int = 1, scale: float = 1.0, unit: str = "") -> str:
    return f"{scale * x:.{digits}f}{unit} (95% CI {scale * lo:.{digits}f} to {scale * hi:.{digits}f})"


def run(size: str = "default", seed: int = 20261129, outdir: Path = Path("results"), jobs: int = 1) -> dict:
    """Run the analysis; return its headline numbers and provenance."""
    deals, games = SIZES[size]
    pair_rows, strat_rows = [], []
    for b, a in itertools.combinations(STRATEGIES, 2):  # later minus earlier strategy
        for fmt in FORMATS:
            if fmt == "4x10":
                res = tournament(PLAYERS, [a, b], cards=CARDS, deals=deals, seed=seed, jobs=jobs)
            else:
                res = tournament(PLAYERS, [a, b], games=games, seed=seed, jobs=jobs)
            p = res.pairwise().iloc[0].to_dict()
            row = {"format": fmt, "strategy_a": a, "strategy_b": b, "deals": p["deals"], "seatings": len(res.seatings)}
            for metric in DIFF_METRICS:
                for suffix in ("", "_lo", "_hi"):
                    row[f"{metric}_diff{suffix}"] = p.get(f"{metric}_diff{suffix}", np.nan)
            pair_rows.append(row)
            t = res.table()
            for r in t.to_dict("records"):
                opponent = b if r["strategy"] == a else a
                srow = {"format": fmt, "strategy": r["strategy"], "opponent": opponent, "deals": r["deals"]}
                srow.update({k: v for k, v in r.items() if k not in ("strategy", "deals")})
                srow.setdefault("points_per_game", np.nan)
                strat_rows.append(srow)
    pairs = pd.DataFrame(pair_rows)
    strats = pd.DataFrame(strat_rows)
    order = ["format", "strategy", "opponent", "deals", "seatings", "seat_rounds"]
    strats = strats[order + [c for c in strats.columns if c not in order]]
    outdir.mkdir(parents=True, exist_ok=True)
    write_table(pairs, outdir / f"{NAME}.csv")
    write_table(strats, outdir / f"{NAME}_strategies.csv")

    fig, (ax1, ax2) = figure(1, 2, layout="constrained")
    offsets = {"4x10": -0.12, "games": 0.12}  # 4x10 above games in each row
    s_labels = [f"{s} vs {o}" for s, o in dict.fromkeys(zip(strats.strategy, strats.opponent, strict=True))]
    p_labels = [f"{a} − {b}" for a, b in dict.fromkeys(zip(pairs.strategy_a, pairs.strategy_b, strict=True))]
    for i, fmt in enumerate(FORMATS):
        s = strats[strats.format == fmt]
        y = [s_labels.index(f"{x} vs {o}") + offsets[fmt] for x, o in zip(s.strategy, s.opponent, strict=True)]
        ax1.errorbar(
            s.points_per_round, y, xerr=[s.points_per_round - s.points_per_round_lo, s.points_per_round_hi - s.points_per_round],
            fmt="o", ms=4, capsize=3, color=COLORS[i], label=FORMAT_LABELS[fmt],
        )  # fmt: skip
        q = pairs[pairs.format == fmt]
        y = [p_labels.index(f"{a} − {b}") + offsets[fmt] for a, b in zip(q.strategy_a, q.strategy_b, strict=True)]
        ax2.errorbar(
            q.points_per_round_diff, y,
            xerr=[q.points_per_round_diff - q.points_per_round_diff_lo, q.points_per_round_diff_hi - q.points_per_round_diff],
            fmt="o", ms=4, capsize=3, color=COLORS[i], label=FORMAT_LABELS[fmt],
        )  # fmt: skip
    ax1.set_yticks(range(len(s_labels)), s_labels)
    ax2.set_yticks(range(len(p_labels)), p_labels)
    ax1.set(title="Points per round, by strategy and match", xlabel="mean score per round, points", ylabel="strategy")
    ax2.set(title="Paired difference (same deals)", xlabel="difference in points per round, points", ylabel="pair")
    for ax, labels in ((ax1, s_labels), (ax2, p_labels)):
        ax.axvline(0, color="black", lw=0.6)
        ax.set_ylim(len(labels) - 0.4, -0.6)  # first row on top
    ax1.legend(loc="best")
    fig.suptitle(
        f"Duplicate matches, 6 seatings each: {deals:,} deals of {PLAYERS}x{CARDS} and {games:,} full games per pair; "
        "bars: 95% intervals (where not visible, narrower than the dot)",
        fontsize=9,
    )
    save(fig, outdir / NAME)

    hands = pairs[pairs.format == "4x10"]
    full = pairs[pairs.format == "games"]
    sent1 = "; ".join(
        f"{r.strategy_a} scores {_ci(r.points_per_round_diff, r.points_per_round_diff_lo, r.points_per_round_diff_hi)}"
        f" more points per round than {r.strategy_b}, and makes its bid "
        f"{_ci(r.hit_rate_diff, r.hit_rate_diff_lo, r.hit_rate_diff_hi, 1, 100, ' percentage points')} more often"
        for r in hands.itertuples()
    )
    # the share of games won by a strategy's seats together: (players / 2) x its win rate per seat
    won = strats[strats.format == "games"].set_index(["strategy", "opponent"])
    sent2 = "; ".join(
        f"{r.strategy_a} scores {_ci(r.points_per_game_diff, r.points_per_game_diff_lo, r.points_per_game_diff_hi, 0)}"
        f" more points per game than {r.strategy_b} and wins "
        f"{_ci(*won.loc[(r.strategy_a, r.strategy_b), ['win_rate', 'win_rate_lo', 'win_rate_hi']], 2, 50 * PLAYERS, '%')}"
        " of the games"
        for r in full.itertuples()
    )
    headline = (
        f"On the same {deals:,} deals of {PLAYERS} players x {CARDS} cards (duplicate, 6 seatings), {sent1}. "
        f"In {games:,} full {PLAYERS}-player games, {sent2}"
    )
    n_pairs = len(hands)
    return {
        "name": NAME,
        "question": QUESTION,
        "headline": headline,
        "sample": f"{n_pairs} pair(s) x ({deals:,} deals of {PLAYERS}x{CARDS} + {games:,} full games) x 6 seatings",
        "seed": seed,
        "files": [f"{NAME}.csv", f"{NAME}_strategies.csv", f"{NAME}.png", f"{NAME}.svg"],
        "command": f"python analyses/{NAME}.py --size {size} --seed {seed}",
    }


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=QUESTION)
    ap.add_argument("--size", choices=list(SIZES), default="default")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--out", default="results")
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    print(run(a.size, a.seed, Path(a.out), a.jobs)["headline"])
    sys.exit(0)
