"""The one switch on player ids: who bids what and plays which card.

Every seat has a strategy id (``strat[seat]``: ``S_RANDOM``, ``S_HEURISTIC``,
``S_TABLE``, ``S_PIMC``, ``S_LEARNED``) and a parameter row (``params[seat]``, blocks in
:mod:`..layout`). Special-card decisions that any player makes the same way
(naming trump, the Werewolf, a Juggler's or Cloud's suit, the Juggler pass)
go through :func:`.decisions.decider`. Adding a player: a module in this
package with its bid and play, an id in the layout, and a branch here.
"""

from __future__ import annotations

import numpy as np

from ..bundles import new_net
from ..game.trick import legal_mask
from ..jit.borrow import stack_stream
from ..jit.config import hot, jit
from ..jit.rng import below
from ..layout import (
    D_FORM,
    JUGGLER_AS,
    R_HIDDEN_BIDS,
    R_MONO,
    R_SCORING,
    S_LEARNED,
    S_PIMC,
    S_RANDOM,
    S_TABLE,
    T_CARD,
    TP_EXPLORE,
    WIZARD,
)
from .decisions import decider
from .heuristic import clairvoyant_bid, estimate, forms_of, heuristic_play
from .learned import learned_bid, log_bid, log_decision
from .pimc import pimc_bid, pimc_play
from .random import random_form
from .table import table_bid


@hot
def random_bid(k, forbidden, dec_st):
    """A uniformly random legal bid (never the Canadian rule's ``forbidden`` bid, -1: none)."""
    if 0 <= forbidden <= k:
        b = below(dec_st, k)
        if b >= forbidden:
            b += 1
        return b
    return below(dec_st, k + 1)


def choose_bid(on, turn, clairvoyant, hands, cnt, deck, table, rules, strat, params, bid_tab, work, st):
    """A ``heuristic``, ``table`` or ``pimc`` seat's bid before pimc's search and the Canadian rule.

    Returns (bid, the heuristic's estimate, stream state). ``turn``: the
    :class:`..bundles.BidTurn` (``turn.i``: how many bid before; ``bid_sum``:
    their bids; ``forbidden``: -1 or the Canadian rule's forbidden bid).
    Compiled as the implementation of the switch :func:`.switches.heuristic_bid`
    (``on`` is that switch; a function of its own, called once per bid of a
    non-random seat: random seats bid by :func:`random_bid`).
    """
    p, n, k, trump = turn.p, turn.n, turn.k, turn.trump
    mono = rules[R_MONO] != 0
    if clairvoyant:
        b = clairvoyant_bid(p, n, k, turn.dealer, trump, turn.shown, hands, cnt, deck, table, rules[R_SCORING], work)
        est = np.float64(b)
    else:
        est = estimate(hands[p], cnt[p], trump, n, k, params[p], mono)
        b = np.int64(np.floor(est + 0.5))
    if b < 0:
        b = 0
    if b > k:
        b = k
    if (strat[p] == S_TABLE or strat[p] == S_PIMC or strat[p] == S_LEARNED) and not clairvoyant and not mono:
        if strat[p] == S_TABLE and params[p, TP_EXPLORE] > 0:
            dec_st = stack_stream(st)  # only here
            b = min(max(b + below(dec_st, 5) - 2, 0), k)
            st = dec_st[0]
        else:
            b = table_bid(est, b, n, k, turn.i, turn.bid_sum, rules[R_HIDDEN_BIDS] != 0, turn.forbidden,
                          cnt[p, WIZARD], bid_tab)  # fmt: skip
    return b, est, st


@hot
def canadian_step(b, est, k, forbidden):
    """Step off the Canadian rule's forbidden bid towards the side of the estimate (docs/decisions.md)."""
    if b == forbidden:
        if (est >= b and b < k) or b == 0:
            return b + 1
        return b - 1
    return b


@hot
def rollout_net(view, models, n):
    """What pimc's learned rollouts (policies ROLLOUT_LEARNED and ROLLOUT_SEATS) read: the card network, the learned
    player's scratch, the rollout's own cards played and voids, the deck in play (:func:`..bundles.new_net`)."""
    return new_net(models.card_w1, models.card_b1, models.card_w2, view.work_i, view.work_f, view.full, n)


@jit
def pimc_seat_bid(turn, base, hands, cnt, bids, tables, params, view, models, st):
    """pimc's bid around ``base`` (a real call: only pimc seats pay for unpacking ``view``); (bid, state).

    With a training log in ``models`` the decision is logged (:func:`.learned.log_bid`).
    """
    p, n, k, trump = turn.p, turn.n, turn.k, turn.trump
    rules = tables.rules
    know = view.know
    bid_log = models.bid_log
    net = rollout_net(view, models, n)
    if bid_log.shape[0] == 0:
        return pimc_bid(turn, hands, cnt, bids, view.full, know[p], base, tables, params, net, st)
    values = np.zeros((3, 2 * 64 + 1), dtype=np.int64)
    b, st = pimc_bid(turn, hands, cnt, bids, view.full, know[p], base, tables, params, net, st, values)
    est = estimate(hands[p], cnt[p], trump, n, k, params[p], rules[R_MONO] != 0)
    log_bid(bid_log, models.bid_log_n, values, turn, hands, cnt, bids, rules, view.full, est, base)
    return b, st


@hot
def learned_seat_bid(turn, hands, cnt, bids, rules, est, base, view, models):
    """The learned player's bid: a call of :func:`.learned.learned_bid` with the arrays it reads only."""
    return learned_bid(turn, hands, cnt, bids, rules, view.full, est, base, models.bid_w1, models.bid_b1,
                       models.bid_w2)  # fmt: skip


@hot
def choose_card(kind, hand, legal, need, refine, led, best, j, n, trump, seen, tflags, mono):
    """The card (a form) a ``heuristic`` or ``table`` seat plays, or ``pimc`` with one choice only.

    The other cards are drawn in :func:`..round.trick_phase` itself: a random
    seat's by ``rng.random_member`` (the stream is the only array a card
    needs), a pimc seat's by :func:`pimc_card`.
    Scalars only; a card with forms still needs :func:`settle_form`.
    """
    return heuristic_play(
        hand, legal, need, led, best, j, n, trump, seen, tflags, mono, refine if kind == S_TABLE else 0
    )


def settle_form(on, kind, f, p, led, trump, strat, params, table, st):
    """The form of a card with forms (Juggler, Cloud, Shapeshifter), by the seat's ``form`` decision; (form, state).

    Compiled as the implementation of the switch :func:`.switches.special_form`
    (``on``), a function of its own called only for those cards: ``f`` is a
    random player's card (>= JUGGLER) or the heuristic's form (>= JUGGLER_AS).
    """
    dec_st = stack_stream(st)
    rule = decider(strat, params, p, D_FORM)
    if kind == S_RANDOM:
        if f >= JUGGLER_AS:
            return f, st
        if rule == S_RANDOM:
            return random_form(f, dec_st), dec_st[0]
        win, _ = forms_of(f, led, trump)  # heuristic choice: the winning form
        return win, st
    if f >= JUGGLER_AS and rule == S_RANDOM:
        return random_form(table[f, T_CARD], dec_st), dec_st[0]
    return f, st


@jit
def pimc_card(turn, trick, seats, tables, params, view, models, st):
    """pimc's card when it has a choice (a real call: only pimc seats pay for unpacking ``view``); (form, state).

    With a training log in ``models`` (rows > 0) the decision is logged
    (:func:`.learned.log_decision`) while the log has room.
    """
    p = turn.p
    hands, cnt, bids, won = seats.hands, seats.cnt, seats.bids, seats.won
    log = models.card_log
    net = rollout_net(view, models, turn.n)
    if log.shape[0] == 0:
        return pimc_play(turn, trick, hands, cnt, bids, won, view, view.know[p], tables, params, net, st)
    values = np.zeros((3, 2 * 64 + 1), dtype=np.int64)
    f, st = pimc_play(turn, trick, hands, cnt, bids, won, view, view.know[p], tables, params, net, st, values)
    log_decision(log, models.card_log_n, values, turn, trick, hands, cnt, bids, won, tables.rules, view.played,
                 view.void, view.full, legal_mask(hands[p], trick.led, tables.masks))  # fmt: skip
    return f, st
