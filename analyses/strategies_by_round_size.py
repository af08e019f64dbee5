"""How well do the built-in players bid, by round size? (4 players, full standard games)

Self-play of each player in :data:`STRATEGIES` (every seat the same player)
on the same deals (common random numbers: dealing has its own random
stream), pooled over seat positions: hit rate (Wilson 95% interval) and mean
points per round (normal 95% interval) by round size. ``SIZES[size]`` full
games per player (default 20,000, i.e. 300,000 rounds and 1.2 million
player-rounds each). ``pimc`` is left out: with four PIMC seats it plays
about 7 full games per second per core (measured), so its self-play at this
size would take some 25 minutes; ``analyses/players_compared.py`` measures it
head to head.

``learned`` (networks fitted to pimc's values) is the strongest player. Each
player's counts come through the report's self-play corpus
(:class:`wizsim.run.corpus.Corpus`), with the numbers of
:func:`wizsim.simulate_result` of the same run: ``learned``'s games are kept
there (special_cards and variant_balance read the same standard-deck games),
the other players' are played by the counting kernel and not kept.

Caveat: self-play numbers are not a head-to-head comparison (a player's
points depend on the others at the table; ``table`` and ``heuristic`` play
by nearly the same card-play rules and differ mostly in the bid); ``players_compared`` measures
the players against each other. Writes
``results/strategies_by_round_size.csv`` and a chart (.png, .svg).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from wizsim.plotting import save
from wizsim.plotting.strategies_by_round_size import draw
from wizsim.run.corpus import Corpus
from wizsim.run.spec import make_spec

NAME = "strategies_by_round_size"
QUESTION = "How often do the built-in players make their bid, and what do they score, by round size?"
SIZES = {"quick": 200, "default": 20_000, "full": 200_000}  # games per strategy
STRATEGIES = ("random", "heuristic", "table", "learned")  # weakest first


def run(size: str = "default", seed: int = 20261129, outdir: Path = Path("results"), jobs: int = 1) -> dict:
    """Run the analysis; return its headline numbers and provenance."""
    games = SIZES[size]
    tables, overall = [], []
    for strategy in STRATEGIES:
        res = Corpus.beside(outdir).result(make_spec(4, games=games, seed=seed, strategy=strategy), jobs)
        tables.append(res.table(by_position=False))
        overall.append(res.summary().assign(games=games))
    table = pd.concat(tables, ignore_index=True)
    outdir.mkdir(parents=True, exist_ok=True)
    from wizsim.run.io import write_table

    write_table(table, outdir / f"{NAME}.csv")

    save(draw(pd.read_csv(outdir / f"{NAME}.csv"), games), outdir / NAME)  # drawn from the file: the gallery redraws it

    summ = pd.concat(overall, ignore_index=True).set_index("strategy")

    def numbers(strategy: str) -> str:
        r = summ.loc[strategy]
        return (
            f"{100 * r.hit_rate:.1f}% (95% CI {100 * r.hit_rate_lo:.1f}-{100 * r.hit_rate_hi:.1f}) and "
            f"{r.mean_score:.2f} ± {(r.mean_score_hi - r.mean_score_lo) / 2:.2f} points per round"
        )

    best, *others = STRATEGIES[::-1]
    headline = (
        f"{best} self-play makes its bid in {numbers(best)}; "
        + "; ".join(f"{s} self-play: {numbers(s)}" for s in others)
        + f" (4 players, {games:,} full games each, same deals)"
    )
    return {
        "name": NAME,
        "question": QUESTION,
        "headline": headline,
        "sample": f"{games:,} games x 15 rounds x 4 seats per strategy",
        "seed": seed,
        "files": [f"{NAME}.csv", f"{NAME}.png", f"{NAME}.svg"],
        "command": f"python analyses/{NAME}.py --size {size} --seed {seed}",
    }


if __name__ == "__main__":
    from wizsim.report.report import analysis_main

    analysis_main(run, QUESTION, SIZES)
