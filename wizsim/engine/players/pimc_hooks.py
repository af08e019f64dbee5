"""pimc's entry points into the round, compiled only for runs with a pimc seat.

A run without pimc passes a bool array as ``pimc`` (with pimc: an int8
array): the card and bid hooks below then compile to stubs and pimc's search
(its rollouts, sampling and pruning: about a third of the engine's compile
time) is never compiled. The view of the round (:mod:`.pimc_view`) is kept
when a pimc or a learned seat plays (the ``view`` switch); without either,
``view`` is a :class:`..bundles.NoView` stand-in and the view hooks compile to nothing.
The choice is made from the argument's type when the round is compiled.
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from ..bundles import NoView, View, is_no_view
from ..jit.config import OVERLOAD_OPTIONS
from ..layout import (
    WORK_F,
    WORK_I,
)
from .dispatch import learned_seat_bid, pimc_card, pimc_seat_bid
from .pimc_view import view_after_card, view_after_passes, view_reset
from .switches import switch_off


def card_hook(on, turn, trick, seats, tables, params, view, models, st):  # pragma: no cover - compiled
    """pimc's card (see :func:`.dispatch.pimc_card`); a stub without pimc (``on`` off)."""
    raise NotImplementedError


@overload(card_hook, jit_options=OVERLOAD_OPTIONS)
def _card_hook(on, turn, trick, seats, tables, params, view, models, st):
    if switch_off(on) or is_no_view(view):
        return lambda on, turn, trick, seats, tables, params, view, models, st: (np.int64(-1), st)

    def impl(on, turn, trick, seats, tables, params, view, models, st):
        return pimc_card(turn, trick, seats, tables, params, view, models, st)

    return impl


def bid_hook(on, turn, base, hands, cnt, bids, tables, params, view, models, st):  # pragma: no cover - compiled
    """pimc's bid (see :func:`.dispatch.pimc_seat_bid`); a stub without pimc (``on`` off)."""
    raise NotImplementedError


@overload(bid_hook, jit_options=OVERLOAD_OPTIONS)
def _bid_hook(on, turn, base, hands, cnt, bids, tables, params, view, models, st):
    if switch_off(on) or is_no_view(view):
        return lambda on, turn, base, hands, cnt, bids, tables, params, view, models, st: (base, st)

    def impl(on, turn, base, hands, cnt, bids, tables, params, view, models, st):
        return pimc_seat_bid(turn, base, hands, cnt, bids, tables, params, view, models, st)

    return impl


def learned_bid_hook(on, turn, hands, cnt, bids, rules, est, base, view, models):  # pragma: no cover - compiled
    """The learned player's bid (:func:`.dispatch.learned_seat_bid`); ``base`` when no seat plays it."""
    raise NotImplementedError


@overload(learned_bid_hook, jit_options=OVERLOAD_OPTIONS)
def _learned_bid_hook(on, turn, hands, cnt, bids, rules, est, base, view, models):
    if switch_off(on) or is_no_view(view):
        return lambda on, turn, hands, cnt, bids, rules, est, base, view, models: base

    def impl(on, turn, hands, cnt, bids, rules, est, base, view, models):
        return learned_seat_bid(turn, hands, cnt, bids, rules, est, base, view, models)

    return impl


def reset_hook(n, indicator, wolf, swapped, tables, pre, view):  # pragma: no cover - compiled
    """:func:`.pimc_view.view_reset`; nothing without pimc."""
    raise NotImplementedError


@overload(reset_hook, jit_options=OVERLOAD_OPTIONS)
def _reset_hook(n, indicator, wolf, swapped, tables, pre, view):
    if is_no_view(view):
        return lambda n, indicator, wolf, swapped, tables, pre, view: None

    def impl(n, indicator, wolf, swapped, tables, pre, view):
        view_reset(n, indicator, wolf, swapped, tables, pre, view)

    return impl


def card_seen_hook(p, c, led, n, view):  # pragma: no cover - compiled
    """:func:`.pimc_view.view_after_card`; nothing without pimc."""
    raise NotImplementedError


@overload(card_seen_hook, jit_options=OVERLOAD_OPTIONS)
def _card_seen_hook(p, c, led, n, view):
    if is_no_view(view):
        return lambda p, c, led, n, view: None

    def impl(p, c, led, n, view):
        view_after_card(p, c, led, n, view)

    return impl


def passes_hook(n, passed, view):  # pragma: no cover - compiled
    """:func:`.pimc_view.view_after_passes`; nothing without pimc."""
    raise NotImplementedError


@overload(passes_hook, jit_options=OVERLOAD_OPTIONS)
def _passes_hook(n, passed, view):
    if is_no_view(view):
        return lambda n, passed, view: None

    def impl(n, passed, view):
        view_after_passes(n, passed, view)

    return impl


def new_view(on, n):  # pragma: no cover - compiled
    """The :class:`..bundles.View` of the round for ``n`` seats; a :class:`..bundles.NoView` when the ``view``
    switch is off."""
    raise NotImplementedError


@overload(new_view, jit_options=OVERLOAD_OPTIONS)
def _new_view(on, n):
    if switch_off(on):
        return lambda on, n: NoView(on)  # no pimc or learned seat: a stand-in the hooks compile to nothing

    def impl(on, n):
        return View(
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
