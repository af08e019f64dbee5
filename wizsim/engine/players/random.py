"""The random player: uniformly random legal decisions.

Its card choice is ``rng.random_member`` of the legal mask (uniform over the
distinct legal cards), made in :mod:`.dispatch`; here are its other choices.
"""

from __future__ import annotations

from ..jit.config import hot
from ..jit.rng import below
from ..layout import CLOUD, CLOUD_AS, JUGGLER, JUGGLER_AS, SHAPESHIFTER_AS_WIZARD


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
