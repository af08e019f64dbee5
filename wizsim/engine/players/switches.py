"""Compile-time switches: the heuristic's choices and the special cards' events are compiled only for runs that use them.

The kernels take ``feats`` (:class:`..bundles.Switches`): ``pimc``,
``heuristic``, ``specials``, ``learned`` and ``view_kept``, one-element arrays
whose dtype says whether a run needs that part of the engine, bool for no and
int8 for yes, and ``rules``: the run's bid-rule functions with their feature
buffer (:mod:`.rule`), or a bool array without rule seats
(:meth:`wizsim.run.spec.RunSpec.kernel_args` decides; the pimc switch is
:mod:`.pimc_hooks`). Each function below is an overload that Numba resolves
from that dtype when it compiles the round: the real call, or a stub that is
never reached. A random run on the standard deck therefore compiles neither
the heuristic's play and bids nor the Werewolf, the Juggler's passes and the
forms of the flexible cards: the first command on an empty cache answers
sooner. Each combination a process uses is compiled (and cached) once.

Stubs are safe only if the switch is on whenever the part can run:
``heuristic`` is on when any seat is not ``random`` (``table``, ``pimc`` and
``learned`` seats bid and play through the heuristic too); ``specials`` is on
when any special card is in the deck (cards >= JUGGLER, the Werewolf and the
Juggler's trick flag exist only then); ``learned`` when a seat plays it;
``view_kept`` (the round's view, :mod:`.pimc_view`; not ``view``, which Numba
reserves for arrays) when a pimc or learned seat plays.
"""

from __future__ import annotations

import numpy as np
from numba.core import types
from numba.extending import overload

from ..bundles import Net, is_no_view
from ..game.events import juggler_passes, werewolf
from ..jit.config import OVERLOAD_OPTIONS
from .dispatch import choose_bid, choose_card, settle_form
from .learned import learned_play
from .rule import rule_bid


def switch_off(flag) -> bool:
    """True when the switch (a Numba type) is off: a bool array (on: an int8 array)."""
    return isinstance(flag, types.Array) and flag.dtype == types.boolean


def heuristic_card(on, kind, hand, legal, need, refine, led, best, j, n, trump, seen, tflags, mono):  # pragma: no cover
    """:func:`.dispatch.choose_card`; a stub when no seat needs the heuristic."""
    raise NotImplementedError


@overload(heuristic_card, jit_options=OVERLOAD_OPTIONS)
def _heuristic_card(on, kind, hand, legal, need, refine, led, best, j, n, trump, seen, tflags, mono):
    if switch_off(on):
        return lambda on, kind, hand, legal, need, refine, led, best, j, n, trump, seen, tflags, mono: np.int64(-1)

    def impl(on, kind, hand, legal, need, refine, led, best, j, n, trump, seen, tflags, mono):
        return choose_card(kind, hand, legal, need, refine, led, best, j, n, trump, seen, tflags, mono)

    return impl


def heuristic_bid(on, turn, clairvoyant, hands, cnt, deck, table, rules, strat, params, bid_tab, work,
                  st):  # fmt: skip  # pragma: no cover - compiled
    """:func:`.dispatch.choose_bid`; a stub when no seat needs the heuristic."""
    raise NotImplementedError


@overload(heuristic_bid, jit_options=OVERLOAD_OPTIONS)
def _heuristic_bid(on, turn, clairvoyant, hands, cnt, deck, table, rules, strat, params, bid_tab, work, st):
    if switch_off(on):

        def stub(on, turn, clairvoyant, hands, cnt, deck, table, rules, strat, params, bid_tab, work, st):
            return np.int64(-1), np.float64(0.0), st

        return stub

    return choose_bid  # the implementation itself: no wrapper call per bid


def special_form(on, kind, f, p, led, trump, strat, params, table, st):  # pragma: no cover - compiled
    """:func:`.dispatch.settle_form`; a stub without special cards."""
    raise NotImplementedError


@overload(special_form, jit_options=OVERLOAD_OPTIONS)
def _special_form(on, kind, f, p, led, trump, strat, params, table, st):
    if switch_off(on):
        return lambda on, kind, f, p, led, trump, strat, params, table, st: (f, st)

    return settle_form  # the implementation itself: no wrapper call per card


def special_werewolf(
    on, n, k, indicator, trump, fixed_trump, rules, strat, params, state, hands, cnt
):  # pragma: no cover
    """:func:`..game.events.werewolf`; a stub without special cards."""
    raise NotImplementedError


@overload(special_werewolf, jit_options=OVERLOAD_OPTIONS)
def _special_werewolf(on, n, k, indicator, trump, fixed_trump, rules, strat, params, state, hands, cnt):
    if switch_off(on):
        return lambda on, n, k, indicator, trump, fixed_trump, rules, strat, params, state, hands, cnt: (
            np.int64(-1), np.int64(0), trump, indicator, state
        )  # fmt: skip

    return werewolf  # the implementation itself: no wrapper call per round


def special_passes(on, n, trump, strat, params, state, hands, cnt, bids, won, work):  # pragma: no cover - compiled
    """:func:`..game.events.juggler_passes`; a stub without special cards."""
    raise NotImplementedError


@overload(special_passes, jit_options=OVERLOAD_OPTIONS)
def _special_passes(on, n, trump, strat, params, state, hands, cnt, bids, won, work):
    if switch_off(on):
        return lambda on, n, trump, strat, params, state, hands, cnt, bids, won, work: state

    return juggler_passes.py_func  # the implementation itself: no wrapper call per Juggler trick


def learned_card(on, turn, trick, hands, cnt, bids, won, rules, legal, net):  # pragma: no cover - compiled
    """:func:`.learned.learned_play`; a stub when no seat plays ``learned``."""
    raise NotImplementedError


@overload(learned_card, jit_options=OVERLOAD_OPTIONS)
def _learned_card(on, turn, trick, hands, cnt, bids, won, rules, legal, net):
    if switch_off(on):
        return lambda on, turn, trick, hands, cnt, bids, won, rules, legal, net: np.int64(-1)

    return learned_play  # the implementation itself: no wrapper call per card


def learned_net(on, view, models):  # pragma: no cover - compiled
    """The :class:`..bundles.Net` the learned player reads in the round (the round's view and the card network),
    built once per round; without learned seats any arrays (never read)."""
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


def rule_bid_hook(on, turn, named, rules, hands, cnt, params, slot, bid_tab):  # pragma: no cover - compiled
    """:func:`.rule.rule_bid` (``on``: the run's rule functions and feature buffer); a stub without rule seats."""
    raise NotImplementedError


@overload(rule_bid_hook, jit_options=OVERLOAD_OPTIONS)
def _rule_bid_hook(on, turn, named, rules, hands, cnt, params, slot, bid_tab):
    if switch_off(on):
        return lambda on, turn, named, rules, hands, cnt, params, slot, bid_tab: (np.int64(-1), np.float64(0.0))

    return rule_bid.py_func  # the implementation itself: no wrapper call per bid
