"""What pimc players know of the round (``view``), kept up to date by the round as it is played.

``view`` (:class:`..bundles.View`: played, void, full, know, spmask, spwiz, work_i, work_f): copies
of each card played this round; the suits each seat showed out of (bit
masks); the whole deck in play by card type; ``know[o, q, c]``: copies of
card c that seat o knows seat q holds; the cards and the Wizards each seat
has played this round; and the learned player's scratch arrays (integers,
floats), allocated once per chunk instead of at every decision.
``know``, ``spmask`` and ``spwiz`` are read by pimc alone and kept only when a
pimc seat plays (the ``pimc`` switch); learned seats read the rest.
:mod:`.pimc_search` samples its deals consistently with it.

The round keeps it through the hooks at the end of this file, which compile
to nothing when no pimc or learned seat plays (``view`` is then a
:class:`..bundles.NoView`, made by :func:`new_view` when the ``view_kept``
switch is off).
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from ..bundles import NoView, View, is_no_view
from ..jit.bits import ONE, U64, ZERO
from ..jit.config import OVERLOAD_OPTIONS, hot, switch_off
from ..layout import PRE_FIXED, PRE_INDICATOR, PRE_ON, R_MONO, WIZARD, WORK_F, WORK_I


@hot
def view_reset(n, indicator, wolf, swapped, tables, pre, view, knows):
    """A new round: nothing played or known yet; the deck in play; the Werewolf's swap is public.

    ``knows``: keep what pimc alone reads (``know``, ``spmask``, ``spwiz``); a learned-only run skips them
    (zeroing ``know`` was an eighth of a learned round).
    """
    deck, mono_decks, rules = tables.deck, tables.mono_decks, tables.rules
    pre_info, pre_cnt = pre.info, pre.cnt
    played, void, full, know, spmask, spwiz = view.played, view.void, view.full, view.know, view.spmask, view.spwiz
    for c in range(64):
        played[c] = 0
        full[c] = 0
    for q in range(n):
        void[q] = 0
        if knows:
            spmask[q] = ZERO
            spwiz[q] = 0
            for o in range(n):
                for c in range(64):
                    know[o, q, c] = 0
    if rules[R_MONO] != 0:  # the cards in play are the seats' own 15
        for q in range(n):
            for i in range(mono_decks.shape[1]):
                full[np.int64(mono_decks[q, i])] += 1
    else:
        for i in range(deck.shape[0]):
            full[np.int64(deck[i])] += 1
    if pre_info[PRE_ON] != 0 and pre_info[PRE_FIXED] == 0:  # the advisor's deck holds only the unseen cards
        for c in range(64):
            full[c] += pre_cnt[c]
        if pre_info[PRE_INDICATOR] >= 0:
            full[pre_info[PRE_INDICATOR]] += 1
    if knows and swapped:  # everyone saw the Werewolf's holder take the indicator
        for o in range(n):
            if o != wolf:
                know[o, wolf, indicator] += 1


@hot
def view_after_card(p, c, led, n, view, knows):
    """Seat ``p`` played card ``c`` onto a trick whose led state was ``led`` (``knows``: as in :func:`view_reset`)."""
    played, void, know, spmask, spwiz = view.played, view.void, view.know, view.spmask, view.spwiz
    played[c] += 1
    if knows:
        spmask[p] |= ONE << U64(c)
        spwiz[p] += np.int64(c == WIZARD)
        for o in range(n):
            if know[o, p, c] > 0:
                know[o, p, c] -= 1
    if c < 52 and 0 <= led < 4 and c // 13 != led:
        void[p] |= np.int64(1) << led  # did not follow: out of the led suit


@hot
def view_after_passes(n, passed, view, knows):
    """Everyone passed ``passed[q]`` to the left after a Juggler trick.

    Seat q passed a card only its receiver q + 1 saw: the receiver updates
    exactly; the others can no longer be sure of anything they knew q held
    (which card left is q's hidden choice). Then each seat knows where its own
    card went. A seat may again hold a suit it showed out of, so the voids are
    forgotten too.
    """
    void, know = view.void, view.know
    for q in range(n):
        void[q] = 0
    if not knows:
        return
    for q in range(n):
        r = q + 1 if q + 1 < n else 0
        for o in range(n):
            if o == r:
                if know[o, q, passed[q]] > 0:
                    know[o, q, passed[q]] -= 1
            else:
                for c in range(64):
                    know[o, q, c] = 0
    for o in range(n):
        know[o, o + 1 if o + 1 < n else 0, passed[o]] += 1


# --------------------------------------------------------------------------- the round's hooks
def reset_hook(n, indicator, wolf, swapped, tables, pre, view, pimc):  # pragma: no cover - compiled
    """:func:`view_reset`; nothing without a view (``pimc``: the switch, on when a pimc seat plays)."""
    raise NotImplementedError


@overload(reset_hook, jit_options=OVERLOAD_OPTIONS)
def _reset_hook(n, indicator, wolf, swapped, tables, pre, view, pimc):
    if is_no_view(view):
        return lambda n, indicator, wolf, swapped, tables, pre, view, pimc: None
    knows = not switch_off(pimc)

    def impl(n, indicator, wolf, swapped, tables, pre, view, pimc):
        view_reset(n, indicator, wolf, swapped, tables, pre, view, knows)

    return impl


def card_seen_hook(p, c, led, n, view, pimc):  # pragma: no cover - compiled
    """:func:`view_after_card`; nothing without a view."""
    raise NotImplementedError


@overload(card_seen_hook, jit_options=OVERLOAD_OPTIONS)
def _card_seen_hook(p, c, led, n, view, pimc):
    if is_no_view(view):
        return lambda p, c, led, n, view, pimc: None
    knows = not switch_off(pimc)

    def impl(p, c, led, n, view, pimc):
        view_after_card(p, c, led, n, view, knows)

    return impl


def passes_hook(n, passed, view, pimc):  # pragma: no cover - compiled
    """:func:`view_after_passes`; nothing without a view."""
    raise NotImplementedError


@overload(passes_hook, jit_options=OVERLOAD_OPTIONS)
def _passes_hook(n, passed, view, pimc):
    if is_no_view(view):
        return lambda n, passed, view, pimc: None
    knows = not switch_off(pimc)

    def impl(n, passed, view, pimc):
        view_after_passes(n, passed, view, knows)

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
