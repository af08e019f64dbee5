"""The chart of ``results/players_compared``: points per round of each player by match, and the paired differences.

``results/pimc_compared`` (the pairs with ``pimc``) is drawn by the same :func:`draw`.
"""

from __future__ import annotations

import pandas as pd

from . import COLORS, figure

#: the CSV stems :func:`draw` reads, in its argument order
TABLES = ("players_compared", "players_compared_strategies")
GAMES = "games"  # the format of full games; the other format is duplicate deals, named "<players>x<cards>"


def _label(fmt: str, players: int) -> str:
    if fmt == GAMES:
        return f"{players}-player full games"
    n, k = fmt.split("x")
    return f"{n} players x {k} cards"


def draw(pairs: pd.DataFrame, strats: pd.DataFrame, slow: str = "pimc"):
    """Draw points per round by strategy and match (left) and the paired differences (right), with 95% bars.

    Parameters
    ----------
    pairs : pandas.DataFrame
        ``results/players_compared.csv``: a row per (``format``, ``strategy_a``, ``strategy_b``) with the
        ``deals`` and ``seatings`` behind it, ``pimc_samples`` (empty without pimc) and ``points_per_round_diff`` with its
        ``_lo``/``_hi`` bounds. ``format`` is ``"<players>x<cards>"`` (duplicate deals) or ``"games"``.
    strats : pandas.DataFrame
        ``results/players_compared_strategies.csv``: a row per (``format``, ``strategy``, ``opponent``) with
        ``points_per_round`` and its ``_lo``/``_hi`` bounds.
    slow : str, optional
        The name of the slow player, for the title (the pairs with a ``pimc_samples`` value are its pairs).

    Returns
    -------
    matplotlib.figure.Figure
        The chart.
    """
    fig, (ax1, ax2) = figure(1, 2, figsize=(12.0, 6.0), layout="constrained")
    hands = next((f for f in dict.fromkeys(pairs.format) if f != GAMES), "4x10")
    players, cards = (int(x) for x in hands.split("x"))
    formats = (hands, GAMES)  # duplicate deals above full games in each row
    offsets = {hands: -0.12, GAMES: 0.12}
    has_slow = pairs.pimc_samples.notna()
    n_of = {  # (a, b) -> deals per format (0: not played)
        key: {fmt: 0 for fmt in formats} | dict(zip(g.format, g.deals.astype(int), strict=True))
        for key, g in pairs.groupby(["strategy_a", "strategy_b"], sort=False)
    }
    fast = pairs[~has_slow]
    main = n_of[(fast.strategy_a.iloc[0], fast.strategy_b.iloc[0])] if len(fast) else None  # the usual sample

    def tag(a: str, b: str) -> str:
        n = n_of[(a, b)]
        if n == main:
            return ""
        return f" ({n[hands]:,} deals" + (f", {n[GAMES]:,} games)" if n[GAMES] else ")")

    s_keys = list(dict.fromkeys(zip(strats.strategy, strats.opponent, strict=True)))
    p_keys = list(dict.fromkeys(zip(pairs.strategy_a, pairs.strategy_b, strict=True)))
    for i, fmt in enumerate(formats):
        s = strats[strats.format == fmt]
        q = pairs[pairs.format == fmt]
        if s.empty:
            continue
        y = [s_keys.index((x, o)) + offsets[fmt] for x, o in zip(s.strategy, s.opponent, strict=True)]
        ax1.errorbar(
            s.points_per_round, y, xerr=[s.points_per_round - s.points_per_round_lo, s.points_per_round_hi - s.points_per_round],
            fmt="o", ms=4, capsize=3, color=COLORS[i], label=_label(fmt, players),
        )  # fmt: skip
        y = [p_keys.index((a, b)) + offsets[fmt] for a, b in zip(q.strategy_a, q.strategy_b, strict=True)]
        ax2.errorbar(
            q.points_per_round_diff, y,
            xerr=[q.points_per_round_diff - q.points_per_round_diff_lo, q.points_per_round_diff_hi - q.points_per_round_diff],
            fmt="o", ms=4, capsize=3, color=COLORS[i], label=_label(fmt, players),
        )  # fmt: skip
    pair_of = {k: (k if k in p_keys else k[::-1]) for k in s_keys}
    ax1.set_yticks(range(len(s_keys)), [f"{x} vs {o}{tag(*pair_of[(x, o)])}" for x, o in s_keys])
    ax2.set_yticks(range(len(p_keys)), [f"{a} − {b}{tag(a, b)}" for a, b in p_keys])
    ax1.set(title="Points per round, by strategy and match", xlabel="mean score per round, points", ylabel="strategy")
    ax2.set(title="Paired difference (same deals)", xlabel="difference in points per round, points", ylabel="pair")
    for ax, n_rows in ((ax1, len(s_keys)), (ax2, len(p_keys))):
        ax.axvline(0, color="black", lw=0.6)
        ax.set_ylim(n_rows - 0.4, -0.6)  # first row on top
    ax1.legend(loc="best")
    lines = []
    if main is not None:
        games = f" and {main[GAMES]:,} full games per pair" if main[GAMES] else " per pair, no full games"
        lines.append(f"{main[hands]:,} deals of {players}x{cards}{games}")
    if has_slow.any():
        q = pairs[has_slow]
        n = n_of[(q.strategy_a.iloc[0], q.strategy_b.iloc[0])]
        games = f"{n[GAMES]:,} full games" if n[GAMES] else "no full games"
        samples = int(q.pimc_samples.iloc[0])
        lines.append(f"pairs with {slow}: {n[hands]:,} deals, {games} ({slow}: {samples} samples per decision)")
    sizes = ";\n".join(lines)
    fig.suptitle(
        f"Duplicate matches, {int(pairs.seatings.iloc[0])} seatings each: {sizes};\nbars: 95% intervals (where not visible, narrower than the dot)",
        fontsize=9,
    )
    return fig
