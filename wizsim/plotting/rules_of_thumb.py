"""The chart of ``results/rules_of_thumb``: points per round each bidding rule of thumb loses against the best bidder."""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import COLORS, figure, sample_sizes

#: the CSV stems :func:`draw` reads, in its argument order
TABLES = ("rules_of_thumb", "rules_of_thumb_cells")


def draw(table: pd.DataFrame, cells: pd.DataFrame, deals: int | None = None, games: int | None = None):
    """Draw the loss of every bidder in each format (left) and by round size in full games (right).

    Parameters
    ----------
    table : pandas.DataFrame
        ``results/rules_of_thumb.csv``: a row per (format, bidder) with ``source``, ``deals`` and ``loss`` with
        its ``_lo``/``_hi`` bounds. The first format (``4x10``, duplicate deals) orders the bidders.
    cells : pandas.DataFrame
        ``results/rules_of_thumb_cells.csv``: the loss per bidder by ``by`` and ``value``; the rows with
        ``by == "cards"`` (one full-game format) make the right panel.
    deals : int, optional
        Duplicate deals per bidder, for the title (default: the first format's ``deals``).
    games : int, optional
        Full games per player count, for the title (default: the ``deals`` of the second format).

    Returns
    -------
    matplotlib.figure.Figure
        The chart.
    """
    fmts = list(dict.fromkeys(table.format))
    duplicate = fmts[0]  # "4x10": the format the bidders are ordered by
    deals, games = sample_sizes(table, deals, games)
    fig, (ax1, ax2) = figure(1, 2, figsize=(13.0, 6.0), layout="constrained")
    order = list(table[table.format == duplicate].sort_values("loss").bidder)
    for i, fmt in enumerate(fmts):
        t = table[table.format == fmt].set_index("bidder").loc[order]
        y = np.arange(len(order)) + (i - (len(fmts) - 1) / 2) * 0.15
        ax1.errorbar(t.loss, y, xerr=[t.loss - t.loss_lo, t.loss_hi - t.loss], fmt="o", ms=3.5, capsize=2,
                     color=COLORS[i % len(COLORS)], label=fmt)  # fmt: skip
    source = dict(zip(table.bidder, table.source, strict=False))
    ax1.set_yticks(range(len(order)), [f"{b} [{source[b]}]" for b in order])
    ax1.set_ylim(len(order) - 0.5, -0.5)
    ax1.axvline(0, color="black", lw=0.6)
    ax1.set(title="Points per round lost against the best bidder", xlabel="points per round (95% interval)")
    ax1.legend(loc="lower right", fontsize=8)
    by_k = cells[(cells.by == "cards")]
    best_k = by_k.best_bidder.iloc[0]
    others = [b for b in order if b != best_k]
    shown = others[:3] + [b for b in others[-3:] if b not in others[:3]]  # the three best and the three worst
    for i, b in enumerate(shown):
        c = by_k[by_k.bidder == b]
        ax2.errorbar(c.value.astype(int), c.loss, yerr=[c.loss - c.loss_lo, c.loss_hi - c.loss], fmt="o-", ms=3,
                     capsize=2, lw=1, color=COLORS[i % len(COLORS)], label=b)  # fmt: skip
    ax2.axhline(0, color="black", lw=0.6)
    ax2.set(title=f"By round size, {by_k.format.iloc[0]} (against {best_k})", xlabel="cards per player",
            ylabel="points lost per round")  # fmt: skip
    ax2.legend(fontsize=8)
    fig.suptitle(
        f"Every bidder plays learned's cards against three learned players on the same deals: {deals:,} deals"
        f" of {duplicate}, {games:,} full games per player count; bars: 95% intervals",
        fontsize=9,
    )
    return fig
