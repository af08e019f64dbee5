"""The random player: uniformly random legal decisions.

Registry line: ``Player("random", ROLLOUT_RANDOM)`` in :mod:`..layout` (no
parameter block of its own; its Python side is :mod:`wizsim.players.random`).
It bids uniformly among the legal bids (never the Canadian rule's forbidden
bid) and plays a uniform member of the legal mask (uniform over the distinct
legal cards); a flexible card's form and every special-card decision are
uniform too (:func:`random_form`, :mod:`.decisions`).
"""

from __future__ import annotations

import numpy as np

from ..jit.config import hot
from ..jit.rng import below, random_member
from ..layout import CLOUD, CLOUD_AS, JUGGLER, JUGGLER_AS, SHAPESHIFTER_AS_WIZARD

#: what a random seat needs from the round beyond the deal (:meth:`wizsim.players.base.Strategy.needs`)
NEEDS: frozenset[str] = frozenset()


@hot
def bid(turn, named, clairvoyant, setup, players, dec_st, seats, view):
    """A uniformly random legal bid; (bid, the bid as its estimate: the Canadian step never moves it)."""
    b = random_bid(turn.k, turn.forbidden, dec_st)
    return b, np.float64(b)


@hot
def card(turn, trick, legal, setup, players, dec_st, seats, view, net):
    """A uniformly random legal card (the round calls :func:`random_card` itself: its fast path)."""
    return random_card(dec_st, legal)


@hot
def random_card(dec_st, legal):
    """A uniform member of the legal mask ``legal``, drawn from the decision stream ``dec_st``."""
    return random_member(dec_st, legal)


@hot
def random_bid(k, forbidden, dec_st):
    """A uniformly random legal bid (never the Canadian rule's ``forbidden`` bid, -1: none)."""
    if 0 <= forbidden <= k:
        b = below(dec_st, k)
        if b >= forbidden:
            b += 1
        return b
    return below(dec_st, k + 1)


@hot
def random_form(card, st):
    """The form a random player plays ``card`` in: a uniform suit or role where there is a choice."""
    if card < JUGGLER:
        return card
    if card == JUGGLER:
        return JUGGLER_AS + below(st, 4)
    if card == CLOUD:
        return CLOUD_AS + below(st, 4)
    return SHAPESHIFTER_AS_WIZARD + below(st, 2)
