"""pimc's entry points into the round, compiled only for runs with a pimc seat.

A run without pimc passes a bool array as ``pimc`` (with pimc: an int8
array): the card and bid hooks below then compile to stubs and pimc's search
(its rollouts, sampling and pruning: about a third of the engine's compile
time) is never compiled. The view of the round (:mod:`.pimc_view`) is kept
when a pimc or a learned seat plays (the ``view`` switch); without either,
``view`` is a 1-tuple stand-in and the view hooks compile to nothing.
The choice is made from the argument's type when the round is compiled.
"""

from __future__ import annotations

import numpy as np
from numba.core import types
from numba.extending import overload

from ..config import OVERLOAD_OPTIONS
from .dispatch import learned_seat_bid, pimc_card, pimc_seat_bid
from .learned import WORK_F, WORK_I
from .pimc_view import view_after_card, view_after_passes, view_reset
from .switches import switch_off


def _none(view) -> bool:
    """True for the stand-in view of a run without pimc or learned seats: a 1-tuple (the real view has eight arrays)."""
    return isinstance(view, types.BaseTuple) and len(view) == 1


def card_hook(on, p, t, j, n, k, leader, led, best, winner, tflags, fairy, trump, hands, cnt, bids, won, seen,
              cancelled, cloud_taker, shown, table, masks, rules, params, view, models,
              st):  # fmt: skip  # pragma: no cover - compiled
    """pimc's card (see :func:`.dispatch.pimc_card`); a stub without pimc (``on`` off)."""
    raise NotImplementedError


@overload(card_hook, jit_options=OVERLOAD_OPTIONS)
def _card_hook(on, p, t, j, n, k, leader, led, best, winner, tflags, fairy, trump, hands, cnt, bids, won, seen,
               cancelled, cloud_taker, shown, table, masks, rules, params, view, models, st):  # fmt: skip
    if switch_off(on) or _none(view):

        def stub(on, p, t, j, n, k, leader, led, best, winner, tflags, fairy, trump, hands, cnt, bids, won, seen,
                 cancelled, cloud_taker, shown, table, masks, rules, params, view, models, st):  # fmt: skip
            return -1, st

        return stub

    def impl(on, p, t, j, n, k, leader, led, best, winner, tflags, fairy, trump, hands, cnt, bids, won, seen,
             cancelled, cloud_taker, shown, table, masks, rules, params, view, models, st):  # fmt: skip
        return pimc_card(p, t, j, n, k, leader, led, best, winner, tflags, fairy, trump, hands, cnt, bids, won, seen,
                         cancelled, cloud_taker, shown, table, masks, rules, params, view, models, st)  # fmt: skip

    return impl


def bid_hook(on, p, n, k, dealer, trump, hands, cnt, bids, shown, base, forbidden, table, masks, rules, params, view,
             models, st):  # fmt: skip  # pragma: no cover - compiled
    """pimc's bid (see :func:`.dispatch.pimc_seat_bid`); a stub without pimc (``on`` off)."""
    raise NotImplementedError


@overload(bid_hook, jit_options=OVERLOAD_OPTIONS)
def _bid_hook(on, p, n, k, dealer, trump, hands, cnt, bids, shown, base, forbidden, table, masks, rules, params, view,
              models, st):  # fmt: skip
    if switch_off(on) or _none(view):

        def stub(on, p, n, k, dealer, trump, hands, cnt, bids, shown, base, forbidden, table, masks, rules, params,
                 view, models, st):  # fmt: skip
            return base, st

        return stub

    def impl(on, p, n, k, dealer, trump, hands, cnt, bids, shown, base, forbidden, table, masks, rules, params, view,
             models, st):  # fmt: skip
        return pimc_seat_bid(p, n, k, dealer, trump, hands, cnt, bids, shown, base, forbidden, table, masks, rules,
                             params, view, models, st)  # fmt: skip

    return impl


def learned_bid_hook(on, p, i, n, k, dealer, trump, hands, cnt, bids, forbidden, rules, est, base, view,
                     models):  # fmt: skip  # pragma: no cover - compiled
    """The learned player's bid (:func:`.dispatch.learned_seat_bid`); ``base`` when no seat plays it."""
    raise NotImplementedError


@overload(learned_bid_hook, jit_options=OVERLOAD_OPTIONS)
def _learned_bid_hook(on, p, i, n, k, dealer, trump, hands, cnt, bids, forbidden, rules, est, base, view, models):
    if switch_off(on) or _none(view):
        return lambda on, p, i, n, k, dealer, trump, hands, cnt, bids, forbidden, rules, est, base, view, models: base

    def impl(on, p, i, n, k, dealer, trump, hands, cnt, bids, forbidden, rules, est, base, view, models):
        return learned_seat_bid(p, i, n, k, dealer, trump, hands, cnt, bids, forbidden, rules, est, base, view, models)

    return impl


def reset_hook(n, indicator, wolf, swapped, tables, pre, view):  # pragma: no cover - compiled
    """:func:`.pimc_view.view_reset`; nothing without pimc."""
    raise NotImplementedError


@overload(reset_hook, jit_options=OVERLOAD_OPTIONS)
def _reset_hook(n, indicator, wolf, swapped, tables, pre, view):
    if _none(view):
        return lambda n, indicator, wolf, swapped, tables, pre, view: None

    def impl(n, indicator, wolf, swapped, tables, pre, view):
        view_reset(n, indicator, wolf, swapped, tables, pre, view)

    return impl


def card_seen_hook(p, c, led, n, view):  # pragma: no cover - compiled
    """:func:`.pimc_view.view_after_card`; nothing without pimc."""
    raise NotImplementedError


@overload(card_seen_hook, jit_options=OVERLOAD_OPTIONS)
def _card_seen_hook(p, c, led, n, view):
    if _none(view):
        return lambda p, c, led, n, view: None

    def impl(p, c, led, n, view):
        view_after_card(p, c, led, n, view)

    return impl


def passes_hook(n, passed, view):  # pragma: no cover - compiled
    """:func:`.pimc_view.view_after_passes`; nothing without pimc."""
    raise NotImplementedError


@overload(passes_hook, jit_options=OVERLOAD_OPTIONS)
def _passes_hook(n, passed, view):
    if _none(view):
        return lambda n, passed, view: None

    def impl(n, passed, view):
        view_after_passes(n, passed, view)

    return impl


def new_view(on, n):  # pragma: no cover - compiled
    """The view of the round for ``n`` seats (:mod:`.pimc_view`); a stand-in when the ``view`` switch is off."""
    raise NotImplementedError


@overload(new_view, jit_options=OVERLOAD_OPTIONS)
def _new_view(on, n):
    if switch_off(on):
        return lambda on, n: (on,)  # no pimc or learned seat: a stand-in the hooks compile to nothing

    def impl(on, n):
        return (
            np.zeros(64, dtype=np.int64),  # cards played
            np.zeros(n, dtype=np.int64),  # suits shown out of
            np.zeros(64, dtype=np.int64),  # the whole deck in play, by card type
            np.zeros((n, n, 64), dtype=np.int64),  # know[o, q, c]: copies of c that seat o knows q holds
            np.zeros(n, dtype=np.uint64),  # cards each seat has played this round
            np.zeros(n, dtype=np.int64),  # Wizards each seat has played this round
            np.zeros(WORK_I, dtype=np.int64),  # the learned player's scratch (players/learned.py)
            np.zeros(WORK_F, dtype=np.float64),
        )

    return impl
