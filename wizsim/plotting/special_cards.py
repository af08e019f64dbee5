"""The chart of ``results/special_cards``: how each special-card deck changes hit rate, miss size and points."""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import figure

#: the CSV stems :func:`draw` reads, in its argument order
TABLES = ("special_cards",)

PANELS = (
    ("hit_rate", 100.0, "Hit rate vs standard deck", "difference in hit rate, percentage points"),
    ("mean_abs_diff", 1.0, "Miss size vs standard deck", "difference in mean |bid - tricks|, tricks"),
    ("mean_score", 1.0, "Points vs standard deck", "difference in mean score, points per round"),
)


def draw(table: pd.DataFrame, strategy: str = "learned", players: int = 4):
    """Draw each deck's difference from the standard deck, pooled over the game's rounds, by player count.

    Parameters
    ----------
    table : pandas.DataFrame
        ``results/special_cards.csv`` (long format): rows with ``cards == "game"`` give per ``players``,
        ``deck`` and ``metric`` the ``diff`` from the standard deck and its ``diff_lo``/``diff_hi``, and
        ``games``. The decks are shown in the table's order.
    strategy : str
        The self-play player, for the title.
    players : int
        The player count of the headline, whose games the title gives first (others in parentheses).

    Returns
    -------
    matplotlib.figure.Figure
        The chart.
    """
    pooled = table[(table.cards.astype(str) == "game") & (table.deck != "standard")]
    decks = list(dict.fromkeys(pooled.deck))
    counts = sorted(pooled.players.unique())
    games = pooled.groupby("players").games.first()
    fig, axes = figure(1, 3, figsize=(14.0, 5.0))
    x = np.arange(len(decks))
    for ax, (metric, scale, title, ylabel) in zip(axes, PANELS, strict=True):
        for i, (n, marker) in enumerate(zip(counts, "osD^", strict=False)):
            t = pooled[(pooled.players == n) & (pooled.metric == metric)].set_index("deck").loc[decks]
            d = scale * t["diff"].to_numpy()
            err = [d - scale * t.diff_lo.to_numpy(), scale * t.diff_hi.to_numpy() - d]
            ax.errorbar(x + 0.16 * (i - (len(counts) - 1) / 2), d, yerr=err, fmt=marker, ms=4, capsize=2,
                        label=f"{n} players")  # fmt: skip
        ax.axhline(0, color="black", lw=0.6)
        ax.set_xticks(x, decks, rotation=35, ha="right")
        ax.set(title=title, xlabel="deck (standard 60 cards plus)", ylabel=ylabel)
    axes[0].legend()
    others = [int(n) for n in counts if n != players]
    main = f"{int(games[players]):,} full games per deck with {players} players" if players in games else ""
    if others and main:
        main += f" ({int(games[others[0]]):,} with {', '.join(map(str, others))})"
    elif others:
        main = f"{int(games[others[0]]):,} full games per deck with {', '.join(map(str, others))} players"
    fig.suptitle(
        f"{strategy} self-play, {main}, pooled over"
        " the game's rounds (the same for every deck: 60/n rounds, the last without trump); bars:"
        " independent-sample 95% intervals",
        fontsize=9,
    )
    return fig
