"""The table player's bids: the best learned mean score around the heuristic's bid (wizsim.training.bid_table).

Registry line: ``Player("table", ROLLOUT_TABLE, ("explore", "refine"))`` in
:mod:`..layout` (its slots ``TP_EXPLORE``, ``TP_REFINE``); its Python side is
:mod:`wizsim.players.table`. It plays like the heuristic with the
refinements in ``params[seat, TP_REFINE]`` (:func:`.heuristic.heuristic_play`).
``pimc`` and ``learned`` start their bids from its bid (:func:`start_bid`).
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from ..jit.bits import ONE, U64, ZERO
from ..jit.borrow import stack_stream
from ..jit.config import OVERLOAD_OPTIONS, hot, jit, switch_off
from ..jit.rng import below
from ..layout import R_HIDDEN_BIDS, R_MONO, TP_EXPLORE, TP_REFINE, WIZARD
from . import heuristic
from .heuristic import heuristic_base, heuristic_estimate

#: what a table seat needs from the round beyond the deal (:meth:`wizsim.players.base.Strategy.needs`)
NEEDS = frozenset({"heuristic", "bid_table"})


@hot
def bid(turn, named, clairvoyant, setup, players, dec_st, seats, view):
    """The table's bid around the heuristic's (``explore``: a random step of -2..2 instead, for training)."""
    return start_bid(turn, clairvoyant, setup, players, dec_st, seats, True)


@hot
def card(turn, trick, legal, setup, players, dec_st, seats, view, net):
    """The heuristic's card with the seat's refinements (``TP_REFINE``)."""
    return heuristic.play_heuristic(turn, trick, legal, setup, seats, np.int64(players.params[turn.p, TP_REFINE]))


@hot
def start_bid(turn, clairvoyant, setup, players, dec_st, seats, explore):
    """The heuristic's bid moved by the bid table (not under clairvoyance or mono: the table is for the standard
    deck); (bid, the heuristic's estimate). ``explore``: the seat's ``TP_EXPLORE`` applies (table seats only).

    One call per bid (:func:`table_start`), as the heuristic's bid is: as two (the heuristic's bid, then the
    table's step) table 4x10 ran about 9% slower.
    """
    tables = setup.tables
    b, est, dec_st[0] = table_start(setup.feats.heuristic, turn, clairvoyant, explore, seats.hands, seats.cnt,
                                    tables.deck, tables.table, tables.rules, players.params, seats.work,
                                    setup.models.bid_table, dec_st[0])  # fmt: skip
    return b, est


def table_start(on, turn, clairvoyant, explore, hands, cnt, deck, table, rules, params, work, bid_tab, st):
    """:func:`start_impl`; a stub when no seat needs the heuristic (the switch ``on``, :mod:`.switches`)."""
    raise NotImplementedError  # pragma: no cover - compiled


@overload(table_start, jit_options=OVERLOAD_OPTIONS)
def _table_start(on, turn, clairvoyant, explore, hands, cnt, deck, table, rules, params, work, bid_tab, st):
    if switch_off(on):
        return lambda on, turn, clairvoyant, explore, hands, cnt, deck, table, rules, params, work, bid_tab, st: (
            np.int64(-1), 0.0, st
        )  # fmt: skip

    return start_impl  # the implementation itself: no wrapper call per bid


def start_impl(on, turn, clairvoyant, explore, hands, cnt, deck, table, rules, params, work, bid_tab, st):
    """The table's bid from the heuristic's (:func:`.heuristic.heuristic_base`); (bid, estimate, stream state)."""
    b, est = heuristic_base(turn, clairvoyant, hands, cnt, deck, table, rules, params, work)
    if clairvoyant or rules[R_MONO] != 0:
        return b, est, st
    p, k = turn.p, turn.k
    if explore and params[p, TP_EXPLORE] > 0:
        dec_st = stack_stream(st)  # only here
        return min(max(b + below(dec_st, 5) - 2, 0), k), est, dec_st[0]
    b = table_bid(est, b, turn.n, k, turn.i, turn.bid_sum, rules[R_HIDDEN_BIDS] != 0, turn.forbidden, cnt[p, WIZARD],
                  bid_tab)  # fmt: skip
    return b, est, st


@jit
def table_bid(est, base, n, k, pos, earlier, hidden, forbidden, wizards, tab):
    """The bid with the best learned mean score among ``base - 2 .. base + 2`` (see wizsim.training.bid_table).

    ``tab[n - 3, k, pos, est_bin, earlier_bin, wizards, step]``: mean score of bidding
    ``base + step - 2``, NaN where the training saw too few rounds; the
    heuristic's ``base`` stands when nothing is known.
    """
    ni = n - 3
    if ni >= tab.shape[0] or k >= tab.shape[1] or pos >= tab.shape[2]:
        return base
    eb = min(max(np.int64(est * 4.0), 0), tab.shape[3] - 1)
    xb = 1
    if not hidden and pos > 0:
        excess = earlier - pos * k / n
        if excess < -0.75:
            xb = 0
        elif excess > 0.75:
            xb = 2
    best = base
    best_v = -np.inf
    for step in range(5):
        b = base + step - 2
        if b < 0 or b > k or b == forbidden:
            continue
        v = tab[ni, k, pos, eb, xb, min(wizards, tab.shape[5] - 1), step]
        if v == v and v > best_v:  # NaN: unknown
            best_v = v
            best = b
    return best


@jit
def heuristic_estimates(rec_hands, ks, trumps, n, prm):
    """The heuristic's bid estimate of every recorded hand (rows x seats), for training the bid table."""
    rows = rec_hands.shape[0]
    out = np.zeros((rows, n), dtype=np.float64)
    cnt = np.zeros(64, dtype=np.int64)
    for r in range(rows):
        k = ks[r]
        for p in range(n):
            hand = ZERO
            for j in range(k):
                c = np.int64(rec_hands[r, p, j])
                hand |= ONE << U64(c)
                cnt[c] += 1
            out[r, p] = heuristic_estimate(hand, cnt, trumps[r], n, k, prm)
            for j in range(k):
                cnt[np.int64(rec_hands[r, p, j])] = 0
    return out
