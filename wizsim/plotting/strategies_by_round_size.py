"""The chart of ``results/strategies_by_round_size``: hit rate and points per round of each player, by round size."""

from __future__ import annotations

import pandas as pd

from . import figure

#: the CSV stems :func:`draw` reads, in its argument order
TABLES = ("strategies_by_round_size",)


def draw(table: pd.DataFrame, games: int | None = None):
    """Draw hit rate and points per round by round size, one line per player, with 95% intervals.

    Parameters
    ----------
    table : pandas.DataFrame
        ``results/strategies_by_round_size.csv``: a row per (strategy, cards) with ``hit_rate``,
        ``mean_score`` and their ``_lo``/``_hi`` bounds, and ``rounds``.
    games : int, optional
        Full games per player, for the title (default: the rounds of one round size, as the table has them).

    Returns
    -------
    matplotlib.figure.Figure
        The chart.
    """
    strategies = list(dict.fromkeys(table.strategy))  # the table's order: weakest first
    if games is None:
        games = int(table.rounds.iloc[0]) // 4  # rounds of one size are pooled over 4 seats
    fig, (ax1, ax2) = figure(1, 2)
    for i, strategy in enumerate(strategies):
        t = table[table.strategy == strategy]
        x = t.cards + 0.15 * (i - (len(strategies) - 1) / 2)  # side by side: bars do not hide each other
        ax1.errorbar(x, 100 * t.hit_rate, yerr=[100 * (t.hit_rate - t.hit_rate_lo), 100 * (t.hit_rate_hi - t.hit_rate)],
                     marker="o", ms=3, capsize=2, label=strategy)  # fmt: skip
        ax2.errorbar(x, t.mean_score, yerr=[t.mean_score - t.mean_score_lo, t.mean_score_hi - t.mean_score],
                     marker="o", ms=3, capsize=2, label=strategy)  # fmt: skip
    ax1.set(
        title="Bid made (hit rate)", xlabel="cards per player (round)", ylabel="hit rate, % of rounds", ylim=(0, 100)
    )
    ax2.set(title="Points per round", xlabel="cards per player (round)", ylabel="mean score, points")
    ax2.axhline(0, color="black", lw=0.6)
    for ax in (ax1, ax2):
        ax.set_xticks(sorted(table.cards.unique()))
    ax1.legend()
    fig.suptitle(
        f"4 players, self-play, {games:,} full games per player type, same deals; bars: 95% intervals", fontsize=9
    )
    return fig
