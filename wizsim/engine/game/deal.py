"""Dealing: the shuffled deck round the table, mono's own decks, the advisor's preset hands."""

from __future__ import annotations

import numpy as np

from ..jit.bits import ONE, U64, ZERO
from ..jit.borrow import stack_stream
from ..jit.config import hot, jit
from ..jit.rng import below
from ..layout import FROM_INDICATOR, PRE_FIXED, PRE_INDICATOR, PRE_MASK, PRE_SEAT


@jit
def deal_mono(n, k, mono_decks, state, hands, cnt):
    """Mono: every seat draws k cards from its own 15; returns the new stream state."""
    deal_st = stack_stream(state)
    for p in range(n):
        own = mono_decks[p]
        for i in range(k):
            j = i + below(deal_st, own.shape[0] - i)
            t = own[i]
            own[i] = own[j]
            own[j] = t
            c = np.int64(own[i])
            hands[p] |= ONE << U64(c)
            cnt[p, c] += 1
    return deal_st[0]


@jit
def deal_preset(n, k, fixed_trump, deck, pre_info, pre_cnt, state, hands, cnt):
    """Advisor deal: the preset seat gets its given cards, the others k each from ``deck``.

    ``deck`` holds only the unseen cards. Returns the indicator (-1: none) and
    the new stream state. A fixed deal (``pre_info[PRE_FIXED]``, the OpenSpiel
    game's chance outcomes) gives every hand: ``deck`` holds seat 0's k cards,
    then seat 1's..., then the undealt stock, and the indicator is
    ``pre_info[PRE_INDICATOR]``; nothing is drawn.
    """
    if pre_info[PRE_FIXED] != 0:
        i = 0
        for p in range(n):
            for _ in range(k):
                c = np.int64(deck[i])
                i += 1
                hands[p] |= ONE << U64(c)
                cnt[p, c] += 1
        return (pre_info[PRE_INDICATOR] if fixed_trump == FROM_INDICATOR else np.int64(-1)), state
    deal_st = stack_stream(state)
    target = pre_info[PRE_SEAT]
    d = deck.shape[0]
    mo = (n - 1) * k
    draw_indicator = fixed_trump == FROM_INDICATOR and pre_info[PRE_INDICATOR] == -1 and mo < d
    for i in range(mo + 1 if draw_indicator else mo):
        j = i + below(deal_st, d - i)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    i = 0
    for p in range(n):
        if p == target:
            continue
        for _ in range(k):
            c = np.int64(deck[i])
            i += 1
            hands[p] |= ONE << U64(c)
            cnt[p, c] += 1
    hands[target] = U64(pre_info[PRE_MASK])
    for c in range(64):
        cnt[target, c] = pre_cnt[c]
    indicator = -1
    if fixed_trump == FROM_INDICATOR:
        indicator = np.int64(deck[mo]) if draw_indicator else pre_info[PRE_INDICATOR]
    return indicator, deal_st[0]


@jit
def record_hands(n, k, hands, cnt, out):
    """Write each seat's cards (ascending codes, copies repeated) to ``out[seat, :k]``."""
    for p in range(n):
        j = 0
        for c in range(64):
            if (hands[p] >> U64(c)) & ONE:
                for _ in range(cnt[p, c]):
                    out[p, j] = c
                    j += 1


@jit
def clear_hands(n, hands, cnt):
    """Empty every hand (a rejected advisor deal leaves cards that were never played)."""
    for p in range(n):
        for c in range(64):
            cnt[p, c] = 0
        hands[p] = ZERO


@hot
def deal_shuffled(n, k, dealer, deck, deal_st, hands, cnt):
    """Deal ``k`` cards to each seat from a partial Fisher-Yates shuffle of ``deck``.

    The shuffle covers n * k + 1 places when a card is left (the next one is
    the turned-up card), whether or not the round turns one up, so the deal of
    a seed does not depend on the trump rule. Card i goes to seat
    (dealer + 1 + i) mod n, as people deal.
    """
    m = n * k
    d = deck.shape[0]
    for i in range(m + 1 if m < d else m):
        j = i + below(deal_st, d - i)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    p = dealer
    for i in range(m):
        c = np.int64(deck[i])
        p += 1
        if p == n:
            p = 0
        hands[p] |= ONE << U64(c)
        cnt[p, c] += 1
