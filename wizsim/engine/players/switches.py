"""Compile-time switches: the players' code and the special cards' events are compiled only for runs that use them.

The kernels take ``feats`` (:class:`..bundles.Switches`): ``pimc``,
``heuristic``, ``specials``, ``learned``, ``view_kept`` and ``external``
(seats deciding outside the engine, :mod:`..external`), one-element arrays
whose dtype says whether a run needs that part of the engine, bool for no and
int8 for yes, and ``rules``: the run's bid-rule functions with their feature
buffer (:mod:`.rule`), or a bool array without rule seats
(:meth:`wizsim.run.spec.RunSpec.kernel_args` decides). Each switched call is
an overload that Numba resolves from that dtype when it compiles the round:
the real call, or a stub that is never reached. A player's switched calls
sit in its own file (``heuristic_card``/``heuristic_bid`` in :mod:`.heuristic`,
``table_step`` in :mod:`.table`, ``card_hook``/``bid_hook`` in :mod:`.pimc`,
``learned_card``/``learned_bid_hook``/``learned_net`` in :mod:`.learned`,
``rule_bid_hook`` in :mod:`.rule`; the view's hooks in :mod:`.pimc_view`);
the special cards' switches are below. A random run on the standard deck therefore compiles neither
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
from numba.extending import overload

from ..game.events import round_passes, werewolf
from ..jit.borrow import stack_stream
from ..jit.config import OVERLOAD_OPTIONS, switch_off
from ..layout import D_FORM, JUGGLER_AS, S_RANDOM, T_CARD
from .decisions import decider
from .heuristic import forms_of
from .random import random_form


def special_form(on, kind, f, p, led, trump, strat, params, table, st):  # pragma: no cover - compiled
    """:func:`settle_form`; a stub without special cards."""
    raise NotImplementedError


@overload(special_form, jit_options=OVERLOAD_OPTIONS)
def _special_form(on, kind, f, p, led, trump, strat, params, table, st):
    if switch_off(on):
        return lambda on, kind, f, p, led, trump, strat, params, table, st: (f, st)

    return settle_form  # the implementation itself: no wrapper call per card


def special_werewolf(
    on, n, k, indicator, trump, fixed_trump, rules, strat, params, state, hands, cnt, script, ext_on
):  # pragma: no cover
    """:func:`..game.events.werewolf`; a stub without special cards."""
    raise NotImplementedError


@overload(special_werewolf, jit_options=OVERLOAD_OPTIONS)
def _special_werewolf(on, n, k, indicator, trump, fixed_trump, rules, strat, params, state, hands, cnt, script, ext_on):
    if switch_off(on):
        return lambda on, n, k, indicator, trump, fixed_trump, rules, strat, params, state, hands, cnt, script, ext_on: (
            np.int64(-1), np.int64(0), trump, indicator, state
        )  # fmt: skip

    return werewolf  # the implementation itself: no wrapper call per round


def special_passes(
    on, n, t, trump, shown, strat, params, state, hands, cnt, bids, won, work, script, ext_on
):  # pragma: no cover - compiled
    """:func:`..game.events.round_passes`; a stub without special cards."""
    raise NotImplementedError


@overload(special_passes, jit_options=OVERLOAD_OPTIONS)
def _special_passes(on, n, t, trump, shown, strat, params, state, hands, cnt, bids, won, work, script, ext_on):
    if switch_off(on):
        return lambda on, n, t, trump, shown, strat, params, state, hands, cnt, bids, won, work, script, ext_on: state

    return round_passes  # the implementation itself: no wrapper call per Juggler trick


def settle_form(on, kind, f, p, led, trump, strat, params, table, st):
    """The form of a card with forms (Juggler, Cloud, Shapeshifter), by the seat's ``form`` decision; (form, state).

    Compiled as the implementation of the switch :func:`special_form`
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
