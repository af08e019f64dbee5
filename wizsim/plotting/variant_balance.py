"""The chart of ``results/variant_balance``: how the rule variants change accuracy, points, seats and skill."""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import COLORS, figure

#: the CSV stems :func:`draw` reads, in its argument order
TABLES = ("variant_balance", "variant_seats")


def _players(table: pd.DataFrame) -> tuple[str, str]:
    """The strong and the weak player, from the description of ``skill_gap_points`` ("learned minus random, ...")."""
    description = table[table.metric == "skill_gap_points"].description.iloc[0]
    strong, rest = description.split(" minus ", 1)
    return strong, rest.split(",", 1)[0]


def draw(table: pd.DataFrame, seats: pd.DataFrame, players: int = 4):
    """Draw six panels per rule variant: hit rate, points, dealer advantage, skill gap, seat wins, spread of totals.

    Parameters
    ----------
    table : pandas.DataFrame
        ``results/variant_balance.csv``: per ``players``, ``variant`` and ``metric`` the ``estimate`` with
        ``lo``/``hi``, ``games`` and ``description`` (which names the strong and the weak player).
    seats : pandas.DataFrame
        ``results/variant_seats.csv``: the rows with ``kind == "seat_win_rate"`` give each seat's win probability.
    players : int
        The player count of the panels that show one (points per round, win probability by seat); its variants,
        in the table's order, are the x axis.

    Returns
    -------
    matplotlib.figure.Figure
        The chart.
    """
    n = players
    strategy, weak = _players(table)
    variants = list(dict.fromkeys(table[table.players == n].variant))
    n_games = {int(p): int(g) for p, g in table.groupby("players", sort=False).games.first().items()}
    all_players = sorted(n_games)
    fig, axes = figure(2, 3, figsize=(16.0, 9.5))
    x = np.arange(len(variants))

    def bars(ax, metric: str, players: int, scale: float = 1.0, offset: float = 0.0, **kw) -> None:
        r = table[(table.players == players) & (table.metric == metric)].set_index("variant")
        r = r.reindex(variants)  # a variant rejected at this player count leaves a gap
        est = scale * r.estimate.to_numpy()
        err = [est - scale * r.lo.to_numpy(), scale * r.hi.to_numpy() - est]
        ax.errorbar(x + offset, est, yerr=err, fmt=kw.pop("marker", "o"), ms=4, capsize=2, **kw)

    def by_players(ax, metric: str, scale: float = 1.0) -> None:
        for i, (p, marker) in enumerate(zip(all_players, "s^oD", strict=False)):
            offset = 0.15 * (i - (len(all_players) - 1) / 2)
            bars(ax, metric, p, scale, offset, marker=marker, color=COLORS[i], label=f"{p} players")

    (a1, a2, a3), (a4, a5, a6) = axes
    by_players(a1, "hit_rate", 100.0)
    a1.set(title=f"Bid made, {strategy} self-play", ylabel="hit rate, % of player-rounds")
    a1.legend()
    bars(a2, "points_mean", n, offset=-0.1, label="mean", color=COLORS[0])
    bars(a2, "points_sd", n, offset=0.1, label="standard deviation", color=COLORS[1])
    a2.set(title=f"Points per round, {n} players, {strategy} self-play", ylabel="points per player-round")
    a2.legend()
    by_players(a3, "dealer_minus_others")
    a3.set(title=f"Dealer advantage, {strategy} self-play", ylabel="dealer minus other positions, points per round")
    by_players(a4, "skill_gap_points")
    a4.set(title=f"Skill gap: {strategy} minus {weak}, same table", ylabel="difference in points per round")
    wins = seats[(seats.players == n) & (seats.kind == "seat_win_rate")]
    for seat in range(n):
        w = wins[wins["index"] == seat].set_index("variant").reindex(variants)
        est = 100 * w.estimate.to_numpy()
        err = [est - 100 * w.lo.to_numpy(), 100 * w.hi.to_numpy() - est]
        a5.errorbar(x + 0.15 * (seat - (n - 1) / 2), est, yerr=err, fmt="o", ms=4, capsize=2,
                    color=COLORS[seat], label=f"seat {seat}" + (" (deals first)" if seat == 0 else ""))  # fmt: skip
    a5.axhline(100 / n, color="black", lw=0.6, ls="--")
    a5.set(title=f"Win probability by seat, {n} players, {strategy} self-play", ylabel="win probability, % of games")
    a5.legend(ncol=2)
    by_players(a6, "total_sd")
    a6.set(title="Spread of a player's game total", ylabel="standard deviation of the game total, points")
    for ax in axes.flat:
        ax.set_xticks(x, variants, rotation=30, ha="right")
        ax.set_xlabel("rule variant")
        if ax in (a2, a3, a4):
            ax.axhline(0, color="black", lw=0.6)
    others = ", ".join(f"{p}: {g:,}" for p, g in n_games.items())
    fig.suptitle(
        f"Full games per variant and seating ({others} by players), same seed; bars: 95% intervals"
        " (delta method over chunks of 256 games; Wilson for seat win probabilities)",
        fontsize=9,
    )
    fig.tight_layout()
    return fig
