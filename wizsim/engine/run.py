"""Chunks of rounds or games: the kernels the Python layer calls, and the integer counts they add.

One call plays whole chunks (``simulate_chunks``, counts) or one chunk with
every round recorded (``record_chunk``, histories and tests). Both call the
same compiled :func:`play_items` (their dummy arrays have the real ones'
types), so it is compiled once. Round ``r`` of an item deals ``schedule[r]``
cards with trump ``trumps[r]`` (FROM_INDICATOR, or fixed by the variant or the
standard table's last round).

Accumulators (:class:`.bundles.Accumulators`): ``joint[k, seat, position, bid, tricks]``
(the bid as made); ``aux[k, seat, position, AUX_*]``: sums of scores and their
squares, exact (final) bids, sums of |final bid - tricks| and their squares; in
games mode ``games[G_*, seat]``: sums of totals and their squares, win shares in
units of ``WIN_SHARE`` (a win shared by m tied players counts ``WIN_SHARE // m``)
and their squares (columns in :mod:`.layout`).
"""

from __future__ import annotations

import functools
import types as pytypes

import numpy as np
from numba.extending import overload

from . import round as round_module
from .bundles import Accumulators, GameSeats, Outputs, Players, Records, Seats, Setup, Streams, Tables
from .external import note_round
from .jit.borrow import borrow, hold, stack_stream
from .jit.config import OVERLOAD_OPTIONS, hot, inline_generated, jit, switch_off
from .jit.rng import below
from .layout import (
    AUX_HIT,
    AUX_MISS,
    AUX_MISS_SQ,
    AUX_SCORE,
    AUX_SCORE_SQ,
    ELIMINATION_DECK,
    G_TOTAL,
    G_TOTAL_SQ,
    G_WINS,
    G_WINS_SQ,
    I_TRICKS,
    INFO_PER_TRICK,
    PRE_DEALER,
    PRE_ON,
    R_CLAIRVOYANCE,
    R_ELIMINATION,
    WIN_SHARE,
    X_KIND,
)
from .players import play_rule as play_rule_module
from .players import seats as seats_module
from .players.pimc_view import new_view
from .round import play_round


@hot
def accumulate_round(k, n, dealer, game_seat, seats, acc):
    """Add one round's results (``seats``) to the counts ``acc`` by round size, game seat and position."""
    bids, won, final_bids, scores = seats.bids, seats.won, seats.final_bids, seats.scores
    joint, aux = acc.joint, acc.aux
    pos = n - 1 - dealer  # position of compact seat 0: 0 = left of the dealer
    for i in range(n):
        if pos == n:
            pos = 0
        seat = game_seat[i]
        joint[k, seat, pos, bids[i], won[i]] += 1
        sc = scores[i]
        miss = abs(final_bids[i] - won[i])
        aux[k, seat, pos, AUX_SCORE] += sc
        aux[k, seat, pos, AUX_SCORE_SQ] += sc * sc
        aux[k, seat, pos, AUX_HIT] += np.int64(miss == 0)
        aux[k, seat, pos, AUX_MISS] += miss
        aux[k, seat, pos, AUX_MISS_SQ] += miss * miss
        pos += 1


@hot
def record_results(row, n, na, game_seat, seats, rec):
    """Write the round's game seats, bids, tricks won, scores and final bids to record row ``row``."""
    rec_info = rec.info
    for i in range(n):
        rec.seats[row, i] = game_seat[i] if i < na else -1
    base = I_TRICKS + INFO_PER_TRICK * rec.plays.shape[1]  # layout.info_seats(kmax), which Numba cannot call
    for i in range(na):
        rec_info[row, base + i] = seats.bids[i]
        rec_info[row, base + n + i] = seats.won[i]
        rec_info[row, base + 2 * n + i] = seats.scores[i]
        rec_info[row, base + 3 * n + i] = seats.final_bids[i]


@hot
def eliminate_lowest(na, dealer, totals, ws_seats, dec_st):
    """Elimination: the lowest total leaves (ties broken by the decision stream); return the next dealer.

    The remaining seats keep their order in ``ws_seats[:na - 1]``; the deal passes
    on from the last dealer to the next player still in.
    """
    low = totals[ws_seats[0]]
    for i in range(1, na):
        low = min(low, totals[ws_seats[i]])
    n_low = 0
    for i in range(na):
        n_low += np.int64(totals[ws_seats[i]] == low)
    pick = below(dec_st, n_low) if n_low > 1 else 0
    out = -1
    for i in range(na):
        if totals[ws_seats[i]] == low:
            if pick == 0:
                out = i
                break
            pick -= 1
    if out < dealer:
        dealer -= 1
    elif out == dealer and dealer == na - 1:
        dealer = 0
    for i in range(out, na - 1):
        ws_seats[i] = ws_seats[i + 1]
    return dealer


@hot
def award_game(n, na, totals, ws_seats, games):
    """Add a finished game's totals and win shares (highest total among the players still in; ties share)."""
    top = totals[ws_seats[0]]
    for i in range(1, na):
        top = max(top, totals[ws_seats[i]])
    n_top = 0
    for i in range(na):
        n_top += np.int64(totals[ws_seats[i]] == top)
    for p in range(n):
        games[G_TOTAL, p] += totals[p]
        games[G_TOTAL_SQ, p] += totals[p] * totals[p]
    share = WIN_SHARE // n_top
    for i in range(na):
        if totals[ws_seats[i]] == top:
            games[G_WINS, ws_seats[i]] += share
            games[G_WINS_SQ, ws_seats[i]] += share * share


@hot
def play_item(item, n, schedule, setup, players, streams, ws, out, row, view):
    """Play item ``item``: one round (hands mode) or one game (games mode); return the next record row.

    Hands mode: item ``h`` is dealt by seat ``h % n``. Games mode: seat 0 deals
    first, the deal passes clockwise; with elimination the lowest total leaves
    whenever the next round could not be dealt to everyone left from 60 cards,
    and seats keep their game numbers in the counts. ``ws``: the
    :class:`.bundles.GameSeats`.
    """
    sizes, trumps, games_mode = schedule.sizes, schedule.trumps, schedule.games
    game_seat, totals, seats = ws.game_seat, ws.totals, ws.seats
    rules = setup.tables.rules
    params = players.params
    na = n
    for i in range(n):
        game_seat[i] = i
        totals[i] = 0
    cur = players  # the round's strategies: the game's until an elimination makes compact copies
    dealer = item % n if games_mode == 0 else 0
    if setup.pre.info[PRE_ON] != 0:
        dealer = setup.pre.info[PRE_DEALER]
    for r in range(sizes.shape[0]):
        k = sizes[r]
        clairvoyant = rules[R_CLAIRVOYANCE] != 0 and (r == 0 or games_mode == 0)
        note_round(setup.feats.external, setup.pre.script, item, r, na, k, dealer, game_seat, totals)
        if not play_round(na, k, dealer, trumps[r], clairvoyant, setup, cur, streams, seats, out, row, view):
            return row  # a preset (advisor) round whose earlier bids did not match: hands mode only
        if out.accumulate:
            accumulate_round(k, na, dealer, game_seat, seats, out.acc)
        for i in range(na):
            totals[game_seat[i]] += seats.scores[i]
        if out.record:
            record_results(row, n, na, game_seat, seats, out.rec)
            row += 1
        if setup.pre.script[X_KIND] != 0:
            return row  # a replay reached a decision past its script (external.py): the rest is not wanted
        dealer += 1
        if dealer == na:
            dealer = 0
        nxt = r + 1 < sizes.shape[0]
        if rules[R_ELIMINATION] != 0 and nxt and na > 3 and na * sizes[r + 1] > ELIMINATION_DECK:
            dealer = eliminate_lowest(na, dealer, totals, game_seat, streams.dec)
            na -= 1
            for i in range(na):
                ws.strat[i] = players.strat[game_seat[i]]
                for j in range(params.shape[1]):
                    ws.params[i, j] = params[game_seat[i], j]
            cur = Players(ws.strat, ws.params)
    if games_mode != 0 and out.accumulate:
        award_game(n, na, totals, game_seat, out.acc.games)
    return row


@jit
def play_items(n, schedule, first, count, state, setup, players, out):
    """Play items ``first .. first + count - 1`` (see :func:`play_item`) from generator ``state``.

    One call per chunk; the round is inlined into its loop. The work arrays are
    allocated here, not passed in: the compiler then knows they do not overlap
    and keeps their values in registers across stores, which doubles the speed
    of the loop.
    """
    # the two streams on the stack: no other array can alias them, so the compiler keeps them in registers
    streams = Streams(stack_stream(state[0]), stack_stream(state[1]))
    tables0 = setup.tables
    tables = Tables(tables0.deck.copy(), tables0.mono_decks.copy(), tables0.table, tables0.masks, tables0.rules)
    params = players.params
    seats = Seats(
        np.zeros(n, dtype=np.uint64),  # hands
        np.zeros((n, 64), dtype=np.int64),  # copies of each card in hand
        np.zeros(n, dtype=np.int64),  # bids
        np.zeros(n, dtype=np.int64),  # tricks won
        np.zeros(n, dtype=np.int64),  # final bids
        np.zeros(n, dtype=np.int64),  # scores
        np.zeros(max(n, 8), dtype=np.int64),  # scratch
    )
    ws = GameSeats(
        np.zeros(n, dtype=np.int64),  # game seats of the round's seats (elimination)
        np.zeros(n, dtype=np.int64),  # their strategies
        np.zeros_like(params),  # and parameters
        np.zeros(n, dtype=np.int64),  # game totals by game seat
        seats,
    )
    view = new_view(setup.feats.view_kept, n)  # PIMC's (and the learned player's) view; a stand-in without them
    # borrowed views (no reference counts) of arrays that live until this function returns
    b_setup = borrow(Setup(tables, setup.pre, setup.models, setup.feats))
    b_ws, b_out, b_view = borrow(ws), borrow(out), borrow(view)
    b_schedule, b_players = borrow(schedule), borrow(players)
    row = 0
    for item in range(first, first + count):
        row = play_item(item, n, b_schedule, b_setup, b_players, streams, b_ws, b_out, row, b_view)
    hold((tables, setup, seats, ws, out, view, schedule, players))


# --------------------------------------------------------------------------- the players a run can seat
# Every round kernel used to inline every registered player's entry points, seated or not: a run of random
# players compiled the heuristic's, table's, pimc's and learned's too (the first simulate of random 4x10: 20 s,
# 16.4-17.5 s with the switch cut to two players). ``play_items_seated`` is ``play_items`` compiled with the
# switch of the players the run's compile-time switches admit (a player is left out when one of its NEEDS is a
# switch that is off): the choice is made from the kernel's argument types, so a compiled (or cached) kernel
# always has the branches its run needs.

#: NEEDS that have a compile-time switch (:class:`.bundles.Switches`)
SWITCHED_NEEDS = frozenset({"heuristic", "pimc", "learned"})


def seated_ids(feats) -> tuple[int, ...]:
    """Registry ids of the players a kernel with switches of type ``feats`` (a Numba named tuple) can seat."""
    on = {name: not switch_off(feats[feats.fields.index(name)]) for name in SWITCHED_NEEDS}
    modules = seats_module.PLAYER_MODULES
    return tuple(i for i, module in enumerate(modules) if all(on[need] for need in module.NEEDS & SWITCHED_NEEDS))


def _clone(dispatcher, **replace):
    """The Python function of ``dispatcher`` with some of its globals replaced (the same code, other callees)."""
    func = dispatcher.py_func
    env = dict(func.__globals__, **replace)
    out = pytypes.FunctionType(func.__code__, env, func.__name__, func.__defaults__, func.__closure__)
    out.__qualname__, out.__doc__, out.__module__ = func.__qualname__, func.__doc__, func.__module__
    return out


@functools.cache
def play_items_for(ids: tuple[int, ...], plays: bool = False):
    """``play_items`` (a Python function) whose round reaches the switch of the players ``ids`` only, with the
    play-rule hooks inlined (``plays``: the run passes rules; :func:`.players.play_rule.hooks`)."""
    switch = seats_module.compile_switch(ids)
    keeps_view = switch["keeps_view"]
    hooks = play_rule_module.hooks(plays)
    seat_bid = inline_generated(_clone(seats_module.seat_bid, player_bid=switch["player_bid"]))
    seat_card = inline_generated(_clone(seats_module.seat_card, player_card=switch["player_card"]))
    bid_phase = inline_generated(_clone(round_module.bid_phase, seat_bid=seat_bid))
    trick_phase = inline_generated(_clone(round_module.trick_phase, seat_card=seat_card, keeps_view=keeps_view,
                                          **hooks))  # fmt: skip
    round_ = inline_generated(_clone(play_round, bid_phase=bid_phase, trick_phase=trick_phase, keeps_view=keeps_view,
                                     play_tracks=hooks["play_tracks"]))  # fmt: skip
    item = inline_generated(_clone(play_item, play_round=round_))
    return _clone(play_items, play_item=item)


def play_items_seated(n, schedule, first, count, state, setup, players, out):  # pragma: no cover - compiled
    """:func:`play_items` with the switch of the players this run can seat (:func:`seated_ids`)."""
    raise NotImplementedError


@overload(play_items_seated, jit_options=OVERLOAD_OPTIONS)
def _play_items_seated(n, schedule, first, count, state, setup, players, out):
    feats = setup[setup.fields.index("feats")]
    return play_items_for(seated_ids(feats), not switch_off(feats[feats.fields.index("rules")]))


@jit
def simulate_chunks(n, schedule, chunks, setup, players, acc):
    """Play whole chunks and add their integer counts to ``acc`` (:class:`.bundles.Accumulators`, module docstring).

    Chunk ``c`` covers items ``chunks.first[c] .. + chunks.count[c] - 1``
    (rounds in hands mode, games in games mode) and draws from the streams
    seeded by ``chunks.state[c]`` (dealing, decisions). The bundles
    (:mod:`.bundles`, built by :class:`wizsim.run.spec.RunSpec`): ``schedule``
    (:class:`.bundles.Schedule`), ``setup`` (:class:`.bundles.Setup`: the tables,
    the preset rounds of the bid advisor, the models, the compile-time
    switches of :mod:`.players.switches`), ``players`` (:class:`.bundles.Players`).
    """
    dummy_p = np.zeros((1, 1, 1), dtype=np.int64)
    dummy_i = np.zeros((1, 1), dtype=np.int64)
    rec = Records(np.zeros((1, 1, 1), dtype=np.uint8), dummy_i, dummy_p, np.zeros((1, 1, 1), dtype=np.uint64), dummy_p,
                  dummy_i)  # fmt: skip
    yes = n > 0  # a run-time True: a literal flag would give play_items a second signature to compile
    out = Outputs(yes, acc, not yes, rec)
    for c in range(chunks.first.shape[0]):
        play_items_seated(n, schedule, chunks.first[c], chunks.count[c], chunks.state[c], setup, players, out)


@jit
def record_chunk(n, schedule, first, count, state, setup, players, rec):
    """Play one chunk like :func:`simulate_chunks` and record every round in ``rec`` (:class:`.bundles.Records`).

    ``rec.hands[r, seat]`` the dealt cards, ``rec.info[r]`` the round (columns
    ``layout.I_*``), ``rec.plays[r, t, j]`` the forms in play order from the
    leader, ``rec.legal`` the legal masks, ``rec.passes[r, t]`` the card each
    seat passed after trick ``t`` (-1 if none), ``rec.seats`` the game seat of
    each round seat (they differ after an elimination).
    """
    acc = Accumulators(
        np.zeros((1, 1, 1, 1, 1), dtype=np.int64),
        np.zeros((1, 1, 1, 1), dtype=np.int64),
        np.zeros((1, 1), dtype=np.int64),
    )
    yes = n > 0  # run-time flags: the same play_items signature as simulate_chunks
    play_items_seated(n, schedule, first, count, state, setup, players, Outputs(not yes, acc, yes, rec))
