"""What a seat does on its turn: the one switch on player ids for bids and card play.

The round (:mod:`..round`) asks :func:`seat_bid` for every bid and
:func:`seat_card` for every card; the round itself looks at a seat's strategy
id once, for random play's fast path (a random card drawn in the loop: through
this function random play with all special cards ran 2-7% slower, best of 7). Each branch calls its player's entry point with the arrays that
player reads (a real call gets only those; the branches themselves are
inlined): a user's bid rule (:mod:`.rule`), ``random`` (:mod:`.random`), the
heuristic's bid and play that ``heuristic``, ``table``, ``pimc`` and
``learned`` start from (:mod:`.dispatch`, :mod:`.heuristic`, :mod:`.table`),
pimc's search (:mod:`.pimc`, through :mod:`.pimc_hooks`) and the learned
networks (:mod:`.learned`, through :mod:`.switches`). The players and their
ids are registered in :data:`..layout.REGISTRY`.
"""

from __future__ import annotations

import numpy as np

from ..jit.bits import ONE, U64, ZERO, lowest_bit
from ..jit.config import hot
from ..layout import B_RULE, DRAGON, P_BID_SAMPLES, R_MONO, S_LEARNED, S_PIMC, S_RANDOM, TP_REFINE
from .dispatch import canadian_step, random_bid
from .pimc_hooks import bid_hook, card_hook, learned_bid_hook
from .switches import heuristic_bid, heuristic_card, learned_card, rule_bid_hook


@hot
def keeps_view(n, strat):
    """Whether a seat plays pimc or learned: then the round keeps the view of it they read."""
    track = False
    for p in range(n):
        track |= strat[p] == S_PIMC or strat[p] == S_LEARNED
    return track


@hot
def seat_bid(turn, named, clairvoyant, setup, players, dec_st, seats, view):
    """Seat ``turn.p``'s bid (a :class:`..bundles.BidTurn`), the Canadian rule's step included.

    A user's bid rule comes first (``params[seat, B_RULE]``; clairvoyance hides
    the own hand a rule reads: the seat then bids as its card player does).
    ``random`` bids uniformly and never the forbidden bid; every other player
    starts from the heuristic's (or the table's) bid and its estimate, which
    pimc's search and the learned bid network then move, and steps off the
    forbidden bid towards its estimate.
    """
    tables, models, feats = setup.tables, setup.models, setup.feats
    strat, params = players.strat, players.params
    rules = tables.rules
    hands, cnt = seats.hands, seats.cnt
    p, k, forbidden = turn.p, turn.k, turn.forbidden
    slot = np.int64(params[p, B_RULE]) - 1 if not clairvoyant else np.int64(-1)
    if slot >= 0:
        b, est = rule_bid_hook(feats.rules, turn, named, rules, hands, cnt, params, slot, models.bid_table)
        return canadian_step(b, est, k, forbidden)  # as the built-in players step: towards their estimate
    if strat[p] == S_RANDOM:
        return random_bid(k, forbidden, dec_st)
    b, est, dec_st[0] = heuristic_bid(feats.heuristic, turn, clairvoyant, hands, cnt, tables.deck, tables.table, rules,
                                      strat, params, models.bid_table, seats.work, dec_st[0])  # fmt: skip
    if strat[p] == S_PIMC and not clairvoyant and params[p, P_BID_SAMPLES] > 0:
        b, dec_st[0] = bid_hook(feats.pimc, turn, b, hands, cnt, seats.bids, tables, params, view, models, dec_st[0])
    elif strat[p] == S_LEARNED and not clairvoyant and rules[R_MONO] == 0:
        b = learned_bid_hook(feats.learned, turn, hands, cnt, seats.bids, rules, est, b, view, models)
    return canadian_step(b, est, k, forbidden)


@hot
def seat_card(turn, trick, legal, setup, players, dec_st, seats, view, net):
    """The form seat ``turn.p`` plays (a :class:`..bundles.Turn` in a :class:`..bundles.Trick`, ``legal`` its legal
    cards), before a flexible card's form is settled.

    A ``random`` seat's card is drawn by the round itself (its fast path, see
    the module docstring), so it never comes here; ``pimc`` and ``learned`` decide when they have a choice; a seat with
    one legal suit card, Wizard or Jester plays it without asking (the
    heuristic returns that card: tests/test_forced_play.py); the heuristic
    plays the rest, with the table player's refinements for ``table``.
    """
    p = turn.p
    kind = players.strat[p]
    tables, models, feats = setup.tables, setup.models, setup.feats
    params = players.params
    k = turn.k
    hands, bids, won = seats.hands, seats.bids, seats.won
    one_card = (legal & (legal - ONE)) == ZERO
    if kind == S_PIMC and not one_card:
        f, dec_st[0] = card_hook(feats.pimc, turn, trick, seats, tables, params, view, models, dec_st[0])
        return f
    if kind == S_LEARNED and not one_card:
        return learned_card(feats.learned, turn, trick, hands, seats.cnt, bids, won, tables.rules, legal, net)
    if one_card and legal < (ONE << U64(DRAGON)):
        return np.int64(lowest_bit(legal))  # one legal suit card, Wizard or Jester: what the heuristic returns
    need = k if turn.cancelled else bids[p] - won[p]  # bids cancelled by the Bomb: every trick is 10 points
    refine = np.int64(params[p, TP_REFINE])
    return heuristic_card(feats.heuristic, kind, hands[p], legal, need, refine, trick.led, trick.best, turn.j,
                          turn.n, turn.trump, turn.seen, trick.flags, tables.rules[R_MONO] != 0)  # fmt: skip
