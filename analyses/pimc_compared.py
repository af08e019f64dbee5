"""How much better is the default pimc than each other built-in player, on the very same deals?

Question
--------
The pairs of ``analyses/players_compared.py`` that have the default ``pimc``
(32 sampled deals per card play and per bid, rollouts by the learned network):
pimc against random, heuristic and table, and learned against pimc. They are a
question for researchers and cost about two minutes of pimc, so only
``wizsim report --full`` runs them; the main job keeps these files.

Method
------
Exactly players_compared's (its :func:`compare`, run on its pairs with a
``SLOW`` player): duplicate matches under the 6 seatings of two strategies at 4
seats, every pair on the same deals (same seed), ``slow_deals`` 4x10 deals and
``slow_games`` full games per pair (default 600 and 30). The numbers are those
the pimc pairs had in players_compared before they moved here.

Caveats
-------
Few deals: the point differences are clear, the hit and win rates less so.
"""

from __future__ import annotations

from pathlib import Path

from wizsim.report.report import load_analysis

NAME = "pimc_compared"
QUESTION = "How much better is the default pimc than each other built-in player, on the same deals?"
#: run by ``wizsim report --full`` only; the main job keeps its committed files (wizsim.report.report)
FULL_ONLY = "pimc against each built-in player: about 2 minutes of pimc"
#: sibling analyses whose code this one runs (their source is part of the report's cache key)
USES = ("players_compared",)
_PLAYERS_COMPARED = load_analysis(Path(__file__).with_name("players_compared.py"))
SIZES = _PLAYERS_COMPARED.SIZES


def run(size: str = "default", seed: int = 20261129, outdir: Path = Path("results"), jobs: int = 1) -> dict:
    """Run the analysis; return its headline numbers and provenance."""
    pc = _PLAYERS_COMPARED
    return pc.compare(NAME, QUESTION, pc.pairs_of(True), size, seed, outdir, jobs)


if __name__ == "__main__":
    from wizsim.report.report import analysis_main

    analysis_main(run, QUESTION, SIZES)
