"""Decisions made outside the engine: the replay script of external seats (``wizsim.env``).

A seat is *external* when its parameter row says so (``params[p, SEAT_EXTERNAL]``,
which follows the seat through an elimination) and the script is on
(``Preset.script``, slots ``X_*`` in :mod:`.layout`). Every decision of an external seat is read
from the script's actions, in the order the round asks for them: its bids, the
forms it plays, the trump it names after a Wizard or special card is turned up,
its Werewolf choice and the cards it passes after a Juggler trick. The round,
the other seats' decisions, the trick winners, the events and the scores are
the engine's own: the same code as every simulation, only the choice comes from
the script.

When the round asks an external seat for a decision past the given actions,
:func:`pending` records which decision it is (its kind, the seat, the legal
actions, the seat's hand, the trick and the bids so far) and a stand-in choice
finishes the round; the caller reads the record, discards the rest of the
round, and replays it from the start with one more action (the same seed deals
the same cards and the other seats decide the same way: common random streams).
Only the first such decision is recorded.

Asking a built-in player (``script[X_ASK]``): at the first decision past the
script, if it is the asked seat's, that seat's own player decides as it does in
any simulation (its strategy id and parameters are the run's), and the engine
records the decision in ``X_ANSWER`` (``wizsim.env.agent``).

The caller checks every action against the legal ones before it enters the
script: the engine trusts them.
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from .jit.bits import ONE, U64, lowest_bit
from .jit.config import OVERLOAD_OPTIONS, hot, jit, switch_off
from .layout import (
    CLOUD,
    CLOUD_AS,
    DK_BID,
    DK_CARD,
    DK_PASS,
    DK_TRUMP,
    DK_WEREWOLF,
    JUGGLER,
    JUGGLER_AS,
    NO_TRUMP,
    SEAT_EXTERNAL,
    SHAPESHIFTER,
    SHAPESHIFTER_AS_WIZARD,
    WOLF_SWAP,
    X_ACTIONS,
    X_ANSWER,
    X_ASK,
    X_BIDS,
    X_CNT,
    X_CURSOR,
    X_FORBIDDEN,
    X_KIND,
    X_LEADER,
    X_LEGAL,
    X_LEN,
    X_ON,
    X_POS,
    X_SEAT,
    X_SHOWN,
    X_TRICK,
    X_TRUMP,
    X_WON,
)


def is_external(on, script, params, p):  # pragma: no cover - compiled
    """Whether seat ``p`` decides outside the engine. ``on``: the compile-time switch ``Switches.external``: a
    run without external seats compiles ``False`` here, and none of this module's code into its round."""
    raise NotImplementedError


@overload(is_external, jit_options=OVERLOAD_OPTIONS)
def _is_external(on, script, params, p):
    if switch_off(on):
        return lambda on, script, params, p: False
    return lambda on, script, params, p: script[X_ON] != 0 and params[p, SEAT_EXTERNAL] != 0


def decide_external(
    on, script, kind, p, t, pos, n, k, dealer, trump, shown, forbidden, leader, legal, cnt, bids, won, work
):  # pragma: no cover - compiled
    """:func:`external_decision` behind the switch ``on`` (a stub, never reached, without external seats)."""
    raise NotImplementedError


@overload(decide_external, jit_options=OVERLOAD_OPTIONS)
def _decide_external(on, script, kind, p, t, pos, n, k, dealer, trump, shown, forbidden, leader, legal, cnt, bids,
                     won, work):  # fmt: skip
    if switch_off(on):
        return lambda on, script, kind, p, t, pos, n, k, dealer, trump, shown, forbidden, leader, legal, cnt, bids, \
            won, work: np.int64(0)  # fmt: skip

    def call(on, script, kind, p, t, pos, n, k, dealer, trump, shown, forbidden, leader, legal, cnt, bids, won, work):  # fmt: skip
        # typed values, not literals: one compiled signature for every call site
        return external_decision(script, np.int64(kind), np.int64(p), np.int64(t), np.int64(pos), np.int64(n),
                                 np.int64(k), np.int64(dealer), np.int64(trump), np.int64(shown),
                                 np.int64(forbidden), np.int64(leader), U64(legal), cnt, bids, won, work)  # fmt: skip

    return call


@hot
def asking(script, p):
    """Whether seat ``p``'s own player takes this decision: the asked seat's first decision past the script."""
    return script[X_ASK] == p + 1 and script[X_CURSOR] == script[X_LEN] and script[X_KIND] == 0


@hot
def answered(script, kind, p, action):
    """Record the asked seat's decision; the decisions after it are stand-ins (the round is discarded)."""
    script[X_KIND] = kind
    script[X_SEAT] = p
    script[X_ANSWER] = action


@hot
def given(script):
    """The next given action, or -1 when the script is used up (then :func:`pending` records the decision)."""
    i = script[X_CURSOR]
    if i < script[X_LEN]:
        script[X_CURSOR] = i + 1
        return script[X_ACTIONS + i]
    return np.int64(-1)


@jit
def pending(script, kind, p, legal, t, pos, trump, shown, cnt, bids, won, n):
    """Record the first decision past the script: kind, seat, legal actions (bits), hands, bids and tricks so far.

    ``bids`` hold the bids made so far (-1: not yet). Later decisions past the
    script are not recorded (the caller discards everything after the first):
    returns whether this one was, so that the caller adds its own slots only then.
    """
    if script[X_KIND] != 0:
        return False
    script[X_KIND] = kind
    script[X_SEAT] = p
    script[X_LEGAL] = np.int64(legal)
    script[X_TRICK] = t
    script[X_POS] = pos
    script[X_TRUMP] = trump
    script[X_SHOWN] = shown
    script[X_LEADER] = -1
    script[X_FORBIDDEN] = -1
    for q in range(n):
        for c in range(64):
            script[X_CNT + 64 * q + c] = cnt[q, c]
    for q in range(6):
        script[X_BIDS + q] = bids[q] if q < n else -1
        script[X_WON + q] = won[q] if q < n else 0
    return True


@hot
def first_form(legal):
    """The stand-in card after the script: the lowest legal card, a flexible one in its first form."""
    c = np.int64(lowest_bit(legal))
    if c == JUGGLER:
        return np.int64(JUGGLER_AS)
    if c == CLOUD:
        return np.int64(CLOUD_AS)
    if c == SHAPESHIFTER:
        return np.int64(SHAPESHIFTER_AS_WIZARD)
    return c


@jit
def external_decision(script, kind, p, t, pos, n, k, dealer, trump, shown, forbidden, leader, legal, cnt, bids, won,
                      work):  # fmt: skip
    """An external seat's bid, card (its form; ``legal`` its legal cards) or named trump (``kind``: DK_*).

    One function of its own for the three, not inlined: the round of a run without external seats then
    carries one call it never makes, not this code, and compiles sooner. ``pos``: the bid's place in the
    bidding or the card's in the trick; ``t``, ``leader``: the trick in play and who led it (cards);
    ``forbidden``: the Canadian rule's forbidden bid (bids).
    """
    a = given(script)
    if a >= 0:
        return a
    if kind == DK_CARD:
        if pending(script, np.int64(DK_CARD), p, legal, t, pos, trump, shown, cnt, bids, won, n):
            script[X_LEADER] = leader
        return first_form(legal)
    for q in range(n):  # the bids made so far, from the dealer's left (the others: -1)
        work[q] = -1
    if kind == DK_TRUMP:  # before the bids
        pending(script, np.int64(DK_TRUMP), p, U64(15), t, pos, trump, shown, cnt, work, won, n)
        return np.int64(0)
    q = dealer
    for _ in range(pos):
        q += 1
        if q == n:
            q = 0
        work[q] = bids[q]
    ok = (ONE << U64(k + 1)) - ONE
    if forbidden >= 0:
        ok &= ~(ONE << U64(forbidden))
    if pending(script, np.int64(DK_BID), p, ok, t, pos, trump, shown, cnt, work, won, n):
        script[X_FORBIDDEN] = forbidden
    return np.int64(0) if forbidden != 0 else np.int64(1)


@hot
def external_werewolf(script, wolf, may, n, trump, shown, cnt):
    """An external Werewolf holder's choice: (swap, trump). ``may``: the swap may be declined (werewolf=may)."""
    code = given(script)
    if code < 0:
        legal = np.int64(0b111110) | np.int64(may)  # WOLF_KEEP only if it may decline; swaps 1..5
        bids = np.full(n, -1, dtype=np.int64)  # before the bids; a rare event: its own small arrays
        won = np.zeros(n, dtype=np.int64)
        none = np.int64(-1)
        pending(script, np.int64(DK_WEREWOLF), wolf, U64(legal), none, none, trump, shown, cnt, bids, won, n)
        code = np.int64(WOLF_SWAP + 1 + NO_TRUMP)
    if code < WOLF_SWAP:
        return False, trump
    return True, code - WOLF_SWAP - 1


@hot
def external_pass(script, q, t, n, trump, shown, hands, cnt, bids, won):
    """The card type an external seat passes to its left after Juggler trick ``t``."""
    c = given(script)
    if c >= 0:
        return c
    pending(script, np.int64(DK_PASS), q, hands[q], t, np.int64(-1), trump, shown, cnt, bids, won, n)
    return np.int64(lowest_bit(hands[q]))  # the stand-in: the lowest card held


def werewolf_external(on, script, wolf, may, n, trump, shown, cnt):  # pragma: no cover - compiled
    """:func:`external_werewolf` behind the switch ``on`` (a stub, never reached, without external seats)."""
    raise NotImplementedError


@overload(werewolf_external, jit_options=OVERLOAD_OPTIONS)
def _werewolf_external(on, script, wolf, may, n, trump, shown, cnt):
    if switch_off(on):
        return lambda on, script, wolf, may, n, trump, shown, cnt: (False, trump)
    return lambda on, script, wolf, may, n, trump, shown, cnt: external_werewolf(
        script, wolf, may, n, trump, shown, cnt
    )


def pass_external(on, script, q, t, n, trump, shown, hands, cnt, bids, won):  # pragma: no cover - compiled
    """:func:`external_pass` behind the switch ``on`` (a stub, never reached, without external seats)."""
    raise NotImplementedError


@overload(pass_external, jit_options=OVERLOAD_OPTIONS)
def _pass_external(on, script, q, t, n, trump, shown, hands, cnt, bids, won):
    if switch_off(on):
        return lambda on, script, q, t, n, trump, shown, hands, cnt, bids, won: np.int64(0)
    return lambda on, script, q, t, n, trump, shown, hands, cnt, bids, won: external_pass(
        script, q, t, n, trump, shown, hands, cnt, bids, won
    )
