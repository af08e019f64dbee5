"""Chunks of rounds or games: the kernels the Python layer calls, and the integer counts they add.

One call plays whole chunks (``simulate_chunks``, counts) or one chunk with
every round recorded (``record_chunk``, histories and tests). Both call the
same compiled :func:`play_items` (their dummy arrays have the real ones'
types), so it is compiled once. Round ``r`` of an item deals ``schedule[r]``
cards with trump ``trumps[r]`` (FROM_INDICATOR, or fixed by the variant or the
standard table's last round).

Accumulators: ``joint[k, seat, position, bid, tricks]`` (the bid as made);
``aux[k, seat, position, :]``: sum and sum of squares of scores, exact (final)
bids, sum and sum of squares of |final bid - tricks|; in games mode
``game_acc[row, seat]``: sum of totals, sum of squared totals, win shares in
60ths (a win shared by m tied players counts 60 / m) and their squares.
"""

from __future__ import annotations

import numpy as np

from .borrow import borrow, hold, stack_stream
from .config import hot, jit
from .layout import ELIMINATION_DECK, I_TRICKS, PRE_DEALER, PRE_ON, R_CLAIRVOYANCE, R_ELIMINATION
from .players.pimc_hooks import new_view
from .rng import below
from .round import play_round


@hot
def accumulate_round(k, n, dealer, ws_seats, bids, won, final_bids, scores, joint, aux):
    """Add one round's results to the counts by round size, game seat and position."""
    pos = n - 1 - dealer  # position of compact seat 0: 0 = left of the dealer
    for i in range(n):
        if pos == n:
            pos = 0
        seat = ws_seats[i]
        joint[k, seat, pos, bids[i], won[i]] += 1
        sc = scores[i]
        miss = abs(final_bids[i] - won[i])
        aux[k, seat, pos, 0] += sc
        aux[k, seat, pos, 1] += sc * sc
        aux[k, seat, pos, 2] += np.int64(miss == 0)
        aux[k, seat, pos, 3] += miss
        aux[k, seat, pos, 4] += miss * miss
        pos += 1


@hot
def record_results(row, n, na, ws_seats, bids, won, final_bids, scores, rec_info, rec_seats, kmax):
    """Write the round's game seats, bids, tricks won, scores and final bids to record row ``row``."""
    for i in range(n):
        rec_seats[row, i] = ws_seats[i] if i < na else -1
    base = I_TRICKS + 3 * kmax  # layout.info_seats(kmax)
    for i in range(na):
        rec_info[row, base + i] = bids[i]
        rec_info[row, base + n + i] = won[i]
        rec_info[row, base + 2 * n + i] = scores[i]
        rec_info[row, base + 3 * n + i] = final_bids[i]


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
def award_game(n, na, totals, ws_seats, game_acc):
    """Add a finished game's totals and win shares (highest total among the players still in; ties share)."""
    top = totals[ws_seats[0]]
    for i in range(1, na):
        top = max(top, totals[ws_seats[i]])
    n_top = 0
    for i in range(na):
        n_top += np.int64(totals[ws_seats[i]] == top)
    for p in range(n):
        game_acc[0, p] += totals[p]
        game_acc[1, p] += totals[p] * totals[p]
    for i in range(na):
        if totals[ws_seats[i]] == top:
            game_acc[2, ws_seats[i]] += 60 // n_top
            game_acc[3, ws_seats[i]] += (60 // n_top) * (60 // n_top)


@hot
def play_item(item, n, schedule, trumps, games_mode, tables, strat, params, deal_st, dec_st, ws, accumulate, acc,
              record, row, rec, pre, view, feats):  # fmt: skip
    """Play item ``item``: one round (hands mode) or one game (games mode); return the next record row.

    Hands mode: item ``h`` is dealt by seat ``h % n``. Games mode: seat 0 deals
    first, the deal passes clockwise; with elimination the lowest total leaves
    whenever the next round could not be dealt to everyone left from 60 cards,
    and seats keep their game numbers in the counts.
    """
    ws_seats, ws_strat, ws_params, totals, seats = ws
    bids, won, final_bids, scores = seats[2], seats[3], seats[4], seats[5]
    joint, aux, game_acc = acc
    rec_info, rec_plays, rec_seats = rec[1], rec[2], rec[5]
    rules = tables[4]
    na = n
    for i in range(n):
        ws_seats[i] = i
        totals[i] = 0
    # the round's strategies: the game's until an elimination makes compact copies
    cur_strat = strat
    cur_params = params
    dealer = item % n if games_mode == 0 else 0
    if pre[0][PRE_ON] != 0:
        dealer = pre[0][PRE_DEALER]
    for r in range(schedule.shape[0]):
        k = schedule[r]
        clairvoyant = rules[R_CLAIRVOYANCE] != 0 and (r == 0 or games_mode == 0)
        accepted = play_round(na, k, dealer, trumps[r], clairvoyant, tables, cur_strat, cur_params, deal_st, dec_st,
                              seats, record, row, rec, pre, view, feats)  # fmt: skip
        if not accepted:
            return row  # a preset (advisor) round whose earlier bids did not match: hands mode only
        if accumulate:
            accumulate_round(k, na, dealer, ws_seats, bids, won, final_bids, scores, joint, aux)
        for i in range(na):
            totals[ws_seats[i]] += scores[i]
        if record:
            record_results(row, n, na, ws_seats, bids, won, final_bids, scores, rec_info, rec_seats, rec_plays.shape[1])
            row += 1
        dealer += 1
        if dealer == na:
            dealer = 0
        nxt = r + 1 < schedule.shape[0]
        if rules[R_ELIMINATION] != 0 and nxt and na > 3 and na * schedule[r + 1] > ELIMINATION_DECK:
            dealer = eliminate_lowest(na, dealer, totals, ws_seats, dec_st)
            na -= 1
            for i in range(na):
                ws_strat[i] = strat[ws_seats[i]]
                for j in range(params.shape[1]):
                    ws_params[i, j] = params[ws_seats[i], j]
            cur_strat = ws_strat
            cur_params = ws_params
    if games_mode != 0 and accumulate:
        award_game(n, na, totals, ws_seats, game_acc)
    return row


@jit
def play_items(n, schedule, trumps, games_mode, first, count, state, deck0, mono0, table, masks, rules, strat, params,
               pre, feats, accumulate, acc, record, rec):  # fmt: skip
    """Play items ``first .. first + count - 1`` (see :func:`play_item`) from generator ``state``.

    One call per chunk; the round is inlined into its loop. The work arrays are
    allocated here, not passed in: the compiler then knows they do not overlap
    and keeps their values in registers across stores, which doubles the speed
    of the loop.
    """
    # the two streams on the stack: no other array can alias them, so the compiler keeps them in registers
    deal_st = stack_stream(state[0])
    dec_st = stack_stream(state[1])
    tables = (deck0.copy(), mono0.copy(), table, masks, rules)
    seats = (
        np.zeros(n, dtype=np.uint64),  # hands
        np.zeros((n, 64), dtype=np.int64),  # copies of each card in hand
        np.zeros(n, dtype=np.int64),  # bids
        np.zeros(n, dtype=np.int64),  # tricks won
        np.zeros(n, dtype=np.int64),  # final bids
        np.zeros(n, dtype=np.int64),  # scores
        np.zeros(max(n, 8), dtype=np.int64),  # scratch
    )
    ws = (
        np.zeros(n, dtype=np.int64),  # game seats of the round's seats (elimination)
        np.zeros(n, dtype=np.int64),  # their strategies
        np.zeros_like(params),  # and parameters
        np.zeros(n, dtype=np.int64),  # game totals by game seat
        seats,
    )
    view = new_view(feats[4], n)  # PIMC's (and the learned player's) view of the round; a stand-in without them
    # borrowed views (no reference counts) of arrays that live until this function returns
    b_tables = borrow(tables)
    b_seats = borrow(seats)
    b_ws = (borrow(ws[0]), borrow(ws[1]), borrow(ws[2]), borrow(ws[3]), b_seats)
    b_acc = borrow(acc)
    b_rec = borrow(rec)
    b_pre = (borrow(pre[0]), borrow(pre[1]), borrow(pre[2]), borrow(pre[3]))
    b_view = borrow(view)
    b_feats = borrow(feats)
    b_schedule, b_trumps, b_strat, b_params = borrow(schedule), borrow(trumps), borrow(strat), borrow(params)
    row = 0
    for item in range(first, first + count):
        row = play_item(item, n, b_schedule, b_trumps, games_mode, b_tables, b_strat, b_params, deal_st, dec_st, b_ws,
                        accumulate, b_acc, record, row, b_rec, b_pre, b_view, b_feats)  # fmt: skip
    hold((tables, seats, ws, acc, rec, pre, view, feats, schedule, trumps, strat, params))


@jit
def simulate_chunks(n, schedule, trumps, games_mode, chunk_first, chunk_count, chunk_state, deck0, mono0, table,
                    masks, rules, strat, params, pre_info, pre_cnt, pre_bids, models, feats, joint, aux,
                    game_acc):  # fmt: skip
    """Play whole chunks and add their integer counts to the accumulators (module docstring).

    Chunk ``c`` covers items ``chunk_first[c] .. + chunk_count[c] - 1`` (rounds
    in hands mode, games in games mode) and draws from the streams seeded by
    ``chunk_state[c]`` (dealing, decisions). ``pre_info``, ``pre_cnt``,
    ``pre_bids`` preset each round for the bid advisor (``pre_info[PRE_ON] ==
    0``: off); ``models`` = (bid_table, w1, b1, w2, log, log_n): the ``table``
    player's learned bid values (an all-ones-shape NaN array when no seat needs
    them), the learned player's network (:mod:`.players.learned`; 1-element
    placeholders when no seat plays it) and the log of pimc's decisions for
    training it (zero rows: off); ``feats`` = (pimc, heuristic, specials,
    learned, view) are compile-time switches, one-element arrays of dtype bool
    (that part is not compiled) or int8 (see :mod:`.players.switches`).
    """
    acc = (joint, aux, game_acc)
    dummy_p = np.zeros((1, 1, 1), dtype=np.int64)
    dummy_i = np.zeros((1, 1), dtype=np.int64)
    rec = (np.zeros((1, 1, 1), dtype=np.uint8), dummy_i, dummy_p, np.zeros((1, 1, 1), dtype=np.uint64), dummy_p,
           dummy_i)  # fmt: skip
    yes = n > 0  # a run-time True: a literal flag would give play_items a second signature to compile
    for c in range(chunk_first.shape[0]):
        play_items(
            n, schedule, trumps, games_mode, chunk_first[c], chunk_count[c], chunk_state[c], deck0, mono0, table,
            masks, rules, strat, params, (pre_info, pre_cnt, pre_bids, models), feats, yes, acc, not yes, rec,
        )  # fmt: skip


@jit
def record_chunk(n, schedule, trumps, games_mode, first, count, state, deck0, mono0, table, masks, rules, strat,
                 params, pre_info, pre_cnt, pre_bids, models, feats, rec_hands, rec_info, rec_plays, rec_legal,
                 rec_pass, rec_seats):  # fmt: skip
    """Play one chunk like :func:`simulate_chunks` and record every round (columns: ``layout.I_*``).

    ``rec_hands[r, seat]`` the dealt cards, ``rec_info[r]`` the round (see
    :mod:`.layout`), ``rec_plays[r, t, j]`` the forms in play order from the
    leader, ``rec_legal`` the legal masks, ``rec_pass[r, t]`` the card each seat
    passed after trick ``t`` (-1 if none), ``rec_seats`` the game seat of each
    round seat (they differ after an elimination).
    """
    acc = (
        np.zeros((1, 1, 1, 1, 1), dtype=np.int64),
        np.zeros((1, 1, 1, 1), dtype=np.int64),
        np.zeros((1, 1), dtype=np.int64),
    )
    rec = (rec_hands, rec_info, rec_plays, rec_legal, rec_pass, rec_seats)
    yes = n > 0  # run-time flags: the same play_items signature as simulate_chunks
    play_items(
        n, schedule, trumps, games_mode, first, count, state, deck0, mono0, table, masks, rules, strat, params,
        (pre_info, pre_cnt, pre_bids, models), feats, not yes, acc, yes, rec,
    )  # fmt: skip
