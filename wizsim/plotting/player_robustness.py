"""The chart of ``results/player_robustness``: pimc − learned for every headline, and a ladder per disagreement."""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import figure

#: the CSV stems :func:`draw` reads, in its argument order
TABLES = ("player_robustness", "player_robustness_ladder")


def draw(table: pd.DataFrame, ladder: pd.DataFrame, cols: int = 3):
    """Draw pimc − learned (the table's second player minus its first) for every headline (top) and one ladder panel per disagreeing headline (below).

    Parameters
    ----------
    table : pandas.DataFrame
        ``results/player_robustness.csv``: a row per (``headline``, ``unit``) with each player's value (the
        columns between ``unit`` and ``diff``: ``learned``, ``pimc`` and their bounds), ``diff`` (the second
        player minus the first) with its ``diff_lo``/``diff_hi`` bounds and ``agree`` (the interval covers 0);
        rows in the unit ``bid`` (a bid, no interval) are left out of the top panel.
    ladder : pandas.DataFrame
        ``results/player_robustness_ladder.csv``: a row per (``headline``, ``unit``, ``rung``) with the
        ``player`` and its ``value``, ``lo`` and ``hi``.
    cols : int, optional
        Ladder panels per row.

    Returns
    -------
    matplotlib.figure.Figure
        The chart.
    """
    names = list(table.columns)
    first, second = (c for c in names[names.index("unit") + 1 : names.index("diff")] if not c.endswith(("_lo", "_hi")))
    heads = list(dict.fromkeys(zip(ladder.headline, ladder.unit, strict=True)))
    rows = 1 + -(-len(heads) // cols)
    fig, grid = figure(rows, cols, figsize=(15.0, 7.0 + 3.6 * (rows - 1)), squeeze=False,
                       gridspec_kw={"height_ratios": [2.2] + [1.0] * (rows - 1)})  # fmt: skip
    for ax in grid[0, 1:]:
        ax.remove()
    ax = fig.add_subplot(grid[0, 0].get_gridspec()[0, :])
    grid[0, 0].remove()
    t = table[~table.unit.eq("bid")]
    y = np.arange(len(t))
    d = t["diff"].to_numpy()
    lo, hi = d - t.diff_lo.to_numpy(), t.diff_hi.to_numpy() - d
    for i, ok in enumerate(t.agree.to_numpy()):
        ax.errorbar(d[i], y[i], xerr=[[lo[i]], [hi[i]]], fmt="o", ms=3, capsize=2,
                    color="tab:blue" if ok else "tab:red")  # fmt: skip
    ax.axvline(0, color="black", lw=0.6)
    ax.set_yticks(y, [f"{h} ({u})" for h, u in zip(t.headline, t.unit, strict=True)], fontsize=7)
    ax.invert_yaxis()
    ax.set(title=f"{second} - {first} on the same deals, 95% intervals (red: the interval misses 0)",
           xlabel="difference, in the headline's unit")  # fmt: skip
    panels = list(grid[1:].ravel())
    for ax, (h, u) in zip(panels, heads, strict=False):
        r = ladder[(ladder.headline == h) & (ladder.unit == u)]
        x = r.rung.to_numpy()
        v = r.value.to_numpy()
        ax.errorbar(x, v, yerr=[v - r.lo.to_numpy(), r.hi.to_numpy() - v], fmt="o-", capsize=3)
        ax.set_xticks(x, [p.replace("(samples=64,bid_samples=64)", " K=64") for p in r.player], fontsize=7)
        ax.set_title(h if len(h) < 48 else h.replace(": ", ":\n", 1), fontsize=8)
        ax.set(ylabel=u)
    for ax in panels[len(heads) :]:
        ax.remove()
    fig.subplots_adjust(hspace=0.5)
    return fig
