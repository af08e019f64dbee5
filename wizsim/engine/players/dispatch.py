"""The one switch on player ids: who bids what and plays which card.

Every seat has a strategy id (``strat[seat]``: ``S_RANDOM``, ``S_HEURISTIC``,
``S_TABLE``, ``S_PIMC``) and a parameter row (``params[seat]``, blocks in
:mod:`..layout`). Special-card decisions that any player makes the same way
(naming trump, the Werewolf, a Juggler's or Cloud's suit, the Juggler pass)
go through :func:`.decisions.decider`. Adding a player: a module in this
package with its bid and play, an id in the layout, and a branch here.
"""

from __future__ import annotations

import numpy as np

from ..bits import ONE, ZERO
from ..config import hot
from ..layout import (
    D_FORM,
    JUGGLER,
    JUGGLER_AS,
    P_BID_SAMPLES,
    R_HIDDEN_BIDS,
    R_MONO,
    R_SCORING,
    S_PIMC,
    S_RANDOM,
    S_TABLE,
    T_CARD,
    T_EXPLORE,
    T_REFINE,
    WIZARD,
)
from ..rng import below, random_member
from .decisions import decider
from .heuristic import clairvoyant_bid, estimate, forms_of, heuristic_play
from .pimc import pimc_bid, pimc_play
from .random import random_form
from .table import table_bid


@hot
def choose_bid(p, i, n, k, dealer, trump, shown, clairvoyant, bid_sum, forbidden, tables, strat, params, seats, pre,
               view, dec_st):  # fmt: skip
    """The bid of seat ``p``, the ``i``-th to bid (``bid_sum``: the bids so far; ``forbidden``: -1 or the
    Canadian rule's forbidden bid)."""
    deck, mono_decks, table, masks, rules = tables
    hands, cnt, bids, won, final_bids, scores, work = seats
    played, void, full, know, spmask, spwiz = view
    mono = rules[R_MONO] != 0
    if strat[p] == S_RANDOM:
        if 0 <= forbidden <= k:
            b = below(dec_st, k)
            if b >= forbidden:
                b += 1
        else:
            b = below(dec_st, k + 1)
        return b
    if clairvoyant:
        b = clairvoyant_bid(p, n, k, dealer, trump, shown, hands, cnt, deck, table, rules[R_SCORING], work)
        est = np.float64(b)
    else:
        est = estimate(hands[p], cnt[p], trump, n, k, params[p], mono)
        b = np.int64(np.floor(est + 0.5))
    if b < 0:
        b = 0
    if b > k:
        b = k
    if (strat[p] == S_TABLE or strat[p] == S_PIMC) and not clairvoyant and not mono:
        if strat[p] == S_TABLE and params[p, T_EXPLORE] > 0:
            b = min(max(b + below(dec_st, 5) - 2, 0), k)
        else:
            b = table_bid(est, b, n, k, i, bid_sum, rules[R_HIDDEN_BIDS] != 0, forbidden, cnt[p, WIZARD], pre[3])
    if strat[p] == S_PIMC and not clairvoyant and params[p, P_BID_SAMPLES] > 0:
        b, dec_st[0] = pimc_bid(
            p, n, k, dealer, trump, hands, cnt, bids, full, shown, know[p], b,
            forbidden, table, masks, rules, params, mono, dec_st[0],
        )  # fmt: skip
    if b == forbidden:
        if (est >= b and b < k) or b == 0:
            b += 1
        else:
            b -= 1
    return b


@hot
def choose_card(p, t, j, n, k, leader, trick, legal, trump, seen, cancelled, cloud_taker, shown, tables, strat,
                params, seats, view, dec_st):  # fmt: skip
    """The form seat ``p`` plays as the ``j``-th card of trick ``t`` (``trick``: led, best, winner, flags, Fairy)."""
    deck, mono_decks, table, masks, rules = tables
    hands, cnt, bids, won, final_bids, scores, work = seats
    played, void, full, know, spmask, spwiz = view
    led, best, winner, tflags, fairy = trick
    mono = rules[R_MONO] != 0
    if strat[p] == S_RANDOM:
        c = random_member(dec_st, legal)
        f = c
        if c >= JUGGLER:
            if decider(strat, params, p, D_FORM) == S_RANDOM:
                f = random_form(c, dec_st)
            else:
                f, _ = forms_of(c, led, trump)  # heuristic choice: the winning form
        return f
    need = bids[p] - won[p]
    if cancelled:
        need = k  # bids no longer count: every trick is 10 points
    if strat[p] == S_PIMC and (legal & (legal - ONE)) != ZERO:
        f, dec_st[0] = pimc_play(
            p, t, j, n, k, leader, led, best, winner, tflags, fairy, trump, hands, cnt, bids, won, seen,
            cancelled, cloud_taker, full, played, void, shown, know[p], spmask, spwiz, table,
            masks, rules, params, mono, dec_st[0],
        )  # fmt: skip
    else:
        refine = np.int64(params[p, T_REFINE]) if strat[p] == S_TABLE else 0
        f = heuristic_play(hands[p], legal, need, led, best, j, n, trump, seen, tflags, mono, refine)
    if f >= JUGGLER_AS and decider(strat, params, p, D_FORM) == S_RANDOM:
        f = random_form(table[f, T_CARD], dec_st)
    return f
