"""How much better is each built-in player than each other, on the very same deals?

Question
--------
By how many points per round (and per game, and in hit rate and win rate) does
each strategy in :data:`STRATEGIES` beat each other one when luck is taken out?
This analysis plays the pairs without ``pimc`` (the main job); the pairs with
``pimc`` are ``analyses/pimc_compared.py`` (the same :func:`compare`), which only
``wizsim report --full`` runs: pimc's few hundred deals took most of this
analysis's time.

Method
------
Pairwise duplicate matches (:func:`wizsim.tools.tournament.tournament`): for every pair
of strategies, every deal is played once under each of the 6 seatings of two
strategies at 4 seats (two seats each: AABB, ABAB, ...), so both strategies
hold the same cards from every seat and the luck of the cards cancels. Two
formats: independent deals of 4 players x 10 cards, and full 4-player games
(15 rounds of 1-15 cards; a deal is then a whole game). Every pair uses the
same seed, so every match is played on the same deals (common random numbers);
a smaller sample is the first deals of the larger one (deals are drawn chunk by
chunk from streams that depend only on the seed).
Intervals: mean ± 1.96 SE of the per-deal values (the deal, or the game, is
the independent unit); differences are paired by deal.

Players: ``random``, ``heuristic``, ``table`` (bids from learned mean scores,
plays like ``heuristic`` with two refinements), ``pimc`` (Perfect-Information Monte-Carlo bids
and card play, default parameters: ``samples`` and ``bid_samples`` from
:data:`wizsim.players.strategies.PIMC_DEFAULTS`, 32 sampled deals per decision, rollouts
with every seat playing as its strategy plays, pimc and learned seats by the
``learned`` network) and ``learned`` (bids and card play by networks fitted to
the old pimc's values, ``pimc(rollout=0)``; listed last because it beats that
pimc; the default pimc beats it).

Sample sizes (per pair, times 6 seatings each): pairs of the fast players
(:data:`SIZES` ``deals``/``games``): ``quick`` 2,000 deals and 100 games,
``default`` 200,000 deals and 10,000 games, ``full`` 2,000,000 deals and
100,000 games. Pairs with a player in :data:`SLOW` (``pimc``: about 100 4x10
rounds per second on two cores with two PIMC seats against the heuristic,
12,000 rounds in 121 s, a full game about 11 times as long) use
``slow_deals``/``slow_games`` instead: ``quick`` 20 deals and 2 games, ``default`` 600 deals and 30 games, ``full`` 6,000 deals and 300
games; their intervals are correspondingly wider (about 18 times at default
size). Both CSV files state the deals (rounds or games) behind every row.

Outputs
-------
``players_compared.csv``: one row per pair and format, paired differences
``a - b`` of points per round, points per game (games only, else empty), hit
rate, mean |bid - tricks| and win rate, each with ``_lo``/``_hi``, with the
``deals`` (rounds or games) and ``seatings`` behind them and ``pimc_samples``
(samples per PIMC decision; empty without ``pimc``).
``players_compared_strategies.csv``: each strategy's own numbers in each match.
A chart (.png, .svg): points per round by strategy and match, and the pairwise
differences, with 95% interval bars.

Caveats
-------
A strategy's numbers depend on its opponent (points are relative to what the
table leaves), so they are reported per match, not pooled. Win rate counts the
share of round-table wins (4x10) or game wins, per seat held: with two seats
each, two equal strategies would have 25% each. Default rules, no special cards.
The ``pimc`` pairs rest on few deals: their point differences are clear, their
hit and win rates less so.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from wizsim.players.strategies import PIMC_DEFAULTS
from wizsim.plotting import save
from wizsim.plotting.players_compared import draw
from wizsim.run.io import write_table
from wizsim.tools.tournament import tournament

NAME = "players_compared"
QUESTION = "How much better is each fast built-in player than each other, on the same deals (duplicate format)?"
STRATEGIES = (
    "random",
    "heuristic",
    "table",
    "pimc",
    "learned",
)  # simplest first: each pair is reported as later minus earlier
SLOW = ("pimc",)  # pairs with one of these use the slow_* sample sizes
PLAYERS = 4
CARDS = 10
SIZES = {  # per pair: 4x10 deals and full games; pairs with a SLOW player: slow_deals and slow_games (0: none)
    "quick": {"deals": 2_000, "games": 100, "slow_deals": 20, "slow_games": 2},
    "default": {"deals": 200_000, "games": 10_000, "slow_deals": 600, "slow_games": 30},
    "full": {"deals": 2_000_000, "games": 100_000, "slow_deals": 6_000, "slow_games": 300},
}
PIMC_SAMPLES = int(PIMC_DEFAULTS["samples"])  # card-play samples of the default pimc player
PIMC_BID_SAMPLES = int(PIMC_DEFAULTS["bid_samples"])
FORMATS = ("4x10", "games")
DIFF_METRICS = ("points_per_round", "points_per_game", "hit_rate", "mean_abs_diff", "win_rate")


def _ci(x: float, lo: float, hi: float, digits: int = 1, scale: float = 1.0, unit: str = "") -> str:
    return f"{scale * x:.{digits}f}{unit} (95% CI {scale * lo:.{digits}f} to {scale * hi:.{digits}f})"


def sample(a: str, b: str, size: str) -> dict[str, int]:
    """Deals per format for the pair ``a``, ``b`` (0: the format is not played)."""
    cfg = SIZES[size]
    slow = a in SLOW or b in SLOW
    return {"4x10": cfg["slow_deals" if slow else "deals"], "games": cfg["slow_games" if slow else "games"]}


def pairs_of(slow: bool) -> list[tuple[str, str]]:
    """The pairs ``(a, b)``, reported as a - b (the later strategy of :data:`STRATEGIES` first), with a
    :data:`SLOW` player (``slow``: ``analyses/pimc_compared.py``, run by ``wizsim report --full``) or without."""
    return [(a, b) for b, a in itertools.combinations(STRATEGIES, 2) if (a in SLOW or b in SLOW) == slow]


def run(size: str = "default", seed: int = 20261129, outdir: Path = Path("results"), jobs: int = 1) -> dict:
    """Run the analysis (the pairs without pimc); return its headline numbers and provenance."""
    return compare(NAME, QUESTION, pairs_of(False), size, seed, outdir, jobs)


def tables(pairs_run: list[tuple[str, str]], deals: dict[str, int] | Callable[[str, str], dict[str, int]], seed: int,
           jobs: int = 1) -> tuple[pd.DataFrame, pd.DataFrame]:  # fmt: skip
    """The two tables (``<name>.csv``, ``<name>_strategies.csv``) of the duplicate matches of ``pairs_run``
    (``(a, b)``, reported as a - b), every pair on the same deals (``seed``); ``deals``: the deals per format
    (``{"4x10": ..., "games": ...}``, 0: not played) of every pair, or a function of the pair (:func:`sample`)."""
    pair_rows, strat_rows = [], []
    for a, b in pairs_run:  # later minus earlier strategy
        n_deals = deals(a, b) if callable(deals) else deals
        for fmt in FORMATS:
            if n_deals[fmt] == 0:
                continue
            if fmt == "4x10":
                res = tournament(PLAYERS, [a, b], cards=CARDS, deals=n_deals[fmt], seed=seed, jobs=jobs)
            else:
                res = tournament(PLAYERS, [a, b], games=n_deals[fmt], seed=seed, jobs=jobs)
            p = res.pairwise().iloc[0].to_dict()
            samples = PIMC_SAMPLES if "pimc" in (a, b) else pd.NA
            row = {"format": fmt, "strategy_a": a, "strategy_b": b, "deals": p["deals"],
                   "seatings": len(res.seatings), "pimc_samples": samples}  # fmt: skip
            for metric in DIFF_METRICS:
                for suffix in ("", "_lo", "_hi"):
                    row[f"{metric}_diff{suffix}"] = p.get(f"{metric}_diff{suffix}", np.nan)
            pair_rows.append(row)
            t = res.table()
            for r in t.to_dict("records"):
                opponent = b if r["strategy"] == a else a
                srow = {"format": fmt, "strategy": r["strategy"], "opponent": opponent, "deals": r["deals"],
                        "pimc_samples": samples}  # fmt: skip
                srow.update({k: v for k, v in r.items() if k not in ("strategy", "deals")})
                srow.setdefault("points_per_game", np.nan)
                strat_rows.append(srow)
    pairs = pd.DataFrame(pair_rows)
    pairs["pimc_samples"] = pairs["pimc_samples"].astype("Int64")
    strats = pd.DataFrame(strat_rows)
    strats["pimc_samples"] = strats["pimc_samples"].astype("Int64")
    order = ["format", "strategy", "opponent", "deals", "seatings", "pimc_samples", "seat_rounds"]
    strats = strats[order + [c for c in strats.columns if c not in order]]
    return pairs, strats


def compare(name: str, question: str, pairs_run: list[tuple[str, str]], size: str, seed: int, outdir: Path,
            jobs: int) -> dict:  # fmt: skip
    """Play the duplicate matches of ``pairs_run``, write ``<name>.csv``, ``<name>_strategies.csv`` and the chart;
    return the report's section (``name``, ``question``)."""
    cfg = SIZES[size]
    pairs, strats = tables(pairs_run, lambda a, b: sample(a, b, size), seed, jobs)
    outdir.mkdir(parents=True, exist_ok=True)
    write_table(pairs, outdir / f"{name}.csv")
    write_table(strats, outdir / f"{name}_strategies.csv")

    # drawn from the files: the gallery redraws them
    save(draw(pd.read_csv(outdir / f"{name}.csv"), pd.read_csv(outdir / f"{name}_strategies.csv")), outdir / name)

    deals, games, slow_deals, slow_games = (cfg[k] for k in ("deals", "games", "slow_deals", "slow_games"))
    n_slow_pairs = sum(1 for a, b in pairs_run if a in SLOW or b in SLOW)
    if n_slow_pairs == len(pairs_run):  # only pairs with a slow player: their sizes are the sample
        deals, games = slow_deals, slow_games
    slow_text = f"{'/'.join(SLOW)} at {PIMC_SAMPLES} samples per decision"
    hands = pairs[pairs.format == "4x10"]
    full = pairs[pairs.format == "games"]
    points = "; ".join(
        f"{r.strategy_a} − {r.strategy_b} {_ci(r.points_per_round_diff, r.points_per_round_diff_lo, r.points_per_round_diff_hi)}"
        + (f" [{r.deals:,} deals]" if r.deals != deals else "")
        for r in hands.itertuples()
    )
    present = [x for x in STRATEGIES if any(x in pair for pair in pairs_run)]
    steps = set(zip(present[1:], present[:-1], strict=True))  # each player against the next weaker one
    hits = "; ".join(
        f"{r.strategy_a} − {r.strategy_b} {_ci(r.hit_rate_diff, r.hit_rate_diff_lo, r.hit_rate_diff_hi, 1, 100, ' pp')}"
        for r in hands.itertuples()
        if (r.strategy_a, r.strategy_b) in steps
    )
    # the share of games won by a strategy's seats together: (players / 2) x its win rate per seat
    won = strats[strats.format == "games"].set_index(["strategy", "opponent"])
    in_games = "; ".join(
        f"{r.strategy_a} − {r.strategy_b} {_ci(r.points_per_game_diff, r.points_per_game_diff_lo, r.points_per_game_diff_hi, 0)}"
        f" points per game, {r.strategy_a} wins "
        f"{_ci(*won.loc[(r.strategy_a, r.strategy_b), ['win_rate', 'win_rate_lo', 'win_rate_hi']], 1, 50 * PLAYERS, '%')}"
        " of the games" + (f" [{r.deals:,} games]" if r.deals != games else "")
        for r in full.itertuples()
    )
    no_games = [
        f"{r.strategy_a} − {r.strategy_b}"
        for r in hands.itertuples()
        if not sample(r.strategy_a, r.strategy_b, size)["games"]
    ]
    mixed = 0 < n_slow_pairs < len(pairs_run)
    per_pair = f"{deals:,} deals per pair" + (f", {slow_deals:,} for pairs with {slow_text}" if mixed else "")
    if n_slow_pairs == len(pairs_run):
        per_pair += f"; {slow_text}"
    headline = (
        f"Duplicate {PLAYERS}x{CARDS} deals (6 seatings; {per_pair}), points per round: {points}."
        + (f" Bid made, each player against the next weaker: {hits}." if hits else "")
    )
    if len(full):
        slow = f", {slow_games:,} for pairs with {'/'.join(SLOW)}" if slow_games and mixed else ""
        headline += f" Full {PLAYERS}-player games ({games:,} per pair{slow}): {in_games}"
        headline += f" (no full games for {', '.join(no_games)})." if no_games else "."
    n_fast = len(pairs_run) - n_slow_pairs
    parts = []
    if n_fast:
        parts.append(f"{n_fast} pairs x ({cfg['deals']:,} deals of {PLAYERS}x{CARDS} + {cfg['games']:,} full games)")
    if n_slow_pairs:
        parts.append(
            f"{n_slow_pairs} pairs with {'/'.join(SLOW)} x ({slow_deals:,} deals"
            + (f" + {slow_games:,} full games" if slow_games else ", no full games")
            + f"; pimc: {PIMC_SAMPLES} card-play and {PIMC_BID_SAMPLES} bid samples)"
        )
    return {
        "name": name,
        "question": question,
        "headline": headline,
        "sample": " and ".join(parts) + ", each x 6 seatings",
        "seed": seed,
        "files": [f"{name}.csv", f"{name}_strategies.csv", f"{name}.png", f"{name}.svg"],
        "command": f"python analyses/{name}.py --size {size} --seed {seed}",
    }


if __name__ == "__main__":
    from wizsim.report.report import analysis_main

    analysis_main(run, QUESTION, SIZES)
