"""The chart of ``results/expected_tricks``: mean tricks by round size and seat position, and card values."""

from __future__ import annotations

import pandas as pd

from . import COLORS, figure
from .card_values import value_panel

#: the CSV stems :func:`draw` reads, in its argument order
TABLES = ("expected_tricks", "card_values")


def draw(tricks: pd.DataFrame, values: pd.DataFrame, games: int | None = None, players: int = 4,
         strategy: str = "learned"):  # fmt: skip
    """Draw (a) mean tricks by round size, (b) by seat position and (c) card values for one player count.

    Parameters
    ----------
    tricks : pandas.DataFrame
        ``results/expected_tricks.csv``: a row per (deck, players, cards, position, measure, tricks) with
        ``estimate``, ``lo``, ``hi`` and ``rounds``; panel (a) draws every player count in it.
    values : pandas.DataFrame
        ``results/card_values.csv``, as :func:`wizsim.plotting.card_values.draw` reads it.
    games : int, optional
        Full games per player count and deck, for the title (default: the rounds of one round size, as the
        table has them: a full game plays every round size once).
    players : int, optional
        The player count of panels (b) and (c) (default 4).
    strategy : str, optional
        The self-play player, for the title (default ``"learned"``, the analysis's ``STRATEGY``: the tables
        do not name it).

    Returns
    -------
    matplotlib.figure.Figure
        The chart.
    """
    means = tricks[tricks.measure == "mean_tricks"]
    if games is None:
        games = int(means.rounds.iloc[0])
    fig, (ax1, ax2, ax3) = figure(1, 3, figsize=(15, 5), layout="constrained")
    for i, n in enumerate(sorted(int(n) for n in tricks.players.unique())):
        for deck, style in (("standard", "-"), ("all specials", "--")):
            t = means[(means.deck == deck) & (means.players == n) & (means.position == 0)]
            ax1.plot(t.cards, t.estimate, style, color=COLORS[i % len(COLORS)], lw=1.2,
                     label=f"{n} players" if deck == "standard" else None)  # fmt: skip
            ax1.fill_between(t.cards, t.lo, t.hi, color=COLORS[i % len(COLORS)], alpha=0.25, lw=0)
    ax1.plot([], [], "--", color="grey", label="all specials (the Bomb voids tricks)")
    ax1.set(title="(a) Mean tricks per player", xlabel="cards per player (round size)", ylabel="mean tricks per player")
    ax1.legend(fontsize=7)
    n = players
    tn = means[(means.deck == "standard") & (means.players == n) & (means.position > 0)]
    for p in range(1, n + 1):
        t = tn[tn.position == p]
        fair = t.cards / n
        name = {1: "1 (bids first, leads)", n: f"{n} (dealer)"}.get(p, str(p))
        ax2.plot(t.cards, t.estimate - fair, color=COLORS[(p - 1) % len(COLORS)], lw=1.2, label=f"position {name}")
        ax2.fill_between(t.cards, t.lo - fair, t.hi - fair, color=COLORS[(p - 1) % len(COLORS)], alpha=0.25, lw=0)
    ax2.axhline(0, color="black", lw=0.6)
    ax2.set(title=f"(b) By seat position, {n} players", xlabel="cards per player (round size)",
            ylabel=f"mean tricks minus fair share k/{n}, tricks")  # fmt: skip
    ax2.legend(fontsize=7)
    value_panel(ax3, values, n, f"(c) Card values, {n} players")
    fig.suptitle(f"{strategy} self-play, {games:,} full games per player count and deck; bands and bars: 95% intervals",
                 fontsize=9)  # fmt: skip
    return fig
