"""How much stronger does pimc get with more sampled deals, and with the learned player in its rollouts?

Question
--------
pimc decides by playing sampled deals out. Two levers set its strength and its
cost: ``samples`` (K, the deals per decision; ``bid_samples`` the same here)
and ``rollout``, how everybody plays in those deals (0: the heuristic for
everyone, fast, the old default; 4, the default: every seat as its strategy
plays, so here the heuristic seats by the heuristic and the pimc seats by the
``learned`` player's card network, about nine times slower per deal in pimc
self-play). Which settings buy the most strength, and which should be the default?

Method
------
Each setting in :data:`SETTINGS` plays a duplicate match against ``heuristic``
(:func:`wizsim.tools.tournament.tournament`, 4 players x 10 cards, 6 seatings of two
seats each) on the same deals (one seed: common random numbers, so the
settings are compared on equal cards). Intervals: mean ± 1.96 SE of the
per-deal paired differences.

The cost axis is not measured here (a time is not reproducible from a seed):
``wizsim bench --pimc-curve`` times every setting in card plays per second per
core, and the README's speed section joins the two.

Outputs
-------
``pimc_tradeoff.csv``: one row per setting: rollout, samples, deals, points per
round minus heuristic's with ``_lo``/``_hi``, hit rate difference with
``_lo``/``_hi``. A chart (.png, .svg): the difference against K, one line per
rollout policy, 95% bars.

Caveats
-------
Strength against the heuristic is not strength against a strong field: the
differences between settings are the result, the level is the opponent's. Full
games and special cards are not played here (``players_compared`` and
``special_cards`` do that for the default player).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from wizsim.plotting import save
from wizsim.plotting.pimc_tradeoff import draw
from wizsim.run.io import write_table
from wizsim.tools.bench import PIMC_CURVE, pimc_setting
from wizsim.tools.tournament import tournament

NAME = "pimc_tradeoff"
QUESTION = "How much stronger is pimc with more sampled deals, and with the learned player in its rollouts?"
#: run by ``wizsim report --full`` only; the main job keeps its committed files (wizsim.report.report)
FULL_ONLY = "pimc's strength/time curve: about 2-5 minutes of pimc"
ROLLOUTS = {0: "heuristic rollouts", 4: "seats rollouts"}
SIZES = {  # deals per setting; the samples tried per rollout policy
    "quick": {"deals": 6, "samples": {0: (4, 8), 4: (4, 8)}},
    "default": {"deals": 1_000, "samples": PIMC_CURVE},
    "full": {"deals": 4_000, "samples": PIMC_CURVE},
}
PLAYERS = 4
CARDS = 10


def tradeoff(samples: dict[int, tuple[int, ...]], deals: int, seed: int, jobs: int = 1,
             opponent: str = "heuristic") -> pd.DataFrame:  # fmt: skip
    """The table of ``pimc_tradeoff.csv``: each pimc setting (rollout policy -> the K tried, as :data:`SIZES`'
    ``samples``) minus ``opponent`` in duplicate 4x10 matches, all on the same ``deals`` deals."""
    rows = []
    for rollout, ks in samples.items():
        for k in ks:
            res = tournament(PLAYERS, [pimc_setting(rollout, k), opponent], cards=CARDS, deals=deals, seed=seed,
                             jobs=jobs)  # fmt: skip
            p = res.pairwise().iloc[0]
            rows.append(
                {
                    "rollout": ROLLOUTS[rollout].split()[0],
                    "samples": k,
                    "deals": int(p["deals"]),
                    **{f"points_per_round_diff{s}": p[f"points_per_round_diff{s}"] for s in ("", "_lo", "_hi")},
                    **{f"hit_rate_diff{s}": p[f"hit_rate_diff{s}"] for s in ("", "_lo", "_hi")},
                }
            )
    return pd.DataFrame(rows)


def run(size: str = "default", seed: int = 20261129, outdir: Path = Path("results"), jobs: int = 1) -> dict:
    """Run the analysis; return its headline numbers and provenance."""
    cfg = SIZES[size]
    table = tradeoff(cfg["samples"], cfg["deals"], seed, jobs)
    outdir.mkdir(parents=True, exist_ok=True)
    write_table(table, outdir / f"{NAME}.csv")
    # drawn from the file: the gallery redraws it
    save(draw(pd.read_csv(outdir / f"{NAME}.csv"), cfg["deals"], PLAYERS, CARDS), outdir / NAME)

    def at(r: str) -> str:
        t = table[table.rollout == r]
        return ", ".join(
            f"K={x.samples} {x.points_per_round_diff:+.1f} [{x.points_per_round_diff_lo:+.1f}, {x.points_per_round_diff_hi:+.1f}]"
            for x in t.itertuples()
        )

    headline = (
        f"pimc − heuristic in duplicate {PLAYERS}x{CARDS} ({cfg['deals']:,} deals per setting, the same deals for all),"
        f" points per round with 95% intervals: heuristic rollouts (rollout=0) {at('heuristic')}; each seat as it"
        f" plays (rollout=4, the default) {at('seats')}. Card plays per second of each setting:"
        " `wizsim bench --pimc-curve`."
    )
    return {
        "name": NAME,
        "question": QUESTION,
        "headline": headline,
        "sample": f"{len(table)} settings x {cfg['deals']:,} deals of {PLAYERS}x{CARDS} x 6 seatings",
        "seed": seed,
        "files": [f"{NAME}.csv", f"{NAME}.png", f"{NAME}.svg"],
        "command": f"python analyses/{NAME}.py --size {size} --seed {seed}",
    }


if __name__ == "__main__":
    from wizsim.report.report import analysis_main

    analysis_main(run, QUESTION, SIZES)
