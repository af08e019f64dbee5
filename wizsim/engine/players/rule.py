"""A user's bid rule inside the engine: the feature vector it reads, and its call.

A rule seat plays as a built-in player (its strategy id is that player's) and
bids by a user's function (``params[seat, B_RULE] = slot + 1``). The run passes
``N_BID_RULES`` compiled functions of one type, ``float64(float64[::1])``
(wizsim.players.bid_rules wraps the user's function over named features into that
form), and a feature buffer. Because every rule has that one type, the round
is compiled once for all rules (Numba's first-class function type: a call
through a pointer), and a new rule costs only its own small compile.

Not a registry line: a rule is laid over a registered player's card play
(its Python side is :mod:`wizsim.players.rule`); its slots are the ``rule``
block of :data:`..layout.PARAM_BLOCKS` (``B_RULE``, ``B_NEEDS``). Its entry
point :func:`bid` is what :func:`.seats.seat_bid` calls for a rule seat.
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from ..jit.bits import ONE, U64, ZERO, lowest_bit
from ..jit.config import OVERLOAD_OPTIONS, hot, jit, switch_off
from ..layout import (
    B_NEEDS,
    B_RULE,
    F_BIDS_BEFORE,
    F_BIDS_SEEN,
    F_CARDS,
    F_ESTIMATE,
    F_FIRST,
    F_FORBIDDEN,
    F_HEURISTIC_BID,
    F_JESTERS,
    F_LAST,
    F_LONGEST_SIDE,
    F_NO_TRUMP,
    F_PLAYERS,
    F_POSITION,
    F_SHORTEST_SIDE,
    F_SIDE_ABOVE,
    F_SIDE_ACES,
    F_SIDE_DOUBLETONS,
    F_SIDE_KINGS,
    F_SIDE_QUEENS,
    F_SIDE_SINGLETONS,
    F_SIDE_VOIDS,
    F_SPECIAL,
    F_TABLE_BID,
    F_TRUMP_NAMED,
    F_TRUMPS,
    F_TRUMPS_ABOVE,
    F_WIZARDS,
    FIRST_SPECIAL,
    JESTER,
    N_SPECIALS,
    NEEDS_TABLE,
    R_HIDDEN_BIDS,
    R_MONO,
    WIZARD,
)
from .heuristic import estimate
from .table import table_bid

#: what a rule seat needs beyond its card player's needs: its features read the estimate and the table's bid
NEEDS = frozenset({"heuristic", "bid_table"})


@hot
def bid(turn, named, clairvoyant, setup, players, dec_st, seats, view):
    """The bid of the seat's rule function (``params[seat, B_RULE] - 1``) and the heuristic's estimate."""
    params = players.params
    slot = np.int64(params[turn.p, B_RULE]) - 1
    return rule_bid_hook(setup.feats.rules, turn, named, setup.tables.rules, seats.hands, seats.cnt, params, slot,
                         setup.models.bid_table)  # fmt: skip


@hot
def has_rule(turn, clairvoyant, players):
    """Whether seat ``turn.p`` bids by a rule (clairvoyance hides the hand a rule reads: then it bids as its card
    player does)."""
    return not clairvoyant and players.params[turn.p, B_RULE] > 0


def rule_bid_hook(on, turn, named, rules, hands, cnt, params, slot, bid_tab):  # pragma: no cover - compiled
    """:func:`rule_bid` (``on``: the run's rule functions and feature buffer); a stub without rule seats."""
    raise NotImplementedError


@overload(rule_bid_hook, jit_options=OVERLOAD_OPTIONS)
def _rule_bid_hook(on, turn, named, rules, hands, cnt, params, slot, bid_tab):
    if switch_off(on):
        return lambda on, turn, named, rules, hands, cnt, params, slot, bid_tab: (np.int64(-1), np.float64(0.0))

    return rule_bid.py_func  # the implementation itself: no wrapper call per bid


@hot
def fill_features(fv, i, n, k, trump, named, bid_sum, hidden, forbidden, hand, cnt_row, est, hbid, tbid):
    """Write a seat's bid features to ``fv`` (slots ``layout.F_*``; names in wizsim.players.bid_rules).

    ``hand``, ``cnt_row``: its cards; ``est``, ``hbid``, ``tbid``: the heuristic's estimate and bid and the
    table's bid (0 when the rule reads none of them: :func:`rule_bid`).
    """
    fv[F_CARDS] = k
    fv[F_PLAYERS] = n
    fv[F_POSITION] = i
    fv[F_FIRST] = np.float64(i == 0)
    fv[F_LAST] = np.float64(i == n - 1)
    fv[F_BIDS_BEFORE] = 0.0 if hidden else bid_sum
    fv[F_BIDS_SEEN] = 0.0 if hidden else 1.0
    fv[F_FORBIDDEN] = max(forbidden, -1)  # earlier bids above k forbid nothing: -1 as without the rule
    fv[F_NO_TRUMP] = np.float64(trump < 0)
    fv[F_TRUMP_NAMED] = np.float64(named)
    fv[F_WIZARDS] = cnt_row[WIZARD]
    fv[F_JESTERS] = cnt_row[JESTER]
    for s in range(N_SPECIALS):
        fv[F_SPECIAL + s] = cnt_row[FIRST_SPECIAL + s]
    for r in range(1, 13):
        fv[F_TRUMPS_ABOVE + r] = 0.0
        fv[F_SIDE_ABOVE + r] = 0.0
    n_trumps = 0
    aces = 0
    kings = 0
    queens = 0
    longest = 0
    shortest = 99
    voids = 0
    singles = 0
    doubles = 0
    for s in range(4):
        bits = (hand >> U64(13 * s)) & U64(0x1FFF)
        length = 0
        while bits != ZERO:
            r = np.int64(lowest_bit(bits)) + 1  # rank 1..13
            bits &= bits - ONE
            c = cnt_row[13 * s + r - 1]  # copies (mono decks may deal more than one)
            length += c
            if r >= 2:  # counted at "above r - 1"; the suffix sums below add it to every lower threshold
                fv[(F_TRUMPS_ABOVE if s == trump else F_SIDE_ABOVE) + r - 1] += c
            if s != trump:
                if r == 13:
                    aces += c
                elif r == 12:
                    kings += c
                elif r == 11:
                    queens += c
        if s == trump:
            n_trumps = length
        else:
            longest = max(longest, length)
            shortest = min(shortest, length)
            voids += np.int64(length == 0)
            singles += np.int64(length == 1)
            doubles += np.int64(length == 2)
    for r in range(11, 0, -1):
        fv[F_TRUMPS_ABOVE + r] += fv[F_TRUMPS_ABOVE + r + 1]
        fv[F_SIDE_ABOVE + r] += fv[F_SIDE_ABOVE + r + 1]
    fv[F_TRUMPS] = n_trumps
    fv[F_SIDE_ACES] = aces
    fv[F_SIDE_KINGS] = kings
    fv[F_SIDE_QUEENS] = queens
    fv[F_LONGEST_SIDE] = longest
    fv[F_SHORTEST_SIDE] = shortest
    fv[F_SIDE_VOIDS] = voids
    fv[F_SIDE_SINGLETONS] = singles
    fv[F_SIDE_DOUBLETONS] = doubles
    fv[F_ESTIMATE] = est
    fv[F_HEURISTIC_BID] = hbid
    fv[F_TABLE_BID] = tbid


@jit
def impossible_bid(slot, value, k):
    """Raise ``ValueError("wizsim-rule", slot, value, k)``: a function of its own, since an exception carrying
    values needs reference counting, which the batched environment's kernel is compiled without."""
    raise ValueError("wizsim-rule", slot, value, k)


@hot
def rule_bid(on, turn, named, rules, hands, cnt, params, slot, bid_tab):
    """Seat ``turn.p``'s bid by the run's rule function ``slot``; (bid, the heuristic's estimate) for the Canadian step.

    ``turn``: a :class:`..bundles.BidTurn`.

    The rule's value is rounded half up; a value outside 0..k (or NaN) is an
    impossible bid: ``ValueError("wizsim-rule", slot, value, k)``, which the
    Python layer turns into an error naming the rule (wizsim.players.bid_rules.rule_errors).
    """
    fns, fv = on.functions, on.features  # the run's rule functions (a :class:`..bundles.BidRules`)
    p, i, n, k, trump, bid_sum, forbidden = turn.p, turn.i, turn.n, turn.k, turn.trump, turn.bid_sum, turn.forbidden
    hidden = rules[R_HIDDEN_BIDS] != 0
    mono = rules[R_MONO] != 0
    needs = np.int64(params[p, B_NEEDS])
    est = 0.0
    # the heuristic's estimate costs a pow per side card: only for rules that read it (or the Canadian step)
    if needs != 0 or forbidden >= 0:
        est = estimate(hands[p], cnt[p], trump, n, k, params[p], mono)
    hbid = min(max(np.int64(np.floor(est + 0.5)), 0), k)  # the heuristic's bid
    tbid = hbid  # in mono the table player bids the heuristic's bid (its table is for the standard deck)
    if (needs & NEEDS_TABLE) != 0 and not mono:
        tbid = table_bid(est, hbid, n, k, i, bid_sum, hidden, forbidden, cnt[p, WIZARD], bid_tab)
    fill_features(fv, i, n, k, trump, named, bid_sum, hidden, forbidden, hands[p], cnt[p], est, hbid, tbid)
    value = fns[slot](fv)
    if not (-0.5 <= value < k + 0.5):  # NaN fails too
        impossible_bid(slot, value, k)
    return np.int64(np.floor(value + 0.5)), est
