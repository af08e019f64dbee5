"""The heuristic's card play as it was before the bit-parallel plain-card path: a per-card scan.

Kept verbatim (renamed) as the oracle for tests/test_heuristic_masks.py: the
mask version in wizsim must choose the same form in every position, ties
included, since golden games and every published number depend on it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from wizsim.engine.jit.bits import ONE, ZERO, lowest_bit
from wizsim.engine.layout import (
    DRAGON,
    FAIRY,
    FLAG_BOMB,
    FLAG_DRAGON,
    FLAG_FAIRY,
    JESTER,
    REFINE_KEEP_JESTER,
    REFINE_LEAD_TRUMP,
    SHAPESHIFTER,
    WIZARD,
)
from wizsim.engine.players.heuristic import form_power, forms_of, is_top, static_value

# Not cached on disk: the scan inlines engine helpers (form_power, forms_of, is_top, static_value, lowest_bit),
# and Numba keys a cached function by its own file only, so an edit to the engine would load stale machine
# code (the engine's cache fingerprint covers wizsim/engine only; tests/test_cache_coverage.py). Compiling
# it costs about 1.6 s a test session.
jit = njit(cache=False)


@jit
def heuristic_play_scan(hand, legal, need, led, best, n_played, n, trump, seen, tflags, mono, refine):
    """Choose a form to play: win cheaply while tricks are needed, duck otherwise.

    ``refine`` (0 for the heuristic) is the ``table`` player's bit set of
    refinements, found by watching where ``pimc`` plays differently:
    ``REFINE_LEAD_TRUMP``: on lead with the bid made, lead the lowest trump
    that an unseen trump still beats, before any side card. A low trump is
    the card most likely to take an unwanted trick later (a ruff once a side
    suit runs out); led now, the others' higher trumps take it.
    ``REFINE_KEEP_JESTER``: needing tricks but unable to win this one, shed
    the lowest side card rather than a Jester-like card, which stays a sure
    way to lose a trick later.
    """
    last = n_played == n - 1
    voided = (tflags & FLAG_BOMB) != 0  # nobody takes this trick whatever is played
    cheapest_win = -1
    cheapest_win_v = 1 << 30
    cheapest_top_win = -1
    cheapest_top_v = 1 << 30
    highest_win = -1
    highest_win_v = -(1 << 30)
    wizard = -1
    highest_lose = -1
    highest_lose_v = -(1 << 30)
    lowest = -1
    lowest_v = 1 << 30
    lowest_side = -1
    lowest_side_v = 1 << 30
    jester = -1  # a jester-like form to lead when a trick must be lost
    lowest_trump = -1  # REFINE_LEAD_TRUMP: the lowest trump that an unseen trump beats
    lowest_trump_v = 1 << 30
    lowest_plain = -1  # REFINE_KEEP_JESTER: the least valuable side card (no trump, no Jester-like card)
    lowest_plain_v = 1 << 30
    bits = legal
    while bits != ZERO:
        c = np.int64(lowest_bit(bits))
        bits &= bits - ONE
        if c < 52:  # a plain card (the same decisions as the general code below, with less work)
            suit = c // 13
            rank = c - 13 * suit + 1
            is_trump = suit == trump
            v = 50 + rank if is_trump else rank
            if v < lowest_v:
                lowest_v = v
                lowest = c
            if not is_trump and rank < lowest_side_v:
                lowest_side_v = rank
                lowest_side = c
            if (refine & REFINE_LEAD_TRUMP) != 0 and is_trump and rank < lowest_trump_v:
                if not is_top(c, hand, seen):
                    lowest_trump_v = rank
                    lowest_trump = c
            if (refine & REFINE_KEEP_JESTER) != 0 and v < 50 and v < lowest_plain_v:
                lowest_plain_v = v
                lowest_plain = c
            p = 4 * rank + 200 * np.int64(is_trump) + 100 * np.int64(led == -1 or suit == led)
            if voided or (n_played > 0 and p <= best):
                if v > highest_lose_v:
                    highest_lose_v = v
                    highest_lose = c
            else:
                if v < cheapest_win_v:
                    cheapest_win_v = v
                    cheapest_win = c
                if v > highest_win_v:
                    highest_win_v = v
                    highest_win = c
                if not mono and v < cheapest_top_v and (n_played == 0 or is_trump or trump < 0):
                    if is_top(c, hand, seen):
                        cheapest_top_v = v
                        cheapest_top_win = c
            continue
        # special cards (Wizard, Jester, Dragon, ...): the general code
        win_form, lose_form = forms_of(c, led, trump)
        v_lose = static_value(lose_form, trump)
        if v_lose < 0 and (jester < 0 or c == JESTER):
            jester = lose_form
        if v_lose < lowest_v:
            lowest_v = v_lose
            lowest = lose_form
        if (refine & REFINE_KEEP_JESTER) != 0 and 0 <= v_lose < 50 and v_lose < lowest_plain_v:
            lowest_plain_v = v_lose  # a Juggler or Cloud in a side suit
            lowest_plain = lose_form
        v = static_value(win_form, trump)
        p, _ = form_power(win_form, led, trump)
        if c == DRAGON and (tflags & FLAG_FAIRY) != 0:
            p = -3  # the Fairy already in the trick beats it
        if c == FAIRY and (tflags & FLAG_DRAGON) != 0:
            p = 5000
        if not voided and (n_played == 0 or p > best):
            if c == WIZARD or c == DRAGON or c == SHAPESHIFTER:
                if wizard < 0 or v < static_value(wizard, trump):
                    wizard = win_form
            if v < cheapest_win_v:
                cheapest_win_v = v
                cheapest_win = win_form
            if v > highest_win_v:
                highest_win_v = v
                highest_win = win_form
        pl, _ = form_power(lose_form, led, trump)
        if voided or n_played > 0 and (pl <= best or (c == DRAGON and (tflags & FLAG_FAIRY) != 0)):
            if c == FAIRY and (tflags & FLAG_DRAGON) != 0 and not voided:
                continue  # would win (in a trick the Bomb voids nobody wins: then it is a card to lose with)
            if v_lose > highest_lose_v:
                highest_lose_v = v_lose
                highest_lose = lose_form
    if need > 0:
        if n_played == 0:
            if cheapest_top_win >= 0:
                return cheapest_top_win
            if wizard >= 0:
                return wizard
            return lowest_side if lowest_side >= 0 else lowest
        if cheapest_win < 0:
            return lowest_plain if lowest_plain >= 0 else lowest
        if last:
            return cheapest_win
        if cheapest_top_win >= 0:
            return cheapest_top_win
        if wizard >= 0:
            return wizard
        return highest_win
    # enough tricks: lose this one if at all possible
    if n_played == 0:
        if lowest_trump >= 0 and not mono:
            return lowest_trump
        # lead the lowest side card, unless nothing unseen beats it: then a jester-like card
        if lowest_side >= 0 and not (jester >= 0 and is_top(lowest_side, hand, seen)):
            return lowest_side
        return jester if jester >= 0 else lowest
    if highest_lose >= 0:
        return highest_lose
    # every card wins for now: dump the most dangerous if sure to take it, else the weakest
    if last:
        return highest_win
    return lowest
