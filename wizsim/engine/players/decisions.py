"""Who makes each special-card decision of a seat: its own rule, or a per-seat override.

``params[seat, D_*]`` overrides one kind of decision (``D_TRUMP``, ``D_WEREWOLF``,
``D_FORM``, ``D_PASS``): ``DECIDE_OWN`` the strategy's own rule (random for ``random``,
the heuristic's for every other player), ``DECIDE_RANDOM``, ``DECIDE_HEURISTIC`` (:mod:`..layout`).
"""

from __future__ import annotations

import numpy as np

from ..jit.config import hot
from ..layout import DECIDE_OWN, DECIDE_RANDOM, S_HEURISTIC, S_RANDOM


@hot
def decider(strat, params, p, slot):
    """Who makes decision ``slot`` for seat ``p``: S_RANDOM or S_HEURISTIC (overridable per seat)."""
    kind = np.int64(params[p, slot])
    if kind == DECIDE_OWN:
        return S_HEURISTIC if strat[p] != S_RANDOM else S_RANDOM
    return S_RANDOM if kind == DECIDE_RANDOM else S_HEURISTIC
