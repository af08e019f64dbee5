"""One round as phases: deal -> trump -> bids -> tricks -> score (RULES.md 2-8).

:func:`play_round` strings the phases together; each phase is a named,
inlined function. :func:`play_round` gets its arrays in tuples and unpacks them
once; the phases take theirs one by one and the per-card paths single values.
(That split was made when every array handed to an inlined function with
branches cost an atomic reference-count update; the arrays are now borrowed
views, see :mod:`.borrow`, and such an update is a null test.) The tuples:

* ``tables`` = (deck, mono_decks, table, masks, rules): the deck in play, mono's
  own decks, the card table, the suit masks and the rule array;
* ``seats`` = (hands, cnt, bids, won, final_bids, scores, work): the round's
  state per seat (``hands[p]`` a 64-bit mask of card types, ``cnt[p, c]``
  copies) and a scratch array;
* ``pre`` = (info, cnt, bids, models): a preset advisor round (when
  ``info[PRE_ON]``), the ``table`` player's learned bid values, the learned
  player's network and the training log (see :func:`.run.simulate_chunks`);
* ``view`` = (played, void, full, know, spmask, spwiz): what ``pimc`` players
  know of the round (see :mod:`.players.pimc_view`), read by the learned player
  too; a 1-tuple stand-in when no seat plays either (:mod:`.players.pimc_hooks`);
* ``rec`` = (hands, info, plays, legal, passes, seats): the record arrays
  (rows of recorded rounds; columns in :mod:`.layout`).

Dealing draws from ``deal_st`` and every decision from ``dec_st``, so the same
seed deals the same cards whatever the players do (common random numbers).
"""

from __future__ import annotations

import numpy as np

from .bits import ONE, U64, ZERO, lowest_bit
from .config import hot
from .deal import clear_hands, deal_mono, deal_preset, deal_shuffled, record_hands
from .events import dealer_names_trump
from .layout import (
    B_RULE,
    BOMB,
    CLASS_JESTER,
    CLASS_SPECIAL,
    CLASS_SUIT,
    DRAGON,
    FAIRY,
    FLAG_JUGGLER,
    FREE,
    FROM_INDICATOR,
    I_CARDS,
    I_DEALER,
    I_INDICATOR,
    I_PLAYERS,
    I_SWAPPED,
    I_TRICKS,
    I_TRUMP,
    I_WEREWOLF,
    JUGGLER,
    JUGGLER_AS,
    NO_TRUMP,
    P_BID_SAMPLES,
    PRE_ON,
    PRE_SEAT,
    R_BOMB,
    R_CANADIAN,
    R_HIDDEN_BIDS,
    R_MONO,
    R_PASSIVE_INDICATOR,
    R_SCORING,
    R_SPECIALS,
    R_WIZARD_INDICATOR,
    S_LEARNED,
    S_PIMC,
    S_RANDOM,
    T_CARD,
    T_CLASS,
    T_REFINE,
    T_SUIT,
    WEREWOLF,
)
from .players.dispatch import canadian_step, random_bid
from .players.pimc_hooks import bid_hook, card_hook, card_seen_hook, learned_bid_hook, passes_hook, reset_hook
from .players.switches import (
    heuristic_bid,
    heuristic_card,
    learned_arrays,
    learned_card,
    rule_bid_hook,
    special_form,
    special_passes,
    special_werewolf,
)
from .rng import random_member
from .score import cloud_bid, round_score
from .trick import close_trick, legal_mask, trick_step


@hot
def deal_phase(n, k, dealer, fixed_trump, deck, mono_decks, rules, deal_st, hands, cnt, won, record, rec_row,
               rec_hands, pre_info, pre_cnt):  # fmt: skip
    """Deal ``k`` cards to each of ``n`` seats; return the turned-up card (-1: none)."""
    for p in range(n):
        hands[p] = ZERO
        won[p] = 0
    indicator = -1
    if pre_info[PRE_ON] != 0:
        indicator, deal_st[0] = deal_preset(n, k, fixed_trump, deck, pre_info, pre_cnt, deal_st[0], hands, cnt)
        if record:
            record_hands(n, k, hands, cnt, rec_hands[rec_row])
    elif rules[R_MONO] != 0:
        deal_st[0] = deal_mono(n, k, mono_decks, deal_st[0], hands, cnt)
        if record:
            for p in range(n):
                for i in range(k):
                    rec_hands[rec_row, p, i] = mono_decks[p, i]
    else:
        deal_shuffled(n, k, dealer, deck, deal_st, hands, cnt)
        if record:
            for p in range(n):
                for j in range(k):
                    rec_hands[rec_row, p, j] = deck[j * n + (p - dealer - 1) % n]
        if n * k < deck.shape[0] and fixed_trump == FROM_INDICATOR:
            indicator = np.int64(deck[n * k])
    return indicator


@hot
def trump_phase(n, k, dealer, fixed_trump, indicator, table, rules, strat, params, dec_st, hands, cnt, specials):
    """The round's trump (RULES.md 3), then the Werewolf; return (trump, Werewolf holder, swapped, face-up card)."""
    trump = NO_TRUMP if fixed_trump == FROM_INDICATOR else fixed_trump
    if indicator >= 0:
        cls = table[indicator, T_CLASS]
        if cls == CLASS_SUIT:
            trump = table[indicator, T_SUIT]
        elif cls != CLASS_JESTER:
            names = cls == CLASS_SPECIAL or rules[R_WIZARD_INDICATOR] == 0
            if rules[R_PASSIVE_INDICATOR] != 0 and (indicator == FAIRY or indicator == BOMB):
                names = False
            if names:
                trump = dealer_names_trump(dealer, hands, strat, params, dec_st)
    wolf = -1
    swapped = 0
    shown = indicator
    if (rules[R_SPECIALS] >> (WEREWOLF - DRAGON)) & 1:
        wolf, swapped, trump, shown, dec_st[0] = special_werewolf(
            specials, n, k, indicator, trump, fixed_trump, rules, strat, params, dec_st[0], hands, cnt
        )
    return trump, wolf, swapped, shown


@hot
def bid_phase(n, k, dealer, trump, shown, named, clairvoyant, deck, table, masks, rules, strat, params, dec_st, hands,
              cnt, bids, work, pre_info, pre_bids, models, view, feats):  # fmt: skip
    """Everyone bids, from the dealer's left; return False if a preset (advisor) round is rejected.

    Hidden bids: nobody sees the earlier bids; the built-in players never look
    at them, so only the Canadian rule and the table player's bid read ``bid_sum``.
    A preset round forces the advised seat's bid and is rejected (hands cleared)
    as soon as another seat would not make the bid given for it.
    """
    bid_sum = 0
    p = dealer
    for i in range(n):
        p += 1
        if p == n:
            p = 0
        forbidden = -1
        if rules[R_CANADIAN] != 0 and i == n - 1:
            forbidden = k - bid_sum
        # a user's bid rule (players/rule.py; -1: none). Clairvoyance hides the own hand a rule reads: the seat
        # then bids as its card player does
        slot = np.int64(params[p, B_RULE]) - 1 if not clairvoyant else np.int64(-1)
        if slot >= 0:
            b, est = rule_bid_hook(feats[5], p, i, n, k, trump, named, bid_sum, rules[R_HIDDEN_BIDS] != 0, forbidden,
                                   rules[R_MONO] != 0, hands, cnt, params, slot, models[0])  # fmt: skip
            b = canadian_step(b, est, k, forbidden)  # as the built-in players step: towards their estimate
        elif strat[p] == S_RANDOM:
            b = random_bid(k, forbidden, dec_st)
        else:
            b, est, dec_st[0] = heuristic_bid(feats[1], p, i, n, k, dealer, trump, shown, clairvoyant, bid_sum,
                                              forbidden, hands, cnt, deck, table, rules, strat, params, models[0], work,
                                              dec_st[0])  # fmt: skip
            if strat[p] == S_PIMC and not clairvoyant and params[p, P_BID_SAMPLES] > 0:
                b, dec_st[0] = bid_hook(feats[0], p, n, k, dealer, trump, hands, cnt, bids, shown, b, forbidden, table,
                                        masks, rules, params, view, models, dec_st[0])  # fmt: skip
            elif strat[p] == S_LEARNED and not clairvoyant and rules[R_MONO] == 0:
                b = learned_bid_hook(feats[3], p, i, n, k, dealer, trump, hands, cnt, bids, forbidden, rules, est, b,
                                     view, models)  # fmt: skip
            b = canadian_step(b, est, k, forbidden)
        if pre_info[PRE_ON] != 0 and pre_bids[p] >= 0:
            if p == pre_info[PRE_SEAT]:
                b = pre_bids[p]
            elif b != pre_bids[p]:
                clear_hands(n, hands, cnt)
                return False
        bids[p] = b
        bid_sum += b
    return True


@hot
def trick_phase(n, k, dealer, trump, shown, track, table, masks, rules, strat, params, dec_st, hands, cnt, bids, won,
                work, record, rec_row, rec_info, rec_plays, rec_legal, rec_pass, view, models, feats):  # fmt: skip
    """Play the ``k`` tricks; return (bids cancelled by a Bomb, the Cloud's taker or -1).

    Per card, the players' choices get single values and the random stream
    only (:func:`.players.dispatch.choose_card`); a seat with one legal suit
    card, Wizard or Jester plays it without asking (the heuristic returns that
    card: tests/test_forced_play.py).
    """
    heuristic, specials = feats[1], feats[2]
    lw = learned_arrays(feats[3], view, models)  # what the learned player reads (any arrays without it)
    leader = dealer + 1
    if leader == n:
        leader = 0
    seen = ZERO
    bomb_voids = rules[R_BOMB] == 0
    cancelled = False  # bomb=cancel_bids and the Bomb was played
    cloud_taker = -1
    mono = rules[R_MONO] != 0
    start_led = FREE if mono else -1  # mono: no suit to follow, no led-suit bonus
    kmax = rec_plays.shape[1]
    for t in range(k):
        led = start_led
        best = -1
        winner = leader
        tflags = 0
        fairy = -1
        p = leader - 1
        for j in range(n):
            p += 1
            if p == n:
                p = 0
            legal = legal_mask(hands[p], led, masks)
            kind = strat[p]
            one_card = (legal & (legal - ONE)) == ZERO
            if kind == S_RANDOM:
                f = random_member(dec_st, legal)
            elif kind == S_PIMC and not one_card:
                f, dec_st[0] = card_hook(feats[0], p, t, j, n, k, leader, led, best, winner, tflags, fairy, trump,
                                         hands, cnt, bids, won, seen, cancelled, cloud_taker, shown, table, masks,
                                         rules, params, view, models, dec_st[0])  # fmt: skip
            elif kind == S_LEARNED and not one_card:
                f = learned_card(feats[3], p, t, j, n, k, led, best, winner, tflags, trump, hands, cnt, bids, won,
                                 seen, cancelled, shown, rules, legal, *lw)  # fmt: skip
            elif one_card and legal < (ONE << U64(DRAGON)):
                f = np.int64(lowest_bit(legal))  # one legal suit card, Wizard or Jester: what the heuristic returns
            else:
                need = k if cancelled else bids[p] - won[p]  # bids cancelled by the Bomb: every trick is 10 points
                refine = np.int64(params[p, T_REFINE])
                f = heuristic_card(heuristic, kind, hands[p], legal, need, refine, led, best, j, n, trump, seen, tflags,
                                   mono)  # fmt: skip
            if f >= JUGGLER:
                f, dec_st[0] = special_form(specials, kind, f, p, led, trump, strat, params, table, dec_st[0])
            c = table[f, T_CARD] if f >= JUGGLER_AS else f
            if record:
                rec_plays[rec_row, t, j] = f
                rec_legal[rec_row, t, j] = legal
            seen |= ONE << U64(c)
            left = cnt[p, c] - 1
            cnt[p, c] = left
            hands[p] &= ~(U64(left == 0) << U64(c))
            if track:
                card_seen_hook(p, c, led, n, view)
            led, best, winner, tflags, fairy = trick_step(f, p, led, best, winner, tflags, fairy, trump, table)
        next_leader = winner
        if tflags != 0:
            winner, next_leader, cancelled, cloud_taker = close_trick(
                winner, tflags, fairy, bomb_voids, cancelled, cloud_taker
            )
        if record:
            rec_info[rec_row, I_TRICKS + t] = leader
            rec_info[rec_row, I_TRICKS + kmax + t] = winner
            rec_info[rec_row, I_TRICKS + 2 * kmax + t] = next_leader
        if winner >= 0:
            won[winner] += 1
        leader = next_leader
        if (tflags & FLAG_JUGGLER) != 0 and t < k - 1:
            dec_st[0] = special_passes(specials, n, trump, strat, params, dec_st[0], hands, cnt, bids, won, work)
            if track:
                passes_hook(n, work, view)
            if record:
                for q in range(n):
                    rec_pass[rec_row, t, q] = work[q]
    return cancelled, cloud_taker


@hot
def score_phase(n, k, cancelled, cloud_taker, scoring, bids, won, final_bids, scores):
    """Final bids (the Cloud's change) and scores (RULES.md 7, 8)."""
    for p in range(n):
        final_bids[p] = bids[p]
    if cloud_taker >= 0:
        final_bids[cloud_taker] = cloud_bid(bids[cloud_taker], won[cloud_taker], k, scoring, cancelled)
    for p in range(n):
        if cancelled:
            scores[p] = 10 * won[p]
        else:
            scores[p] = round_score(final_bids[p], won[p], k, scoring)


@hot
def play_round(n, k, dealer, fixed_trump, clairvoyant, tables, strat, params, deal_st, dec_st, seats, record,
               rec_row, rec, pre, view, feats):  # fmt: skip
    """Deal, bid, play and score one round of ``n`` players (seats 0..n-1 here); return False if rejected.

    Results land in ``seats`` (bids, tricks won, final bids, scores).
    ``fixed_trump`` is the trump a variant or the schedule fixes (Maximus, the
    standard table's last round: no card turned up), or FROM_INDICATOR;
    ``clairvoyant`` makes bidders see the other hands and not their own. When
    ``record`` is true everything that happens is written to row ``rec_row`` of
    the ``rec`` arrays (histories and tests).
    """
    deck, mono_decks, table, masks, rules = tables
    hands, cnt, bids, won, final_bids, scores, work = seats
    rec_hands, rec_info, rec_plays, rec_legal, rec_pass = rec[0], rec[1], rec[2], rec[3], rec[4]
    pre_info, pre_cnt, pre_bids, models = pre
    track = False
    for p in range(n):
        track |= strat[p] == S_PIMC or strat[p] == S_LEARNED
    indicator = deal_phase(n, k, dealer, fixed_trump, deck, mono_decks, rules, deal_st, hands, cnt, won, record,
                           rec_row, rec_hands, pre_info, pre_cnt)  # fmt: skip
    specials = feats[2]  # a compile-time switch (players/switches.py)
    trump, wolf, swapped, shown = trump_phase(n, k, dealer, fixed_trump, indicator, table, rules, strat, params, dec_st,
                                              hands, cnt, specials)  # fmt: skip
    if track:  # PIMC's view of the round (before the bids: PIMC bids by sampling too)
        reset_hook(n, indicator, wolf, swapped, tables, pre, view)
    # trump named by a player (a Wizard or special indicator, the Werewolf), not turned up or fixed: a bid-rule feature
    named = trump >= 0 and (swapped != 0 or (indicator >= 0 and table[indicator, T_CLASS] != CLASS_SUIT))
    if not bid_phase(n, k, dealer, trump, shown, named, clairvoyant, deck, table, masks, rules, strat, params, dec_st,
                     hands, cnt, bids, work, pre_info, pre_bids, models, view, feats):  # fmt: skip
        return False
    cancelled, cloud_taker = trick_phase(n, k, dealer, trump, shown, track, table, masks, rules, strat, params, dec_st,
                                         hands, cnt, bids, won, work, record, rec_row, rec_info, rec_plays, rec_legal,
                                         rec_pass, view, models, feats)  # fmt: skip
    score_phase(n, k, cancelled, cloud_taker, rules[R_SCORING], bids, won, final_bids, scores)
    if record:
        rec_info[rec_row, I_DEALER] = dealer
        rec_info[rec_row, I_CARDS] = k
        rec_info[rec_row, I_INDICATOR] = indicator
        rec_info[rec_row, I_TRUMP] = trump
        rec_info[rec_row, I_WEREWOLF] = wolf
        rec_info[rec_row, I_SWAPPED] = swapped
        rec_info[rec_row, I_PLAYERS] = n
    return True
