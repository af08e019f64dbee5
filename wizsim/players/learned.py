"""The ``learned`` player (registry line ``Player("learned", ...)`` in :mod:`wizsim.engine.layout`).

Bids and card play by two small networks fitted to ``pimc``'s values (see
:class:`LearnedStrategy`; the networks are loaded by :mod:`.learned_data`).
Its decisions in the kernels: :mod:`wizsim.engine.players.learned` (entry
points) and :mod:`wizsim.engine.players.learned_model` (the networks).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.layout import LG_GEN, S_LEARNED
from ..engine.players import learned as engine
from .learned_data import DEFAULT_GEN, check_generation
from .table import TableStrategy


@dataclass(frozen=True)
class LearnedStrategy(TableStrategy):
    """Bids and card play by two small networks fitted to ``pimc``'s values.

    At every card decision with a choice, each candidate (the legal cards,
    equivalent neighbours once; a Juggler, Cloud or Shapeshifter in its
    winning and its losing form) is scored by a network
    (``wizsim/data/learned*.npz``, one file per generation, fitted by ``scripts/train_learned.py`` to
    pimc's mean round score of each candidate in pimc's own games) and the
    best is played. It sees what pimc sees: its hand, the cards played, the
    face-up card, the suits others showed out of, the bids (not under secret
    hidden bids) and the tricks won. It bids the best of the ``table``
    player's bid -2..+2 by a second network (pimc's mean score of each bid);
    in clairvoyance and mono it bids like ``table`` (the heuristic's bid).
    The other special-card decisions (trump, Werewolf, passes, a lone legal
    special card's form) are ``table``'s. ``gen`` picks the networks' generation
    (:data:`.learned_data.GENERATIONS`; default :data:`.learned_data.DEFAULT_GEN`): ``learned(gen=1)``
    is the first, fitted to pimc with heuristic rollouts.
    """

    name: str = "learned"
    strategy_id: int = S_LEARNED

    def needs(self) -> frozenset[str]:
        return engine.NEEDS

    def _row(self) -> np.ndarray:
        gen = check_generation(self.params.get("gen", float(DEFAULT_GEN)), "learned")
        row = TableStrategy(params={k: v for k, v in self.params.items() if k != "gen"})._row()
        row[LG_GEN] = gen - 1  # the kernels' index into the stacked generations
        return row


STRATEGY = LearnedStrategy
