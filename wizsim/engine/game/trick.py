"""One trick: legal cards, the led suit, and the winner (RULES.md 5 and 6).

Trick state: ``led`` is -1 while only jester-like cards were played (nothing
led yet), 0..3 for a led suit, and ``FREE`` after a leading wizard-like card
(anything may be played). The winner is tracked incrementally with a *power*
(``cards.py``): base power + 200 for trump + 100 for the led suit; a card takes
the trick only with strictly greater power, so the first of equals (the first
Wizard, the first Jester) keeps it. Rules about the whole trick (Fairy beats
Dragon, Bomb, Juggler, Cloud) use flags collected while the trick is played.
"""

from __future__ import annotations

import numpy as np

from ..bundles import Trick
from ..jit.bits import U64, ZERO
from ..jit.config import hot, jit
from ..layout import (
    FAIRY,
    FLAG_BOMB,
    FLAG_CLOUD,
    FLAG_DRAGON,
    FLAG_FAIRY,
    M_ALWAYS,
    T_BASE_POWER,
    T_FLAGS,
    T_LEADS,
    T_PSUIT,
)


@hot
def card_power(form, led, trump, table):
    """Trick-taking power of a played ``form`` given the led state and trump (see module doc).

    Branch-free: base power + 200 for trump + 100 for the led suit;
    colourless cards have comparison suit 5, which matches neither.
    """
    ps = table[form, T_PSUIT]
    return table[form, T_BASE_POWER] + 200 * np.int64(ps == trump) + 100 * np.int64(ps == led)


@hot
def led_after(led, form, table):
    """The led state after ``form`` is played onto a trick whose led state is ``led``."""
    return table[form, T_LEADS] if led == -1 else led


@hot
def legal_mask(hand, led, masks):
    """Cards of ``hand`` that may be played: follow the led suit if possible."""
    follow = hand & masks[led + 1]
    return (follow | (hand & masks[M_ALWAYS])) if follow != ZERO else hand


@hot
def open_trick(leader, led):
    """A trick about to be led by ``leader``: ``led`` is -1 (mono: ``FREE``), nothing played, no flags."""
    return Trick(np.int64(leader), np.int64(led), np.int64(-1), np.int64(leader), np.int64(0), np.int64(-1))


@hot
def trick_step(form, player, trick, trump, table):
    """Add one played form to a trick (a :class:`..bundles.Trick`); return the new trick.

    The engine's play loop, pimc's rollouts, the play advisor and
    :func:`trick_result` all use this, so the tests of one are tests of the others.
    """
    led = led_after(trick.led, form, table)
    pw = card_power(form, led, trump, table)
    better = pw > trick.best
    best = pw if better else trick.best
    winner = player if better else trick.winner
    tflags = trick.flags
    fairy = trick.fairy
    fl = table[form, T_FLAGS]
    if fl != 0:
        tflags |= fl
        if form == FAIRY:
            fairy = player
    return Trick(trick.leader, led, best, winner, tflags, fairy)


@hot
def take_card(p, c, hands, cnt):
    """Seat ``p`` plays a copy of card type ``c``: one copy fewer, and the type leaves the hand mask with the last."""
    left = cnt[p, c] - 1
    cnt[p, c] = left
    hands[p] &= ~(U64(left == 0) << U64(c))


@hot
def trick_end(winner, tflags, fairy, bomb_voids):
    """(winner or -1 if nobody wins, next leader) of a complete trick.

    Rule order of RULES.md 6: a Bomb voids the trick (the would-be winner
    leads next), a Fairy in the same trick as the Dragon wins, then powers.
    """
    if (tflags & FLAG_DRAGON) != 0 and (tflags & FLAG_FAIRY) != 0:
        winner = fairy
    if bomb_voids and (tflags & FLAG_BOMB) != 0:
        return -1, winner
    return winner, winner


@hot
def finish_trick(trick, bomb_voids, cancelled, cloud_taker, won):
    """Close a complete trick: its winner (if any) takes it in ``won``; return (winner or -1, next leader, bids
    cancelled by a Bomb, the Cloud's taker or -1). The round, pimc's rollouts and the play advisor call this."""
    winner = trick.winner
    next_leader = winner
    tflags = trick.flags
    if tflags != 0:
        winner, next_leader = trick_end(winner, tflags, trick.fairy, bomb_voids)
        if (tflags & FLAG_BOMB) != 0 and not bomb_voids:
            cancelled = True
        if (tflags & FLAG_CLOUD) != 0 and winner >= 0:
            cloud_taker = winner
    if winner >= 0:
        won[winner] += 1
    return winner, next_leader, cancelled, cloud_taker


@hot
def trick_result(forms, count, trump, table, bomb_voids):
    """(winner index or -1 if nobody wins, next leader index) of a complete trick of ``forms``."""
    trick = open_trick(np.int64(0), np.int64(-1))
    for i in range(count):
        trick = trick_step(forms[i], i, trick, trump, table)
    return trick_end(trick.winner, trick.flags, trick.fairy, bomb_voids)


@jit
def trick_result_checked(forms, trump, table, bomb_voids):
    """Python-callable :func:`trick_result` (for tests)."""
    return trick_result(forms, forms.shape[0], trump, table, bomb_voids)


@jit
def legal_mask_checked(hand, led, masks):
    """Python-callable :func:`legal_mask` (for tests)."""
    return legal_mask(hand, led, masks)


@jit
def led_after_checked(led, form, table):
    """Python-callable :func:`led_after` (for tests)."""
    return led_after(led, form, table)
