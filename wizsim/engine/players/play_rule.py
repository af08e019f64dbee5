"""A user's play rule inside the engine: the situation it reads, and its call.

A play-rule seat is a built-in player's seat (its strategy id is that
player's: its bids, trump, Werewolf, passes and the cards the rule leaves)
whose row names a play rule (``params[seat, B_PLAY] = slot + 1``). At each of
the seat's card decisions with a choice, :func:`rule_card` writes the
situation into the run's int64 context (``layout.PC_*``: the seat, the trick
as it stands, the hand, the legal cards, the bid and tricks won, and, for
rules that read ``boss``, the unseen cards and the suits the later seats have
shown out of) and calls the rule's compiled function (``int64(int64[::1],
int64[:, ::1])``, made by :mod:`wizsim.players.play_rules`: it scores every
legal (card, form) pair from the features the rule reads and returns the
best form, -1 when the rule abstains, ``-2 - form`` when a score is NaN).
Every rule has that one type, so the round is compiled once for all rules.

Public memory only: the unseen cards are the deck in play less the cards
played this round, the seat's own hand and the face-up card (the view of
:mod:`.pimc_view`, the same for every seat); the voids are the suits a seat
did not follow since the last passes.

Not a registry line: a play rule is laid over a registered player (its Python
side is :mod:`wizsim.players.play_rule`); its slots are the ``rule`` block of
:data:`..layout.PARAM_BLOCKS` (``B_PLAY``, ``B_PLAY_NEEDS``).
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from ..bundles import is_no_view
from ..jit.bits import ONE, U64, ZERO
from ..jit.config import OVERLOAD_OPTIONS, hot, jit, switch_off
from ..layout import (
    B_PLAY,
    B_PLAY_NEEDS,
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
    PLAY_NEEDS_FALLBACK,
    PLAY_NEEDS_VIEW,
    R_BOMB,
    R_MONO,
    T_CARD,
)


def play_seat(on, players, p):  # pragma: no cover - compiled
    """Whether seat ``p`` plays by a rule (``on``: the run's rules); False, at compile time, without rules."""
    raise NotImplementedError


@overload(play_seat, jit_options=OVERLOAD_OPTIONS)
def _play_seat(on, players, p):
    if switch_off(on):
        return lambda on, players, p: False
    return lambda on, players, p: players.params[p, B_PLAY] > 0


def play_fallback_first(on, players, p):  # pragma: no cover - compiled
    """Whether seat ``p``'s rule reads ``fallback`` (its player then chooses first); False without rules."""
    raise NotImplementedError


@overload(play_fallback_first, jit_options=OVERLOAD_OPTIONS)
def _play_fallback_first(on, players, p):
    if switch_off(on):
        return lambda on, players, p: False
    return lambda on, players, p: (np.int64(players.params[p, B_PLAY_NEEDS]) & PLAY_NEEDS_FALLBACK) != 0


def play_tracks(on, players, n):  # pragma: no cover - compiled
    """Whether a play-rule seat reads the view (``boss``): then the round keeps it, as for pimc and learned."""
    raise NotImplementedError


@overload(play_tracks, jit_options=OVERLOAD_OPTIONS)
def _play_tracks(on, players, n):
    if switch_off(on):
        return lambda on, players, n: False

    def impl(on, players, n):
        track = False
        for p in range(n):
            needs = np.int64(players.params[p, B_PLAY_NEEDS])
            track |= players.params[p, B_PLAY] > 0 and (needs & PLAY_NEEDS_VIEW) != 0
        return track

    return impl


def view_facts(view, ctx, p, j, n, leader, shown, cnt):  # pragma: no cover - compiled
    """Write the unseen cards and the later seats' common voids (``PC_UNSEEN``, ``PC_LATER_VOID``) from the view."""
    raise NotImplementedError


@overload(view_facts, jit_options=OVERLOAD_OPTIONS)
def _view_facts(view, ctx, p, j, n, leader, shown, cnt):
    if is_no_view(view):  # no seat reads them (the Python layer asks for the view when one does)

        def none(view, ctx, p, j, n, leader, shown, cnt):
            ctx[PC_UNSEEN] = 0
            ctx[PC_LATER_VOID] = 0

        return none

    def impl(view, ctx, p, j, n, leader, shown, cnt):
        full, played, void = view.full, view.played, view.void
        unseen = ZERO
        for c in range(64):
            left = full[c] - played[c] - cnt[p, c] - np.int64(c == shown)
            if left > 0:
                unseen |= ONE << U64(c)
        ctx[PC_UNSEEN] = np.int64(unseen)
        later = np.int64(15)  # suits every later seat has shown out of (all four when none is left)
        for jj in range(j + 1, n):
            q = leader + jj
            if q >= n:
                q -= n
            later &= void[q]
        ctx[PC_LATER_VOID] = later

    return impl


def rule_card(on, turn, trick, legal, setup, players, seats, view, fallback):  # pragma: no cover - compiled
    """:func:`play_by_rule`; -1 (the fallback player decides) without rules."""
    raise NotImplementedError


@overload(rule_card, jit_options=OVERLOAD_OPTIONS)
def _rule_card(on, turn, trick, legal, setup, players, seats, view, fallback):
    if switch_off(on):
        return lambda on, turn, trick, legal, setup, players, seats, view, fallback: np.int64(-1)

    def impl(on, turn, trick, legal, setup, players, seats, view, fallback):
        return play_by_rule(on, turn, trick, legal, setup, players, seats, view, fallback)

    return impl


@jit
def nan_score(slot, form):
    """Raise ``ValueError("wizsim-play-rule", slot, form)``: a function of its own, since an exception carrying
    values needs reference counting, which the batched environment's kernel is compiled without."""
    raise ValueError("wizsim-play-rule", slot, form)


@hot
def play_by_rule(on, turn, trick, legal, setup, players, seats, view, fallback):
    """Seat ``turn.p``'s form by its play rule, or -1 when the rule abstains (its fallback player then decides).

    ``fallback``: the fallback player's form, chosen first when the rule reads it (``PLAY_NEEDS_FALLBACK``),
    else -1.

    One legal card with one form is left to the seat's player without asking the rule (there is no choice, and
    the player's decision stream stays as it is without the rule). A NaN score stops the
    run: ``ValueError("wizsim-play-rule", slot, form)``, which the Python layer turns into an error naming the
    rule (wizsim.players.bid_rules.rule_errors).
    """
    if (legal & (legal - ONE)) == ZERO and legal < (ONE << U64(JUGGLER)):
        return np.int64(-1)  # no choice: the seat's player plays it (its decision stream as without the rule)
    p = turn.p
    params, rules = players.params, setup.tables.rules
    ctx = on.play_ctx
    ctx[PC_P], ctx[PC_T], ctx[PC_J], ctx[PC_N], ctx[PC_K] = p, turn.t, turn.j, turn.n, turn.k
    ctx[PC_TRUMP], ctx[PC_LED], ctx[PC_LEADER] = turn.trump, trick.led, trick.leader
    ctx[PC_BEST], ctx[PC_WINNER], ctx[PC_FLAGS], ctx[PC_FAIRY] = trick.best, trick.winner, trick.flags, trick.fairy
    ctx[PC_HAND], ctx[PC_LEGAL] = np.int64(seats.hands[p]), np.int64(legal)
    ctx[PC_BID], ctx[PC_WON], ctx[PC_CANCELLED] = seats.bids[p], seats.won[p], np.int64(turn.cancelled)
    ctx[PC_BOMB_VOIDS], ctx[PC_MONO] = np.int64(rules[R_BOMB] == 0), np.int64(rules[R_MONO] != 0)
    ctx[PC_SEEN], ctx[PC_HEURISTIC], ctx[PC_FALLBACK] = np.int64(turn.seen), np.int64(-2), fallback
    if (np.int64(params[p, B_PLAY_NEEDS]) & PLAY_NEEDS_VIEW) != 0:
        view_facts(view, ctx, p, turn.j, turn.n, trick.leader, turn.shown, seats.cnt)
    slot = np.int64(params[p, B_PLAY]) - 1
    f = on.play_functions[slot](ctx, setup.tables.table)
    if f <= -2:
        nan_score(slot, -2 - f)
    if fallback >= 0 and f >= 0 and (f == fallback or (JUGGLER <= fallback < JUGGLER_AS and
                                                       setup.tables.table[f, T_CARD] == fallback)):  # fmt: skip
        return np.int64(-1)  # the fallback's own card: played as the fallback plays it (a form it leaves is settled)
    return f


# --------------------------------------------------------------------------- the hooks the kernels inline
# The overloads above are the hooks of a round compiled on its own (compile-time switch, each a call of its own).
# The kernels (run.play_items_for, vec._vec_tables_seated) clone the round with these instead, chosen by the type
# of ``feats.rules``: inlined functions, so that no call per decision takes the bundles (measured: a rule seat's
# round ran at 0.2x the heuristic's that way; an ``inline="always"`` overload broke the round's recording).
@hot
def rule_card_on(on, turn, trick, legal, setup, players, seats, view, fallback):
    return play_by_rule(on, turn, trick, legal, setup, players, seats, view, fallback)


@hot
def rule_card_off(on, turn, trick, legal, setup, players, seats, view, fallback):
    return np.int64(-1)


@hot
def play_seat_on(on, players, p):
    return players.params[p, B_PLAY] > 0


@hot
def play_seat_off(on, players, p):
    return False


@hot
def play_fallback_first_on(on, players, p):
    return (np.int64(players.params[p, B_PLAY_NEEDS]) & PLAY_NEEDS_FALLBACK) != 0


@hot
def play_tracks_on(on, players, n):
    track = False
    for p in range(n):
        needs = np.int64(players.params[p, B_PLAY_NEEDS])
        track |= players.params[p, B_PLAY] > 0 and (needs & PLAY_NEEDS_VIEW) != 0
    return track


@hot
def play_tracks_off(on, players, n):
    return False


def hooks(on: bool) -> dict:
    """The inlined play-rule hooks of a kernel whose run has rules (``on``) or none, by the names the round uses."""
    if on:
        return {"rule_card": rule_card_on, "play_seat": play_seat_on, "play_fallback_first": play_fallback_first_on,
                "play_tracks": play_tracks_on}  # fmt: skip
    return {"rule_card": rule_card_off, "play_seat": play_seat_off, "play_fallback_first": play_seat_off,
            "play_tracks": play_tracks_off}  # fmt: skip
