"""Special-card events around the tricks: the Werewolf before the bids, the Juggler's passes.

(The Bomb and the Cloud are trick flags closed in :mod:`.trick`; the Cloud's
bid change is scored in :mod:`.score`.) Rare events live in normal (not
inlined) functions. They take the random stream's state as a number and
return the new one: if the stream's array were passed to a call, the compiler
could no longer keep the state in a register in the play loop, which costs a
third of the engine's speed. Inside, the state becomes a one-element array on
the stack (:func:`..jit.borrow.stack_stream`; an allocation per call cost ~6% of a
run with all special cards).
"""

from __future__ import annotations

import numpy as np

from ..external import answered, asking, is_external, pass_external, werewolf_external
from ..jit.bits import ONE, U64
from ..jit.borrow import stack_stream
from ..jit.config import hot, jit
from ..jit.rng import below, random_member
from ..layout import (
    D_PASS,
    D_TRUMP,
    D_WEREWOLF,
    DK_PASS,
    DK_WEREWOLF,
    FROM_INDICATOR,
    NO_TRUMP,
    R_WEREWOLF,
    S_HEURISTIC,
    WEREWOLF,
    WOLF_KEEP,
    WOLF_SWAP,
)
from ..players.decisions import decider
from ..players.heuristic import heuristic_pass, suit_strength


def werewolf(on, n, k, indicator, trump, fixed_trump, rules, strat, params, state, hands, cnt, script, ext_on):
    """The Werewolf before the bids: (holder or -1, swapped, trump, card now face up, stream state).

    Compiled as the implementation of the switch :func:`..players.switches.special_werewolf`
    (``on``), a function of its own, in runs with special cards only. An
    external holder's choice comes from ``script`` (:mod:`..external`).
    """
    dec_st = stack_stream(state)
    wolf = -1
    swapped = 0
    shown = indicator
    for p in range(n):
        if (hands[p] >> U64(WEREWOLF)) & ONE:
            wolf = p
    if wolf >= 0 and fixed_trump == FROM_INDICATOR:
        heur = decider(strat, params, wolf, D_WEREWOLF) == S_HEURISTIC
        external = is_external(ext_on, script, params, wolf)
        asked = external and asking(script, wolf)
        external = external and not asked
        named = trump
        if indicator >= 0:
            swapped = 1
            if external:
                swap, named = werewolf_external(ext_on, script, wolf, rules[R_WEREWOLF] != 0, n, trump, indicator, cnt)
                swapped = np.int64(swap)
            elif rules[R_WEREWOLF] != 0 and not heur:
                swapped = below(dec_st, 2)
            if swapped:
                hands[wolf] &= ~(ONE << U64(WEREWOLF))
                cnt[wolf, WEREWOLF] = 0
                hands[wolf] |= ONE << U64(indicator)
                cnt[wolf, indicator] += 1
                shown = WEREWOLF
                if external:
                    trump = named
                elif heur:
                    trump, strength = suit_strength(hands[wolf])
                    if strength < 1.5 + 0.25 * k:
                        trump = NO_TRUMP  # no suit worth making trump
                else:
                    trump = below(dec_st, 5) - 1
            if asked:
                answered(script, DK_WEREWOLF, wolf, WOLF_SWAP + 1 + trump if swapped else WOLF_KEEP)
        # no card turned up (indicator < 0): nothing to swap or name; the Werewolf plays as a Jester (RULES.md 3)
    return wolf, swapped, trump, shown, dec_st[0]


@hot
def choose_pass(q, trump, strat, params, dec_st, hands, bids, won):
    """The card seat ``q`` passes to its left after a Juggler trick: the heuristic's or a random one."""
    if decider(strat, params, q, D_PASS) == S_HEURISTIC:
        return heuristic_pass(hands[q], bids[q] - won[q], trump)
    return random_member(dec_st, hands[q])


@hot
def apply_passes(n, hands, cnt, work):
    """Everyone hands ``work[q]`` to the left neighbour, all at once."""
    for q in range(n):
        c = work[q]
        left = cnt[q, c] - 1
        cnt[q, c] = left
        hands[q] &= ~(U64(left == 0) << U64(c))
    for q in range(n):
        c = work[q]
        r = q + 1 if q + 1 < n else 0
        hands[r] |= ONE << U64(c)
        cnt[r, c] += 1


@jit
def juggler_passes(on, n, trump, strat, params, state, hands, cnt, bids, won, work):
    """After a Juggler trick everyone passes one card to the left neighbour, all at once.

    ``work`` gets the passed cards; returns the new stream state. pimc's
    rollouts call it directly (``on`` = 0); the round calls
    :func:`round_passes` through the switch :func:`..players.switches.special_passes`.
    """
    dec_st = stack_stream(state)
    for q in range(n):
        work[q] = choose_pass(q, trump, strat, params, dec_st, hands, bids, won)
    apply_passes(n, hands, cnt, work)
    return dec_st[0]


def round_passes(on, n, t, trump, shown, strat, params, state, hands, cnt, bids, won, work, script, ext_on):
    """:func:`juggler_passes` in the round after trick ``t``: an external seat's card comes from ``script``.

    Compiled as the implementation of the switch :func:`..players.switches.special_passes`.
    """
    dec_st = stack_stream(state)
    for q in range(n):
        ext = is_external(ext_on, script, params, q)
        asked = ext and asking(script, q)
        if ext and not asked:
            work[q] = pass_external(ext_on, script, q, t, n, trump, shown, hands, cnt, bids, won)
        else:
            work[q] = choose_pass(q, trump, strat, params, dec_st, hands, bids, won)
            if asked:
                answered(script, DK_PASS, q, work[q])
    apply_passes(n, hands, cnt, work)
    return dec_st[0]


@hot
def dealer_names_trump(dealer, hands, strat, params, dec_st):
    """The suit the dealer names after a Wizard or special card is turned up (RULES.md 3)."""
    if decider(strat, params, dealer, D_TRUMP) == S_HEURISTIC:
        trump, _ = suit_strength(hands[dealer])
        return trump
    return below(dec_st, 4)
