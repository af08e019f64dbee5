"""The ``random`` player (registry line ``Player("random", ...)`` in :mod:`wizsim.engine.layout`).

A uniformly random legal bid, a uniformly random legal card (uniform over
the distinct legal cards: holding two Wizards and R5 it plays W or R5 with
probability 1/2 each), a uniformly random suit when it names trump. Every
special-card decision is uniform too: a Juggler's or Cloud's suit (of 4),
a Shapeshifter's role (of 2), the Werewolf swap under ``werewolf=may``
(1/2) and its trump (4 suits or none), the card passed after a Juggler.

Its decisions in the kernels: :mod:`wizsim.engine.players.random`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.layout import S_RANDOM
from ..engine.players import random as engine
from .base import Strategy


@dataclass(frozen=True)
class RandomStrategy(Strategy):
    """Uniformly random legal decisions."""

    name: str = "random"
    strategy_id: int = S_RANDOM

    def needs(self) -> frozenset[str]:
        return engine.NEEDS


STRATEGY = RandomStrategy
