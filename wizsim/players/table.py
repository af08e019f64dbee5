"""The ``table`` player (registry line ``Player("table", ...)`` in :mod:`wizsim.engine.layout`).

Bids by maximising the mean score learned by simulation for hands like
this one; plays like ``heuristic`` with two refinements: with its bid made
it leads its lowest trump that can still lose, and when it cannot win a
trick it needs it keeps its Jesters (see :class:`TableStrategy`).

Its decisions in the kernels: :mod:`wizsim.engine.players.table`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.layout import REFINE_KEEP_JESTER, REFINE_LEAD_TRUMP, S_TABLE, TP_EXPLORE, TP_REFINE
from ..engine.players import table as engine
from ..errors import WizsimError
from .heuristic import HeuristicStrategy

TABLE_REFINEMENTS = {"lead_trump": REFINE_LEAD_TRUMP, "keep_jester": REFINE_KEEP_JESTER}  # parameter -> bit


@dataclass(frozen=True)
class TableStrategy(HeuristicStrategy):
    """Bids from learned mean scores (``wizsim/data/bid_table.npz``), plays like a refined ``heuristic``.

    The heuristic's estimate of the hand (its parameters apply) picks a row of
    the table by players, round size, position, estimate (in quarter tricks)
    and whether the earlier bids were low, normal or high; the row holds the
    mean score, measured by simulation, of bidding the heuristic's bid plus
    -2..+2. It bids the best of those (never the Canadian rule's forbidden
    bid). ``table(explore=1)`` bids the heuristic's bid plus a uniformly
    random step instead: the training mode of ``scripts/train_bid_table.py``.

    It plays like the heuristic with two refinements, each on by default
    (``table(lead_trump=0,keep_jester=0)`` plays exactly like ``heuristic``):
    ``lead_trump``: on lead with its bid made, it leads its lowest trump that
    an unseen trump still beats, before any side card, to shed the card most
    likely to take an unwanted trick later. ``keep_jester``: needing tricks
    but unable to win the trick, it sheds its lowest side card and keeps its
    Jesters (and Jester-like cards) as sure losers for later. Watching where
    ``pimc`` plays differently found both; each is worth about 2 points per
    round in 4 x 10.
    """

    name: str = "table"
    strategy_id: int = S_TABLE

    def needs(self) -> frozenset[str]:
        # exploring (training) bids step off the heuristic's bid at random, not from the table
        return engine.NEEDS - {"bid_table"} if self.params.get("explore") else engine.NEEDS

    def _row(self) -> np.ndarray:
        explore = self.params.get("explore", 0.0)
        if explore not in (0.0, 1.0):
            raise WizsimError(f"table parameter explore={explore!r} must be 0 or 1")
        refine = 0
        for key, bit in TABLE_REFINEMENTS.items():
            on = self.params.get(key, 1.0)
            if on not in (0.0, 1.0):
                raise WizsimError(f"table parameter {key}={on!r} must be 0 or 1")
            refine |= bit if on else 0
        own = ("explore", *TABLE_REFINEMENTS)
        row = HeuristicStrategy(params={k: v for k, v in self.params.items() if k not in own}).param_row()
        row[TP_EXPLORE] = explore
        row[TP_REFINE] = refine
        return row


STRATEGY = TableStrategy
