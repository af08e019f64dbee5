"""The chart of ``results/bid_probabilities``: tricks taken and best bid by hand features, and one-card P(win)."""

from __future__ import annotations

import pandas as pd

from . import COLORS, figure

#: the CSV stems :func:`draw` reads, in its argument order
TABLES = ("bid_probabilities_optimal", "one_card_breakeven")

#: the x axis of panel a): trump cards in hand (``none``: a round without trump)
TRUMPS = ("none", "0", "1", "2", "3", "4+")
#: the Wizard classes drawn in panel a) (``3+`` is rare in small rounds)
WIZARDS = ("0", "1", "2")
#: bid 1 in a one-card round iff P(win) > 3/7
BREAKEVEN = 3 / 7


def _errbar(ax, x, df: pd.DataFrame, col: str, **kw) -> None:
    ax.errorbar(x, df[col], yerr=[df[col] - df[f"{col}_lo"], df[f"{col}_hi"] - df[col]], capsize=2, **kw)


def draw(bids: pd.DataFrame, one: pd.DataFrame, players: int = 4, cards: int = 5, strategy: str | None = None):
    """Draw a) mean tricks and best bid by Wizards and trumps held, b) P(win) of a one-card hand by rank and position.

    Parameters
    ----------
    bids : pandas.DataFrame
        ``results/bid_probabilities_optimal.csv``: a row per (players, cards, wizards, trumps, aces) cell with
        ``mean_tricks`` and its ``_lo``/``_hi`` bounds, ``best_bid`` and ``strategy``.
    one : pandas.DataFrame
        ``results/one_card_breakeven.csv``: a row per (players, position, indicator, card class) with ``kind``,
        ``rank``, ``p_win_exact`` and ``p_win_sim`` with its ``_lo``/``_hi`` bounds.
    players : int, optional
        The player count of both panels (default 4).
    cards : int, optional
        The round size of panel a) (default 5).
    strategy : str, optional
        The self-play player, for the title (default: the ``strategy`` column of ``bids``).

    Returns
    -------
    matplotlib.figure.Figure
        The chart.
    """
    n, k = players, cards
    if strategy is None:
        strategy = str(bids.strategy.iloc[0])
    fig, (ax1, ax2) = figure(1, 2, figsize=(11.5, 4.8))
    sel = bids[(bids.players == n) & (bids.cards == k) & (bids.aces.astype(str) == "any")]
    xt = {lab: i for i, lab in enumerate(TRUMPS)}
    for i, wz in enumerate(WIZARDS):
        d = sel[sel.wizards.astype(str) == wz]
        if d.empty:
            continue
        x = d.trumps.astype(str).map(xt).to_numpy() + (i - 1) * 0.08
        _errbar(ax1, x, d, "mean_tricks", marker="o", ms=4, color=COLORS[i], label=f"{wz} Wizards: mean tricks")
        ax1.plot(x, d.best_bid, ls="none", marker="_", ms=14, mew=2, color=COLORS[i], label=f"{wz} Wizards: best bid")
    ax1.set_xticks(range(len(TRUMPS)), [f"{lab}" for lab in TRUMPS])
    ax1.set(title=f"a) {n} players, {k} cards: tricks taken and best bid",
            xlabel="trump cards in hand (none = no trump)", ylabel="tricks (mean, 95% CI) / best bid")  # fmt: skip
    ax1.legend(fontsize=7, ncol=2, loc="upper left")
    d = one[(one.players == n) & (one.indicator == "suit card") & one.kind.isin(["trump", "off-suit"])]
    for q in range(1, n + 1):
        for kind, ls, mk in (("trump", "-", "o"), ("off-suit", "--", "s")):
            e = d[(d.position == q) & (d.kind == kind)].sort_values("rank")
            ax2.plot(e["rank"], e.p_win_exact, ls=ls, color=COLORS[(q - 1) % len(COLORS)], lw=1,
                     label=f"position {q}, {kind}")  # fmt: skip
            _errbar(ax2, e["rank"], e, "p_win_sim", ls="none", marker=mk, ms=3, color=COLORS[(q - 1) % len(COLORS)])
    ax2.axhline(BREAKEVEN, color="black", lw=0.8, ls=":", label="break-even 3/7: bid 1 above")
    ax2.set(title=f"b) one card, {n} players, suit card turned up",
            xlabel="card rank (13 high)", ylabel="P(take the trick)", ylim=(-0.02, 1.02))  # fmt: skip
    ax2.set_xticks(range(1, 14))
    ax2.legend(fontsize=6.5, ncol=2, loc="upper left")
    fig.suptitle(
        f"{strategy} self-play; a) aces pooled, bars: 95% intervals (rounds as clusters); "
        "b) lines exact, markers simulated with 95% Wilson intervals",
        fontsize=9,
    )
    return fig
