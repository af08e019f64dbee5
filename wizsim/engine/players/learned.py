"""The learned player's entry points: bids and card play by two small networks fitted to pimc's values.

Registry line: ``Player("learned", ROLLOUT_LEARNED, ("gen",))`` in :mod:`..layout` (one
slot of its own, the network generation it plays, an index into the stacked networks of
the ``Models`` bundle; it reads the table player's and the heuristic's too);
its Python side is :mod:`wizsim.players.learned`; its networks (state rows,
features, scores, training logs) are :mod:`.learned_model`. It bids the table
player's bid moved by the bid network (not in clairvoyance or mono), and plays
the card network's best candidate when it has a choice, else the
heuristic's card. Without a learned seat the ``learned`` switch is off and
its hooks compile to stubs (:mod:`.switches`).
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from ..bundles import Net, is_no_view
from ..jit.bits import ONE, ZERO
from ..jit.config import OVERLOAD_OPTIONS, hot, switch_off
from ..layout import LG_GEN, R_MONO
from . import heuristic, table
from .learned_model import learned_bid, learned_play

#: what a learned seat needs from the round beyond the deal (:meth:`wizsim.players.base.Strategy.needs`)
NEEDS = frozenset({"heuristic", "bid_table", "learned", "network", "view"})


@hot
def bid(turn, named, clairvoyant, setup, players, dec_st, seats, view):
    """The table's bid, moved by the bid network (not under clairvoyance or mono)."""
    b, est = table.start_bid(turn, clairvoyant, setup, players, dec_st, seats, False)
    rules = setup.tables.rules
    if not clairvoyant and rules[R_MONO] == 0:
        g = np.int64(players.params[turn.p, LG_GEN])
        b = learned_bid_hook(setup.feats.learned, turn, seats.hands, seats.cnt, seats.bids, rules, est, b, view,
                             setup.models, g)  # fmt: skip
    return b, est


@hot
def card(turn, trick, legal, setup, players, dec_st, seats, view, net):
    """The card network's best candidate when there is a choice of more than one card, else the heuristic's."""
    if (legal & (legal - ONE)) != ZERO:
        g = np.int64(players.params[turn.p, LG_GEN])  # the seat's generation: its slice of the stacked networks
        seat_net = Net(net.w1[g], net.b1[g], net.w2[g], net.work_i, net.work_f, net.played, net.void, net.full)
        return learned_card(setup.feats.learned, turn, trick, seats.hands, seats.cnt, seats.bids, seats.won,
                            setup.tables.rules, legal, seat_net)  # fmt: skip
    return heuristic.play_heuristic(turn, trick, legal, setup, seats, np.int64(0))


def learned_card(on, turn, trick, hands, cnt, bids, won, rules, legal, net):  # pragma: no cover - compiled
    """:func:`.learned_model.learned_play`; a stub when no seat plays ``learned``."""
    raise NotImplementedError


@overload(learned_card, jit_options=OVERLOAD_OPTIONS)
def _learned_card(on, turn, trick, hands, cnt, bids, won, rules, legal, net):
    if switch_off(on):
        return lambda on, turn, trick, hands, cnt, bids, won, rules, legal, net: np.int64(-1)

    return learned_play  # the implementation itself: no wrapper call per card


def learned_bid_hook(on, turn, hands, cnt, bids, rules, est, base, view, models, g):  # pragma: no cover - compiled
    """The learned player's bid (:func:`learned_seat_bid`); ``base`` when no seat plays it."""
    raise NotImplementedError


@overload(learned_bid_hook, jit_options=OVERLOAD_OPTIONS)
def _learned_bid_hook(on, turn, hands, cnt, bids, rules, est, base, view, models, g):
    if switch_off(on) or is_no_view(view):
        return lambda on, turn, hands, cnt, bids, rules, est, base, view, models, g: base

    def impl(on, turn, hands, cnt, bids, rules, est, base, view, models, g):
        return learned_seat_bid(turn, hands, cnt, bids, rules, est, base, view, models, g)

    return impl


@hot
def learned_seat_bid(turn, hands, cnt, bids, rules, est, base, view, models, g):
    """The learned player's bid: a call of :func:`.learned_model.learned_bid` with the arrays it reads only
    (generation ``g``'s bid network)."""
    return learned_bid(turn, hands, cnt, bids, rules, view.full, est, base, models.bid_w1[g], models.bid_b1[g],
                       models.bid_w2[g], view.work_i, view.work_f)  # fmt: skip


def learned_net(on, view, models):  # pragma: no cover - compiled
    """The :class:`..bundles.Net` the learned player reads in the round (the round's view and the card networks of
    every generation, stacked: :func:`card` slices its seat's), built once per round; without learned seats any
    arrays (never read)."""
    raise NotImplementedError


@overload(learned_net, jit_options=OVERLOAD_OPTIONS)
def _learned_net(on, view, models):
    if switch_off(on) or is_no_view(view):
        # never read: any arrays will do (no allocation)
        def placeholder(on, view, models):
            m = models.card_log_n
            return Net(models.card_w1, models.card_b1, models.card_w2, m, models.card_b1, m, m, m)

        return placeholder

    def impl(on, view, models):
        return Net(models.card_w1, models.card_b1, models.card_w2, view.work_i, view.work_f, view.played, view.void,
                   view.full)  # fmt: skip

    return impl
