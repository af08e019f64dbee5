"""How well do the built-in players bid, by round size? (4 players, full standard games)

Random and heuristic self-play on the same deals (common random numbers:
dealing has its own random stream), pooled over seat positions. Writes
``results/strategies_by_round_size.csv`` and a chart (.png, .svg).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

import wizsim
from wizsim.plotting import figure, save

NAME = "strategies_by_round_size"
QUESTION = "How often do the built-in players make their bid, and what do they score, by round size?"
SIZES = {"quick": 200, "default": 20_000, "full": 200_000}  # games per strategy
STRATEGIES = ("random", "heuristic")


def run(size: str = "default", seed: int = 20261129, outdir: Path = Path("results"), jobs: int = 1) -> dict:
    """Run the analysis; return its headline numbers and provenance."""
    games = SIZES[size]
    tables, overall = [], []
    for strategy in STRATEGIES:
        res = wizsim.simulate_result(4, games=games, seed=seed, strategy=strategy, jobs=jobs)
        tables.append(res.table(by_position=False))
        overall.append(res.summary().assign(games=games))
    table = pd.concat(tables, ignore_index=True)
    outdir.mkdir(parents=True, exist_ok=True)
    from wizsim.io import write_table

    write_table(table, outdir / f"{NAME}.csv")

    fig, (ax1, ax2) = figure(1, 2)
    for strategy in STRATEGIES:
        t = table[table.strategy == strategy]
        ax1.errorbar(t.cards, 100 * t.hit_rate, yerr=[100 * (t.hit_rate - t.hit_rate_lo), 100 * (t.hit_rate_hi - t.hit_rate)],
                     marker="o", ms=3, capsize=2, label=strategy)  # fmt: skip
        ax2.errorbar(t.cards, t.mean_score, yerr=[t.mean_score - t.mean_score_lo, t.mean_score_hi - t.mean_score],
                     marker="o", ms=3, capsize=2, label=strategy)  # fmt: skip
    ax1.set(
        title="Bid made (hit rate)", xlabel="cards per player (round)", ylabel="hit rate, % of rounds", ylim=(0, 100)
    )
    ax2.set(title="Points per round", xlabel="cards per player (round)", ylabel="mean score, points")
    ax2.axhline(0, color="black", lw=0.6)
    for ax in (ax1, ax2):
        ax.set_xticks(sorted(table.cards.unique()))
    ax1.legend()
    fig.suptitle(f"4 players, {games:,} full games per player type, same deals; bars: 95% intervals", fontsize=9)
    save(fig, outdir / NAME)

    summ = pd.concat(overall, ignore_index=True).set_index("strategy")
    h, r = summ.loc["heuristic"], summ.loc["random"]
    headline = (
        f"heuristic self-play makes its bid in {100 * h.hit_rate:.1f}% of rounds "
        f"(95% CI {100 * h.hit_rate_lo:.1f}-{100 * h.hit_rate_hi:.1f}) and scores {h.mean_score:.2f} "
        f"± {(h.mean_score_hi - h.mean_score_lo) / 2:.2f} points per round; random play: "
        f"{100 * r.hit_rate:.1f}% and {r.mean_score:.2f} ± {(r.mean_score_hi - r.mean_score_lo) / 2:.2f}"
    )
    return {
        "name": NAME,
        "question": QUESTION,
        "headline": headline,
        "sample": f"{games:,} games x 15 rounds x 4 seats per strategy",
        "seed": seed,
        "files": [f"{NAME}.csv", f"{NAME}.png", f"{NAME}.svg"],
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
