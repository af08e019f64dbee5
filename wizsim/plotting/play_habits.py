"""The chart of ``results/play_habits``: points per round each card-play habit gains or loses over ``learned``."""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import COLORS, figure, sample_sizes

#: the CSV stems :func:`draw` reads, in its argument order
TABLES = ("play_habits", "play_habits_situations")


def draw(table: pd.DataFrame, situations: pd.DataFrame, deals: int | None = None, games: int | None = None):
    """Draw the gain over learned by habit and format (left) and the gain of changed rounds by need (right).

    Parameters
    ----------
    table : pandas.DataFrame
        ``results/play_habits.csv``: a row per (format, habit) with ``deals`` and ``gain`` with its
        ``_lo``/``_hi`` bounds. The first format (``4x10``, duplicate deals) orders the habits.
    situations : pandas.DataFrame
        ``results/play_habits_situations.csv``: ``gain_when_changed`` per habit by ``by`` and ``value``
        (of the first format); the rows with ``by == "need"`` make the right panel.
    deals : int, optional
        Duplicate deals per habit, for the title (default: the first format's ``deals``).
    games : int, optional
        Full games per player count, for the title (default: the ``deals`` of the second format).

    Returns
    -------
    matplotlib.figure.Figure
        The chart.
    """
    fmts = list(dict.fromkeys(table.format))
    duplicate = fmts[0]  # "4x10": the format the habits are ordered by and the situations come from
    deals, games = sample_sizes(table, deals, games)
    fig, (ax1, ax2) = figure(1, 2, figsize=(13.0, 6.0), layout="constrained")
    order = list(table[table.format == duplicate].sort_values("gain", ascending=False).habit)
    for i, fmt in enumerate(fmts):
        t = table[table.format == fmt].set_index("habit").loc[order]
        y = np.arange(len(order)) + (i - (len(fmts) - 1) / 2) * 0.15
        ax1.errorbar(t.gain, y, xerr=[t.gain - t.gain_lo, t.gain_hi - t.gain], fmt="o", ms=3.5, capsize=2,
                     color=COLORS[i % len(COLORS)], label=fmt)  # fmt: skip
    ax1.set_yticks(range(len(order)), order)
    ax1.set_ylim(len(order) - 0.5, -0.5)
    ax1.axvline(0, color="black", lw=0.6)
    ax1.set(title="Points per round gained over learned", xlabel="points per round (95% interval)")
    ax1.legend(loc="lower left", fontsize=8)
    need = situations[situations.by == "need"]
    labels = list(dict.fromkeys(need.value))  # "need <= -1", "need 0", "need 1", "need 2+"
    for i, habit in enumerate(order):
        c = need[need.habit == habit]
        x = np.arange(len(labels)) + (i - (len(order) - 1) / 2) * 0.08
        ax2.errorbar(x, c.gain_when_changed, yerr=[c.gain_when_changed - c.gain_when_changed_lo,
                     c.gain_when_changed_hi - c.gain_when_changed], fmt="o", ms=3, capsize=2,
                     color=COLORS[i % len(COLORS)], label=habit)  # fmt: skip
    ax2.set_xticks(range(len(labels)), labels)
    ax2.axhline(0, color="black", lw=0.6)
    ax2.set(title=f"Rounds the habit changed, by tricks needed at the first change ({duplicate})",
            ylabel="points gained per changed round")  # fmt: skip
    ax2.legend(fontsize=7)
    fig.suptitle(
        f"Each habit replaces learned's card only where it applies (seat 0 vs three learned players, same deals):"
        f" {deals:,} deals of {duplicate}, {games:,} full games per player count; bars: 95% intervals",
        fontsize=9,
    )
    return fig
