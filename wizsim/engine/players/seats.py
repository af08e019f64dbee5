"""What a seat does on its turn: the one switch on player ids, for bids and for card play.

Every registered player (:data:`..layout.REGISTRY`) has a module in this
package with two entry points of one fixed signature each:

* ``bid(turn, named, clairvoyant, setup, players, dec_st, seats, view)``
  returns (bid, estimate) before the Canadian rule's step;
* ``card(turn, trick, legal, setup, players, dec_st, seats, view, net)``
  returns the form played, before a flexible card's form is settled.

``turn`` is a :class:`..bundles.BidTurn` or :class:`..bundles.Turn`,
``trick`` a :class:`..bundles.Trick`, ``legal`` the legal cards' mask,
``dec_st`` the decision stream, ``view``/``net`` what pimc and learned read
(:class:`..bundles.NoView` and placeholders when no seat reads them). The
entry points are inlined, so a real call inside them receives only the
arrays it reads (the measured lesson: passing the whole bundles to a
per-decision call made the learned player 3x slower). A user's bid rule
(:mod:`.rule`) is laid over any player's card play and comes first.

The round looks at a seat's strategy id once itself, for random play's fast
path (:func:`.random.random_card` drawn in the loop: through this switch
random play with all special cards ran 2-7% slower, best of 7).
tests/test_registry.py checks that every registered player has its module,
its entry points and its branch in both switches below.
"""

from __future__ import annotations

from ..jit.config import hot
from ..layout import S_HEURISTIC, S_LEARNED, S_PIMC, S_RANDOM, S_TABLE
from . import heuristic, learned, pimc, rule, table
from . import random as random_player


@hot
def keeps_view(n, strat):
    """Whether a seat plays pimc or learned: then the round keeps the view of it they read."""
    track = False
    for p in range(n):
        track |= strat[p] == S_PIMC or strat[p] == S_LEARNED
    return track


@hot
def seat_bid(turn, named, clairvoyant, setup, players, dec_st, seats, view):
    """Seat ``turn.p``'s bid, the Canadian rule's step included (towards the player's estimate)."""
    kind = players.strat[turn.p]
    if rule.has_rule(turn, clairvoyant, players):
        b, est = rule.bid(turn, named, clairvoyant, setup, players, dec_st, seats, view)
    elif kind == S_RANDOM:
        b, est = random_player.bid(turn, named, clairvoyant, setup, players, dec_st, seats, view)
    elif kind == S_HEURISTIC:
        b, est = heuristic.bid(turn, named, clairvoyant, setup, players, dec_st, seats, view)
    elif kind == S_TABLE:
        b, est = table.bid(turn, named, clairvoyant, setup, players, dec_st, seats, view)
    elif kind == S_PIMC:
        b, est = pimc.bid(turn, named, clairvoyant, setup, players, dec_st, seats, view)
    else:  # S_LEARNED (the Python layer admits registered ids only)
        b, est = learned.bid(turn, named, clairvoyant, setup, players, dec_st, seats, view)
    return canadian_step(b, est, turn.k, turn.forbidden)


@hot
def seat_card(turn, trick, legal, setup, players, dec_st, seats, view, net):
    """The form seat ``turn.p`` plays, ``legal`` its legal cards (the round draws a random seat's card itself)."""
    kind = players.strat[turn.p]
    if kind == S_RANDOM:
        return random_player.card(turn, trick, legal, setup, players, dec_st, seats, view, net)
    if kind == S_HEURISTIC:
        return heuristic.card(turn, trick, legal, setup, players, dec_st, seats, view, net)
    if kind == S_TABLE:
        return table.card(turn, trick, legal, setup, players, dec_st, seats, view, net)
    if kind == S_PIMC:
        return pimc.card(turn, trick, legal, setup, players, dec_st, seats, view, net)
    return learned.card(turn, trick, legal, setup, players, dec_st, seats, view, net)  # S_LEARNED


@hot
def canadian_step(b, est, k, forbidden):
    """Step off the Canadian rule's forbidden bid towards the side of the estimate (docs/decisions.md)."""
    if b == forbidden:
        if (est >= b and b < k) or b == 0:
            return b + 1
        return b - 1
    return b
