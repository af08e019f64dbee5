"""One round as phases: deal -> trump -> bids -> tricks -> score (RULES.md 2-8).

:func:`play_round` strings the phases together; each phase is a named,
inlined function. The arrays travel in named bundles (:mod:`.bundles`):
``setup`` (:class:`.bundles.Setup`: the tables, the preset round, the models
and the compile-time switches), ``players`` (:class:`.bundles.Players`),
``streams`` (:class:`.bundles.Streams`), ``seats`` (:class:`.bundles.Seats`),
``out`` (:class:`.bundles.Outputs`: counts and records), ``view``
(:class:`.bundles.View`, or :class:`.bundles.NoView` when no seat plays pimc
or learned). The phases read the fields they need; the
per-card paths get single values and the arrays they read, not the bundles:
every argument of a real (not inlined) call costs time per card. (Reference
counts on those arrays cost nothing: they are borrowed views, see :mod:`.jit.borrow`.)

Dealing draws from ``deal_st`` and every decision from ``dec_st``, so the same
seed deals the same cards whatever the players do (common random numbers).
"""

from __future__ import annotations

import numpy as np

from .bundles import BidTurn, Turn
from .external import answered, asking, decide_external, is_external, note
from .game.deal import clear_hands, deal_mono, deal_preset, deal_shuffled, record_hands
from .game.events import dealer_names_trump
from .game.score import cloud_bid, round_score
from .game.trick import finish_trick, legal_mask, open_trick, take_card, trick_step
from .jit.bits import ONE, U64, ZERO
from .jit.config import hot
from .layout import (
    BOMB,
    CLASS_JESTER,
    CLASS_SPECIAL,
    CLASS_SUIT,
    DK_CARD,
    DK_TRUMP,
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
    PRE_ON,
    PRE_SEAT,
    R_BOMB,
    R_CANADIAN,
    R_MONO,
    R_PASSIVE_INDICATOR,
    R_SCORING,
    R_SPECIALS,
    R_WIZARD_INDICATOR,
    S_RANDOM,
    T_CARD,
    T_CLASS,
    T_SUIT,
    WEREWOLF,
    X_BIDS,
    X_INDICATOR,
    X_LEADERS,
    X_PASSES,
    X_PLAYS,
    X_SHOWN,
    X_SWAPPED,
    X_TRUMP,
    X_WOLF,
    X_WON,
)
from .players.learned import learned_net
from .players.pimc_view import card_seen_hook, passes_hook, reset_hook
from .players.play_rule import play_fallback_first, play_seat, play_tracks, rule_card
from .players.random import random_card
from .players.seats import keeps_view, seat_bid, seat_card
from .players.switches import special_form, special_passes, special_werewolf


@hot
def deal_phase(n, k, dealer, fixed_trump, setup, deal_st, seats, out, rec_row):
    """Deal ``k`` cards to each of ``n`` seats; return the turned-up card (-1: none)."""
    tables, pre = setup.tables, setup.pre
    deck, mono_decks, rules = tables.deck, tables.mono_decks, tables.rules
    hands, cnt, won, rec_hands = seats.hands, seats.cnt, seats.won, out.rec.hands
    record = out.record
    for p in range(n):
        hands[p] = ZERO
        won[p] = 0
    indicator = -1
    if pre.info[PRE_ON] != 0:
        indicator, deal_st[0] = deal_preset(n, k, fixed_trump, deck, pre.info, pre.cnt, deal_st[0], hands, cnt)
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
def trump_phase(n, k, dealer, fixed_trump, indicator, setup, players, dec_st, seats):
    """The round's trump (RULES.md 3), then the Werewolf; return (trump, Werewolf holder, swapped, face-up card)."""
    table, rules, hands, cnt = setup.tables.table, setup.tables.rules, seats.hands, seats.cnt
    strat, params, specials = players.strat, players.params, setup.feats.specials
    trump = NO_TRUMP if fixed_trump == FROM_INDICATOR else fixed_trump
    if indicator >= 0:
        cls = table[indicator, T_CLASS]
        if cls == CLASS_SUIT:
            trump = table[indicator, T_SUIT]
        elif cls != CLASS_JESTER:
            names = cls == CLASS_SPECIAL or rules[R_WIZARD_INDICATOR] == 0
            if rules[R_PASSIVE_INDICATOR] != 0 and (indicator == FAIRY or indicator == BOMB):
                names = False
            script, on = setup.pre.script, setup.feats.external
            ext = is_external(on, script, params, dealer)
            asked = ext and asking(script, dealer)
            if names and ext and not asked:
                trump = decide_external(on, script, DK_TRUMP, dealer, -1, -1, n, k, dealer, NO_TRUMP, indicator, -1,
                                        -1, ZERO, cnt, seats.bids, seats.won, seats.work)  # fmt: skip
            elif names:
                trump = dealer_names_trump(dealer, hands, strat, params, dec_st)
                if asked:
                    answered(script, DK_TRUMP, dealer, trump)
    wolf = -1
    swapped = 0
    shown = indicator
    if (rules[R_SPECIALS] >> (WEREWOLF - DRAGON)) & 1:
        wolf, swapped, trump, shown, dec_st[0] = special_werewolf(
            specials,
            n,
            k,
            indicator,
            trump,
            fixed_trump,
            rules,
            strat,
            params,
            dec_st[0],
            hands,
            cnt,
            setup.pre.script,
            setup.feats.external,
        )
    return trump, wolf, swapped, shown


@hot
def bid_phase(n, k, dealer, trump, shown, named, clairvoyant, setup, players, dec_st, seats, view):
    """Everyone bids, from the dealer's left; return False if a preset (advisor) round is rejected.

    Hidden bids: nobody sees the earlier bids; the built-in players never look
    at them, so only the Canadian rule and the table player's bid read ``bid_sum``.
    A preset round forces the advised seat's bid and is rejected (hands cleared)
    as soon as another seat would not make the bid given for it.
    """
    rules = setup.tables.rules
    hands, cnt, bids = seats.hands, seats.cnt, seats.bids
    pre_info, pre_bids = setup.pre.info, setup.pre.bids
    bid_sum = 0
    p = dealer
    for i in range(n):
        p += 1
        if p == n:
            p = 0
        forbidden = -1
        if rules[R_CANADIAN] != 0 and i == n - 1:
            forbidden = k - bid_sum
        b = seat_bid(BidTurn(p, i, n, k, dealer, trump, shown, bid_sum, forbidden), named, clairvoyant, setup,
                     players, dec_st, seats, view)  # fmt: skip
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
def trick_phase(n, k, dealer, trump, shown, setup, players, dec_st, seats, out, rec_row, view):
    """Play the ``k`` tricks; return (bids cancelled by a Bomb, the Cloud's taker or -1).

    Each card is the seat's choice (:func:`.players.seats.seat_card`, the one
    switch on player ids), then the form of a flexible card; the trick is
    stepped and closed by :mod:`.game.trick`.
    """
    tables, models, feats = setup.tables, setup.models, setup.feats
    strat, params = players.strat, players.params
    script = setup.pre.script
    table, masks, rules = tables.table, tables.masks, tables.rules
    hands, cnt, bids, won, work = seats.hands, seats.cnt, seats.bids, seats.won, seats.work
    specials = feats.specials
    record, rec = out.record, out.rec
    track = keeps_view(n, strat) or play_tracks(feats.rules, players, n)
    net = learned_net(feats.learned, view, models)  # what the learned player reads (any arrays without it)
    leader = dealer + 1
    if leader == n:
        leader = 0
    seen = ZERO
    bomb_voids = rules[R_BOMB] == 0
    cancelled = False  # bomb=cancel_bids and the Bomb was played
    cloud_taker = -1
    mono = rules[R_MONO] != 0
    start_led = FREE if mono else -1  # mono: no suit to follow, no led-suit bonus
    kmax = rec.plays.shape[1]
    ext_on = feats.external
    for t in range(k):
        trick = open_trick(leader, start_led)
        note(ext_on, script, X_LEADERS + t, leader)
        p = leader - 1
        for j in range(n):
            p += 1
            if p == n:
                p = 0
            led = trick.led
            legal = legal_mask(hands[p], led, masks)
            ext = is_external(feats.external, script, params, p)  # an external seat (external.py): the script's card
            asked = ext and asking(script, p)
            ruled = False  # a play rule's form is final, as the script's
            ruler = play_seat(feats.rules, players, p)
            if strat[p] == S_RANDOM and not ext and not ruler:  # random play's fast path: through seat_card 2-7% slower
                f = random_card(dec_st, legal)
            else:
                turn = Turn(p, t, j, n, k, trump, shown, seen, cancelled, cloud_taker)
                if ext and not asked:
                    f = decide_external(feats.external, script, DK_CARD, p, t, j, n, k, dealer, trump, shown, -1,
                                        trick.leader, legal, cnt, bids, won, work)  # fmt: skip
                else:
                    fb = np.int64(-1)  # the fallback's form, made first when the rule reads it
                    if ruler and play_fallback_first(feats.rules, players, p):
                        fb = seat_card(turn, trick, legal, setup, players, dec_st, seats, view, net)
                    f = np.int64(-1)
                    if ruler:
                        f = rule_card(feats.rules, turn, trick, legal, setup, players, seats, view, fb)
                    ruled = f >= 0
                    if not ruled:  # no rule, or it abstains: the seat's player
                        f = fb if fb >= 0 else seat_card(turn, trick, legal, setup, players, dec_st, seats, view, net)
            if f >= JUGGLER and not (ext and not asked) and not ruled:  # a form from the script is final
                f, dec_st[0] = special_form(specials, strat[p], f, p, led, trump, strat, params, table, dec_st[0])
            if asked:
                answered(script, DK_CARD, p, f)
            c = table[f, T_CARD] if f >= JUGGLER_AS else f
            if record:
                rec.plays[rec_row, t, j] = f
                rec.legal[rec_row, t, j] = legal
            note(ext_on, script, X_PLAYS + 6 * t + j, f)
            seen |= ONE << U64(c)
            take_card(p, c, hands, cnt)
            if track:
                card_seen_hook(p, c, led, n, view, feats.pimc)
            trick = trick_step(f, p, trick, trump, table)
        winner, next_leader, cancelled, cloud_taker = finish_trick(trick, bomb_voids, cancelled, cloud_taker, won)
        if record:
            rec.info[rec_row, I_TRICKS + t] = leader
            rec.info[rec_row, I_TRICKS + kmax + t] = winner
            rec.info[rec_row, I_TRICKS + 2 * kmax + t] = next_leader
        leader = next_leader
        if (trick.flags & FLAG_JUGGLER) != 0 and t < k - 1:
            dec_st[0] = special_passes(specials, n, t, trump, shown, strat, params, dec_st[0], hands, cnt, bids, won,
                                       work, script, feats.external)  # fmt: skip
            if track:
                passes_hook(n, work, view, feats.pimc)
            if record:
                for q in range(n):
                    rec.passes[rec_row, t, q] = work[q]
            for q in range(n):
                note(ext_on, script, X_PASSES + 6 * t + q, work[q])
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
def play_round(n, k, dealer, fixed_trump, clairvoyant, setup, players, streams, seats, out, rec_row, view):
    """Deal, bid, play and score one round of ``n`` players (seats 0..n-1 here); return False if rejected.

    Results land in ``seats`` (bids, tricks won, final bids, scores).
    ``fixed_trump`` is the trump a variant or the schedule fixes (Maximus, the
    standard table's last round: no card turned up), or FROM_INDICATOR;
    ``clairvoyant`` makes bidders see the other hands and not their own. When
    ``out.record`` is true everything that happens is written to row ``rec_row``
    of ``out.rec`` (histories and tests).
    """
    table, rules = setup.tables.table, setup.tables.rules
    dec_st = streams.dec
    script, ext_on = setup.pre.script, setup.feats.external
    indicator = deal_phase(n, k, dealer, fixed_trump, setup, streams.deal, seats, out, rec_row)
    note(ext_on, script, X_INDICATOR, indicator)
    trump, wolf, swapped, shown = trump_phase(n, k, dealer, fixed_trump, indicator, setup, players, dec_st, seats)
    note(ext_on, script, X_TRUMP, trump)
    note(ext_on, script, X_WOLF, wolf)
    note(ext_on, script, X_SWAPPED, swapped)
    note(ext_on, script, X_SHOWN, shown)
    # PIMC's view of the round (before the bids: PIMC bids by sampling too), and a play rule's that reads boss
    if keeps_view(n, players.strat) or play_tracks(setup.feats.rules, players, n):
        reset_hook(n, indicator, wolf, swapped, setup.tables, setup.pre, view, setup.feats.pimc)
    # trump named by a player (a Wizard or special indicator, the Werewolf), not turned up or fixed: a bid-rule feature
    named = trump >= 0 and (swapped != 0 or (indicator >= 0 and table[indicator, T_CLASS] != CLASS_SUIT))
    if not bid_phase(n, k, dealer, trump, shown, named, clairvoyant, setup, players, dec_st, seats, view):
        return False
    cancelled, cloud_taker = trick_phase(n, k, dealer, trump, shown, setup, players, dec_st, seats, out, rec_row, view)
    score_phase(n, k, cancelled, cloud_taker, rules[R_SCORING], seats.bids, seats.won, seats.final_bids, seats.scores)
    for p in range(n):
        note(ext_on, script, X_BIDS + p, seats.bids[p])
        note(ext_on, script, X_WON + p, seats.won[p])
    if out.record:
        rec_info = out.rec.info
        rec_info[rec_row, I_DEALER] = dealer
        rec_info[rec_row, I_CARDS] = k
        rec_info[rec_row, I_INDICATOR] = indicator
        rec_info[rec_row, I_TRUMP] = trump
        rec_info[rec_row, I_WEREWOLF] = wolf
        rec_info[rec_row, I_SWAPPED] = swapped
        rec_info[rec_row, I_PLAYERS] = n
    return True
