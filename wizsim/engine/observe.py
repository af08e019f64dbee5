"""An observation made from the external seats' script header alone (:mod:`.external`): the kernel behind
:mod:`wizsim.env.encoding`.

The header holds the pending decision (``X_KIND`` .. ``X_WON``) and the notes
on the round so far (``X_ROUND`` .. ``X_PASSES``). :func:`encode` writes one
seat's view of it into a flat int32 buffer, the fields in the order of
:class:`wizsim.env.encoding.Encoder` (hand, tricks, leaders, voids, bids, won,
scores, passes, others, info), and the action mask of the decision when it is
that seat's. Only what the seat may know is written: its own hand (the others'
hands only while clairvoyance shows them), the bids as the rules reveal them,
the passes once every seat has passed, the Werewolf once it is in play.

A kernel of its own, called once per decision from Python (an agent's turn in
a simulation, or ``WizardEnv.observe``): the rules it applies (which suit a
card leaves led, which cards follow it) are the engine's own functions.
"""

from __future__ import annotations

import numpy as np

from .game.trick import led_after
from .jit.bits import ONE, U64, lowest_bit
from .jit.config import hot, jit
from .layout import (
    CLOUD,
    CLOUD_AS,
    DK_BID,
    DK_CARD,
    DK_PASS,
    DK_TRUMP,
    DK_WEREWOLF,
    FREE,
    JUGGLER,
    JUGGLER_AS,
    M_ALWAYS,
    N_FORMS,
    N_TYPES,
    SHAPESHIFTER,
    SHAPESHIFTER_AS_JESTER,
    SHAPESHIFTER_AS_WIZARD,
    T_CARD,
    X_BIDS,
    X_CARDS,
    X_DEALER,
    X_FORBIDDEN,
    X_GSEATS,
    X_INDICATOR,
    X_KIND,
    X_LEADER,
    X_LEADERS,
    X_LEGAL,
    X_NA,
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

# ``consts`` of :func:`encode`: the table and the rules an observation depends on
C_PLAYERS = 0  # seats at the table
C_KMAX = 1  # the largest round
C_ROUNDS = 2  # rounds in an item (1: one round)
C_HIDDEN = 3  # rules[R_HIDDEN_BIDS]
C_CLAIRVOYANCE = 4  # rules[R_CLAIRVOYANCE]
C_MONO = 5  # rules[R_MONO]
N_CONSTS = 6
N_INFO = 14  # info fields (wizsim.env.encoding.INFO_FIELDS)
N_TRUMP_ACTIONS = 4
N_WOLF_ACTIONS = 6
TRUMP_UNDECIDED = 5


@hot
def field_starts(n, kmax):
    """Start of each field in the buffer: hand, tricks, leaders, voids, bids, won, scores, passes, others, info,
    and the end (no allocation: the observation is made once per decision)."""
    o_tricks = N_TYPES
    o_leaders = o_tricks + kmax * n
    o_voids = o_leaders + kmax
    o_bids = o_voids + 4 * n
    o_won = o_bids + n
    o_scores = o_won + n
    o_passes = o_scores + n
    o_others = o_passes + 2 * kmax
    o_info = o_others + N_TYPES * n
    return 0, o_tricks, o_leaders, o_voids, o_bids, o_won, o_scores, o_passes, o_others, o_info, o_info + N_INFO


@jit
def offsets(n, kmax):
    """:func:`field_starts` as an array (Python's check of the encoder's fields)."""
    return np.array(field_starts(n, kmax), dtype=np.int64)


@jit
def encode(x, hands, seat, consts, table, masks, buf, amask):
    """Game seat ``seat``'s observation of header ``x`` into ``buf``, its action mask into ``amask`` (int8).

    ``hands[round seat, card type]``: the copies each seat holds at the decision (the header's ``X_CNT``
    slots as [6, 64], or the round's own counts). ``buf``: int32, or int8 for one-round tables (every field
    then fits). The mask is all zero unless the pending decision is this seat's.
    """
    n, kmax, rounds = consts[C_PLAYERS], consts[C_KMAX], consts[C_ROUNDS]
    o_hand, o_tricks, o_leaders, o_voids, o_bids, o_won, o_scores, o_passes, o_others, o_info, o_end = field_starts(
        n, kmax
    )
    buf[:] = 0
    for i in range(o_tricks, o_voids):  # tricks and leaders: -1 none
        buf[i] = -1
    for i in range(o_bids, o_won):
        buf[i] = -1
    for i in range(o_passes, o_others):
        buf[i] = -1
    for i in range(o_info, o_end):
        buf[i] = -1
    amask[:] = 0
    row, na, kind = x[X_ROUND], x[X_NA], x[X_KIND]
    me = -1
    for q in range(na):
        if x[X_GSEATS + q] == seat:
            me = q
    buf[o_info + 0] = 0
    buf[o_info + 2] = row
    buf[o_info + 3] = rounds
    buf[o_info + 11] = na
    if me < 0:  # left an elimination game
        buf[o_scores] = x[X_TOTALS + seat]
        return
    k = x[X_CARDS]
    pend = kind != 0
    if not pend:
        tricks_done, current, in_trick, bids_made = k, -1, 0, True
    elif kind == DK_CARD:
        tricks_done, current, in_trick, bids_made = x[X_TRICK], x[X_TRICK], x[X_POS], True
    elif kind == DK_PASS:
        tricks_done, current, in_trick, bids_made = x[X_TRICK] + 1, -1, 0, True
    else:
        tricks_done, current, in_trick, bids_made = 0, -1, 0, False
    hidden = consts[C_HIDDEN]
    for q in range(na):
        r = (q - me + na) % na
        buf[o_scores + r] = x[X_TOTALS + x[X_GSEATS + q]]
        visible = q == me or hidden == 0 or not pend or (hidden == 1 and bids_made)
        b = x[X_BIDS + q]
        if visible and b >= 0 and (bids_made or kind == DK_BID):
            buf[o_bids + r] = b
        buf[o_won + r] = x[X_WON + q]
    # hands: the seat's own, or the others' while clairvoyance shows them at the bids
    if pend:
        clairvoyant_bid = kind == DK_BID and consts[C_CLAIRVOYANCE] != 0 and (rounds == 1 or row == 0)
        for q in range(na):
            r = (q - me + na) % na
            if clairvoyant_bid and q != me:
                for c in range(N_TYPES):
                    buf[o_others + N_TYPES * r + c] = hands[q, c]
            elif not clairvoyant_bid and q == me:
                for c in range(N_TYPES):
                    buf[o_hand + c] = hands[q, c]
    # tricks, leaders, voids shown, passes
    passes_done = x[X_TRICK] if kind == DK_PASS else tricks_done
    start_led = FREE if consts[C_MONO] != 0 else -1
    upto = tricks_done + (1 if current >= 0 else 0)
    always = masks[M_ALWAYS]
    for t in range(min(upto, k)):
        leader = x[X_LEADERS + t]
        buf[o_leaders + t] = (leader - me + na) % na
        led = np.int64(start_led)
        count = na if t < tricks_done else in_trick
        for j in range(count):
            q = (leader + j) % na
            r = (q - me + na) % na
            f = x[X_PLAYS + 6 * t + j]
            buf[o_tricks + n * t + r] = f
            c = table[f, T_CARD] if f >= JUGGLER_AS else f
            if 0 <= led < 4 and ((masks[led + 1] | always) >> U64(c)) & ONE == 0:
                buf[o_voids + 4 * r + led] = 1
            led = led_after(led, f, table)
        # the passes after trick t, once every seat has passed (not those being decided now)
        if t < passes_done and x[X_PASSES + 6 * t] >= 0:
            for i in range(4 * n):  # after the passes anyone may hold any suit again
                buf[o_voids + i] = 0
            buf[o_passes + 2 * t] = x[X_PASSES + 6 * t + me]
            buf[o_passes + 2 * t + 1] = x[X_PASSES + 6 * t + (me - 1 + na) % na]
        if t == current:
            buf[o_info + 9] = led
    # the round's facts (wizsim.env.encoding.INFO_FIELDS)
    buf[o_info + 0] = kind
    buf[o_info + 1] = k
    buf[o_info + 4] = (x[X_DEALER] - me + na) % na
    buf[o_info + 5] = TRUMP_UNDECIDED if kind == DK_TRUMP else x[X_TRUMP] + 1
    buf[o_info + 6] = x[X_SHOWN]
    buf[o_info + 7] = current
    if kind == DK_CARD:
        buf[o_info + 8] = (x[X_LEADER] - me + na) % na
    else:
        buf[o_info + 8] = -1
        buf[o_info + 9] = -1
    if kind == DK_BID and x[X_SEAT] == me and 0 <= x[X_FORBIDDEN] <= k:
        buf[o_info + 10] = x[X_FORBIDDEN]  # past k (or below 0) nothing is forbidden
    wolf_known = kind == DK_BID or kind == DK_CARD or kind == DK_PASS or not pend
    if wolf_known and x[X_SWAPPED] != 0:
        buf[o_info + 12] = (x[X_WOLF] - me + na) % na
    buf[o_info + 13] = x[X_INDICATOR]  # turned up before any decision of the round
    if pend and x[X_SEAT] == me:
        fill_mask(U64(x[X_LEGAL]), kind, kmax, amask)


@hot
def action_blocks(kmax):
    """Where the card, trump, Werewolf and pass blocks of the action space start (bids start at 0)."""
    card0 = kmax + 1
    trump0 = card0 + N_FORMS
    wolf0 = trump0 + N_TRUMP_ACTIONS
    return card0, trump0, wolf0, wolf0 + N_WOLF_ACTIONS


@jit
def fill_mask(legal, kind, kmax, amask):
    """The action mask of a decision of ``kind`` whose legal engine actions are the bits of ``legal``, in the
    blocks of :mod:`wizsim.env.encoding`."""
    card0, trump0, wolf0, pass0 = action_blocks(kmax)
    while legal != 0:  # the set bits only (a hand holds a few legal actions of 64)
        b = np.int64(lowest_bit(legal))
        legal &= legal - ONE
        if kind == DK_BID:
            amask[b] = 1
        elif kind == DK_TRUMP:
            amask[trump0 + b] = 1
        elif kind == DK_WEREWOLF:
            amask[wolf0 + b] = 1
        elif kind == DK_PASS:
            amask[pass0 + b] = 1
        elif b == JUGGLER:
            for s in range(4):
                amask[card0 + JUGGLER_AS + s] = 1
        elif b == CLOUD:
            for s in range(4):
                amask[card0 + CLOUD_AS + s] = 1
        elif b == SHAPESHIFTER:
            amask[card0 + SHAPESHIFTER_AS_WIZARD] = 1
            amask[card0 + SHAPESHIFTER_AS_JESTER] = 1
        else:
            amask[card0 + b] = 1
