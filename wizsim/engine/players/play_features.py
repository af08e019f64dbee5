"""The features a play rule reads, each a function of the situation ``ctx`` (``layout.PC_*``), the card table and
one candidate form ``f``.

:mod:`wizsim.players.play_rules` names them (``FEATURES``: the name of each is
the name of its function here, less ``pf_``) and generates, for each rule, a
wrapper that loops over the legal (card, form) pairs and calls the rule with
the functions of the features it reads only, so a rule pays for what it reads.
Each function is inlined into that wrapper. The trick functions are the
engine's own (:mod:`..game.trick`): "wins" and "boss" are what the round
would decide.
"""

from __future__ import annotations

import numpy as np

from ..bundles import Trick
from ..game.trick import card_power, led_after, trick_end, trick_step
from ..jit.bits import ONE, U64, ZERO, lowest_bit, popcount
from ..jit.config import hot
from ..layout import (
    BOMB,
    CLOUD,
    CLOUD_AS,
    DRAGON,
    FAIRY,
    JESTER,
    JUGGLER,
    JUGGLER_AS,
    PC_BEST,
    PC_BID,
    PC_BOMB_VOIDS,
    PC_CANCELLED,
    PC_FAIRY,
    PC_FALLBACK,
    PC_FLAGS,
    PC_HAND,
    PC_HEURISTIC,
    PC_J,
    PC_K,
    PC_LATER_VOID,
    PC_LEADER,
    PC_LED,
    PC_LEGAL,
    PC_MONO,
    PC_N,
    PC_P,
    PC_SEEN,
    PC_T,
    PC_TRUMP,
    PC_UNSEEN,
    PC_WINNER,
    PC_WON,
    SHAPESHIFTER,
    SHAPESHIFTER_AS_JESTER,
    SHAPESHIFTER_AS_WIZARD,
    T_CARD,
    T_PSUIT,
    T_RANK,
    T_SUIT,
    WEREWOLF,
    WIZARD,
)
from .heuristic import heuristic_play


@hot
def forms(c):
    """(first form, number of forms) of card type ``c``: a Juggler or Cloud names a suit, a Shapeshifter a role."""
    if c == JUGGLER:
        return np.int64(JUGGLER_AS), np.int64(4)
    if c == CLOUD:
        return np.int64(CLOUD_AS), np.int64(4)
    if c == SHAPESHIFTER:
        return np.int64(SHAPESHIFTER_AS_WIZARD), np.int64(2)
    return np.int64(c), np.int64(1)


@hot
def card_of(f, table):
    """The card type a form comes from."""
    return table[f, T_CARD] if f >= JUGGLER_AS else f


@hot
def trick_after(ctx, table, f):
    """The trick as it stands (``ctx``) with the seat's form ``f`` added."""
    trick = Trick(ctx[PC_LEADER], ctx[PC_LED], ctx[PC_BEST], ctx[PC_WINNER], ctx[PC_FLAGS], ctx[PC_FAIRY])
    return trick_step(f, ctx[PC_P], trick, ctx[PC_TRUMP], table)


@hot
def takes(trick, p, bomb_voids):
    """Whether seat ``p`` would take ``trick`` if it ended now (a Bomb's void and the Fairy's rule included).

    A trick of only a Fairy or a Bomb so far is nobody's yet (they never take a trick but the Fairy from the
    Dragon, RULES.md 6): its best power is still below a Jester's.
    """
    w, _ = trick_end(trick.winner, trick.flags, trick.fairy, bomb_voids)
    return w == p and trick.best >= 0


# --------------------------------------------------------------------------- per (card, form)
@hot
def pf_code(ctx, table, f):
    return f


@hot
def pf_rank(ctx, table, f):
    return table[f, T_RANK]


@hot
def pf_suit(ctx, table, f):
    return table[f, T_SUIT]


@hot
def pf_is_trump(ctx, table, f):
    trump = ctx[PC_TRUMP]
    return np.int64(trump >= 0 and table[f, T_PSUIT] == trump)


@hot
def pf_follows(ctx, table, f):
    led = ctx[PC_LED]
    return np.int64(0 <= led < 4 and table[f, T_PSUIT] == led)


@hot
def pf_other_suit(ctx, table, f):
    s = table[f, T_PSUIT]
    return np.int64(0 <= s < 4 and s != ctx[PC_TRUMP] and s != ctx[PC_LED])


@hot
def pf_power(ctx, table, f):
    return card_power(f, led_after(ctx[PC_LED], f, table), ctx[PC_TRUMP], table)


@hot
def pf_wins(ctx, table, f):
    return np.int64(takes(trick_after(ctx, table, f), ctx[PC_P], ctx[PC_BOMB_VOIDS] != 0))


@hot
def pf_boss(ctx, table, f):
    p, n, bomb_voids = ctx[PC_P], ctx[PC_N], ctx[PC_BOMB_VOIDS] != 0
    trick = trick_after(ctx, table, f)
    if not takes(trick, p, bomb_voids):
        return np.int64(0)
    if ctx[PC_J] == n - 1:  # the last card of the trick
        return np.int64(1)
    other = p + 1 if p + 1 < n else 0  # a later seat (who it is does not change the winner's seat)
    later_void = ctx[PC_LATER_VOID]
    unseen = U64(ctx[PC_UNSEEN])
    trump = ctx[PC_TRUMP]
    while unseen != ZERO:
        u = np.int64(lowest_bit(unseen))
        unseen &= unseen - ONE
        if u < 52 and (later_void >> (u // 13)) & 1:
            continue  # every later seat has shown out of its suit
        g0, ng = forms(u)
        for g in range(g0, g0 + ng):
            if not takes(trick_step(g, other, trick, trump, table), p, bomb_voids):
                return np.int64(0)
    return np.int64(1)


@hot
def suit_bits(ctx, table, f):
    """The seat's cards of ``f``'s suit (bits by rank) and ``f``'s rank bit; (0, 0) for a card with no suit."""
    c = card_of(f, table)
    if c >= 52:
        return ZERO, ZERO
    s = c // 13
    return (U64(ctx[PC_HAND]) >> U64(13 * s)) & U64(0x1FFF), ONE << U64(c - 13 * s)


@hot
def pf_lowest_in_suit(ctx, table, f):
    bits, me = suit_bits(ctx, table, f)
    return np.int64(me != ZERO and (bits & (me - ONE)) == ZERO)


@hot
def pf_highest_in_suit(ctx, table, f):
    bits, me = suit_bits(ctx, table, f)
    return np.int64(me != ZERO and (bits & ~(me | (me - ONE))) == ZERO)


@hot
def pf_wizard(ctx, table, f):
    return np.int64(card_of(f, table) == WIZARD)


@hot
def pf_jester(ctx, table, f):
    return np.int64(card_of(f, table) == JESTER)


@hot
def pf_dragon(ctx, table, f):
    return np.int64(card_of(f, table) == DRAGON)


@hot
def pf_fairy(ctx, table, f):
    return np.int64(card_of(f, table) == FAIRY)


@hot
def pf_bomb(ctx, table, f):
    return np.int64(card_of(f, table) == BOMB)


@hot
def pf_werewolf(ctx, table, f):
    return np.int64(card_of(f, table) == WEREWOLF)


@hot
def pf_juggler(ctx, table, f):
    return np.int64(card_of(f, table) == JUGGLER)


@hot
def pf_cloud(ctx, table, f):
    return np.int64(card_of(f, table) == CLOUD)


@hot
def pf_shapeshifter(ctx, table, f):
    return np.int64(card_of(f, table) == SHAPESHIFTER)


@hot
def pf_as_wizard(ctx, table, f):
    return np.int64(f == WIZARD or f == SHAPESHIFTER_AS_WIZARD)


@hot
def pf_as_jester(ctx, table, f):
    return np.int64(f == JESTER or f == SHAPESHIFTER_AS_JESTER)


@hot
def pf_named_suit(ctx, table, f):
    if JUGGLER_AS <= f < CLOUD_AS + 4:
        return table[f, T_SUIT]
    return np.int64(-1)


@hot
def pf_heuristic(ctx, table, f):
    # the heuristic's form, computed once per decision (the first candidate asks) and kept in the situation
    h = ctx[PC_HEURISTIC]
    if h == -2:
        need = ctx[PC_K] if ctx[PC_CANCELLED] != 0 else ctx[PC_BID] - ctx[PC_WON]  # as the heuristic counts it
        h = heuristic_play(U64(ctx[PC_HAND]), U64(ctx[PC_LEGAL]), need, ctx[PC_LED], ctx[PC_BEST], ctx[PC_J],
                           ctx[PC_N], ctx[PC_TRUMP], U64(ctx[PC_SEEN]), ctx[PC_FLAGS], ctx[PC_MONO] != 0,
                           np.int64(0))  # fmt: skip
        ctx[PC_HEURISTIC] = h
    return np.int64(h == f)


@hot
def pf_fallback(ctx, table, f):
    # the fallback player's form; a flexible card it left unsettled (a random player's) matches the card's forms
    fb = ctx[PC_FALLBACK]
    if JUGGLER <= fb < JUGGLER_AS:
        return np.int64(card_of(f, table) == fb)
    return np.int64(fb == f)


# --------------------------------------------------------------------------- the situation (the same for every card)
@hot
def pf_need(ctx, table, f):
    return ctx[PC_BID] - ctx[PC_WON]


@hot
def pf_bid(ctx, table, f):
    return ctx[PC_BID]


@hot
def pf_won(ctx, table, f):
    return ctx[PC_WON]


@hot
def pf_tricks_left(ctx, table, f):
    return ctx[PC_K] - ctx[PC_T]


@hot
def pf_trick(ctx, table, f):
    return ctx[PC_T]


@hot
def pf_cards(ctx, table, f):
    return ctx[PC_K]


@hot
def pf_players(ctx, table, f):
    return ctx[PC_N]


@hot
def pf_position(ctx, table, f):
    return ctx[PC_J]


@hot
def pf_cards_after(ctx, table, f):
    return ctx[PC_N] - 1 - ctx[PC_J]


@hot
def pf_leading(ctx, table, f):
    return np.int64(ctx[PC_J] == 0)


@hot
def pf_last(ctx, table, f):
    return np.int64(ctx[PC_J] == ctx[PC_N] - 1)


@hot
def pf_made(ctx, table, f):
    return np.int64(ctx[PC_WON] == ctx[PC_BID])


@hot
def pf_lost(ctx, table, f):
    need = ctx[PC_BID] - ctx[PC_WON]
    return np.int64(need < 0 or need > ctx[PC_K] - ctx[PC_T])


@hot
def pf_no_trump(ctx, table, f):
    return np.int64(ctx[PC_TRUMP] < 0)


@hot
def pf_trumps_held(ctx, table, f):
    trump = ctx[PC_TRUMP]
    if trump < 0 or trump > 3:
        return np.int64(0)
    return np.int64(popcount((U64(ctx[PC_HAND]) >> U64(13 * trump)) & U64(0x1FFF)))


@hot
def pf_legal_cards(ctx, table, f):
    return np.int64(popcount(U64(ctx[PC_LEGAL])))


@hot
def pf_bids_cancelled(ctx, table, f):
    return ctx[PC_CANCELLED]
