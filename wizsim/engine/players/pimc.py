"""The pimc player's entry points: its bid and card in the round, compiled only for runs with a pimc seat.

Registry line: ``Player("pimc", ROLLOUT_LEARNED, ("samples", "bid_samples",
"rollout", "prune", "infer", "kind"))`` in :mod:`..layout` (slots ``P_*``);
its Python side is :mod:`wizsim.players.pimc`; its search (sampling, rollouts,
pruning) is :mod:`.pimc_search`. It bids from the table player's bid
(:func:`.table.start_bid`) moved by its search, and plays the heuristic's card
when it has no choice.

A run without pimc passes a bool array as ``feats.pimc`` (with pimc: an int8
array): the hooks below then compile to stubs and pimc's search (about a
third of the engine's compile time) is never compiled. Without a pimc or
learned seat ``view`` is a :class:`..bundles.NoView` and the hooks are stubs
too. The choice is made from the argument's type when the round is compiled.
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from ..bundles import is_no_view, new_net
from ..game.trick import legal_mask
from ..jit.bits import ONE, ZERO
from ..jit.config import OVERLOAD_OPTIONS, hot, jit, switch_off
from ..layout import P_BID_SAMPLES, P_GEN, R_MONO
from . import heuristic, table
from .heuristic import estimate
from .learned_model import log_bid, log_decision
from .pimc_search import pimc_bid, pimc_play

#: what a pimc seat needs from the round beyond the deal; its Python side adds ``network`` for rollouts that play
#: the learned player's card network (:meth:`wizsim.players.pimc.PimcStrategy.needs`)
NEEDS = frozenset({"heuristic", "bid_table", "pimc", "view"})


@hot
def bid(turn, named, clairvoyant, setup, players, dec_st, seats, view):
    """The table's bid, moved by pimc's bid search when the seat samples bids (``P_BID_SAMPLES`` > 0)."""
    b, est = table.start_bid(turn, clairvoyant, setup, players, dec_st, seats, False)
    if not clairvoyant and players.params[turn.p, P_BID_SAMPLES] > 0:
        b, dec_st[0] = bid_hook(setup.feats.pimc, turn, b, seats.hands, seats.cnt, seats.bids, setup.tables,
                                players.params, view, setup.models, dec_st[0])  # fmt: skip
    return b, est


@hot
def card(turn, trick, legal, setup, players, dec_st, seats, view, net):
    """pimc's card when it has a choice of more than one card, else the heuristic's (its only card)."""
    if (legal & (legal - ONE)) != ZERO:
        f, dec_st[0] = card_hook(setup.feats.pimc, turn, trick, seats, setup.tables, players.params, view,
                                 setup.models, dec_st[0])  # fmt: skip
        return f
    return heuristic.play_heuristic(turn, trick, legal, setup, seats, np.int64(0))


def card_hook(on, turn, trick, seats, tables, params, view, models, st):  # pragma: no cover - compiled
    """pimc's card (see :func:`pimc_card`); a stub without pimc (``on`` off)."""
    raise NotImplementedError


@overload(card_hook, jit_options=OVERLOAD_OPTIONS)
def _card_hook(on, turn, trick, seats, tables, params, view, models, st):
    if switch_off(on) or is_no_view(view):
        return lambda on, turn, trick, seats, tables, params, view, models, st: (np.int64(-1), st)

    def impl(on, turn, trick, seats, tables, params, view, models, st):
        return pimc_card(turn, trick, seats, tables, params, view, models, st)

    return impl


def bid_hook(on, turn, base, hands, cnt, bids, tables, params, view, models, st):  # pragma: no cover - compiled
    """pimc's bid (see :func:`pimc_seat_bid`); a stub without pimc (``on`` off)."""
    raise NotImplementedError


@overload(bid_hook, jit_options=OVERLOAD_OPTIONS)
def _bid_hook(on, turn, base, hands, cnt, bids, tables, params, view, models, st):
    if switch_off(on) or is_no_view(view):
        return lambda on, turn, base, hands, cnt, bids, tables, params, view, models, st: (base, st)

    def impl(on, turn, base, hands, cnt, bids, tables, params, view, models, st):
        return pimc_seat_bid(turn, base, hands, cnt, bids, tables, params, view, models, st)

    return impl


@hot
def rollout_net(view, models, n, g):
    """What pimc's learned rollouts (policies ROLLOUT_LEARNED and ROLLOUT_SEATS) read: generation ``g``'s card
    network (every seat a rollout plays by the network plays that one), the learned player's scratch, the
    rollout's own cards played and voids, the deck in play (:func:`..bundles.new_net`)."""
    return new_net(models.card_w1[g], models.card_b1[g], models.card_w2[g], view.work_i, view.work_f, view.full, n)


@jit
def pimc_seat_bid(turn, base, hands, cnt, bids, tables, params, view, models, st):
    """pimc's bid around ``base`` (a real call: only pimc seats pay for unpacking ``view``); (bid, state).

    With a training log in ``models`` the decision is logged (:func:`.learned_model.log_bid`).
    """
    p, n, k, trump = turn.p, turn.n, turn.k, turn.trump
    rules = tables.rules
    know = view.know
    bid_log = models.bid_log
    net = rollout_net(view, models, n, np.int64(params[p, P_GEN]))
    if bid_log.shape[0] == 0:
        return pimc_bid(turn, hands, cnt, bids, view.full, know[p], base, tables, params, net, st)
    values = np.zeros((3, 2 * 64 + 1), dtype=np.int64)
    b, st = pimc_bid(turn, hands, cnt, bids, view.full, know[p], base, tables, params, net, st, values)
    est = estimate(hands[p], cnt[p], trump, n, k, params[p], rules[R_MONO] != 0)
    log_bid(bid_log, models.bid_log_n, values, turn, hands, cnt, bids, rules, view.full, est, base)
    return b, st


@jit
def pimc_card(turn, trick, seats, tables, params, view, models, st):
    """pimc's card when it has a choice (a real call: only pimc seats pay for unpacking ``view``); (form, state).

    With a training log in ``models`` (rows > 0) the decision is logged
    (:func:`.learned_model.log_decision`) while the log has room.
    """
    p = turn.p
    hands, cnt, bids, won = seats.hands, seats.cnt, seats.bids, seats.won
    log = models.card_log
    net = rollout_net(view, models, turn.n, np.int64(params[p, P_GEN]))
    if log.shape[0] == 0:
        return pimc_play(turn, trick, hands, cnt, bids, won, view, view.know[p], tables, params, net, st)
    values = np.zeros((3, 2 * 64 + 1), dtype=np.int64)
    f, st = pimc_play(turn, trick, hands, cnt, bids, won, view, view.know[p], tables, params, net, st, values)
    log_decision(log, models.card_log_n, values, turn, trick, hands, cnt, bids, won, tables.rules, view.played,
                 view.void, view.full, legal_mask(hands[p], trick.led, tables.masks))  # fmt: skip
    return f, st
