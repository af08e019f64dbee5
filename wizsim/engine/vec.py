"""Many one-round tables stepped together: the kernel behind ``wizsim.env.VecWizardEnv``.

Each table is a round of Wizard held as data between calls (:class:`.bundles.VecState`),
so that a learner's decision can be taken between two calls: :func:`vec_step`
applies one action per table, lets the built-in seats play inside the kernel
until a learner seat must decide again (or the round ends, is scored and the
next round is dealt), and writes every table's observation and action mask
(:func:`.observe.encode`, the environment's encoding).

The rounds are the engine's: the same deal, trump phase, bid and card
decisions of the built-in players, trick functions, events and scores as
:func:`.round.play_round`, in the same order, laid out as phases that can stop
at a learner's decision (the phase, trick, place and trick state are kept per
table). The trump phase (a learner dealer naming trump, a learner's Werewolf
choice) and the passes after a Juggler trick are the engine's own functions
with the learner seats marked external: a learner's earlier actions of that
phase are given in the table's script (:mod:`.external`); when the phase asks
for one more, the kernel restores the phase's start (the deal's stream, or the
hands before the passes) and stops; the next call replays the phase with it.

Seeds: table ``i`` draws its rounds from an episode stream seeded by the
caller; round ``e`` of a table is dealt by seat ``e % n`` from its own deal
and decision streams, drawn from that episode stream, and the deck is put back
in order before each deal. No random number is drawn outside the tables' own
streams, so a table's rounds do not depend on the other tables or on the
number of tables.

Speed: :func:`vec_step` is compiled without reference counting
(:func:`.jit.config.kernel_no_nrt`): it stops and resumes every table once per
learner decision, making views of the table's rows each time, and Numba's
reference counts on them (calls to ``NRT_incref``, with the reloads after
them) took most of the step's time. Nothing in it may allocate; the rare
paths that do (a Werewolf decision's record, a user rule's error) are ``jit``
functions of their own.
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from .bundles import BidTurn, Preset, Seats, Setup, Tables, Trick, Turn, VecState  # noqa: F401  # VecState: doc
from .external import decision_slots, round_notes
from .game.deal import clear_hands
from .game.trick import finish_trick, legal_mask, open_trick, take_card, trick_step
from .jit.bits import ONE, U64
from .jit.borrow import stack_stream
from .jit.config import NO_NRT_OPTIONS, OVERLOAD_OPTIONS, hot, inline_generated, jit, kernel_no_nrt, switch_off
from .jit.rng import next_u64
from .layout import (
    CLASS_SUIT,
    DK_BID,
    DK_CARD,
    DK_PASS,
    DK_TRUMP,
    DK_WEREWOLF,
    FLAG_JUGGLER,
    FREE,
    JUGGLER,
    JUGGLER_AS,
    R_BOMB,
    R_CANADIAN,
    R_CLAIRVOYANCE,
    R_MONO,
    R_SCORING,
    S_RANDOM,
    SEAT_EXTERNAL,
    T_CARD,
    T_CLASS,
    X_ACTIONS,
    X_BIDS,
    X_CNT,
    X_CURSOR,
    X_FORBIDDEN,
    X_INDICATOR,
    X_KIND,
    X_LEADER,
    X_LEADERS,
    X_LEN,
    X_ON,
    X_PASSES,
    X_PLAYS,
    X_SEAT,
    X_SHOWN,
    X_SWAPPED,
    X_TRUMP,
    X_WOLF,
    X_WON,
)
from .observe import action_blocks, encode
from .players import play_rule as play_rule_module
from .players import seats as seats_module
from .players.learned import learned_net
from .players.pimc_view import new_view
from .players.play_rule import play_fallback_first, play_seat, rule_card
from .players.random import random_card
from .players.seats import seat_bid, seat_card
from .players.switches import special_form, special_passes
from .round import deal_phase, score_phase, trump_phase
from .run import _clone, seated_ids

# phases of a table (``ints[i, V_PHASE]``)
PH_DEAL = 0  # deal the next round
PH_TRUMP = 1  # the trump phase (replayed from the deal while a learner decides in it)
PH_BIDS = 2
PH_TRICKS = 3
PH_PASSES = 4  # after a Juggler trick (replayed from the hands before it while a learner decides in it)
# ``ints[i, V_*]``
V_PHASE = 0
V_DEALER = 1
V_TRUMP = 2
V_SHOWN = 3
V_WOLF = 4
V_SWAPPED = 5
V_INDICATOR = 6
V_NAMED = 7
V_T = 8  # the trick in play
V_J = 9  # the place in the trick
V_BID_I = 10  # bids made
V_BID_SUM = 11
V_CANCELLED = 12
V_CLOUD = 13
V_EPISODE = 14  # rounds dealt at this table
V_SEAT = 15  # the seat to decide (a learner's), -1 none
V_ERROR = 16  # 1: the last action was not legal
N_INTS = 17
# ``streams[i, S_*]`` (uint64): SplitMix64 states
S_DEAL = 0
S_DEC = 1
S_EPISODE = 2  # the table's stream of round seeds
S_DEAL0 = 3  # the round's deal stream at its start (the trump phase replays the deal)
S_DEC0 = 4  # the decision stream at the start of the trump phase
S_DEC_PASS = 5  # ... of the passes
S_SEEN = 6  # the cards played this round (a mask)
N_STREAMS = 7


@hot
def learner_pending(hdr, kind, p, legal, t, pos, trump, shown, seats, bids, n):
    """The learner's decision in the header, as :func:`.external.pending` records it, but for the hands: the
    observation reads the round's own counts."""
    decision_slots(hdr, kind, p, legal, t, pos, trump, shown)
    for q in range(n):
        hdr[X_BIDS + q] = bids[q]
        hdr[X_WON + q] = seats.won[q]


@hot
def keep_trick(row, trick):
    """Keep a :class:`.bundles.Trick` in a table's ``trick`` row (its fields in order)."""
    row[0], row[1], row[2], row[3], row[4], row[5] = (
        trick.leader,
        trick.led,
        trick.best,
        trick.winner,
        trick.flags,
        trick.fairy,
    )


@hot
def table_setup(setup, state, i):
    """Table ``i``'s :class:`.bundles.Setup`: its own deck (shuffled in place by the deal) and script."""
    t0, pre = setup.tables, setup.pre
    tables = Tables(state.decks[i], t0.mono_decks, t0.table, t0.masks, t0.rules)
    return Setup(tables, Preset(pre.info, pre.cnt, pre.bids, state.hdr[i]), setup.models, setup.feats)


@hot
def table_seats(state, i):
    """Table ``i``'s :class:`.bundles.Seats` (rows of the state's arrays)."""
    return Seats(state.hands[i], state.cnt[i], state.bids[i], state.won[i], state.final_bids[i], state.scores[i],
                 state.work[i])  # fmt: skip


@hot
def deal_stage(n, k, fixed_trump, setup, base_deck, state, i, fresh):
    """Deal table ``i``'s round (``fresh``: a new round, its streams drawn from the table's episode stream; else
    the same deal again, for a replay of the trump phase); return the turned-up card."""
    st, ints, hdr = state.streams[i], state.ints[i], state.hdr[i]
    seats = table_seats(state, i)
    if fresh:
        e = state.streams[i, S_EPISODE : S_EPISODE + 1]
        st[S_DEAL0] = next_u64(e)
        st[S_DEC0] = next_u64(e)
        ints[V_DEALER] = ints[V_EPISODE] % n
        hdr[X_ON] = 1
        hdr[X_KIND] = 0
        hdr[X_LEN] = 0
        round_notes(hdr, ints[V_EPISODE], np.int64(0), np.int64(n), np.int64(k), ints[V_DEALER], state.gseats,
                    state.totals)  # fmt: skip
    for c in range(base_deck.shape[0]):
        state.decks[i, c] = base_deck[c]
    if not fresh:  # a scored round has played every card: its hands are empty already
        clear_hands(n, seats.hands, seats.cnt)
    st[S_DEAL] = st[S_DEAL0]
    dealt = deal_phase(n, k, ints[V_DEALER], fixed_trump, setup, st[S_DEAL : S_DEAL + 1], seats, state.out, 0)
    hdr[X_INDICATOR] = dealt
    return dealt


@hot
def trump_stage(n, k, fixed_trump, setup, players, state, i):
    """The trump phase with the learner actions given so far; return False when a learner must decide in it."""
    st, ints, hdr = state.streams[i], state.ints[i], state.hdr[i]
    seats = table_seats(state, i)
    hdr[X_CURSOR] = 0
    hdr[X_KIND] = 0
    st[S_DEC] = st[S_DEC0]
    dealer, indicator = ints[V_DEALER], ints[V_INDICATOR]
    trump, wolf, swapped, shown = trump_phase(n, k, dealer, fixed_trump, indicator, setup, players,
                                              st[S_DEC : S_DEC + 1], seats)  # fmt: skip
    if hdr[X_KIND] != 0:
        return False
    ints[V_TRUMP], ints[V_WOLF], ints[V_SWAPPED], ints[V_SHOWN] = trump, wolf, swapped, shown
    table = setup.tables.table
    ints[V_NAMED] = trump >= 0 and (swapped != 0 or (indicator >= 0 and table[indicator, T_CLASS] != CLASS_SUIT))
    hdr[X_TRUMP], hdr[X_WOLF], hdr[X_SWAPPED], hdr[X_SHOWN] = trump, wolf, swapped, shown
    hdr[X_LEN] = 0
    return True


@hot
def bid_stage(n, k, setup, players, state, i, action):
    """Bids from where they stopped (``action``: the learner's pending bid, -1 none); False: a learner must bid."""
    st, ints, hdr = state.streams[i], state.ints[i], state.hdr[i]
    seats = table_seats(state, i)
    rules = setup.tables.rules
    dealer = ints[V_DEALER]
    view = new_view(setup.feats.view_kept, n)
    while ints[V_BID_I] < n:
        b_i = ints[V_BID_I]
        p = (dealer + 1 + b_i) % n
        forbidden = k - ints[V_BID_SUM] if rules[R_CANADIAN] != 0 and b_i == n - 1 else -1
        if players.params[p, SEAT_EXTERNAL] != 0:
            if action < 0:
                for q in range(n):  # the bids made so far (the others: -1)
                    seats.work[q] = seats.bids[q] if (q - dealer - 1) % n < b_i else -1
                ok = (ONE << U64(k + 1)) - ONE
                if forbidden >= 0:
                    ok &= ~(ONE << U64(forbidden))
                learner_pending(hdr, np.int64(DK_BID), p, ok, np.int64(-1), b_i, ints[V_TRUMP], ints[V_SHOWN], seats,
                                seats.work, n)  # fmt: skip
                hdr[X_FORBIDDEN] = forbidden
                return False
            b = action
            action = -1
        else:
            turn = BidTurn(p, b_i, n, k, dealer, ints[V_TRUMP], ints[V_SHOWN], ints[V_BID_SUM], forbidden)
            dec_st = stack_stream(st[S_DEC])
            b = seat_bid(turn, ints[V_NAMED] != 0, rules[R_CLAIRVOYANCE] != 0, setup, players, dec_st, seats, view)
            st[S_DEC] = dec_st[0]
        seats.bids[p] = b
        ints[V_BID_SUM] += b
        ints[V_BID_I] += 1
    return True


@hot
def trick_stage(n, k, setup, players, state, i, action):
    """Tricks from where they stopped (``action``: the learner's pending form, -1 none); False: a learner must
    play, or pass after a Juggler trick (the phase is then PH_PASSES)."""
    st, ints, hdr, trk = state.streams[i], state.ints[i], state.hdr[i], state.trick[i]
    seats = table_seats(state, i)
    table, masks, rules, specials = setup.tables.table, setup.tables.masks, setup.tables.rules, setup.feats.specials
    strat, params = players.strat, players.params
    view = new_view(setup.feats.view_kept, n)
    net = learned_net(setup.feats.learned, view, setup.models)
    trump, shown = ints[V_TRUMP], ints[V_SHOWN]
    dec_st = stack_stream(st[S_DEC])  # on the stack: no other array can alias it (its stores cost no reloads)
    # the loop's values in locals (registers), written back to the table's rows whenever the stage stops
    t, j, seen = ints[V_T], ints[V_J], U64(st[S_SEEN])
    cancelled, cloud = ints[V_CANCELLED] != 0, ints[V_CLOUD]
    trick = Trick(trk[0], trk[1], trk[2], trk[3], trk[4], trk[5])  # the row holds the fields in order
    while t < k:
        while j < n:
            p = (trick.leader + j) % n
            led = trick.led
            legal = legal_mask(seats.hands[p], led, masks)
            if params[p, SEAT_EXTERNAL] != 0:
                if action < 0:
                    learner_pending(hdr, np.int64(DK_CARD), p, legal, t, j, trump, shown, seats, seats.bids, n)
                    hdr[X_LEADER] = trick.leader
                    keep_trick(trk, trick)
                    ints[V_T], ints[V_J], st[S_SEEN], st[S_DEC] = t, j, seen, dec_st[0]
                    return False
                f = action
                action = -1
            else:
                ruled = False  # a play rule's form is final
                ruler = play_seat(setup.feats.rules, players, p)
                if strat[p] == S_RANDOM and not ruler:
                    f = random_card(dec_st, legal)
                else:
                    turn = Turn(p, t, j, n, k, trump, shown, seen, cancelled, cloud)
                    fb = np.int64(-1)  # the fallback's form, made first when the rule reads it
                    if ruler and play_fallback_first(setup.feats.rules, players, p):
                        fb = seat_card(turn, trick, legal, setup, players, dec_st, seats, view, net)
                    f = np.int64(-1)
                    if ruler:
                        f = rule_card(setup.feats.rules, turn, trick, legal, setup, players, seats, view, fb)
                    ruled = f >= 0
                    if not ruled:
                        f = fb if fb >= 0 else seat_card(turn, trick, legal, setup, players, dec_st, seats, view, net)
                if f >= JUGGLER and not ruled:
                    f, dec_st[0] = special_form(specials, strat[p], f, p, led, trump, strat, params, table, dec_st[0])
            c = table[f, T_CARD] if f >= JUGGLER_AS else f
            hdr[X_PLAYS + 6 * t + j] = f
            seen |= ONE << U64(c)
            take_card(p, c, seats.hands, seats.cnt)
            trick = trick_step(f, p, trick, trump, table)
            j += 1
        winner, nxt, cancelled, cloud = finish_trick(trick, rules[R_BOMB] == 0, cancelled, cloud, seats.won)
        ints[V_CANCELLED], ints[V_CLOUD] = cancelled, cloud
        juggled = (trick.flags & FLAG_JUGGLER) != 0 and t < k - 1
        t += 1
        j = 0
        trick = open_trick(nxt, FREE if rules[R_MONO] != 0 else -1)
        if t < k:
            hdr[X_LEADERS + t] = nxt
        if juggled:
            for q in range(n):  # the passes start here: kept, to replay them while a learner decides
                state.snap_hands[i, q] = seats.hands[q]
                for c in range(64):
                    state.snap_cnt[i, q, c] = seats.cnt[q, c]
            keep_trick(trk, trick)
            ints[V_T], ints[V_J], st[S_SEEN] = t, j, seen
            st[S_DEC_PASS] = st[S_DEC] = dec_st[0]
            ints[V_PHASE] = PH_PASSES
            return False
    keep_trick(trk, trick)
    ints[V_T], ints[V_J], st[S_SEEN], st[S_DEC] = t, j, seen, dec_st[0]
    return True


@hot
def pass_stage(n, setup, players, state, i):
    """The passes after trick ``V_T - 1`` with the learner passes given so far; False: a learner must pass."""
    st, ints, hdr = state.streams[i], state.ints[i], state.hdr[i]
    seats = table_seats(state, i)
    t = ints[V_T] - 1
    hdr[X_CURSOR] = 0
    hdr[X_KIND] = 0
    st[S_DEC] = special_passes(setup.feats.specials, n, t, ints[V_TRUMP], ints[V_SHOWN], players.strat,
                               players.params, st[S_DEC_PASS], seats.hands, seats.cnt, seats.bids, seats.won,
                               seats.work, hdr, setup.feats.external)  # fmt: skip
    if hdr[X_KIND] != 0:
        for q in range(n):  # back to the hands before the passes
            seats.hands[q] = state.snap_hands[i, q]
            for c in range(64):
                seats.cnt[q, c] = state.snap_cnt[i, q, c]
        return False
    for q in range(n):
        hdr[X_PASSES + 6 * t + q] = seats.work[q]
    hdr[X_LEN] = 0
    return True


@hot
def vec_round(n, k, fixed_trump, setup, players, base_deck, state, i, action):
    """Play table ``i`` from where it stopped, ``action`` (an engine action, -1: none) taking the learner's
    pending decision, until a learner must decide again or the round is scored; return whether it was scored.

    Compiled into :func:`vec_tables_seated` (the seated players' switch in ``bid_stage``/``trick_stage``).
    """
    ints, hdr = state.ints[i], state.hdr[i]
    phase = ints[V_PHASE]
    if phase == PH_TRUMP or phase == PH_PASSES:
        if action >= 0:  # one more learner action of the phase: it is replayed with it
            hdr[X_ACTIONS + hdr[X_LEN]] = action
            hdr[X_LEN] += 1
            action = -1
        if phase == PH_TRUMP:
            deal_stage(n, k, fixed_trump, setup, base_deck, state, i, False)
    if phase == PH_DEAL:
        ints[V_INDICATOR] = deal_stage(n, k, fixed_trump, setup, base_deck, state, i, True)
        ints[V_PHASE] = phase = PH_TRUMP
    if phase == PH_TRUMP:
        if not trump_stage(n, k, fixed_trump, setup, players, state, i):
            return False
        ints[V_BID_I] = 0
        ints[V_BID_SUM] = 0
        ints[V_PHASE] = phase = PH_BIDS
    if phase == PH_BIDS:
        if not bid_stage(n, k, setup, players, state, i, action):
            return False
        action = -1
        leader = (ints[V_DEALER] + 1) % n
        start = open_trick(leader, FREE if setup.tables.rules[R_MONO] != 0 else -1)
        trk = state.trick[i]
        keep_trick(trk, start)
        hdr[X_LEADERS] = leader
        ints[V_T] = ints[V_J] = ints[V_CANCELLED] = 0
        ints[V_CLOUD] = -1
        state.streams[i, S_SEEN] = 0
        ints[V_PHASE] = phase = PH_TRICKS
    while True:
        if phase == PH_PASSES:
            if not pass_stage(n, setup, players, state, i):
                return False
            ints[V_PHASE] = phase = PH_TRICKS
        if not trick_stage(n, k, setup, players, state, i, action):
            if ints[V_PHASE] == PH_PASSES:
                phase = PH_PASSES
                action = -1
                continue
            return False
        break
    seats = table_seats(state, i)
    rules = setup.tables.rules
    score_phase(n, k, ints[V_CANCELLED] != 0, ints[V_CLOUD], rules[R_SCORING], seats.bids, seats.won,
                seats.final_bids, seats.scores)  # fmt: skip
    for p in range(n):
        hdr[X_BIDS + p] = seats.bids[p]
        hdr[X_WON + p] = seats.won[p]
    ints[V_EPISODE] += 1
    ints[V_PHASE] = PH_DEAL
    return True


@jit
def engine_action(kind, a, kmax):
    """The engine action of environment action ``a`` for a decision of ``kind`` (:mod:`wizsim.env.encoding`)."""
    card0, trump0, wolf0, pass0 = action_blocks(kmax)
    if kind == DK_BID:
        return a
    if kind == DK_CARD:
        return a - card0
    if kind == DK_TRUMP:
        return a - trump0
    if kind == DK_WEREWOLF:
        return a - wolf0
    return a - pass0  # DK_PASS


@hot
def vec_tables(n, k, fixed_trump, setup, players, base_deck, state, actions, consts, obs, amask, rewards, dones):
    """Every table of :func:`vec_step` (whose actions are legal): one call per step, the round inlined into its
    loop (compiled through :func:`vec_tables_seated`, with the seated players' switch)."""
    kmax = consts[1]
    for i in range(actions.shape[0]):
        hdr = state.hdr[i]
        action = -1
        if state.ints[i, V_SEAT] >= 0:
            action = engine_action(hdr[X_KIND], actions[i], kmax)
        for p in range(n):
            rewards[i, p] = 0
        dones[i] = False
        setup_i = table_setup(setup, state, i)
        while vec_round(n, k, fixed_trump, setup_i, players, base_deck, state, i, action):
            dones[i] = True  # scored: the next round, to its first learner decision
            for p in range(n):
                rewards[i, p] += state.scores[i, p]
            action = -1
        seat = hdr[X_SEAT]
        state.ints[i, V_SEAT] = seat
        hands = state.cnt[i]  # a bid or a card: the round stopped there
        kind = hdr[X_KIND]
        if kind == DK_TRUMP or kind == DK_WEREWOLF or kind == DK_PASS:  # the engine's record: its phase ran on
            hands = hdr[X_CNT : X_CNT + 6 * 64].reshape(6, 64)
        encode(hdr, hands, seat, consts, setup.tables.table, setup.tables.masks, obs[i], amask[i])


def vec_tables_seated(n, k, fixed_trump, setup, players, base_deck, state, actions, consts, obs, amask, rewards,
                      dones):  # fmt: skip  # pragma: no cover - compiled
    """:func:`vec_tables` with the switch of the players this run can seat (as ``run.play_items_seated``)."""
    raise NotImplementedError


@overload(vec_tables_seated, jit_options={**OVERLOAD_OPTIONS, **NO_NRT_OPTIONS})
def _vec_tables_seated(n, k, fixed_trump, setup, players, base_deck, state, actions, consts, obs, amask, rewards,
                       dones):  # fmt: skip
    switch = seats_module.compile_switch(seated_ids(setup[setup.fields.index("feats")]))
    bid = inline_generated(_clone(seats_module.seat_bid, player_bid=switch["player_bid"]))
    card = inline_generated(_clone(seats_module.seat_card, player_card=switch["player_card"]))
    bids = inline_generated(_clone(bid_stage, seat_bid=bid))
    feats = setup[setup.fields.index("feats")]
    hooks = play_rule_module.hooks(not switch_off(feats[feats.fields.index("rules")]))
    tricks = inline_generated(_clone(trick_stage, seat_card=card, rule_card=hooks["rule_card"],
                                     play_seat=hooks["play_seat"], play_fallback_first=hooks["play_fallback_first"]))  # fmt: skip
    round_ = inline_generated(_clone(vec_round, bid_stage=bids, trick_stage=tricks))
    # the observation inlined too: compiled without reference counts with the rest, and optimized with it
    return _clone(vec_tables, vec_round=round_, encode=inline_generated(encode.py_func))


@kernel_no_nrt
def vec_step(n, k, fixed_trump, setup, players, base_deck, state, actions, consts, obs, amask, rewards, dones):
    """Every table: take its action (``actions[i]``, -1 on a fresh table), play on to the next learner decision
    (dealing a new round after a scored one), and write its observation and mask; ``rewards[i, seat]`` the
    scores of a round scored in this step (``dones[i]``). Returns the first table whose action was not legal,
    or -1 (then no table has moved)."""
    for i in range(actions.shape[0]):  # check every action before any table moves
        a = actions[i]
        if state.ints[i, V_SEAT] >= 0 and (a < 0 or a >= amask.shape[1] or amask[i, a] == 0):
            return i
    # compiled without reference counts (NO_NRT_OPTIONS): nothing here allocates, and every array is the
    # caller's, alive through the call
    vec_tables_seated(n, k, fixed_trump, setup, players, base_deck, state, actions, consts, obs, amask, rewards, dones)
    return np.int64(-1)
