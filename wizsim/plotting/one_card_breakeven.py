"""The chart of ``results/one_card_breakeven``: P(win) of a one-card hand by card, indicator and position."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from . import COLORS, figure

#: the CSV stems :func:`draw` reads, in its argument order
TABLES = ("one_card_breakeven",)

#: bid 1 in a one-card round iff P(win) > 3/7
BREAKEVEN = 3 / 7

# x: Jester, off-suit 1-13, no-trump 1-13, trump 1-13, Wizard (gaps between the groups)
XPOS = {"Jester": -1, "Wizard": 45}
for _i, _kind in enumerate(("off-suit", "no-trump", "trump")):
    XPOS.update({f"{_kind} {r}": 2 + 14 * _i + r - 1 for r in range(1, 14)})
# (indicator, card classes in x order, line style); solid lines: a suit card turned up (a Jester turned up for
# the no-trump group), dashed: a Wizard turned up (the dealer names trump)
GROUPS = [
    ("suit card", ["Jester"], "-"),
    ("suit card", [f"off-suit {r}" for r in range(1, 14)], "-"),
    ("Jester", [f"no-trump {r}" for r in range(1, 14)], "-"),
    ("suit card", [f"trump {r}" for r in range(1, 14)], "-"),
    ("suit card", ["Wizard"], "-"),
    ("Wizard", [f"off-suit {r}" for r in range(1, 14)], "--"),
    ("Wizard", [f"trump {r}" for r in range(1, 14)], "--"),
]


def draw(one: pd.DataFrame):
    """Draw exact and simulated P(win) of every one-card hand, a panel per player count, a colour per position.

    Parameters
    ----------
    one : pandas.DataFrame
        ``results/one_card_breakeven.csv``: a row per (players, position, indicator, card_class) with
        ``trump_rule``, ``p_win_exact`` and ``p_win_sim`` with its ``_lo``/``_hi`` bounds; the panels are its
        player counts, two per row.

    Returns
    -------
    matplotlib.figure.Figure
        The chart.
    """
    players = sorted(int(n) for n in one.players.unique())
    wizard = one.trump_rule[one.indicator == "Wizard"]
    random_dealer = len(wizard) > 0 and "random" in str(wizard.iloc[0])
    dealer = "the dealer names a random suit" if random_dealer else "the dealer names the suit of their card"
    ncols = min(2, len(players))
    nrows = math.ceil(len(players) / ncols)
    fig, axes = figure(nrows, ncols, figsize=(6 * ncols, 4 * nrows), sharex=True, sharey=True, squeeze=False)
    for ax in axes.ravel()[len(players) :]:
        ax.set_visible(False)
    for ax, n in zip(axes.ravel(), players, strict=False):
        d = one[one.players == n]
        for q in range(1, n + 1):
            col = COLORS[(q - 1) % len(COLORS)]
            shift = (q - (n + 1) / 2) * 0.12
            for gi, (ind, classes, ls) in enumerate(GROUPS):
                e = d[(d.position == q) & (d.indicator == ind)].set_index("card_class")
                e = e.loc[[c for c in classes if c in e.index]]
                if e.empty:
                    continue
                x = np.array([XPOS[c] for c in e.index], dtype=float) + shift
                ax.plot(x, e.p_win_exact, ls=ls, color=col, lw=1, label=f"position {q}" if gi == 0 else None)
                ax.vlines(x, e.p_win_sim_lo, e.p_win_sim_hi, color=col, lw=0.8)
                ax.plot(x, e.p_win_sim, ls="none", marker="o" if ls == "-" else "x", ms=1.8, color=col)
        ax.axhline(BREAKEVEN, color="black", lw=0.8, ls=":")
        ax.set_title(f"{n} players", fontsize=10)
        ax.set_xticks([-1, 8, 22, 36, 45], ["J", "off-suit", "no trump", "trump", "W"])
        ax.legend(fontsize=7, loc="upper left")
    for ax in axes[:, 0]:
        ax.set_ylabel("P(take the trick)")
    for ax in axes[-1]:
        ax.set_xlabel("card held: Jester, ranks 1-13 of each group (13 high), Wizard")
    fig.suptitle(
        "One-card rounds: P(win) by card, indicator and position (1 leads, last deals); solid: a suit card turned up "
        "(no trump: a Jester turned up), dashed: a Wizard turned up\n"
        f"({dealer}); lines exact, dots simulated with 95% Wilson intervals; dotted: 3/7 (bid 1 above it)",
        fontsize=9,
    )
    return fig
