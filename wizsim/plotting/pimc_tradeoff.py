"""The chart of ``results/pimc_tradeoff``: pimc's points per round over the heuristic against its sampled deals K."""

from __future__ import annotations

import pandas as pd

from . import COLORS, figure

#: the CSV stems :func:`draw` reads, in its argument order
TABLES = ("pimc_tradeoff",)
LABELS = {"heuristic": "rollout=0: everyone by the heuristic", "seats": "rollout=4: each seat as it plays"}


def draw(table: pd.DataFrame, deals: int | None = None, players: int = 4, cards: int = 10, opponent: str = "heuristic"):
    """Draw pimc − heuristic (or ``opponent``) in points per round against K, one line per rollout policy, with 95% bars.

    Parameters
    ----------
    table : pandas.DataFrame
        ``results/pimc_tradeoff.csv``: a row per setting with ``rollout`` (``heuristic`` or ``seats``),
        ``samples`` (K), ``deals`` and ``points_per_round_diff`` with its ``_lo``/``_hi`` bounds.
    deals : int, optional
        Duplicate deals per setting, for the title (default: the table's ``deals`` of the first row).
    players, cards : int, optional
        The deal's format, for the title (the analysis plays 4 players x 10 cards).
    opponent : str, optional
        The strategy pimc played against, for the title.

    Returns
    -------
    matplotlib.figure.Figure
        The chart.
    """
    if deals is None:
        deals = int(table.deals.iloc[0])
    fig, ax = figure(1, 1, figsize=(7.0, 4.5), layout="constrained")
    for i, (r, t) in enumerate(table.groupby("rollout", sort=False)):
        d = t.points_per_round_diff
        ax.errorbar(t.samples, d, yerr=[d - t.points_per_round_diff_lo, t.points_per_round_diff_hi - d], marker="o",
                    ms=4, capsize=3, color=COLORS[i], label=LABELS.get(str(r), str(r)))  # fmt: skip
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted(table.samples.unique()), [str(k) for k in sorted(table.samples.unique())])
    ax.set(
        title=f"pimc − {opponent}, duplicate {players}x{cards}, {deals:,} deals per point (95% bars)",
        xlabel="sampled deals per decision (K, card play and bids)",
        ylabel="points per round",
    )
    ax.legend(loc="best")
    return fig
