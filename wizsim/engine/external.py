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
script. The engine checks them again as it reads them: the first given action
that is not legal where it is read is noted in ``X_BAD`` (its index + 1) and
played all the same. A caller that builds a whole script at once (the
OpenSpiel game's resampled deals) reads ``X_BAD`` to know the script holds.

Calling out (``script[X_CALLBACK]``, a function's address): instead of a stand-in, the
engine calls that function at every decision past the script, right after
recording it, and plays the action it returns; the decision is then cleared
(``X_KIND = 0``) and the round goes on. This is how a Python agent sits at a
simulation's table (:mod:`wizsim.env.seated`): one call per decision, no replay.

Notes (``X_ROUND`` .. ``X_PASSES``): while no decision is pending, the engine
notes the round so far in the header: the round's number, players, size,
dealer, turned-up card, Werewolf, game seats and totals, the trick leaders, the
cards played and passed, and at the end the bids and tricks won. An
observation (:mod:`wizsim.env.encoding`) is made from the header alone.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic, overload

from .jit.bits import ONE, U64, ZERO, lowest_bit
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
    N_TYPES,
    NO_TRUMP,
    SEAT_EXTERNAL,
    SHAPESHIFTER,
    SHAPESHIFTER_AS_JESTER,
    SHAPESHIFTER_AS_WIZARD,
    WOLF_SWAP,
    X_ACTIONS,
    X_ANSWER,
    X_ASK,
    X_BAD,
    X_BIDS,
    X_CALLBACK,
    X_CARDS,
    X_CNT,
    X_CURSOR,
    X_DEALER,
    X_FORBIDDEN,
    X_GSEATS,
    X_INDICATOR,
    X_ITEM,
    X_KIND,
    X_LEADER,
    X_LEADERS,
    X_LEGAL,
    X_LEN,
    X_MAX_TRICKS,
    X_NA,
    X_ON,
    X_PASSES,
    X_PLAYS,
    X_POS,
    X_ROUND,
    X_SEAT,
    X_SHOWN,
    X_SWAPPED,
    X_TOTALS,
    X_TRICK,
    X_TRUMP,
    X_WOLF,
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


@intrinsic
def call_address(typingctx, address):
    """Call the function at ``address`` (no arguments, returns an int64): the agent's entry (X_CALLBACK)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        return builder.call(builder.inttoptr(args[0], fnty.as_pointer()), [])

    return sig, codegen


@hot
def called(script):
    """The called-out action for the decision just recorded (then cleared), or -1 in a replay (a stand-in)."""
    address = script[X_CALLBACK]
    if address == 0:
        return np.int64(-1)
    a = call_address(address)
    script[X_KIND] = 0
    return a


def note(on, script, slot, value):  # pragma: no cover - compiled
    """Note ``value`` in header slot ``slot`` while no decision is pending (nothing without external seats)."""
    raise NotImplementedError


@overload(note, jit_options=OVERLOAD_OPTIONS)
def _note(on, script, slot, value):
    if switch_off(on):
        return lambda on, script, slot, value: None

    def impl(on, script, slot, value):
        if script[X_KIND] == 0:
            script[slot] = value

    return impl


def note_round(on, script, item, r, na, k, dealer, game_seat, totals):  # pragma: no cover - compiled
    """Start the notes of round ``r`` of item ``item`` (nothing without external seats)."""
    raise NotImplementedError


@overload(note_round, jit_options=OVERLOAD_OPTIONS)
def _note_round(on, script, item, r, na, k, dealer, game_seat, totals):
    if switch_off(on):
        return lambda on, script, item, r, na, k, dealer, game_seat, totals: None
    return lambda on, script, item, r, na, k, dealer, game_seat, totals: round_notes(
        script, np.int64(item), np.int64(r), np.int64(na), np.int64(k), np.int64(dealer), game_seat, totals
    )


@jit
def round_notes(script, item, r, na, k, dealer, game_seat, totals):
    """The notes at the start of round ``r`` of item ``item``: who plays, the game totals so far, nothing played."""
    if script[X_KIND] != 0:
        return
    script[X_ITEM] = item
    script[X_ROUND] = r
    script[X_NA] = na
    script[X_CARDS] = k
    script[X_DEALER] = dealer
    script[X_INDICATOR] = -1
    script[X_WOLF] = -1
    script[X_SWAPPED] = 0
    for q in range(6):
        script[X_GSEATS + q] = game_seat[q] if q < na else -1
        script[X_TOTALS + q] = totals[q] if q < totals.shape[0] else 0
        script[X_BIDS + q] = -1
        script[X_WON + q] = 0
    for i in range(X_MAX_TRICKS):
        script[X_LEADERS + i] = -1
    for i in range(6 * X_MAX_TRICKS):
        script[X_PLAYS + i] = -1
        script[X_PASSES + i] = -1


@hot
def checked(script, a, legal, form):
    """``a``, a given action; note it in ``X_BAD`` unless it is in ``legal`` (bits). ``form``: ``a`` is a card's
    form (a Juggler or Cloud in a suit, a Shapeshifter as Wizard or Jester) and ``legal`` holds card types."""
    c = a
    ok = True
    if form:
        if c == JUGGLER or c == CLOUD or c == SHAPESHIFTER or SHAPESHIFTER_AS_JESTER < c or (N_TYPES <= c < JUGGLER_AS):
            ok = False  # a flexible card is played in a form; no other code is a form
        elif c >= SHAPESHIFTER_AS_WIZARD:
            c = np.int64(SHAPESHIFTER)
        elif c >= CLOUD_AS:
            c = np.int64(CLOUD)
        elif c >= JUGGLER_AS:
            c = np.int64(JUGGLER)
    if ok and (c < 0 or c >= 64 or ((U64(legal) >> U64(c)) & ONE) == ZERO):
        ok = False
    if not ok and script[X_BAD] == 0:
        script[X_BAD] = script[X_CURSOR]
    return a


@hot
def decision_slots(script, kind, p, legal, t, pos, trump, shown):
    """A decision's kind, seat, legal actions, trick, place, trump and face-up card in the header."""
    script[X_KIND], script[X_SEAT], script[X_LEGAL] = kind, p, np.int64(legal)
    script[X_TRICK], script[X_POS], script[X_TRUMP], script[X_SHOWN] = t, pos, trump, shown
    script[X_LEADER] = script[X_FORBIDDEN] = -1  # set by the caller where they apply


@jit
def pending(script, kind, p, legal, t, pos, trump, shown, cnt, bids, won, n):
    """Record the first decision past the script: kind, seat, legal actions (bits), hands, bids and tricks so far.

    ``bids`` hold the bids made so far (-1: not yet). Later decisions past the
    script are not recorded (the caller discards everything after the first):
    returns whether this one was, so that the caller adds its own slots only then.
    """
    if script[X_KIND] != 0:
        return False
    decision_slots(script, kind, p, legal, t, pos, trump, shown)
    for q in range(n):
        for c in range(64):
            script[X_CNT + 64 * q + c] = cnt[q, c]
    for q in range(6):
        script[X_BIDS + q] = bids[q] if q < n else -1
        script[X_WON + q] = won[q] if q < n else 0
    return True


@jit
def pending_before_bids(script, kind, p, legal, trump, shown, cnt, n):
    """:func:`pending` for a decision before the bids (no bids, no tricks yet): a function of its own, so that
    its small arrays are not allocated in its callers (a rare event; the batched environment's kernel, compiled
    without reference counts, allocates nothing)."""
    bids = np.full(n, -1, dtype=np.int64)
    won = np.zeros(n, dtype=np.int64)
    none = np.int64(-1)
    return pending(script, kind, p, legal, none, none, trump, shown, cnt, bids, won, n)


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
        if kind == DK_CARD:
            return checked(script, a, legal, True)
        if kind == DK_TRUMP:
            return checked(script, a, np.int64(15), False)
        ok = (ONE << U64(k + 1)) - ONE
        if forbidden >= 0:
            ok &= ~(ONE << U64(forbidden))
        return checked(script, a, ok, False)
    if kind == DK_CARD:
        if pending(script, np.int64(DK_CARD), p, legal, t, pos, trump, shown, cnt, bids, won, n):
            script[X_LEADER] = leader
        a = called(script)
        return a if a >= 0 else first_form(legal)
    for q in range(n):  # the bids made so far, from the dealer's left (the others: -1)
        work[q] = -1
    if kind == DK_TRUMP:  # before the bids
        pending(script, np.int64(DK_TRUMP), p, U64(15), t, pos, trump, shown, cnt, work, won, n)
        a = called(script)
        return a if a >= 0 else np.int64(0)
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
    a = called(script)
    if a >= 0:
        return a
    return np.int64(0) if forbidden != 0 else np.int64(1)


@hot
def external_werewolf(script, wolf, may, n, trump, shown, cnt):
    """An external Werewolf holder's choice: (swap, trump). ``may``: the swap may be declined (werewolf=may)."""
    code = given(script)
    legal = np.int64(0b111110) | np.int64(may)  # WOLF_KEEP only if it may decline; swaps 1..5
    if code >= 0:
        checked(script, code, legal, False)
    else:
        pending_before_bids(script, np.int64(DK_WEREWOLF), wolf, U64(legal), trump, shown, cnt, n)
        code = called(script)
        if code < 0:
            code = np.int64(WOLF_SWAP + 1 + NO_TRUMP)
    if code < WOLF_SWAP:
        return False, trump
    return True, code - WOLF_SWAP - 1


@hot
def external_pass(script, q, t, n, trump, shown, hands, cnt, bids, won):
    """The card type an external seat passes to its left after Juggler trick ``t``."""
    c = given(script)
    if c >= 0:
        return checked(script, c, hands[q], False)
    pending(script, np.int64(DK_PASS), q, hands[q], t, np.int64(-1), trump, shown, cnt, bids, won, n)
    c = called(script)
    return c if c >= 0 else np.int64(lowest_bit(hands[q]))  # the stand-in: the lowest card held


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
