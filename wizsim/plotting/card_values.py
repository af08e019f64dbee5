"""The chart of ``results/card_values``: the tricks each dealt card contributes, for every player count."""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import COLORS, figure

#: the CSV stems :func:`draw` reads, in its argument order
TABLES = ("card_values",)


def _bars(v: pd.DataFrame) -> list:
    return [v.value - v.value_lo, v.value_hi - v.value]


def _chart_values(values: pd.DataFrame, n: int, group: str = "all") -> pd.DataFrame:
    """The cards a panel shows: suit cards, Wizard and Jester from the standard deck, the specials from the
    all-specials deck (``n`` players, round sizes ``group``)."""
    v = values[(values.players == n) & (values.round_sizes == group)]
    base = v[v.deck == "standard"]
    spec = v[(v.deck == "all specials") & (v.kind == "special")]
    return pd.concat([base, spec], ignore_index=True)


def value_panel(ax, values: pd.DataFrame, n: int, title: str, legend: bool = True, groups: bool = False) -> None:
    """Trump and off-suit values by rank (lines), then Wizard, Jester and the specials, with 95% error bars.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The panel.
    values : pandas.DataFrame
        ``results/card_values.csv`` (see :func:`draw`).
    n : int
        The player count.
    title : str
        The panel's title.
    legend : bool, optional
        Draw a legend (default True).
    groups : bool, optional
        Add the small and large round sizes as thinner lines (default False).
    """
    v = _chart_values(values, n)
    for kind, color, marker in (("trump", COLORS[0], "o"), ("off-suit", COLORS[1], "s")):
        t = v[v.kind == kind].sort_values("rank")
        ax.errorbar(t["rank"].astype(float), t.value, yerr=_bars(t), marker=marker, ms=3, capsize=2, color=color,
                    label=f"{kind}, all round sizes" if groups else kind)  # fmt: skip
        if groups:
            for group, style, dx in (("small", ":", -0.2), ("large", "--", 0.2)):
                g = _chart_values(values, n, group)
                g = g[g.kind == kind].sort_values("rank")
                ax.errorbar(g["rank"].astype(float) + dx, g.value, yerr=_bars(g), ls=style, lw=1, capsize=1.5,
                            color=color, alpha=0.7,
                            label=f"{kind}, k {g.k_min.iloc[0]}-{g.k_max.iloc[0]}")  # fmt: skip
    others = v[~v.kind.isin(["trump", "off-suit"])]
    xs = np.arange(len(others)) + 14.5
    ax.errorbar(xs, others.value, yerr=_bars(others), fmt="D", ms=3, capsize=2, color="black",
                label="Wizard, Jester; specials (all-specials deck)")  # fmt: skip
    ax.set_xticks(list(range(1, 14)) + list(xs))
    ax.set_xticklabels([str(r) for r in range(1, 14)] + list(others.card), rotation=90, fontsize=7)
    ax.axhline(0, color="black", lw=0.6)
    ax.set(title=title, xlabel="suit card rank (1-13) / card", ylabel="value, tricks per card held")
    if legend:
        ax.legend(fontsize=6.5, loc="upper left")


def draw(values: pd.DataFrame, strategy: str = "learned"):
    """Draw the card values for every player count: all round sizes and the small / large halves.

    Parameters
    ----------
    values : pandas.DataFrame
        ``results/card_values.csv``: a row per (deck, players, round_sizes, card) with ``kind``, ``rank``,
        ``k_min``, ``k_max``, ``value`` and its ``value_lo``/``value_hi`` bounds; a panel per player count,
        two per row.
    strategy : str, optional
        The self-play player, for the title (default ``"learned"``, the analysis's ``STRATEGY``: the table
        does not name it).

    Returns
    -------
    matplotlib.figure.Figure
        The chart.
    """
    players = sorted(int(n) for n in values.players.unique())
    ncols = min(2, len(players))
    nrows = -(-len(players) // ncols)
    fig, axes = figure(nrows, ncols, figsize=(6 * ncols, 4.75 * nrows), sharey=True, layout="constrained",
                       squeeze=False)  # fmt: skip
    for ax in axes.flat[len(players) :]:
        ax.set_visible(False)
    for ax, n in zip(axes.flat, players, strict=False):
        value_panel(ax, values, n, f"{n} players", legend=True, groups=True)
    fig.suptitle("Card values: expected tricks a dealt card contributes (regression on the dealt hand, "
                 f"{strategy} self-play); bars: 95% intervals", fontsize=9)  # fmt: skip
    return fig
